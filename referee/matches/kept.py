"""Kept states: a rollback's work bounded by a state kept every :data:`KEEP_EVERY` versions.

Without them a rollback walks the whole match: its proposal reads every history entry and
the log back to the target (to say what it undoes), its deciding vote replays every action
of the target's line from the deal (126 ms on a 12,793-action match, issue 21 item 1).  With
them both read a few hundred entries at most, whatever the match's length.

The record keeps, beside its state (and from the first commit of a match made by this
version; an older record has none of them, and its rollbacks walk the whole history as
before, :mod:`referee.matches.disputes`):

- ``line``: the *line* in force (:mod:`referee.matches.history`) as *segments*, in version
  order: ``[first, last]`` — every game action committed at a version from ``first`` to
  ``last`` (inclusive; ``last = first - 1`` while there is none) is on the line — or
  ``{"version", "reshuffle"}``, a rollback's reshuffle step.  An action extends the last
  segment (an entry that is not an action between two actions, a vote or a seat's claim,
  holds no action, so the range may span it); an applied rollback to *k* makes the line at
  *k*, its reshuffle, and a new empty segment.  A line holds one segment, plus two per
  rollback it descends from;
- ``actions``: how many game actions the history holds (undone ones too);
- ``scored``: the versions whose action closed a hand's scoring (:data:`SCORING_EVENTS`).

A *kept state* ``{"state", "line", "actions"}`` of version *v* is written in the same atomic
commit as *v* (:meth:`referee.store.MatchStore.commit`, ``checkpoint``) when *v* is a
multiple of :data:`KEEP_EVERY` or an applied rollback.  So between the latest multiple at
or before a version and that version lies at most one stretch of plain actions after the
last applied rollback, whose kept state starts it: the state at any version is a kept one
plus at most ``KEEP_EVERY - 1`` actions replayed (:func:`state_at`), and its line is the
kept line with its last segment extended (:func:`line_at_version`).  Version 1's kept state
is not stored: it is the deal (``engine.setup``), an empty line, no action.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

from referee.games.base import CheckedState, Engine
from referee.matches import pauses
from referee.matches.history import replay_from

KEEP_EVERY = 500
"""A state is kept at every version that is a multiple of this (and at each applied
rollback): a rollback replays at most this many actions (~5 ms on the longest match)."""

SCORING_EVENTS = ("hand_scored", "round_ended")
"""Events that close a hand's scoring (All Fours AF-S1–S6, Gnoming GN-P1–P7)."""

Segments = list[Any]
"""A line as segments: ``[first, last]`` action ranges and ``{"version", "reshuffle"}``."""


def fresh() -> dict[str, Any]:
    """The fields a new match's record starts with (version 1: no action yet)."""
    return {"line": [[2, 1]], "actions": 0, "scored": []}


def kept_by(record: dict[str, Any]) -> bool:
    """Whether ``record`` keeps its line (made by this version; see the module docstring).
    A record whose kept state went missing (a store that lost a key) is given ``"line":
    None`` by its next rollback and walks its whole history from then on."""
    return record.get("line") is not None


def after_action(record: dict[str, Any], version: int, events: Iterable[dict[str, Any]]
                 ) -> dict[str, Any]:
    """The changes to ``record``'s line fields when a game action is committed at
    ``version`` with ``events``: the last segment reaches ``version``, one more action, and
    ``version`` noted in ``scored`` when the action closed a hand's scoring."""
    line = record["line"]
    changes: dict[str, Any] = {"line": line[:-1] + [[line[-1][0], version]],
                               "actions": record["actions"] + 1}
    if any(ev.get("type") in SCORING_EVENTS for ev in events):
        changes["scored"] = record["scored"] + [version]
    return changes


def after_rollback(then: Segments, version: int, reshuffle: str | None) -> Segments:
    """The line after a rollback applied at ``version`` to a version whose line is ``then``:
    ``then`` (without an empty last segment: a rollback to just after another one must not
    grow the line), the reshuffle step (digital mode), and an empty segment for the actions
    to come."""
    if then and isinstance(then[-1], list) and then[-1][1] < then[-1][0]:
        then = then[:-1]
    step = [{"version": version, "reshuffle": reshuffle}] if reshuffle is not None else []
    return then + step + [[version + 1, version]]


def checkpoint(new: dict[str, Any], rolled_back: bool) -> tuple[int, dict[str, Any]] | None:
    """``(version, kept state)`` to write with the commit of ``new`` (the record after it)
    when its version is kept (a multiple of :data:`KEEP_EVERY`, or ``rolled_back``: an
    applied rollback), else ``None``."""
    if not kept_by(new) or not (rolled_back or new["version"] % KEEP_EVERY == 0):
        return None
    return new["version"], {"state": new["state"], "line": new["line"],
                            "actions": new["actions"]}


