"""COUP-V1: no seat view, public view or public event shows a face-down card its reader may not
see.

A view leaks nothing when it is the same for every state the reader cannot tell apart: swap a
face-down card the reader may not see (another seat's, the court deck's) with one of another
character and the reader's view must not change.  Checked at every step of seeded random
games of 2–8 players with both exchangers; events are checked for their ``visible_to``.
"""
from __future__ import annotations

import copy
import random

import pytest

from referee.games.base import REFEREE, ImpossibleState, InvalidSetup, event_visible
from referee.games.coup.engine import ENGINE
from referee.games.coup.rules import HOST

GAMES = 20
PUBLIC_CARD_EVENTS = ("card_revealed", "influence_lost")   # cards turned face up: public


def _hidden_from(state: dict, viewer: str | None) -> list[tuple]:
    """Places of face-down cards ``viewer`` may not see (as paths into the state)."""
    places = [("court", i) for i in range(len(state["court"]))]
    turn = state["turn"]
    target = (turn["action"] or {}).get("target")
    for p in state["players"]:
        if p == viewer:
            continue
        if turn["shown"] is not None and p == target and viewer == turn["player"]:
            continue  # the examined hand: its shown card is the Inquisitor's to see
        places += [("hands", p, i) for i in range(len(state["hands"][p]))]
        places += [("piles", p, i) for i in range(len(state["piles"].get(p, [])))]
    if viewer != turn["player"]:
        places += [("turn", "drawn", i) for i in range(len(turn["drawn"]))]
    return places


def _get(state, path):
    for key in path[:-1]:
        state = state[key]
    return state, path[-1]


def _swapped(state: dict, first: tuple, second: tuple) -> dict | None:
    """``state`` with the cards at two places exchanged, if they differ and it stays valid."""
    new = copy.deepcopy(state)
    a_holder, a_key = _get(new, first)
    b_holder, b_key = _get(new, second)
    if a_holder[a_key] == b_holder[b_key]:
        return None
    a_holder[a_key], b_holder[b_key] = b_holder[b_key], a_holder[a_key]
    try:
        ENGINE.check_snapshot(new)
    except ImpossibleState:
        return None
    return new


def _assert_no_view_leak(state: dict, rng: random.Random) -> None:
    for viewer in [*state["players"], None]:
        seen = ENGINE.view(state, viewer)
        assert "seed" not in seen and "court" not in seen
        assert set(seen["hands"]) == ({viewer} if viewer else set())
        places = _hidden_from(state, viewer)
        for _ in range(4):
            if len(places) < 2:
                break
            first, second = rng.sample(places, 2)
            other = _swapped(state, first, second)
            if other is not None:
                assert ENGINE.view(other, viewer) == seen, (viewer, first, second)


def _assert_events_private(state_before: dict, events: list[dict]) -> None:
    for ev in events:
        if ev.get("visible_to") is None:
            if ev["type"] not in PUBLIC_CARD_EVENTS:
                assert not {"card", "cards", "kept"} & set(ev), ev
            continue
        turn = state_before["turn"]
        actor = turn["player"]
        allowed = {"replacement_drawn": {ev["player"]}, "exchange_drawn": {actor},
                   "cards_returned": {actor}, "card_shown": {actor, ev["player"]},
                   "examined_card_swapped": {ev["player"]},
                   "card_chosen": {ev["player"]}}[ev["type"]]
        assert set(ev["visible_to"]) == allowed, ev
        for seat in state_before["players"]:
            assert event_visible(ev, seat) == (seat in allowed)
        assert not event_visible(ev, None)


def test_coup_v1_no_view_or_public_event_leaks_a_face_down_card():
    for number in range(GAMES):
        rng = random.Random(1000 + number)
        n = 2 + number % 7
        options = {"exchanger": ("ambassador", "inquisitor")[number % 2]}
        state = ENGINE.setup({"players": [chr(65 + i) for i in range(n)],
                              "options": options}, number)
        while not ENGINE.is_over(state):
            _assert_no_view_leak(state, rng)
            legal = [a for a in ENGINE.legal_actions(state) if a["player"] != HOST]
            before = state
            state, events = ENGINE.apply(state, rng.choice(legal))
            _assert_events_private(before, events)
        _assert_no_view_leak(state, rng)


def test_coup_v1_seat_view_shows_own_cards_court_as_count_and_whose_move(new_game):
    game = new_game({"A": ["assassin", "duchess"], "B": ["captain", "countess"],
                     "C": ["ambassador", "captain"]}, top=("duchess", "countess"))
    game.do("exchange", "A").do("pass", "B").do("pass", "C")
    seat = ENGINE.view(game.state, "A")
    assert seat["hands"] == {"A": ["assassin", "duchess"]}
    assert seat["hand_sizes"] == {"A": 2, "B": 2, "C": 2}
    assert seat["court_size"] == 7 and seat["turn"]["drawn"] == ["duchess", "countess"]
    assert seat["to_move"] == ["A"] and seat["coins"] == {"A": 2, "B": 2, "C": 2}
    other = ENGINE.view(game.state, "B")
    assert other["hands"] == {"B": ["captain", "countess"]}
    assert "drawn" not in other["turn"] and other["turn"]["drawn_count"] == 2
    public = ENGINE.view(game.state, None)
    assert public["hands"] == {} and "drawn" not in public["turn"]
    assert ENGINE.view(game.state, "__referee__") == game.state


def test_coup_v1_a_seat_cannot_be_named_as_the_referee_viewer(new_game, client):
    """COUP-V1: "A seat's view shows its own face-down cards" — never the others'.  The
    referee's viewer id (``base.REFEREE``, ``"__referee__"``) named a seat would get the
    referee's view (every hand, the court deck's order): the name is reserved, like ``"host"``."""
    with pytest.raises(InvalidSetup) as error:
        ENGINE.setup({"players": ["A", REFEREE, "C"]}, 1)
    assert [(v.rule, v.field) for v in error.value.violations] == [("COUP-V1", "players")]
    state = new_game({"A": ["duchess", "assassin"], "B": ["captain", "countess"],
                      "C": ["ambassador", "captain"]}).state
    renamed = copy.deepcopy(state)                       # a snapshot with the seat renamed
    renamed["players"][1] = REFEREE
    for key in ("coins", "hands", "revealed"):
        renamed[key] = {REFEREE if p == "B" else p: v for p, v in renamed[key].items()}
    with pytest.raises(ImpossibleState) as refused:
        ENGINE.check_snapshot(renamed)
    assert {v.field for v in refused.value.violations} == {"state.players"}
    response = client.post("/v1/matches", json={"game": "coup",
                                                "players": ["A", REFEREE, "C"]})
    assert response.status_code == 422, response.get_json()
