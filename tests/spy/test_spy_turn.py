"""A turn of Spy (SPY-T1, SPY-M1…M4, SPY-P1, SPY-P2, SPY-E1) through the engine."""
from __future__ import annotations

import copy

import pytest

from referee.games.spy.engine import ENGINE
from referee.games.spy.positions import faced_index, mirror_index, moved_gap
from tests.spy.harness import ORDERED, base, moves, start

# A: c0 Safe 1 (1), c1 Safe 2 (2), c2 Top Secret 1 (1), c3 Top Secret 2 (2), c4 Bomb 1, c5 Bomb 3
THREE = {"A": base(ORDERED, 0), "B": base(ORDERED[::-1], 0), "C": base(ORDERED, 3, "left")}


@pytest.mark.parametrize("gap, facing, faced", [(0, "right", 0), (0, "left", 5), (5, "right", 5),
                                                (3, "left", 2)])
def test_position_model_faced_card_spy_m3(gap, facing, faced):
    """Position model / SPY-M3: right faces c[g], left faces c[(g-1) mod n]: at an end facing
    away from the cards the Spy faces the far end."""
    assert faced_index(gap, facing, 6) == faced


@pytest.mark.parametrize("gap, facing, steps, to", [(4, "right", 3, 1), (1, "left", 3, 4),
                                                    (0, "left", 1, 5), (2, "right", 2, 4)])
def test_position_model_moves_wrap_spy_m1_m3(gap, facing, steps, to):
    """SPY-M1/M3: right g := (g + k) mod n, left g := (g − k) mod n."""
    assert moved_gap(gap, facing, steps, 6) == to


def test_mirror_across_and_same_spy_p1():
    """SPY-P1: index i mirrors to n − 1 − i ("across") or i ("same")."""
    assert [mirror_index(i, 7, "across") for i in range(7)] == [6, 5, 4, 3, 2, 1, 0]
    assert [mirror_index(i, 6, "same") for i in range(6)] == list(range(6))


def test_full_turn_in_order_spy_t1():
    """SPY-T1: turn round, move, turn round, spy — each once, in this order; spy ends it."""
    game = start(THREE)
    game.do("turn_round", "A")  # faces c5 (Bomb 3) from gap 0
    assert moves(ENGINE.legal_actions(game.state, "A")) == [3]
    game.do("move", "A", steps=3).do("turn_round", "A")  # gap 3, facing right: faces c3
    assert game.base("A")["spy_gap"] == 3 and game.base("A")["facing"] == "right"
    assert game.rules("turn_round", "A") == {"SPY-M4"}
    assert [a["type"] for a in ENGINE.legal_actions(game.state, "A")] == [
        "spy", "spy", "end_turn"]
    game.do("spy", "A", target="B")  # B's c(5-3) = c2: B's Top Secret 2 (reversed base)
    assert game.answer()["answer"] == "top_secret"
    assert game.state["turn"] == {"player": "B", "done": [], "pending": None}


def test_a_third_turn_round_cites_the_turning_rule_spy_m4():
    """SPY-M4 is the rule that lets the Spy be turned round, before or after the move: a third
    turn is refused under it (the most specific rule), not under the generic turn order."""
    game = start(THREE)
    for kind in ("turn_round", "move", "turn_round"):
        game.do(kind, "A", **({"steps": 3} if kind == "move" else {}))
    found = ENGINE.violations(game.state, {"type": "turn_round", "player": "A"})
    assert [(v.rule, v.code) for v in found] == [("SPY-M4", "spy.turn.round_twice")]


def test_turning_round_twice_without_moving_is_refused_spy_m4_t1():
    """SPY-T1 (each step at most once) and SPY-M4 (before or after the move): a second
    turn_round straight after the first, with no move between, is neither; it is refused and
    not offered, and the move stays possible."""
    game = start(THREE).do("turn_round", "A")
    assert game.base("A")["facing"] == "left"
    found = ENGINE.violations(game.state, {"type": "turn_round", "player": "A"})
    assert [(v.rule, v.code) for v in found] == [("SPY-M4", "spy.turn.round_again")]
    legal = ENGINE.legal_actions(game.state, "A")
    assert {"type": "turn_round", "player": "A"} not in legal and moves(legal)


def test_neither_move_nor_spy_end_turn_spy_t1():
    """SPY-T1: a player may do neither; end_turn passes to the next seat (SPY-S3)."""
    game = start(THREE).do("end_turn", "A")
    assert game.state["turn"]["player"] == "B"
    assert game.events[-1] == {"type": "turn", "player": "B"}


def test_card_moves_option_changes_the_numbers_spy_c3_m1():
    """SPY-C3: options.card_moves overrides the default numbers in digital mode."""
    game = start(THREE, card_moves={"safe_1": 3})
    assert moves(ENGINE.legal_actions(game.state, "A")) == [3]
    assert game.rules("move", "A", steps=1) == {"SPY-M1"}
    game.do("move", "A", steps=3)
    assert game.base("A")["spy_gap"] == 3


@pytest.mark.parametrize("steps", [0, -1, True, "2", 1.0, None])
def test_steps_must_be_a_whole_number_spy_m1(steps):
    """SPY-M1: the number of spaces is a whole number ≥ 1 (any other shape is a violation)."""
    assert start(THREE).rules("move", "A", steps=steps) == {"SPY-M1"}


def test_acting_out_of_turn_spy_p2():
    """SPY-P2: only the player whose turn it is acts."""
    game = start(THREE)
    assert game.rules("end_turn", "B") == {"SPY-P2"}
    assert game.rules("spy", "C", target="A") == {"SPY-P2"}
    assert ENGINE.legal_actions(game.state, "B") == []
    assert ENGINE.to_move(game.state) == ["A"]


def test_spy_target_must_be_an_opponent_of_the_game_spy_p1():
    """SPY-P1: name an opponent of this game."""
    game = start(THREE)
    assert game.rules("spy", "A", target="Z") == {"SPY-P1"}
    assert game.rules("spy", "A", target=None) == {"SPY-P1"}


def test_unknown_player_type_or_field_are_violations():
    """An unknown player (SPY-S1), action type or field (SPY-T1) is a violation, not a crash."""
    game = start(THREE)
    assert game.rules("end_turn", "Z") == {"SPY-S1"}
    assert game.rules("pass", "A") == {"SPY-T1"}
    assert game.rules("end_turn", "A", steps=2) == {"SPY-T1"}
    assert {v.rule for v in ENGINE.violations(game.state, ["end_turn"])} == {"SPY-T1"}
    assert {v.rule for v in ENGINE.violations(game.state, {"type": "end_turn"})} == {"SPY-S1"}


def test_apply_never_changes_the_state_given():
    """apply returns a new state; the input is untouched (engine contract)."""
    game = start(THREE)
    before = copy.deepcopy(game.state)
    for action in ({"type": "turn_round", "player": "A"}, {"type": "move", "player": "A",
                                                         "steps": 1},
                   {"type": "spy", "player": "A", "target": "B"}):
        new, _ = ENGINE.apply(game.state, action)
        assert game.state == before and new != before
    game.do("spy", "A", target="B")
    before = copy.deepcopy(game.state)
    ENGINE.apply(game.state, {"type": "spy", "player": "B", "target": "A"})
    assert game.state == before