class Walk:
    """Reads of one match's history around its kept states, for one request.

    ``entries(start, count)``: the history entries from index ``start`` (the entry of version
    *v* is at index *v* − 2: one per commit after the creation), ``kept(version)``: the kept
    state of ``version`` or ``None``.  Windows and kept states read are remembered for the
    request (a rollback's state, its line and the counts of its proposal start from the same
    few)."""

    def __init__(self, entries: Callable[[int, int], list[dict[str, Any]]],
                 kept: Callable[[int], dict[str, Any] | None]):
        self._entries, self._read_kept = entries, kept
        self._windows: dict[int, list[dict[str, Any]]] = {}
        self._states: dict[int, dict[str, Any] | None] = {}

    def _kept(self, version: int) -> dict[str, Any] | None:
        """The kept state of ``version`` (``None``: none stored), read once per request."""
        if version not in self._states:
            self._states[version] = self._read_kept(version)
        return self._states[version]

    def between(self, low: int, high: int) -> list[dict[str, Any]]:
        """The entries of versions ``low + 1`` to ``high`` (fewer than :data:`KEEP_EVERY`:
        ``low`` is a kept version at most that far below), read once per request."""
        if high <= low:
            return []
        window = self._windows.get(low)
        if window is None or (window and window[-1]["version"] < high):
            window = self._windows[low] = self._entries(low - 1, high - low)
        return [entry for entry in window if entry["version"] <= high]

    def base(self, version: int) -> tuple[int, dict[str, Any] | None, list[dict[str, Any]]]:
        """``(kept version, its kept state or None for version 1, the entries after it up to
        ``version``)``: the latest kept version with no applied rollback between it and
        ``version``.  Raises :class:`LookupError` when a kept state that must be stored is
        missing (the caller walks the whole history instead)."""
        low = max(version // KEEP_EVERY * KEEP_EVERY, 1)
        entries = self.between(low, version)
        for index in range(len(entries) - 1, -1, -1):
            if entries[index].get("rollback", {}).get("step") == "applied":
                low, entries = entries[index]["version"], entries[index + 1:]
                break
        if low == 1:
            return 1, None, entries
        kept = self._kept(low)
        if kept is None:
            raise LookupError(f"no kept state at version {low}")
        return low, kept, entries

    def line(self, version: int) -> Segments:
        """The line in force at ``version``, as segments."""
        _, kept, _ = self.base(version)
        line = kept["line"] if kept is not None else [[2, 1]]
        return line[:-1] + [[line[-1][0], version]]

    def actions_to(self, version: int) -> int:
        """How many game actions were committed at versions 2 to ``version``."""
        low = max(version // KEEP_EVERY * KEEP_EVERY, 1)
        kept = self._kept(low) if low > 1 else {"actions": 0}
        if kept is None:
            raise LookupError(f"no kept state at version {low}")
        return kept["actions"] + sum(1 for entry in self.between(low, version)
                                     if "action" in entry)

    def actions_in(self, first: int, last: int, limit: int) -> list[dict[str, Any]]:
        """The first ``limit`` action entries committed at versions ``first`` to ``last``,
        read a few at a time from ``first``."""
        found: list[dict[str, Any]] = []
        start = first
        while start <= last and len(found) < limit:
            count = min(last - start + 1, 2 * limit)
            got = self._entries(start - 2, count)
            found += [entry for entry in got if "action" in entry][:limit - len(found)]
            if len(got) < count:
                break
            start += count
        return found


def state_at(walk: Walk, engine: Engine, setup: dict[str, Any], seed: int | str,
             version: int) -> CheckedState:
    """The game state at ``version``: its base's kept state (or the deal) with the actions
    after it played again (at most :data:`KEEP_EVERY` − 1, a pause every
    :data:`~referee.matches.pauses.REPLAY_STEPS`).  Raises :class:`LookupError` like
    :meth:`Walk.base`."""
    _, kept, entries = walk.base(version)
    state = engine.setup(setup, seed) if kept is None else CheckedState(kept["state"])
    steps = [entry for entry in entries if "action" in entry]
    return replay_from(engine, state, steps, rest=pauses.pause)


def difference(line: Segments, other: Segments) -> list[tuple[int, int]]:
    """The version ranges ``(first, last)`` of ``line``'s action segments that ``other``'s
    do not cover, in version order: one sweep of both (each line's segments are in version
    order and never overlap)."""
    theirs = [seg for seg in other if isinstance(seg, list) and seg[1] >= seg[0]]
    out: list[tuple[int, int]] = []
    at = 0  # the first of ``theirs`` that may still overlap
    for first, last in (seg for seg in line if isinstance(seg, list)):
        cursor = first
        while at < len(theirs) and theirs[at][1] < cursor:
            at += 1
        index = at
        while index < len(theirs) and theirs[index][0] <= last:
            low, high = theirs[index]
            if low > cursor:
                out.append((cursor, low - 1))
            cursor = max(cursor, high + 1)
            index += 1
        if cursor <= last:
            out.append((cursor, last))
    return out


def count_in(walk: Walk, ranges: list[tuple[int, int]]) -> int:
    """How many game actions were committed at the versions of ``ranges``."""
    return sum(walk.actions_to(last) - walk.actions_to(first - 1) for first, last in ranges)
