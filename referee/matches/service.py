"""Matches: a whole table plays one game through the service, which keeps it in the store.

The flow of every move is *load → engine.apply → compare-and-set*: the record is loaded, the
action checked and applied by the game's pure engine, and the new record written only if the
match is still at the version the action was chosen at (:meth:`MatchStore.commit`), together
with its events, the action itself and the idempotency record, or not at all.

Who is calling, and what they may see and do, is :mod:`referee.matches.callers`; retries with an
``Idempotency-Key`` are :mod:`referee.matches.idempotency`; rollbacks
:mod:`referee.matches.disputes`.

Dealing is verifiable: the seed (256 random bits unless the host supplies one) is committed to
at creation as ``sha256("<seed>:<match id>")`` and revealed by the audit once the match is over,
with the setup body and every action, so anyone can replay it through the stateless endpoints.
"""
from __future__ import annotations

import functools
import hashlib
import re
import secrets
from typing import Any, Callable

from referee.matches.callers import Caller, authorize, identify, see
from referee.matches.envelope import envelope, movers
from referee.games.base import CheckedState
from referee.matches.history import action_entry
from referee.matches.idempotency import Once, once, replay
from referee.matches.loading import game_entry, load_action
from referee.matches import kept, pauses
from referee.matches.pauses import read_in_chunks
from referee.matches.reading import for_reader, page, visible_window
from referee.schemas.matches import PAGE_EVENTS
from referee.refusals import (Forbidden, InvalidInput, NotFound, PreconditionRequired, Refusal,
                              version_moved)
from referee.registry import GameEntry
from referee.store import AlreadyRecorded, MatchNotFound, MatchStore, VersionConflict

__all__ = ["Caller", "MatchService", "advance", "expected_version", "open_seats", "see",
           "rollback_view"]

MATCH_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")
"""What a match id looks like (``secrets.token_urlsafe(16)``); anything else is 404."""

_ETAG = re.compile(r'[ \t]*(W/)?("?)([0-9]+)("?)[ \t]*')
MAX_VERSION = 2**63 - 1
"""The largest version ``If-Match`` or ``expected_version`` may name (422 past it, for both)."""


def commitment(seed: int | str, match_id: str) -> str:
    """The dealing commitment: SHA-256 hex of the UTF-8 bytes ``f"{seed}:{match_id}"`` (an
    integer seed in decimal, e.g. ``b"42:Xb3…"``)."""
    return hashlib.sha256(f"{seed}:{match_id}".encode()).hexdigest()


def expected_version(if_match: str | None, in_body: int | None) -> int:
    """The version an action was chosen at, from ``If-Match`` (the strong entity tag
    ``"7"``, or ``7`` unquoted) or the body's ``expected_version``.  Neither: 428
    ``precondition-required``; both but different, an unreadable header (unbalanced quotes,
    not ASCII digits, a leading zero as in ``"01"``: a version tag is the ETag the service
    sent, canonical digits; a list), a version outside 1..2**63-1, or a weak tag ``W/"7"``: 422
    ``invalid-input`` naming ``If-Match``.  A lost-update check compares strongly (RFC 9110
    13.1.1: If-Match uses the strong comparison), so a weak tag can never match; it is refused
    rather than answered 409 for ever."""
    header = None
    if if_match is not None:
        found = _ETAG.fullmatch(if_match)
        if (found is None or found.group(2) != found.group(4)
                or (len(found.group(3)) > 1 and found.group(3)[0] == "0")):  # "01"
            raise InvalidInput('If-Match must be the match version, e.g. "7".',
                          errors=[{"field": "If-Match", "message": "not a version"}])
        if found.group(1):
            raise InvalidInput('If-Match must be the strong entity tag of the version, e.g. '
                               '"7": a weak tag (W/"7") never matches (RFC 9110 13.1.1).',
                               errors=[{"field": "If-Match", "message": "a weak entity tag"}])
        digits = found.group(3)
        header = int(digits) if len(digits) <= 19 else MAX_VERSION + 1
        if not 1 <= header <= MAX_VERSION:
            raise InvalidInput(f"If-Match must name a version from 1 to {MAX_VERSION}.",
                               errors=[{"field": "If-Match", "message": "out of range"}])
    if header is not None and in_body is not None and header != in_body:
        raise InvalidInput(f"If-Match says version {header} but expected_version "
                      f"says {in_body}.", errors=[{"field": "expected_version",
                                                   "message": "disagrees with If-Match"}])
    version = header if header is not None else in_body
    if version is None:
        raise PreconditionRequired("Say which version the action was chosen at: "
                      "send If-Match: \"<version>\" or expected_version.",
                      errors=[{"field": "If-Match", "message": "no expected version given"}])
    return version


