"""What a match view's envelope says of a Gnoming A Round game (issue 22): the phase, what it
waits for, every finished round's scores and the totals, this round's score from the face-up
cards, and the outcome (GN-W1: the lowest total wins; a tie goes to the lowest last round;
players still tied share the win).

Everything here is public: a round in play is scored from face-up cards only (a face-down card
counts nothing, GN-V1), finished rounds from their layouts, all turned up (GN-E2).
"""
from __future__ import annotations

from typing import Any

from referee.games.common.summary import (OVER, each_alone, message, outcome, score,
                                          summary)

_ONE = ("draw", "play", "bounce", "discard", "restart")
"""Phases that wait for the turn's player alone; the others (setup, hazard, reveal) for every
player who still owes a card turned up."""


def summarize(state: dict[str, Any], scored: dict[str, Any], to_move: list[str]
              ) -> dict[str, Any]:
    """``{"phase", "awaiting", "score", "outcome"}`` of ``state`` (see
    :meth:`referee.games.base.Engine.summary`); ``scored`` is the engine's ``score`` and
    ``to_move`` its ``to_move``.  ``phase`` is the state's (``setup``, ``draw``, ``play``,
    ``bounce``, ``discard``, ``restart``, ``hazard``, ``reveal``, ``over``)."""
    phase, players = state["phase"], state["players"]
    over = phase == OVER
    return summary(
        phase=phase, awaiting=_awaiting(state, scored, to_move),
        score=score(by="player", sides=each_alone(players), totals=scored["totals"],
                    wins_by="lowest", still_in=players, breakdown={
                        "round": state["round"], "rounds": state["options"]["rounds"],
                        "round_scores": scored["round_scores"],
                        "running_totals": _running(scored["round_scores"], players),
                        "round_points": None if over else scored["points"]}),
        outcome=_outcome(scored) if over else None)


def _running(round_scores: list[dict[str, int]], players: list[str]) -> list[dict[str, int]]:
    """Each player's total after each finished round (GN-W1: a total is the sum of the round
    scores): one entry per entry of ``round_scores``, the last equal to ``totals``."""
    running, out = {p: 0 for p in players}, []
    for scores in round_scores:
        running = {p: running[p] + scores[p] for p in players}
        out.append(running)
    return out


def _awaiting(state: dict[str, Any], scored: dict[str, Any], to_move: list[str]
              ) -> dict[str, Any]:
    """What the game waits for now (GN-S2, GN-T1…T3, GN-B1, GN-D1, GN-D4, GN-E2, GN-W1)."""
    phase = state["phase"]
    if phase == OVER:
        return message("gnoming.now.over", winners=", ".join(scored["winner"]))
    if phase in _ONE:
        return message(f"gnoming.now.{phase}", player=state["turn"]["player"])
    if phase == "setup" and state["mode"] == "table" and not all(state["discard_piles"]):
        return message("gnoming.now.setup_piles", players=", ".join(to_move),
                       starter=state["starter"])  # GN-S1: the table starts the piles
    return message(f"gnoming.now.{phase}", players=", ".join(to_move))


def _outcome(scored: dict[str, Any]) -> dict[str, Any]:
    """The winners and why (GN-W1): the lowest total alone, a tie broken by the last round, or
    a win shared by players tied on both."""
    winners, totals = scored["winner"], scored["totals"]
    best = min(totals.values())
    tied = [p for p, total in totals.items() if total == best]
    kind = "lowest" if len(tied) == 1 else "tie_broken" if len(winners) == 1 else "shared"
    return outcome(winners, winners, message(
        f"gnoming.outcome.{kind}", winners=", ".join(winners), total_points=best,
        rounds=len(scored["round_scores"])))
