"""``GET …/events`` a page at a time (issue 21 item 4): at most ``limit`` events (default 100,
at most 200) and under 64 KB, with ``next``, the ``after`` of the next page (``null`` at the
end).  The finding: ``GET …/events?after=0`` answered 73 KB after 232 versions of an 8-seat
Coup match.  Following ``next`` gives every event the reader may see, each once, in order."""
from __future__ import annotations

import json

import pytest

from referee.matches.reading import PAGE_BYTES, for_reader, page
from tests.matches.conftest import bearer

SEATS = ["ana", "ben", "cy", "dee", "eve", "fay", "gus", "hal"]
ANSWER_BYTES = 64 * 1024


STALLING = ("pass", "allow", "close_window", "return_cards", "exchange", "income", "end_turn",
            "turn_round", "stand")
"""Actions that keep a match going, the first that is legal taken: windows let pass, Coup's
exchange (COUP-A7: cards back to the court deck, no coin gained, so no one must coup) and its
cards returned, else income (COUP-A1); Spy's turns ended without spying."""


def play_long(game, versions: int):
    """Play ``game`` to ``versions`` versions, each time the first legal action of a kind in
    :data:`STALLING` (else the first legal one: a seat with 10 coins must coup, COUP-A5)."""
    while True:
        match = game.read("host")
        if match["version"] >= versions:
            return game
        assert not match["over"], "the match ended too soon"
        choices = [(who, a) for who in match["to_move"] for a in game.legal(who)]
        choices = choices or [("host", a) for a in game.legal("host")
                              if a["player"] not in game.created["seats"]]
        stalling = [c for c in choices if c[1]["type"] in STALLING]
        who, action = min(stalling, key=lambda c: STALLING.index(c[1]["type"]),
                          default=choices[0])
        answer = game.act(who, action, match["version"])
        assert answer.status_code == 200, answer.get_json()


def long_coup(client, table, versions: int):
    """An 8-seat Coup match played to ``versions`` versions (:func:`play_long`)."""
    return play_long(table.create(client, game="coup", players=SEATS, seed=7), versions)


@pytest.fixture
def coup_600(client, table):
    return long_coup(client, table, 600)


def test_the_events_of_600_versions_of_an_8_seat_coup_match_come_in_pages(client, coup_600):
    game = coup_600
    logged = client.application.extensions["referee.store"].events(game.id)
    assert len(json.dumps(for_reader(logged, "ana"))) > ANSWER_BYTES  # too long for one answer
    for reader in ("host", "ana", None):
        first = game.get(reader, "/events?after=0")
        assert len(first.get_data()) <= ANSWER_BYTES
        answer = first.get_json()
        assert len(answer["events"]) == 100
        assert answer["next"] == answer["events"][-1]["seq"]
        # following next gives exactly what the reader may see of the whole log
        assert game.events(reader) == for_reader(logged, {"host": "__referee__"}.get(
            reader, reader) if reader else None)
    last = game.get("host", f"/events?after={logged[-3]['seq']}").get_json()
    assert [ev["seq"] for ev in last["events"]] == [logged[-2]["seq"], logged[-1]["seq"]]
    assert last["next"] is None


def test_limit_sets_the_page_s_length_from_1_to_200(client, coup_600):
    game = coup_600
    five = game.get("ana", "/events?after=0&limit=5").get_json()
    assert [ev["seq"] for ev in five["events"]] == [1, 2, 3, 4, 5] and five["next"] == 5
    more = game.get("ana", "/events?after=5&limit=200").get_json()
    assert len(more["events"]) == 200 and more["events"][0]["seq"] == 6
    for bad in ("0", "201", "-1", "ten", "1.5", "+5"):
        response = game.get("ana", f"/events?after=0&limit={bad}")
        assert response.status_code == 422, bad
        assert response.get_json()["errors"][0]["field"] == "query.limit"


def test_a_long_poll_answers_a_page_too(client, coup_600):
    game = coup_600
    answer = client.get(game.url + "/events?after=0&wait=1&limit=7",
                        headers=bearer(game.token("ben"))).get_json()
    assert len(answer["events"]) == 7 and answer["next"] == answer["events"][-1]["seq"]


def test_a_page_stops_before_its_events_pass_60000_bytes():
    big = [{"type": "x", "text": "y" * 990, "seq": n} for n in range(1, 201)]
    # each written {"type":"x","text":"y…y","seq":n} and a comma: 1020 bytes for seq 1-9,
    # 1021 for 10-99: 9 × 1020 + 49 × 1021 = 59,209 fit, a 59th would pass 60,000
    events, following = page(big, 200)
    assert len(events) == 58 and following == 58
    assert 9 * 1020 + 49 * 1021 <= PAGE_BYTES < 9 * 1020 + 50 * 1021
    assert page(big[:3], 200) == (big[:3], None)
    assert page(big[:3], 2) == (big[:2], 2)
    huge = [{"type": "x", "text": "y" * 70_000, "seq": 1}, {"type": "x", "seq": 2}]
    assert page(huge, 100) == (huge[:1], 1)  # one event always goes, however long
