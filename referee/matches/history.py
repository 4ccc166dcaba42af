"""A match's history: one entry per commit, kept for ever (nothing is erased by a rollback).

Entries (JSON objects, in the store's history list, each with the ``version`` it made):

- ``{"version", "action"}``: a game action applied;
- ``{"version", "rollback": {"step", ...}}``: a step of a dispute (:mod:`referee.matches.disputes`):
  ``"proposed"``, ``"vote"``, ``"withdrawn"``, ``"rejected"`` or ``"applied"`` (with
  ``to_version``, ``reason``, ``approved_by``, ``undone``: the first 20 versions whose
  actions it took back, ``undone_count``: how many in all);
- ``{"version", "rematch"}``: the finished match's rematch was started.
- ``{"version", "seat": {"step", "player"}}`` / ``{"version", "host": {"step"}}``: a seat's
  invite, claim or re-issued token, the host's recovery (:mod:`referee.matches.seating`); they
  change no game state, so the line goes on through them unchanged.

The *line* at a version is the list of ``(version, action)`` whose replay from the setup gives
the game state at that version: actions add to it, an applied rollback to version *k* resets it
to the line at *k*.  The audit's ``actions`` are the final line's actions, so the README's replay
gives the final state; its ``history`` holds every entry.
"""
from __future__ import annotations

from typing import Any, Iterable

from referee.games.base import Engine

Line = list[tuple[int, dict[str, Any]]]


def action_entry(version: int, action: dict[str, Any]) -> dict[str, Any]:
    """The history entry of ``action``, applied to make ``version``."""
    return {"version": version, "action": action}


def line_at(history: Iterable[dict[str, Any]], version: int | None = None) -> Line:
    """The ``(version, action)`` pairs in force at ``version`` (``None``: the latest)."""
    lines: dict[int, Line] = {1: []}
    line: Line = []
    for entry in history:
        if version is not None and entry["version"] > version:
            break
        if "action" in entry:
            line = line + [(entry["version"], entry["action"])]
        elif entry.get("rollback", {}).get("step") == "applied":
            line = lines[entry["rollback"]["to_version"]]
        lines[entry["version"]] = line
    return line


def effective_actions(history: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The actions whose replay from the setup gives the latest state, in order."""
    return [action for _, action in line_at(history)]


def replay(engine: Engine, setup: dict[str, Any], seed: int | str, line: Line
           ) -> dict[str, Any]:
    """The state reached by applying ``line``'s actions to a game dealt from ``setup`` and
    ``seed`` (the engine checks each action again)."""
    state = engine.setup(setup, seed)
    for _, action in line:
        state, _ = engine.apply(state, action)
    return state
