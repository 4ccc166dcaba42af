"""Checks of a submitted Spy snapshot: impossible states are ImpossibleState naming the field,
and no input of any shape makes the engine or the API crash."""
from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.worst_inputs import replaced
from referee.games.base import ImpossibleState, RefereeError
from referee.games.spy.engine import ENGINE
from tests.spy.harness import ORDERED, Api, base, start

# A: c0 Safe 1 … c5 Bomb 3, facing c5; B and C reversed and plain.
BASES = {"A": base(ORDERED, 5), "B": base(ORDERED[::-1], 2), "C": base(ORDERED, 4)}


def played() -> dict:
    """A digital state after A exposed B's Safe 1 and B lit C's Bomb 1... (see the asserts)."""
    game = start(BASES).do("spy", "A", target="B")  # A faces c5 → B's c0: Bomb 3, tsss
    game.do("spy", "B", target="C")  # B faces c2 (Top Secret 2) → C's c3: Top Secret 2
    game.do("move", "C", steps=1)  # C faces c4 (Bomb 1): gap 5, faces c5
    game.do("spy", "C", target="A")  # → A's c0: Safe 1, exposed
    assert game.base("B")["lit"] == [0] and game.base("A")["exposed"] == [0]
    return game.state


def problems(state: dict) -> set[tuple[str, str]]:
    with pytest.raises(ImpossibleState) as error:
        ENGINE.check_snapshot(state)
    return {(v.rule, v.field) for v in error.value.violations}


def test_states_reached_by_play_are_possible():
    for state in (played(), ENGINE.setup({"players": ["A", "B", "C", "D"]}, seed=9),
                  start(BASES, mode="table").do("spy", "A", target="B").state):
        assert ENGINE.check_snapshot(state) is None


def test_a_card_twice_or_a_wrong_base_size_spy_c1_s1():
    state = played()
    state["bases"]["C"]["cards"][5] = "safe_1"
    assert ("SPY-C1", "state.bases.C.cards[5]") in problems(state)
    state = played()
    state["bases"]["C"]["cards"].append("bomb_2")
    assert ("SPY-S1", "state.bases.C.cards") in problems(state)


def test_exposures_out_of_order_or_lit_non_bombs_spy_r1_r4():
    state = played()
    state["bases"]["C"]["exposed"] = [1]  # C's c1 is Safe 2, not Safe 1
    assert ("SPY-R1", "state.bases.C.exposed[0]") in problems(state)
    state = played()
    state["bases"]["C"]["lit"] = [0]  # C's c0 is Safe 1
    assert ("SPY-R4", "state.bases.C.lit") in problems(state)


def test_public_knowledge_must_fit_the_cards_spy_c1_c3():
    state = played()
    state["bases"]["B"]["candidates"][0] = ["bomb_1"]  # B's c0 is the Bomb 3
    assert ("SPY-C1", "state.bases.B.candidates") in problems(state)
    state = played()
    state["bases"]["C"]["declared"][4] = 2  # C moved 1 off its Bomb 1
    assert ("SPY-C3", "state.bases.C.declared[4]") in problems(state)


def test_eliminations_winner_and_turn_must_agree_spy_r7_e1_e2_t1():
    state = played()
    state["winner"] = "A"
    assert ("SPY-E2", "state.winner") in problems(state)
    state = played()
    state["eliminated"] = ["A"]
    assert ("SPY-E1", "state.turn.player") in problems(state)
    state = played()
    state["turn"]["done"] = ["move", "move"]
    assert ("SPY-T1", "state.turn.done") in problems(state)
    state = played()
    state["turn"]["pending"] = {"attacker": "A", "defender": "B", "position": 0}
    assert ("SPY-T1", "state.turn.pending") in problems(state)
    state = played()
    state["bases"]["C"]["exposed"] = [0, 1, 2, 3]  # C's c0…c3: Safe 1 … Top Secret 2
    for pos in range(4):
        state["bases"]["C"]["candidates"][pos] = [ORDERED[pos]]
    assert ("SPY-R7", "state.eliminated") in problems(state)


def test_missing_extra_and_mistyped_fields_are_named():
    state = played()
    del state["turn"]
    state["extra"] = 1
    assert problems(state) == {("SPY-S2", "state.turn"), ("SPY-S2", "state.extra")}
    state = played()
    state["bases"]["A"]["spy_gap"] = "2"
    state["bases"]["B"]["exposed"] = [True]
    state["options"]["mirror"] = 3
    assert problems(state) == {("SPY-P1", "state.options.mirror")}
    state["options"]["mirror"] = "across"
    assert problems(state) == {("SPY-S2", "state.bases.A.spy_gap"),
                               ("SPY-R3", "state.bases.B.exposed")}
    assert problems([]) == {("SPY-S2", "state")}


