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
