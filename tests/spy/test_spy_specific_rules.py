"""The most specific rule first (issue 13 item 4) in Spy: spying on yourself or on an
eliminated player out of turn names SPY-P2's target rule before the turn."""
from __future__ import annotations

from referee.games.spy.engine import ENGINE


def test_spy_p2_spying_on_yourself_out_of_turn_names_the_target_first():
    state = ENGINE.setup({"players": ["ana", "ben", "cy"], "mode": "digital",
                          "options": ENGINE.resolve_options({})}, 3)
    assert state["turn"]["player"] == "ana"
    found = ENGINE.violations(state, {"type": "spy", "player": "ben", "target": "ben"})
    assert [(v.rule, v.code) for v in found] == [("SPY-P2", "spy.spy.self"),
                                                  ("SPY-P2", "spy.turn.not_yours")]
    found = ENGINE.violations(state, {"type": "spy", "player": "ben", "target": "cy"})
    assert [(v.rule, v.code) for v in found] == [("SPY-P2", "spy.turn.not_yours")]


def _three():
    return ENGINE.setup({"players": ["ana", "ben", "cy"], "mode": "digital",
                         "options": ENGINE.resolve_options({})}, 3)


def _cited(state, **action):
    return [(v.rule, v.code) for v in ENGINE.violations(state, action)]


def test_spy_m4_t1_turn_round_straight_after_turn_round_is_refused_and_not_offered():
    """SPY-T1: turn_round, move, turn_round, spy, each at most once; SPY-M4: before or after
    the move. Twice in a row (no move between) is neither, so legal actions must not offer it."""
    state, _ = ENGINE.apply(_three(), {"type": "turn_round", "player": "ana"})
    offered = [a["type"] for a in ENGINE.legal_actions(state)]
    assert "turn_round" not in offered and "move" in offered and "end_turn" in offered
    assert _cited(state, type="turn_round", player="ana") == [
        ("SPY-M4", "spy.turn.round_again")]
    # after the move the second turn_round is offered (SPY-M4 "after moving"), then no third
    steps = next(a["steps"] for a in ENGINE.legal_actions(state) if a["type"] == "move")
    state, _ = ENGINE.apply(state, {"type": "move", "player": "ana", "steps": steps})
    assert {"type": "turn_round", "player": "ana"} in ENGINE.legal_actions(state)
    state, _ = ENGINE.apply(state, {"type": "turn_round", "player": "ana"})
    assert "turn_round" not in [a["type"] for a in ENGINE.legal_actions(state)]
    assert _cited(state, type="turn_round", player="ana") == [
        ("SPY-M4", "spy.turn.round_twice")]


def test_spy_p2_m1_an_out_of_turn_move_cites_acting_out_of_turn_and_a_bad_steps_field():
    """SPY-P2 names acting out of turn as illegal: the specific rule for ben moving in ana's
    turn. Malformed steps are named too (SPY-M1), as a target is for spy."""
    state = _three()
    assert _cited(state, type="move", player="ben", steps=1) == [
        ("SPY-P2", "spy.turn.not_yours")]
    assert _cited(state, type="move", player="ben", steps=[1]) == [
        ("SPY-M1", "spy.move.steps_shape"), ("SPY-P2", "spy.turn.not_yours")]


def test_spy_c3_values_in_messages_are_json_not_python_reprs():
    """SPY-C3 card_moves: a list or object sent as a movement number is quoted as JSON."""
    from referee.i18n.verdicts import render
    state = _three()
    (found,) = [v for v in ENGINE.violations(state, {"type": "move", "player": "ana",
                                                     "steps": {"k": [True, None]}})]
    for lang in ("en", "my"):
        text = render(found.code, found.params, lang)
        assert '{"k": [true, null]}' in text and "True" not in text