JSON = st.recursive(st.none() | st.booleans() | st.integers(-2, 8) |
                    st.sampled_from(["A", "B", "Z", "safe_1", "bomb_2", "unknown", "left", "spy",
                                     "digital", "table", "across", "move"]),
                    lambda inner: st.lists(inner, max_size=3) |
                    st.dictionaries(st.sampled_from(["A", "B", "type", "player", "x"]), inner,
                                    max_size=3), max_leaves=6)


def paths(value, prefix=()):
    """Every path to a value inside ``value``."""
    yield prefix
    items = value.items() if isinstance(value, dict) else (
        enumerate(value) if isinstance(value, list) else ())
    for key, item in items:
        yield from paths(item, prefix + (key,))


STATES = [played(), start(BASES, mode="table").do("spy", "A", target="B").state]
PATHS = [(i, p) for i, s in enumerate(STATES) for p in paths(s) if p]


@settings(max_examples=400, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PATHS), JSON, st.booleans(), JSON)
def test_any_corrupted_state_or_action_is_refused_never_a_crash(where, value, delete, action):
    """Replace (or delete) any one field of a state with any JSON: check_snapshot passes or raises
    ImpossibleState; a state it passes never makes another engine method crash."""
    index, path = where
    state = copy.deepcopy(STATES[index])
    holder = state
    for key in path[:-1]:
        holder = holder[key]
    if delete and isinstance(holder, dict):
        del holder[path[-1]]
    else:
        holder[path[-1]] = value
    try:
        ENGINE.check_snapshot(state)
    except ImpossibleState as error:
        assert error.violations and all(v.field for v in error.violations)
        return
    for player in (None, *STATES[index]["players"]):
        ENGINE.legal_actions(state, player)
        ENGINE.view(state, player)
    ENGINE.score(state)
    assert isinstance(ENGINE.violations(state, action), list)
    for legal in ENGINE.legal_actions(state)[:3]:
        ENGINE.apply(state, legal)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(JSON)
def test_any_action_shape_gets_violations_never_a_crash(action):
    for state in STATES:
        found = ENGINE.violations(state, action)
        assert found and all(v.rule.startswith("SPY-") for v in found)
        with pytest.raises(RefereeError):
            ENGINE.apply(state, action)


def test_api_answers_bad_states_with_422_naming_the_field(client):
    """Through the API: a type error is invalid-input, an impossible state impossible-state."""
    api = Api(client)
    state = played()
    state["bases"]["A"]["spy_gap"] = "2"
    response = api.post("legal-actions", {"state": state})
    assert response.status_code == 422 and response.get_json()["type"].endswith("invalid-input")
    state = played()
    state["bases"]["C"]["cards"][5] = "safe_1"
    response = api.post("validate", {"state": state, "action": {"type": "end_turn",
                                                                "player": "A"}})
    problem = response.get_json()
    assert response.status_code == 422 and problem["type"].endswith("impossible-state")
    assert {"field": "state.bases.C.cards[5]", "rule": "SPY-C1"}.items() <= \
        problem["errors"][0].items()


def _leaves(state: dict):
    """Every path to a scalar (or empty container) inside ``state``."""
    for path in paths(state):
        holder = state
        for key in path:
            holder = holder[key]
        if not isinstance(holder, (dict, list)) or not holder:
            yield path


WRONG = {"x": [None]}
"""A value no field of a Spy snapshot may hold."""


@pytest.mark.parametrize("index", range(len(STATES)))
def test_every_field_of_a_snapshot_is_checked_including_the_log_spy_s2(index):
    """Issue 12 item 8: every leaf of a reached state (log entries included: every event type
    the engine writes) set to a value no field may hold is refused, naming that field, a part
    of it or its container."""
    state = STATES[index]
    kinds = {e["type"] for s in STATES for e in s["log"]}
    assert kinds >= {"move", "spy", "answer", "turn"}, kinds
    leaves = list(_leaves(state))
    assert any(p[0] == "log" for p in leaves)
    for path in leaves:
        with pytest.raises(ImpossibleState) as error:
            ENGINE.check_snapshot(replaced(state, path, WRONG))
        where = "state" + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path)
        fields = [v.field for v in error.value.violations]
        assert any(where.startswith(f) or f.startswith(where) for f in fields), (where, fields)


def test_log_events_must_agree_with_the_state_spy_r3_r5_e1():
    """A log that shows a card the base does not show (SPY-R3), or eliminates a player still in
    (SPY-E1), or has an event of another shape, is impossible."""
    state = played()
    shown = next(i for i, e in enumerate(state["log"]) if e.get("answer") == "exposed")
    assert ("SPY-R3", f"state.log[{shown}].card") in problems(
        replaced(state, ("log", shown, "card"), "safe_2"))
    state["log"].append({"type": "eliminated", "player": "B", "rule": "SPY-R5"})
    assert problems(state) == {("SPY-E1", f"state.log[{len(state['log']) - 1}].player")}
    state["log"][-1] = {"type": "turn", "player": "B", "visible_to": ["B"]}
    assert problems(state) == {("SPY-S2", f"state.log[{len(state['log']) - 1}]")}
