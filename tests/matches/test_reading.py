"""Each event reaches each reader once, with the fields that reader may see
(:func:`referee.matches.reading.for_reader`): a secret told to some seats is logged as a public
event plus its private twin, and a reader who may see the twin gets only the twin."""
from __future__ import annotations

import random

from referee.games.base import REFEREE, event_visible
from referee.games.coup.apply import emit_secret
from referee.matches.reading import for_reader, is_private_twin
from tests.matches.conftest import bearer


def _replacement_drawn() -> list[dict]:
    events: list[dict] = []
    emit_secret(events, "replacement_drawn", ["ana"], {"card": "duchess"}, player="ana")
    return [{**ev, "seq": n, "version": 4} for n, ev in enumerate(events, start=1)]


def test_coup_c4_the_drawer_gets_the_replacement_once_with_its_card():
    logged = _replacement_drawn()
    # The filter by visibility alone (what answers used) gives ana the event twice: the check
    # below can fail.
    assert [ev["type"] for ev in logged if event_visible(ev, "ana")] == ["replacement_drawn"] * 2
    assert for_reader(logged, "ana") == [logged[1]]
    assert for_reader(logged, "ana")[0]["card"] == "duchess"
    assert for_reader(logged, "ben") == [logged[0]]  # no card for ben
    assert for_reader(logged, None) == [logged[0]]
    assert for_reader(logged, REFEREE) == [logged[1]]  # the referee sees the card, once


def test_a_twin_is_the_same_happening_with_more_fields_only():
    public, private = _replacement_drawn()
    assert is_private_twin(public, private)
    assert not is_private_twin(public, {**private, "player": "ben"})  # another player drew
    assert not is_private_twin(private, public)
    # Two public events of one type in a row are two happenings: both kept.
    both = [{"type": "drew", "player": "ana", "seq": 1}, {"type": "drew", "player": "ana",
                                                           "seq": 2}]
    assert for_reader(both, "ana") == both


def test_coup_c4_a_failed_challenge_answers_each_seat_once(client, table):
    # Seed 3 deals ana the duchess; she taxes (COUP-A), ben challenges (COUP-C1), she proves
    # it (COUP-C4) and draws a replacement only she sees.
    game = table.create(client, game="coup", players=["ana", "ben", "cy"], seed=3)
    assert "duchess" in game.read("ana")["view"]["hands"]["ana"]
    assert game.act("ana", {"type": "tax", "player": "ana"}, version=1).status_code == 200
    assert game.act("ben", {"type": "challenge", "player": "ben"}, version=2).status_code == 200
    answer = game.act("ana", {"type": "prove", "player": "ana", "card": "duchess"}, version=3)
    drawn = [ev for ev in answer.get_json()["events"] if ev["type"] == "replacement_drawn"]
    hand = game.read("ana")["view"]["hands"]["ana"]
    assert len(drawn) == 1 and drawn[0]["card"] in hand and drawn[0]["visible_to"] == ["ana"]
    for who in ("ben", None, "host"):
        log = game.get(who, "/events").get_json()["events"]
        seen = [ev for ev in log if ev["type"] == "replacement_drawn"]
        assert len(seen) == 1
        assert ("card" in seen[0]) == (who == "host")


def test_gn_t1_a_draw_from_the_draw_pile_reaches_the_drawer_once(client, table):
    game = table.create(client, game="gnoming", players=["ana", "ben", "cy"], seed=5)
    rng = random.Random(5)
    for _ in range(400):
        body = game.step(rng)
        assert body is not None, "the game ended before a draw from the draw pile"
        drew = [ev for ev in body["events"] if ev["type"] == "drew"
                and ev["source"] == "draw_pile"]
        if drew:
            break
    assert len(drew) == 1 and "card" in drew[0]  # the drawer's answer: once, with the card
    other = next(p for p in ("ana", "ben", "cy") if p != game.last_actor)
    log = client.get(game.url + "/events", headers=bearer(game.token(other))).get_json()
    theirs = [ev for ev in log["events"] if ev["seq"] in (drew[0]["seq"] - 1, drew[0]["seq"])]
    assert [("card" in ev) for ev in theirs] == [False]  # the other seat: once, no card
