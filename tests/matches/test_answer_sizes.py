"""Every answer is at most 64 KB (issue 21 item 4) but the OpenAPI document, the docs page and
the audit: driven with the largest answers found — long matches of every game (8-seat Coup,
4-seat Spy and All Fours, 7-seat Gnoming) read by each kind of reader in English and Burmese
(views, legal actions, event pages, a long-poll, an action's answer), a rollback over the
whole match (its proposal names 20 undone moves and counts the rest), and a Spy view whose
public log holds 5,000 entries (a view shows the last 100: ``log_from``).  What grows with a
match's length and was not bounded before: the event log (paged), a rollback's ``undone``
list and Spy's public log in views."""
from __future__ import annotations

import json

import pytest

from referee.matches.callers import VIEW_LOG, Caller, see
from referee.matches.disputes import UNDONE_LISTED
from tests.matches.conftest import bearer
from tests.matches.test_event_pages import SEATS, play_long

ANSWER_BYTES = 64 * 1024
LONG = {"coup": ({"players": SEATS}, 800),
        "gnoming": ({"players": ["p1", "p2", "p3", "p4", "p5", "p6", "p7"]}, 500),
        "all-fours": ({"players": ["ana", "ben", "cy", "dee"], "dealer": "ana",
                       "options": {"target": 14}}, 150),
        "spy": ({"players": ["ana", "ben", "cy", "dee"]}, 160)}
"""Each game's longest match the suite can afford: stalling moves (Coup income, Spy turns
ended without spying, windows let pass) to this many versions, or to its end."""


def _answers(game) -> dict[str, bytes]:
    """Every answer of ``game`` to each reader in each language, by a label."""
    out = {}
    seat = game.created["players"][0]
    for who in (None, "host", seat):
        for lang in ("en", "my"):
            tag = f"{who or 'public'} {lang}"
            headers = {**bearer(game.token(who)), "Accept-Language": lang}
            paths = ["", "/events?after=0", "/events?after=0&limit=200",
                     "/events?after=0&wait=1&limit=200"]
            paths += ["/legal-actions"] if who else []
            for path in paths:
                response = game.client.get(game.url + path, headers=headers)
                assert response.status_code == 200, (path, response.get_json())
                out[f"GET {path or '/'} as {tag}"] = response.get_data()
    return out


@pytest.mark.parametrize("name", sorted(LONG))
def test_every_answer_of_a_long_match_is_at_most_64_kb(client, table, name):
    setup, versions = LONG[name]
    game = table.create(client, game=name, seed=3, **setup)
    try:
        play_long(game, versions)
    except AssertionError as ended:  # All Fours reaches its target: a whole match then
        assert "ended" in str(ended)
    answers = _answers(game)
    match = game.read("host")
    if not match["over"]:
        acting = next((who, a) for who in match["to_move"] for a in game.legal(who))
        acted = game.act(acting[0], acting[1], match["version"])
        assert acted.status_code == 200
        answers["POST /actions"] = acted.get_data()
        # a rollback over the whole match: the host's proposal, as each seat then sees it
        proposed = client.post(game.url + "/rollback", json={"to_version": 1, "reason": "all"},
                               headers={**bearer(game.token("host")),
                                        "If-Match": f'"{match["version"] + 1}"'})
        assert proposed.status_code == 200, proposed.get_json()
        answers["POST /rollback"] = proposed.get_data()
        rollback = proposed.get_json()["rollback"] or {}
        if rollback:  # digital: pending, every seat's view shows it
            assert len(rollback["undone"]) == UNDONE_LISTED < rollback["undone_count"]
            answers.update({f"{label} (rollback pending)": body
                            for label, body in _answers(game).items()})
    if name == "spy":  # its public log outgrew a view: the last 100 entries are shown
        view = game.read("ana")["view"]
        assert len(view["log"]) == VIEW_LOG and view["log_from"] > 0
    largest = max(answers, key=lambda label: len(answers[label]))
    print(f"{name}: {len(answers)} answers, the largest {len(answers[largest])} bytes: "
          f"{largest}")
    assert all(len(body) <= ANSWER_BYTES for body in answers.values()), largest


def test_a_view_shows_the_last_100_entries_of_a_log_of_5000():
    """Spy keeps every public event in its state's ``log`` (turns ended without spying can go
    on for ever): a view of 5,000 entries would be about 300 KB."""
    log = [{"type": "turn", "player": p} for _ in range(1250) for p in ("ana", "ben", "cy",
                                                                        "dee")]

    class Entry:  # a game whose view is its whole state (as Spy's referee view)
        class engine:
            @staticmethod
            def view(state, viewer):
                return dict(state)
    view = see(Entry, {"game": "spy", "seed": 3, "log": log}, Caller(host=True))
    assert view == {"game": "spy", "log": log[-VIEW_LOG:], "log_from": 4900}
    assert len(json.dumps(view)) < ANSWER_BYTES
    short = see(Entry, {"game": "spy", "log": log[:VIEW_LOG]}, Caller())
    assert short == {"game": "spy", "log": log[:VIEW_LOG]}  # nothing left out: no log_from
