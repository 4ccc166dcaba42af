"""The parts of a match view every game fills the same way (issue 22: one envelope for every
game): the phase, what the game waits for, the running score and, once over, the outcome.

An engine's ``summary(state, viewer)`` (:meth:`referee.games.base.Engine.summary`) returns
:func:`summary` of these; the match service adds ``to_move`` and renders the messages in the
reader's language (:func:`referee.i18n.answers.localize_summary`).  Messages are
``{"code", "params"}`` like a verdict's: engines hold no sentence.

Shapes:

- ``score``: ``{"by": "side" | "player", "sides": {unit: [players]}, "totals": {unit: int},
  "wins_by": "target" | "highest" | "lowest" | "last_in", "target": int | None, "in": [players still in],
  "breakdown": {...the game's own detail}}``.  A *unit* is what the score is kept for: an All
  Fours side, or a player (then ``sides`` maps each player to itself).
- ``outcome``: ``None`` until the game is over, then ``{"winners": [players], "sides":
  [units], "reason": message}``; several winners are a shared win (a partnership, a tie).
"""
from __future__ import annotations

from typing import Any, Sequence

OVER = "over"
"""The phase every game's summary names once the game has ended."""

WINS_BY = ("target", "highest", "lowest", "last_in")
"""How a game is won: first to a target score, highest or lowest total at the end, last player
with anything left."""


def message(code: str, **params: Any) -> dict[str, Any]:
    """A message ``{"code", "params"}`` (rendered at the edge, like a verdict's)."""
    return {"code": code, "params": params}


def each_alone(players: Sequence[str]) -> dict[str, list[str]]:
    """``sides`` of a game scored per player: each player is its own unit."""
    return {player: [player] for player in players}


def score(*, by: str, sides: dict[str, list[str]], totals: dict[str, int], wins_by: str,
          still_in: Sequence[str], breakdown: dict[str, Any], target: int | None = None
          ) -> dict[str, Any]:
    """The running score in the shape every game shares (module docstring)."""
    assert by in ("side", "player") and wins_by in WINS_BY, (by, wins_by)
    return {"by": by, "sides": {unit: list(members) for unit, members in sides.items()},
            "totals": dict(totals), "wins_by": wins_by, "target": target,
            "in": list(still_in), "breakdown": breakdown}


def outcome(winners: Sequence[str], sides: Sequence[str], reason: dict[str, Any]
            ) -> dict[str, Any]:
    """A finished game's outcome: the winning players, their units and why (a message)."""
    return {"winners": list(winners), "sides": list(sides), "reason": reason}


def summary(*, phase: str, awaiting: dict[str, Any], score: dict[str, Any],
            outcome: dict[str, Any] | None) -> dict[str, Any]:
    """``{"phase", "awaiting", "score", "outcome"}``: what :meth:`Engine.summary` returns."""
    return {"phase": phase, "awaiting": awaiting, "score": score, "outcome": outcome}


def generic(engine: Any, state: dict[str, Any]) -> dict[str, Any]:
    """A summary any engine can give from its ``score``, ``to_move`` and ``is_over`` (the
    default of :meth:`Engine._summary`, for a game that declares none): scored per player,
    ``score()["totals"]``, the highest total winning; ``score()["winner"]`` (a player, a list
    or None) as the outcome's winners."""
    scored = engine._score(state)
    players = list(state["players"])
    over = engine._is_over(state)
    winner = scored.get("winner")
    winners = [winner] if isinstance(winner, str) else list(winner or [])
    waiting = ", ".join(engine._to_move(state))
    return summary(
        phase=OVER if over else "play",
        awaiting=message("game.now.over") if over else message("game.now.to_move",
                                                               players=waiting),
        score=score(by="player", sides=each_alone(players),
                    totals={p: scored.get("totals", {}).get(p, 0) for p in players},
                    wins_by="highest", still_in=players, breakdown={}),
        outcome=outcome(winners, winners, message("game.outcome.over")) if over else None)
