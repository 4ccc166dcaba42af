"""The envelope every match answer carries around the game's own view (issue 22): one shape for
every game, mode and reader.

``{"phase", "to_move", "awaiting", "awaiting_message", "score", "outcome", "over", "view"}``:

- ``phase``: the game's phase, ``"over"`` once the game has ended (each game's phases are in
  its summary module, e.g. :mod:`referee.games.allfours.summary`);
- ``to_move``: the players who may act now, in seat order (several in Coup's open windows and
  in Gnoming's flips); **empty** while a rollback is pending (every action answers 409
  ``rollback-pending`` until the seats decide it) and once the match is over.  The host's own
  actions (Coup's ``close_window``) are not in it;
- ``awaiting``: what the match waits for, as a sentence in the answer's language, and
  ``awaiting_message``, the same as ``{"code", "params"}`` for a client that renders its own;
  while a rollback is pending, the proposal (``match.now.rollback``);
- ``score``: the running score in one shape (:mod:`referee.games.common.summary`);
- ``outcome``: ``None`` until the game is over, then ``{"winners", "sides", "reason": {"code",
  "params", "message"}}``;
- ``over`` and ``view``: as before — the game's own view for this reader.

The engine supplies the data (:meth:`referee.games.base.Engine.summary`, pure, depending only on
what the reader may see), this module assembles it, :mod:`referee.i18n.answers` renders it.
"""
from __future__ import annotations

from typing import Any

from referee.games.common.summary import message
from referee.i18n.answers import localize_summary
from referee.matches.callers import Caller, see
from referee.registry import GameEntry


def movers(entry: GameEntry, record: dict[str, Any], state: dict[str, Any]) -> list[str]:
    """Who may act now: the engine's ``to_move``, or nobody while a rollback is pending (no
    action is taken until it is decided)."""
    return [] if record.get("rollback") else entry.engine.to_move(state)


def envelope(entry: GameEntry, record: dict[str, Any], state: dict[str, Any],
             caller: Caller) -> dict[str, Any]:
    """The envelope (module docstring) of ``state``, the state of match ``record`` (whose
    pending ``rollback`` it reports), as ``caller`` may see it, in the request's language."""
    engine = entry.engine
    summary = engine.summary(state, caller.viewer)
    pending = record.get("rollback")
    if pending:
        summary = {**summary, "awaiting": message("match.now.rollback",
                                                  to_version=pending["to_version"])}
    told = localize_summary(summary)
    return {"phase": told["phase"], "to_move": movers(entry, record, state),
            "awaiting": told["awaiting"], "awaiting_message": told["awaiting_message"],
            "score": told["score"], "outcome": told["outcome"],
            "over": engine.is_over(state), "view": see(entry, state, caller)}