def stored(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with its state marked trusted (a :class:`~referee.games.base.CheckedState`):
    a match's state is only ever written by the engine (``setup``, ``apply``, a rollback's
    replay) from input the boundary checked, so reading it back needs no second snapshot
    check (issue 11: each snapshot checked once — here, when it came in)."""
    record["state"] = CheckedState(record["state"])
    return record


class MatchService:
    """The match operations over a :class:`MatchStore`; ``ttl`` is the idle expiry in seconds.

    Methods raise a :class:`~referee.refusals.Refusal` for refused requests, engine errors for rule
    failures, and :class:`~referee.store.StoreUnavailable` when the store is down.
    """

    def __init__(self, store: MatchStore, ttl: int, invite_seconds: int = 3600,
                 replay_seconds: int = 600):
        self.store = store
        self.ttl = ttl
        self.invite_seconds = invite_seconds
        self.replay_seconds = replay_seconds

    # --- creating (the request: referee.matches.creation) and reading ------------------------
    def deal(self, entry: GameEntry, setup: dict[str, Any], seed: int | str,
             seats: dict[str, str | None], host: str, match_id: str | None = None,
             keep: Callable[[dict[str, Any]], tuple[str, int] | None] | None = None,
             **extra: Any) -> dict[str, Any]:
        """Store a new match at version 1 dealt from ``setup`` and ``seed`` whose seat and host
        token hashes are ``seats`` (``None``: an open seat) and ``host``, with the events of its
        first deal logged at version 1, ``seq`` 1… (All Fours' kick points, AF-K1:
        :meth:`Engine.opening`); return its record.  ``match_id``: its id (default a fresh
        random one); ``keep(record)``: the sealed creation answer to keep with it
        (:meth:`MatchStore.create`); ``extra``: more fields of the record.  Raises
        :class:`~referee.store.MatchExists` when ``match_id`` is taken."""
        match_id = match_id or secrets.token_urlsafe(16)
        state, events = entry.engine.opening(setup, seed)
        record = {"id": match_id, "game": entry.engine.name, "mode": setup["mode"],
                  "version": 1, "players": list(setup["players"]), "setup": setup,
                  "seed": seed, "commitment": commitment(seed, match_id),
                  "state": state, "event_count": 0,
                  "seats": seats, "host": host, "rollback": None, "rematch": None,
                  **kept.fresh(), **extra}
        _, numbered = advance({**record, "version": 0}, {}, events)
        record["event_count"] = len(numbered)
        self.store.create(match_id, record, self.ttl, numbered,
                          keep(record) if keep is not None else None)
        return record

    def load(self, match_id: str, read: dict[str, Any] | None = None) -> dict[str, Any]:
        """The match's record; 404 ``not-found`` if there is none (or the id is malformed).
        ``read``: the record as the store gave it earlier in this request (the match budgets
        read it in their round trip), used instead of reading it again.

        Its state is trusted (:func:`stored`), not checked again: the service wrote it."""
        try:
            if MATCH_ID.fullmatch(match_id):
                return stored(read if read is not None else self.store.load(match_id))
        except MatchNotFound:
            pass
        raise self._not_found(match_id)

    def caller(self, record: dict[str, Any], authorization: str | None,
               required: bool = False) -> Caller:
        """Who holds the ``Authorization: Bearer <token>``
        (:func:`referee.matches.callers.identify`)."""
        return identify(record, authorization, required)

    def view(self, record: dict[str, Any], caller: Caller) -> dict[str, Any]:
        """The match as ``caller`` may see it: id, game, mode, version, players, commitment,
        ``role``, ``seat``, the pending ``rollback``, the ``rematch``, then the envelope
        (:func:`referee.matches.envelope.envelope`: phase, to_move, awaiting, score, outcome,
        over) around the game's seat, public or referee ``view``."""
        entry = game_entry(record["game"])
        state = entry.engine.checked(record["state"])
        return {**public(record), "open_seats": open_seats(record),
                "role": caller.role, "seat": caller.seat,
                "rollback": rollback_view(record), "rematch": record.get("rematch"),
                **envelope(entry, record, state, caller)}

    def events(self, record: dict[str, Any], caller: Caller, after: int,
               limit: int = PAGE_EVENTS) -> dict[str, Any]:
        """A page of the logged events with ``seq`` > ``after`` that ``caller`` may see, each
        once (:func:`referee.matches.reading.for_reader`): at most ``limit`` and under 64 KB
        (:func:`referee.matches.reading.page`); ``next``: the ``after`` of the next page, or
        ``None`` when this one reaches the end of the log; ``version``: the version they were
        read at.

        ``record`` was read before the events (it names the caller), so a move may land
        between the two reads: its events are then among those read, and the version is the
        newest event's read (each carries the version that logged it; the log only grows),
        never older than an event returned.  Every event up to that version is in the log.

        Only a window of the log is read (:func:`referee.matches.reading.visible_window`):
        about ``2 * limit`` events, however long the match (issue 21 item 1)."""
        read: list[dict[str, Any]] = []

        def window(start: int, count: int) -> list[dict[str, Any]]:
            got = self._or_gone(record["id"], self.store.events, start, count)
            read.extend(got[-1:])
            return got
        events, following = page(visible_window(window, caller.viewer, after, limit), limit)
        version = max([record["version"]] + [ev.get("version", 0) for ev in read])
        return {"version": version, "events": events, "next": following}

    def legal_actions(self, record: dict[str, Any], caller: Caller) -> dict[str, Any]:
        """The caller's legal actions now; the host gets everyone's (host-only included).
        While a rollback is pending none (every action answers 409 ``rollback-pending`` until
        the seats decide it): ``actions`` and ``to_move`` are empty, as in the match view
        (:func:`referee.matches.envelope.movers`)."""
        entry = game_entry(record["game"])
        engine = entry.engine
        player = None if caller.host else caller.seat
        state = engine.checked(record["state"])
        actions = [] if record.get("rollback") else engine.legal_actions(state, player)
        return {"version": record["version"], "actions": actions,
                "to_move": movers(entry, record, state)}

    def history(self, record: dict[str, Any], rest: Callable[[], None] | None = None
                ) -> list[dict[str, Any]]:
        """The match's history entries up to ``record``'s version (one per commit after the
        first), read :data:`~referee.matches.pauses.CHUNK` at a time, ``rest()`` (default
        :func:`~referee.matches.pauses.pause`) between two reads
        (:func:`~referee.matches.pauses.read_in_chunks`: a 12,800-action match is 13 reads,
        and the worker serves others between them); 404 if the match is gone."""
        entries = self._or_gone(record["id"], lambda match_id: read_in_chunks(
            functools.partial(self.store.actions, match_id), rest))
        return [entry for entry in entries if entry["version"] <= record["version"]]

    def walk(self, record: dict[str, Any]) -> kept.Walk:
        """Reads of ``record``'s history windows and kept states for one request
        (:class:`referee.matches.kept.Walk`); 404 if the match is gone."""
        match_id = record["id"]
        return kept.Walk(
            lambda start, count: self._or_gone(match_id, self.store.actions, start, count),
            lambda version: self._or_gone(match_id, self.store.checkpoint, version))

    def logged_since(self, record: dict[str, Any], version: int,
                     rest: Callable[[], None] | None = None) -> list[dict[str, Any]]:
        """The logged events of ``version`` and later, up to ``record``'s ``event_count``, in
        order: read from the end back, :data:`~referee.matches.pauses.CHUNK` at a time,
        ``rest()`` (default :func:`~referee.matches.pauses.pause`) between two reads, until
        an event of an earlier version (the log is in version order); 404 if the match is
        gone."""
        found: list[dict[str, Any]] = []
        end = record["event_count"]
        while end > 0:
            start = max(end - pauses.CHUNK, 0)
            got = self._or_gone(record["id"], self.store.events, start, end - start)
            found[:0] = got
            end = start
            if got and got[0].get("version", 0) < version:
                break
            if end > 0:
                (rest or pauses.pause)()
        return [ev for ev in found if ev.get("version", 0) >= version]

    def delete(self, record: dict[str, Any], caller: Caller) -> None:
        """Delete the match (host token only: 403 ``forbidden`` for a seat)."""
        if not caller.host:
            raise Forbidden("Only the host token deletes a match.")
        self.store.delete(record["id"])

    # --- acting --------------------------------------------------------------------------
    def act(self, record: dict[str, Any], caller: Caller, body: dict[str, Any],
            if_match: str | None, key: str | None) -> tuple[int, dict[str, Any], bool]:
        """Apply ``body["action"]`` for ``caller``; return ``(status, response, replayed)``.

        Order: the expected version must be given (428); a known ``Idempotency-Key`` returns
        the first response (``replayed``; 422 ``idempotency-key-reused`` for another body);
        the action must parse (422 ``invalid-input``) and be the caller's to take (403
        ``forbidden``); the match must still be at the expected version (409
        ``version-conflict`` with ``current_version``); the rules must allow it (422
        ``illegal-action``).  Only then is it committed, atomically with its idempotency
        record; failures are not recorded, so a corrected retry with the same key may pass.
        """
        expected = expected_version(if_match, body.get("expected_version"))
        keyed = once(caller, key, {"action": body["action"], "expected_version": expected})
        prior = self.prior(record, keyed)
        if prior is not None:
            return prior
        entry = game_entry(record["game"])
        action = load_action(entry, body["action"])
        authorize(record, caller, action)
        if record.get("rollback"):
            raise Refusal("rollback-pending", "A rollback is proposed: no action is taken "
                          "until the seats decide it (or the host withdraws it).",
                          current_version=record["version"])
        if record["version"] != expected:
            raise version_moved(record["version"], expected)
        state, events = entry.engine.apply(record["state"], action)

        def respond(new: dict[str, Any], numbered: list[dict[str, Any]]) -> dict[str, Any]:
            # the fields of MatchActedSchema in its order: the API writes this as it is
            return {"id": record["id"], "version": new["version"],
                    "events": for_reader(numbered, caller.viewer),
                    **envelope(entry, new, state, caller)}
        return self.commit_answer(record, {"state": state}, events, action_entry(0, action),
                                  respond, keyed, expected)

    def prior(self, record: dict[str, Any], keyed: Once | None
              ) -> tuple[int, dict[str, Any], bool] | None:
        """The first answer to ``keyed``'s key replayed
        (:func:`referee.matches.idempotency.replay`), or ``None`` when there is no key or it is
        new."""
        if keyed is None:
            return None
        found = self.store.recorded(record["id"], keyed.scoped)
        return None if found is None else replay(found, keyed)

    def commit_answer(self, record: dict[str, Any], changes: dict[str, Any],
                      events: list[dict[str, Any]], entry: dict[str, Any],
                      respond: Callable[[dict[str, Any], list[dict[str, Any]]], dict[str, Any]],
                      keyed: Once | None, expected: int | None = None
                      ) -> tuple[int, dict[str, Any], bool]:
        """Commit like :meth:`commit` (with the record's line fields and a kept state when
        the version keeps one: :mod:`referee.matches.kept`) and answer ``(200, respond(new record, numbered events),
        False)``; with ``keyed`` the answer is stored under its key in the same atomic commit,
        and a request with the same key that committed first is replayed instead.  409
        ``version-conflict`` (against ``expected``, default the record's version), 404 gone."""
        new, numbered = advance(record, changes, events)
        if "action" in entry and kept.kept_by(record):
            new.update(kept.after_action(record, new["version"], events))
        answer = respond(new, numbered)
        applied = entry.get("rollback", {}).get("step") == "applied"
        try:
            self.store.commit(record["id"], record["version"], new,
                              {"version": new["version"], **_without_version(entry)},
                              numbered, self.ttl,
                              keyed.record(answer) if keyed else None,
                              kept.checkpoint(new, applied))
        except AlreadyRecorded:  # the same key won a race with this request
            found = self.store.recorded(record["id"], keyed.scoped)
            if found is None:  # the match was deleted in between
                raise self._not_found(record["id"]) from None
            return replay(found, keyed)
        except VersionConflict as exc:
            raise version_moved(exc.current,
                                record["version"] if expected is None else expected) from None
        except MatchNotFound:
            raise self._not_found(record["id"]) from None
        return 200, answer, False

    def commit(self, record: dict[str, Any], changes: dict[str, Any],
               events: list[dict[str, Any]], entry: dict[str, Any]
               ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """Write the next version of ``record`` with ``changes`` (new ``state``, ``rollback``…),
        ``events`` numbered after the log, and history ``entry`` (its ``version`` added);
        return ``(new record, numbered events)``.  409 ``version-conflict`` if the match moved
        meanwhile, 404 if it is gone."""
        made: list = []
        self.commit_answer(record, changes, events, entry,
                           lambda new, numbered: made.extend((new, numbered)) or {}, None)
        return made[0], made[1]

    def _or_gone(self, match_id: str, read, *args):
        """``read(match_id, *args)``; 404 if the match vanished since it was loaded."""
        try:
            return read(match_id, *args)
        except MatchNotFound:
            raise self._not_found(match_id) from None

    def _not_found(self, match_id: str) -> Refusal:
        return NotFound(f"There is no match {match_id!r}: it never existed, was "
                       f"deleted, or expired after {self.ttl} idle seconds.")


def advance(record: dict[str, Any], changes: dict[str, Any], events: list[dict[str, Any]]
             ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The next version of ``record`` with ``changes``, and ``events`` numbered after the log
    (``seq`` from ``event_count + 1``, ``version`` the new one)."""
    version = record["version"] + 1
    numbered = [{**ev, "seq": record["event_count"] + i, "version": version}
                for i, ev in enumerate(events, start=1)]
    return {**record, **changes, "version": version,
            "event_count": record["event_count"] + len(events)}, numbered


def _without_version(entry: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in entry.items() if key != "version"}


def open_seats(record: dict[str, Any]) -> list[str]:
    """The seats nobody holds a token for yet, in seat order."""
    return [player for player in record["players"] if record["seats"].get(player) is None]


def rollback_view(record: dict[str, Any]) -> dict[str, Any] | None:
    """The pending rollback proposal as anyone may see it, or ``None``."""
    return record.get("rollback") or None


def public(record: dict[str, Any]) -> dict[str, Any]:
    """What anyone may know of a match: id, game, mode, version, players, commitment."""
    return {key: record[key] for key in ("id", "game", "mode", "version", "players",
                                         "commitment")}
