"""``Engine.reshuffle_hidden``, a rollback's reshuffle (README "Disputes"), on every game and on
``POST /v1/games/{game}/reshuffle``: it deals afresh exactly the face-down orders nobody may
know (Coup's court deck, COUP-S4/A7; All Fours' stock, AF-D3/B3; Gnoming's draw pile with the
face-down layout cards, GN-S1/V1; nothing in Spy, SPY-S2), from the cards and the seed alone,
and changes no seat view, no public view, no legal action, no count."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from referee.games.base import PUBLIC
from referee.games.common.jsoncopy import json_copy
from referee.registry import GAMES

TABLES = {"coup": ["a", "b", "c"], "all-fours": ["a", "b"], "gnoming": ["a", "b", "c"],
          "spy": ["a", "b", "c"]}


def _body(game: str, mode: str = "digital") -> dict:
    engine = GAMES[game].engine
    body = {"players": TABLES[game], "mode": mode, "options": engine.resolve_options({})}
    if game == "all-fours":
        body["dealer"] = "a"
    return body


def _states(game: str, moves: int = 60, seed: int = 5):
    """The states of one random digital game, from its deal, ``moves`` actions at most."""
    engine = GAMES[game].engine
    state, rng = engine.setup(_body(game), seed), random.Random(seed)
    for _ in range(moves):
        yield state
        if engine.is_over(state):
            return
        state, _ = engine.apply(state, rng.choice(engine.legal_actions(state)))


def _pool(game: str, state: dict) -> list:
    """The cards of the orders nobody may know, in their places' order."""
    if game == "coup":
        return list(state["court"])
    if game == "all-fours":
        return list(state["stock"])
    if game == "gnoming":
        return [cell["card"] for p in state["players"] for row in state["layouts"][p]
                for cell in row if not cell["up"]] + list(state["draw_pile"])
    return []


def _with_pool(game: str, state: dict, cards: list) -> dict:
    """``state`` with ``cards`` put in the places of :func:`_pool`, in order."""
    new = json_copy(state)
    if game == "coup":
        new["court"] = list(cards)
    elif game == "all-fours":
        new["stock"] = list(cards)
    elif game == "gnoming":
        cells = [cell for p in new["players"] for row in new["layouts"][p] for cell in row
                 if not cell["up"]]
        for cell, card in zip(cells, cards):
            cell["card"] = card
        new["draw_pile"] = list(cards[len(cells):])
    return new


@pytest.mark.parametrize("game", sorted(TABLES))
def test_no_seat_and_no_public_reader_can_tell_and_nothing_else_moves(game):
    engine = GAMES[game].engine
    moved = 0
    for n, state in enumerate(_states(game)):
        before = json_copy(state)
        after = engine.reshuffle_hidden(state, f"rollback-{n}")
        assert state == before  # the input is never changed
        for reader in [*state["players"], PUBLIC]:
            assert engine.view(after, reader) == engine.view(state, reader), (n, reader)
            if reader is not PUBLIC:
                assert engine.legal_actions(after, reader) == engine.legal_actions(state, reader)
        assert engine.conserved(after) == engine.conserved(state)
        assert Counter(_pool(game, after)) == Counter(_pool(game, state))
        # Only the pool's places and the seed change: put the old pool back, and the old
        # state (with the new seed) is what remains.
        expected_seed = state["seed"] if game == "spy" else f"rollback-{n}"
        assert _with_pool(game, after, _pool(game, state)) == {**state, "seed": expected_seed}
        moved += _pool(game, after) != _pool(game, state)
    # the pool is really dealt afresh (Spy has none: it never moves)
    assert (moved > 0) is (game != "spy")


@pytest.mark.parametrize("game", ["coup", "all-fours", "gnoming"])
def test_the_new_order_depends_on_the_cards_and_the_seed_alone(game):
    # Two states that differ only in the order of the pool (what a seat may have seen in an
    # undone move) come out the same; another seed deals another order.
    engine = GAMES[game].engine
    rng = random.Random(11)
    for state in _states(game, 30):
        pool = _pool(game, state)
        other = _with_pool(game, state, rng.sample(pool, len(pool)))
        assert engine.reshuffle_hidden(other, "s") == engine.reshuffle_hidden(state, "s")
        if len(set(pool)) > 2:
            assert (_pool(game, engine.reshuffle_hidden(state, "s"))
                    != _pool(game, engine.reshuffle_hidden(state, "t")))


@pytest.mark.parametrize("game", sorted(TABLES))
def test_later_chance_comes_from_the_new_seed(game):
    # The reshuffle seed becomes the state's seed, so a deal or a court shuffle after the
    # rollback is not the one a seat saw in the undone moves (Spy deals only at setup).
    engine = GAMES[game].engine
    state = engine.setup(_body(game), 5)
    assert engine.reshuffle_hidden(state, "s")["seed"] == (5 if game == "spy" else "s")


@pytest.mark.parametrize("game", sorted(TABLES))
def test_table_mode_is_returned_as_it_was(game):
    # The service never knows a table's face-down orders (they are "unknown"): nothing to do.
    engine = GAMES[game].engine
    body = _body(game, "table")
    if game == "spy":  # each base entered, its hidden cards unknown (SPY-S2)
        dealt = engine.setup(_body(game), 5)["bases"]
        body["bases"] = {p: {"cards": [c if c == "spy" else "unknown" for c in b["cards"]],
                             "spy_gap": b["spy_gap"], "facing": b["facing"]}
                         for p, b in dealt.items()}
    state = engine.setup(body, 5)
    assert engine.reshuffle_hidden(state, "s") == state


def test_the_stateless_endpoint_gives_the_engines_reshuffle(client):
    engine = GAMES["coup"].engine
    state = engine.setup(_body("coup"), 7)
    answer = client.post("/v1/games/coup/reshuffle", json={"state": state, "seed": "s"})
    assert answer.status_code == 200
    assert answer.get_json() == {"state": engine.reshuffle_hidden(state, "s")}
    assert answer.get_json()["state"]["court"] != state["court"]


@pytest.mark.parametrize("body, field", [
    ({"seed": "s"}, "state"), ({"state": "no"}, "state"),
    ({"seed": -1}, "seed"), ({"seed": 1.5}, "seed"), ({"seed": ""}, "seed"),
    ({"seed": True}, "seed"), ({"seed": 2 ** 256}, "seed"), ({}, "seed"),
])
def test_the_stateless_endpoint_refuses_a_bad_body_naming_the_field(client, body, field):
    state = GAMES["coup"].engine.setup(_body("coup"), 7)
    sent = {"seed": "s", **body} if field == "state" else {"state": state, **body}
    answer = client.post("/v1/games/coup/reshuffle", json=sent)
    assert answer.status_code == 422
    problem = answer.get_json()
    assert problem["type"] == "/problems/invalid-input"
    assert field in [e["field"] for e in problem["errors"]]


def test_the_stateless_endpoint_checks_the_snapshot(client):
    state = json_copy(GAMES["coup"].engine.setup(_body("coup"), 7))
    state["court"].append("duchess")  # a 16th card (COUP-S3)
    answer = client.post("/v1/games/coup/reshuffle", json={"state": state, "seed": "s"})
    assert answer.status_code == 422
    assert answer.get_json()["type"] == "/problems/impossible-state"
