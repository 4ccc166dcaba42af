"""What a match view's envelope says of a Coup game (issue 22): the turn's stage, what it waits
for (:func:`referee.games.coup.judge.awaiting`), each player's influence left and coins, and
the outcome (COUP-E1: the last player with influence wins).

Everything here is public: influence is counted (face-down cards are never named), coins are
on the table.
"""
from __future__ import annotations

from typing import Any

from referee.games.common.summary import (OVER, each_alone, message, outcome, score,
                                          summary)
from referee.games.coup.judge import awaiting


def summarize(state: dict[str, Any]) -> dict[str, Any]:
    """``{"phase", "awaiting", "score", "outcome"}`` of ``state`` (see
    :meth:`referee.games.base.Engine.summary`).  ``phase`` is ``"over"``, ``"loss"`` while an
    influence must be turned up first (COUP-W2), else the turn's stage (``declare``,
    ``action_challenge``, ``block``…)."""
    players, winner = state["players"], state["winner"]
    influence = {p: len(state["hands"][p]) for p in players}
    phase = OVER if winner is not None else "loss" if state["loss"] else state["turn"]["stage"]
    return summary(
        phase=phase, awaiting=awaiting(state),
        score=score(by="player", sides=each_alone(players), totals=influence,
                    wins_by="last_in", still_in=[p for p in players if influence[p]],
                    breakdown={"influence": influence, "coins": dict(state["coins"])}),
        outcome=None if winner is None else outcome(
            [winner], [winner], message("coup.outcome.last_in", winner=winner)))
