"""Bounded work with exact counts (issue 21 item 1): an answer words at most 50 problems and
counts the rest, and a check stops at the first count that makes the body impossible.  Each
test works out the true number of problems from the rules and the body, and counts the calls
of the per-problem work (wording, rendering) instead of timing anything."""
from __future__ import annotations

import json

import pytest

from referee.api import errors
from referee.games.common.verdicts import LISTED, Problems
from referee.games.gnoming import scoring
from referee.games.gnoming.engine import ENGINE as GNOMING
from referee.games.spy import log as spy_log
from referee.games.spy.engine import ENGINE as SPY

BAD = [["zz", "zz", "zz"]] * 3
"""A 3×3 layout of no card at all: nine GN-C1 problems."""


@pytest.fixture
def rendered(monkeypatch):
    """How many violations the answer rendered (``violation_answer``, the one place a
    violation becomes a sentence in the reader's language)."""
    calls = []
    real = errors.violation_answer

    def counting(violation, *args, **kwargs):
        calls.append(violation)
        return real(violation, *args, **kwargs)
    monkeypatch.setattr(errors, "violation_answer", counting)
    return calls


def test_gn_c1_a_50_round_sheet_of_7_unreadable_layouts_counts_3150_and_renders_50(
        client, rendered):
    """GN-C1: 50 rounds (options.rounds, GN-C3) of 7 players (GN-C2), each card "zz": 9 bad
    cards a layout, 50 * 7 * 9 = 3150 problems; the answer lists and renders 50 and says 3150
    (the engine words 50 of them too, and counts the others)."""
    rounds = [{"layouts": {f"p{i}": BAD for i in range(7)}} for _ in range(50)]
    answer = client.post("/v1/games/gnoming/score-game",
                         json={"rounds": rounds, "options": {"rounds": 50}})
    assert answer.status_code == 422
    body = answer.get_json()
    assert body["type"] == "/problems/impossible-state"
    assert body["error_count"] == 50 * 7 * 9
    assert len(body["errors"]) == LISTED == 50
    assert body["errors"][0] == {"field": "rounds[0].layouts.p0[0][0]", "rule": "GN-C1",
                                 "message": body["errors"][0]["message"]}
    assert body["errors"][-1]["field"] == "rounds[0].layouts.p5[1][1]"  # the 50th card
    assert len(rendered) == 50


def test_gn_c2_a_4000_player_round_is_one_problem_and_no_layout_is_read(monkeypatch):
    """GN-C2: 3 to 7 players; a round of 4,000 layouts (issue 21's 202 KB body, its cards all
    wrong) is that one problem, found before any layout is looked at (it was 36,001)."""
    read = []
    monkeypatch.setattr(scoring, "grid_problems", lambda *a: read.append(a) or True)
    problems = Problems()
    players = scoring.check_round({"layouts": {f"p{i}": BAD for i in range(4000)}}, "round",
                                  GNOMING.resolve_options({}), problems)
    assert players == [] and read == []
    assert [(v.rule, v.code, v.field, v.params) for v in problems.items] == [
        ("GN-C2", "gnoming.players.count", "round.layouts", {"count": 4000})]


def test_the_4000_player_round_over_http_is_refused_before_it_is_parsed(client, monkeypatch):
    """The same body through the API: 16,000 arrays and objects, refused by the request guard
    before any parser, schema or rule reads it (field body, one problem)."""
    from referee.api import limits
    parsed = []
    monkeypatch.setattr(limits, "fast_loads", lambda *a: parsed.append(a))
    raw = json.dumps({"round": {"layouts": {f"p{i}": BAD for i in range(4000)}}},
                     separators=(",", ":")).encode()
    assert len(raw) < 256 * 1024
    answer = client.post("/v1/games/gnoming/score-round", data=raw,
                         content_type="application/json")
    body = answer.get_json()
    assert answer.status_code == 422 and body["error_count"] == 1 and parsed == []
    assert body["errors"] == [{"field": "body", "message": "more than 4096 arrays and objects"}]


