"""A match's history: one entry per commit, kept for ever (nothing is erased by a rollback).

Entries (JSON objects, in the store's history list, each with the ``version`` it made):

- ``{"version", "action"}``: a game action applied;
- ``{"version", "rollback": {"step", ...}}``: a step of a dispute (:mod:`referee.matches.disputes`):
  ``"proposed"``, ``"vote"``, ``"withdrawn"``, ``"rejected"`` or ``"applied"`` (with
  ``to_version``, ``reason``, ``approved_by``, ``undone``: the first 20 versions whose
  actions it took back, ``undone_count``: how many in all, ``redone`` and ``redone_count``:
  those it brought back, when it went back to a version an earlier rollback had undone, and in digital mode ``reshuffle``:
  the seed that dealt the hidden orders afresh, :func:`reshuffle_seed`);
- ``{"version", "rematch"}``: the finished match's rematch was started.
- ``{"version", "seat": {"step", "player"}}`` / ``{"version", "host": {"step"}}``: a seat's
  invite, claim or re-issued token, the host's recovery (:mod:`referee.matches.seating`); they
  change no game state, so the line goes on through them unchanged.

The *line* at a version is the list of *steps* whose replay from the setup gives the game state
at that version: ``{"version", "action"}`` (apply the action) or ``{"version", "reshuffle":
seed}`` (``Engine.reshuffle_hidden`` with that seed).  Actions add to it; an applied rollback to
version *k* resets it to the line at *k*, followed by its reshuffle step when it has one.  The
audit's ``steps`` are the final line, so the README's replay gives the final state; its
``actions`` are the final line's actions and its ``history`` holds every entry.
"""
from __future__ import annotations

import hashlib
from typing import Any, Callable, Iterable

from referee.games.base import Engine
from referee.matches import pauses

Step = dict[str, Any]
"""``{"version", "action"}`` or ``{"version", "reshuffle"}``."""

Line = list[Step]


def action_entry(version: int, action: dict[str, Any]) -> dict[str, Any]:
    """The history entry of ``action``, applied to make ``version``."""
    return {"version": version, "action": action}


def reshuffle_seed(seed: int | str, version: int) -> str:
    """The seed of the reshuffle made by the rollback applied at ``version`` of a match dealt
    from ``seed``: SHA-256 hex (64 digits) of the UTF-8 bytes ``f"{seed}:rollback:{version}"``
    (an integer seed in decimal, as in the commitment).  Two rollbacks never share one (each
    is applied at its own version), and anyone with the audit can recompute it."""
    return hashlib.sha256(f"{seed}:rollback:{version}".encode()).hexdigest()


def line_at(history: Iterable[dict[str, Any]], version: int | None = None) -> Line:
    """The steps in force at ``version`` (``None``: the latest), in order.  One pass, each
    step appended once: each version keeps its line as a list and the length of it in force
    then (a list is only ever appended to, and an applied rollback starts a new one), so a
    12,800-action match costs 12,800 appends, not 80 million copies (issue 21)."""
    lines: dict[int, tuple[Line, int]] = {1: ([], 0)}
    line: Line = []
    for entry in history:
        if version is not None and entry["version"] > version:
            break
        if "action" in entry:
            line.append({"version": entry["version"], "action": entry["action"]})
        elif entry.get("rollback", {}).get("step") == "applied":
            applied = entry["rollback"]
            kept, length = lines[applied["to_version"]]
            line = kept[:length]
            if applied.get("reshuffle") is not None:
                line.append({"version": entry["version"], "reshuffle": applied["reshuffle"]})
        lines[entry["version"]] = (line, len(line))
    return line


def actions_of(line: Line) -> Line:
    """The action steps of ``line`` (its reshuffles left out)."""
    return [step for step in line if "action" in step]


def replay(engine: Engine, setup: dict[str, Any], seed: int | str, line: Line,
           rest: Callable[[], None] | None = None) -> dict[str, Any]:
    """The state reached by taking ``line``'s steps in a game dealt from ``setup`` and
    ``seed`` (:func:`replay_from` the deal)."""
    return replay_from(engine, engine.setup(setup, seed), line, rest)


def replay_from(engine: Engine, state: dict[str, Any], line: Line,
                rest: Callable[[], None] | None = None) -> dict[str, Any]:
    """The state reached by taking ``line``'s steps from ``state`` (never changed): each
    action applied (the engine checks it again), each reshuffle made; ``rest()`` after every
    :data:`referee.matches.pauses.REPLAY_STEPS` steps (the worker serves others meanwhile:
    :func:`referee.matches.pauses.pause`).

    One working copy in all: the first action (or reshuffle) makes the replay's own state,
    and every later action is played on it in place (``engine.play_in_place``, the same
    judgement and play as ``engine.apply`` without its copy of the whole state per action,
    which made a replay grow with the square of a long match's state)."""
    owned = False
    for index, step in enumerate(line, start=1):
        if rest is not None and index % pauses.REPLAY_STEPS == 0:
            rest()
        if "reshuffle" in step:
            before = state  # table mode answers the state itself: still the one it was
            state = engine.reshuffle_hidden(state, step["reshuffle"])
            owned = owned or state is not before
        elif owned:
            engine.play_in_place(state, step["action"])
        else:
            state, _ = engine.apply(state, step["action"])
            owned = True
    return state
