"""check_snapshot and violations survive any JSON: a submitted snapshot or action of any shape is
answered with ImpossibleState / Violations naming the field, never a KeyError or TypeError
(which the API would turn into a 500).  Hypothesis runs derandomized with a fixed budget."""
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.games.base import PUBLIC, IllegalAction, ImpossibleState
from referee.games.gnoming.engine import ENGINE
from referee.games.common.jsoncopy import json_copy
from tests.gnoming.deals import THREE, act, corners, flip_all, setup
from tests.gnoming.test_turns import LAYOUTS, about_to_go_out


def _states():
    """A few real states: each phase of digital and table play."""
    found = []
    for mode, seed in (("digital", 1), ("table", 2)):
        rng = random.Random(seed)
        state = ENGINE.setup({"players": ["ana", "ben", "cy", "dee"], "mode": mode}, seed)
        for step in range(400):
            if step % 20 == 0 or state["phase"] in ("hazard", "restart", "bounce", "reveal"):
                found.append(state)
            if ENGINE.is_over(state):
                break
            state = ENGINE.apply(state, rng.choice(ENGINE.legal_actions(state)))[0]
    return found


STATES = _states()
JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 200) | st.floats(allow_nan=False)
                    | st.sampled_from(["3", "-4", "M", "H", "9", "unknown", "ana", "zed", "",
                                       "draw", "setup", "digital", "table"]),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.sampled_from(["card", "up", "player", "x"]), inner,
                                      max_size=3), max_leaves=8)
FUZZ = settings(max_examples=250, derandomize=True, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


def _mutate(data, state):
    """Replace (or delete) one value somewhere inside ``state``."""
    state = json_copy(state)
    node = state
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            return state
        key = data.draw(st.sampled_from(keys))
        child = node[key]
        if isinstance(child, (dict, list)) and child and data.draw(st.booleans()):
            node = child
            continue
        if isinstance(node, dict) and data.draw(st.integers(0, 5)) == 0:
            del node[key]
        else:
            node[key] = data.draw(JSON)
        return state


@FUZZ
@given(st.data())
def test_gn_check_state_answers_any_corruption_with_impossible_state(data):
    state = _mutate(data, data.draw(st.sampled_from(STATES)))
    try:
        ENGINE.check_snapshot(state)
    except ImpossibleState as exc:
        # rule "OPTIONS" comes from the shared option check (base.resolve_options)
        assert exc.violations and all((v.rule.startswith("GN-") or v.rule == "OPTIONS")
                                      and v.field for v in exc.violations)
        return
    # a state that passes is usable by every method
    for player in state["players"]:
        ENGINE.view(state, player)
    ENGINE.view(state, PUBLIC)
    ENGINE.score(state)
    for action in ENGINE.legal_actions(state)[:20]:
        ENGINE.apply(state, action)


ACTION = st.fixed_dictionaries(
    {"type": st.sampled_from(["flip", "draw", "place", "discard"]) | JSON},
    optional={"player": st.sampled_from(["ana", "ben", "cy", "zed"]) | JSON,
              "position": st.lists(st.integers(-1, 3), max_size=3) | JSON,
              "source": st.sampled_from(["draw_pile", "discard"]) | JSON,
              "pile": st.sampled_from([0, 1, 2, True, 1.0]) | JSON,
              "card": st.sampled_from(["3", "-4", "M", "H", "9", "unknown"]) | JSON,
              "extra": JSON})


@FUZZ
@given(st.sampled_from(STATES), ACTION)
def test_gn_any_action_shape_gets_violations_or_applies(state, action):
    found = ENGINE.violations(state, action)
    assert all(v.rule.startswith("GN-") and v.message for v in found)
    if found:
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, action)
    else:
        ENGINE.check_snapshot(ENGINE.apply(state, action)[0])


@pytest.mark.parametrize("action, rule, field", [
    ({"type": "flip", "player": "ana", "position": "a1"}, "GN-S1", "action.position"),
    ({"type": ["flip"], "player": "ana"}, "GN-T1", "action.type"),
    ({"type": "draw", "player": "ana", "source": "discard", "pile": 1.0}, "GN-S1",
     "action.pile"),
    ({"type": "draw", "player": "ana", "source": "discard", "pile": True}, "GN-S1",
     "action.pile"),
    ({"type": "flip", "player": "ana", "position": [0, 1], "card": 5}, "GN-C1", "action.card"),
    ({"type": "flip", "player": "ana", "position": [0, 1], "colour": "red"}, "GN-T1",
     "action.colour"),
    ({"type": "flip", "player": None, "position": [0, 1]}, "GN-C2", "action.player"),
])
def test_gn_malformed_actions_are_violations_naming_the_field(action, rule, field):
    state = setup(LAYOUTS)
    assert [(v.rule, v.field) for v in ENGINE.violations(state, action)] == [(rule, field)]


def _impossible(state):
    with pytest.raises(ImpossibleState) as info:
        ENGINE.check_snapshot(state)
    return {(v.rule, v.field) for v in info.value.violations}


def test_gn_c1_a_fourth_hazard_or_fifteen_threes_in_a_state_are_impossible():
    state = flip_all(setup(LAYOUTS), corners(THREE))
    four = json_copy(state)
    four["draw_pile"][0] = "H"  # was a 3
    assert _impossible(four) == {("GN-C1", "state")}
    fifteen = json_copy(state)
    fifteen["draw_pile"][-4] = "3"  # was the last M
    assert _impossible(fifteen) == {("GN-C1", "state")}
    short = json_copy(state)
    short["draw_pile"].pop()
    assert _impossible(short) == {("GN-C1", "state")}  # 109 cards


def test_gn_impossible_phases_are_caught():
    state = flip_all(setup(LAYOUTS), corners(THREE))
    hidden = json_copy(state)
    hidden["layouts"]["ben"][0][0]["up"] = False  # only one face-up card after the flips
    assert ("GN-S2", "state.layouts.ben") in _impossible(hidden)
    pile = json_copy(state)
    pile["discard_piles"][0].append("H")
    pile["draw_pile"].remove("H")
    assert ("GN-D2", "state.discard_piles[0]") in _impossible(pile)
    out = json_copy(state)
    out["went_out"] = "ben"
    assert ("GN-E1", "state.went_out") in _impossible(out)
    turn = json_copy(state)
    turn["turn"]["player"] = "zed"
    assert _impossible(turn) == {("GN-S3", "state.turn.player")}
    table = ENGINE.setup({"players": THREE, "mode": "table"}, 3)
    table["layouts"]["ana"][0][0]["card"] = "5"  # a face-down card cannot be known at the table
    assert _impossible(table) == {("GN-X1", "state.layouts.ana[0][0]")}


def test_gn_e1_after_going_out_the_last_turns_go_in_order():
    state = act(about_to_go_out(), type="draw", player="ana", source="draw_pile")
    state = act(state, type="place", player="ana", position=[2, 2])
    state = act(state, type="discard", player="ana", pile=0)
    assert state["final_turns"] == ["ben", "cy"] and state["turn"]["player"] == "ben"
    skipped = json_copy(state)
    skipped["turn"]["player"] = "cy"
    assert _impossible(skipped) == {("GN-E1", "state.turn.player")}
    again = json_copy(state)
    again["turn"]["player"] = "ana"
    assert ("GN-E1", "state.turn.player") in _impossible(again)
