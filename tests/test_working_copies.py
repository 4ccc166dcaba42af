"""``apply`` copies only what an action may change (issue 11: no deep copy of a whole state):
All Fours shares completed tricks, Spy the log's past events and each base's candidate lists.
Sharing must not change any answer: along seeded random playouts of every game, each action
applied to the game's working copy gives the same new state and events (as JSON, keys sorted:
each game's copy keeps its own key order) as applied to a full JSON copy (the Engine
default), and the state applied to is left as it was (compared with a full copy taken
before)."""
from __future__ import annotations

import json

import pytest

from bench.payloads import playout, setup_body
from referee.games.base import CheckedState, Engine
from referee.games.common.jsoncopy import json_copy
from referee.registry import GAMES


def full_copy_apply(engine, state, action):
    """``apply`` as the Engine default does it: the action played on a copy of everything."""
    work = CheckedState(Engine._working_copy(engine, state))
    return work, engine.play_in_place(work, action)


def same(a, b) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_shared_working_copy_answers_like_a_full_copy(game):
    engine = GAMES[game].engine
    steps = 0
    for seed, count in enumerate(sorted({engine.min_players, engine.max_players})):
        _, played = playout(game, seed, limit=150, setup=setup_body(game, count))
        for state, action in played:
            before = json_copy(state)
            new, events = engine.apply(state, action)
            assert json.dumps(state) == json.dumps(before)  # the input is untouched
            ref_new, ref_events = full_copy_apply(engine, before, action)
            assert same(new, ref_new) and same(events, ref_events)
            steps += 1
    assert steps > 40


def test_json_copy_takes_the_fast_path_only_for_what_json_holds_exactly():
    """json_copy's orjson round trip is kept only when it equals the original: a tuple stays
    a tuple, NaN stays NaN (orjson would write null), a 70-bit integer and an integer key are
    copied by the walk; every container is new either way."""
    import math

    from referee.games.common.jsoncopy import json_copy
    plain = {"a": [1, {"b": None, "c": "x"}], "d": True}
    copied = json_copy(plain)
    assert copied == plain and copied is not plain and copied["a"] is not plain["a"]
    odd = {"t": (1, 2), "n": [float("nan")], "big": 2**70, 3: "int key"}
    copied = json_copy(odd)
    assert copied["t"] == (1, 2) and type(copied["t"]) is tuple
    assert math.isnan(copied["n"][0]) and copied["n"] is not odd["n"]
    assert copied["big"] == 2**70 and copied[3] == "int key"
    nested_nan = [{"x": float("nan")}]
    assert math.isnan(json_copy(nested_nan)[0]["x"])  # not None, as orjson alone would give
    inner = {"t": (1, [2, 3])}  # a list inside a tuple is copied too (views are copies)
    copied = json_copy(inner)
    copied["t"][1].append("changed")
    assert inner == {"t": (1, [2, 3])} and type(copied["t"]) is tuple
