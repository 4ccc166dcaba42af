"""What a match view's envelope says of a Spy game (issue 22): whose turn it is or who owes an
answer, each player's cards exposed and who is still in, and the outcome (SPY-E2: the last
player left wins).

Everything here is public: exposed cards are face up, eliminations are announced.
"""
from __future__ import annotations

from typing import Any

from referee.games.common.summary import (OVER, each_alone, message, outcome, score,
                                          summary)
from referee.games.spy.judge import remaining


def summarize(state: dict[str, Any]) -> dict[str, Any]:
    """``{"phase", "awaiting", "score", "outcome"}`` of ``state`` (see
    :meth:`referee.games.base.Engine.summary`).  ``phase``: ``"over"``, ``"answer"`` (a
    table-mode defender owes the answer to a spy, SPY-P2) or ``"turn"`` (SPY-T1)."""
    players, winner, turn = state["players"], state["winner"], state["turn"]
    exposed = {p: len(state["bases"][p]["exposed"]) for p in players}
    if winner is not None or turn is None:
        phase, awaiting = OVER, message("spy.now.over", winner=winner)
    elif turn["pending"]:
        pending = turn["pending"]
        phase, awaiting = "answer", message("spy.now.answer", defender=pending["defender"],
                                            attacker=pending["attacker"])
    else:
        phase, awaiting = "turn", message("spy.now.turn", player=turn["player"])
    return summary(
        phase=phase, awaiting=awaiting,
        score=score(by="player", sides=each_alone(players), totals=exposed,
                    wins_by="last_in", still_in=remaining(state),
                    breakdown={"exposed": exposed, "eliminated": list(state["eliminated"])}),
        outcome=None if winner is None else outcome(
            [winner], [winner], message("spy.outcome.last_in", winner=winner)))