def test_a_round_of_1000_players_is_refused_by_the_count_of_its_layouts(client, monkeypatch):
    """Within the guard's bounds (4,000 arrays, 1,000 members), a ``layouts`` object of more
    than 8 players is refused by its size before any name or row is read (fields.Seats)."""
    from referee.schemas import fields as own
    names = []
    real = own.text_problem
    monkeypatch.setattr(own, "text_problem", lambda text: names.append(text) or real(text))
    layouts = {f"player{i}": BAD for i in range(1000)}
    answer = client.post("/v1/games/gnoming/score-round", json={"round": {"layouts": layouts}})
    body = answer.get_json()
    assert answer.status_code == 422 and body["type"] == "/problems/invalid-input"
    assert body["errors"] == [{"field": "round.layouts",
                               "message": "Longer than maximum length 8."}]
    assert body["error_count"] == 1 and names == []


def _spy_state() -> tuple[dict, dict]:
    setup = {"players": ["ana", "ben"], "options": SPY.resolve_options({})}
    state = SPY.setup(setup, 5)
    return state, SPY.legal_actions(state)[0]


def test_spy_s2_3000_unknown_log_events_count_3000_and_word_50(client, rendered, monkeypatch):
    """SPY-S2: a log of 3,000 events of no known type is 3,000 problems (one each: its type);
    the check words the first 50 and counts the others, the answer renders 50."""
    worded = []
    real = spy_log._entry_problem
    monkeypatch.setattr(spy_log, "_entry_problem",
                        lambda *a: worded.append(a[2]) or real(*a))
    state, action = _spy_state()
    state = {**state, "log": [{"type": "zz"}] * 3000}
    answer = client.post("/v1/games/spy/validate", json={"state": state, "action": action})
    body = answer.get_json()
    assert answer.status_code == 422 and body["type"] == "/problems/impossible-state"
    assert body["error_count"] == 3000
    assert [e["field"] for e in body["errors"]] == [f"state.log[{i}].type" for i in range(50)]
    assert worded == list(range(50)) and len(rendered) == 50


def test_gn_c3_a_history_longer_than_the_rounds_played_is_not_read(monkeypatch):
    """GN-C3: a snapshot of round 1 has no finished round; 40 in its history is that one
    problem, and no round of it is checked."""
    from referee.games.gnoming import snapshot
    checked = []
    monkeypatch.setattr(snapshot, "check_round", lambda *a: checked.append(a) or [])
    state = GNOMING.setup({"players": ["ana", "ben", "cy"],
                           "options": GNOMING.resolve_options({})}, 3)
    state = {**state, "history": [{"layouts": {"ana": BAD}, "went_out": None}] * 40}
    with pytest.raises(Exception) as refused:
        GNOMING.check_snapshot(state)
    assert [(v.rule, v.code) for v in refused.value.violations] == [
        ("GN-C3", "gnoming.snapshot.history_length")]
    assert checked == []


def test_a_spy_base_of_3000_cards_is_one_problem():
    """SPY-S1: a base holds 7 cards (6 with 3-4 players); 3,000 is that one problem, its cards
    unread; a base of 7 with 3 players still names the card too many (the Bomb 2)."""
    from referee.games.spy.setup import layout_problems
    problems = Problems()
    deck = ("safe_1", "safe_2", "top_secret_1", "top_secret_2", "bomb_1", "bomb_3")
    layout_problems({"cards": ["zz"] * 3000, "spy_gap": 0, "facing": "left"}, deck,
                    "digital", problems, "bases.ana")
    assert [(v.code, v.field) for v in problems.items] == [("spy.base.size", "bases.ana.cards")]


def test_counted_problems_keep_their_number_through_every_layer():
    """Problems.unlisted reaches the error (count) and the answer's error_count."""
    from referee.games.base import ImpossibleState
    problems = Problems()
    for i in range(60):
        if problems.full:
            problems.unlisted += 1
        else:
            problems.flag("GN-C1", "gnoming.sheet.row_count", f"x[{i}]", at="x")
    with pytest.raises(ImpossibleState) as raised:
        problems.raise_as(ImpossibleState)
    assert len(raised.value.violations) == 50 and raised.value.count == 60
    empty = Problems()
    empty.unlisted = 1
    assert empty  # a counted problem is a problem
