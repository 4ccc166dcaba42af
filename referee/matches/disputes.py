"""Disputes: the host takes moves back with a logged rollback, approved by the table.

``POST …/rollback`` (host token, at the match's version): ``{"to_version", "reason",
"approval"?}``: back to the state of ``to_version``, which takes back the moves of the line
since (``undone``) and, when ``to_version`` is a version an earlier rollback took back (a
rollback made by mistake, itself undone), brings back the moves of that version's line the
line now lacks (``redone``); both are listed, at most :data:`UNDONE_LISTED` each, with their
counts.  In **table** mode the host decides: the rollback applies at once.  In
**digital** mode it is *proposed* and applies once the seats approve it (``POST
…/rollback/votes`` with a seat token: ``{"proposal", "approve"}``): every seat (``approval``
``"all"``, the default) or more than half of them (``"majority"``).  A rollback that would
undo a finished hand's scoring (an All Fours ``hand_scored``, AF-S1–S6; a Gnoming
``round_ended``, GN-P1–P7), or bring one back, needs every seat's approval in either mode.
The seats that vote are those someone holds: an open seat has nobody to vote until it is
claimed, and with every seat open (one phone keeping a table's record) the host decides.  One rejection of an
``"all"`` proposal, or enough rejections that a majority is out of reach, rejects it; the host
may withdraw it (``DELETE …/rollback``).  While one is pending no action is taken (409
``rollback-pending``), and nothing is rolled back once the match is over (its audit is open).

Every step is a commit: the version goes up, an event is logged (``rollback_proposed``,
``rollback_vote``, ``rollback_applied``, ``rollback_rejected``, ``rollback_withdrawn``) and a
history entry kept (:mod:`referee.matches.history`).  Applying restores the game state of
``to_version`` by replaying the actions in force then, from the latest state kept on that
line (:mod:`referee.matches.kept`: at most a few hundred actions, and the proposal reads as
few history entries to say what it undoes); in digital mode every face-down order
nobody may know (Coup's court deck, All Fours' stock, Gnoming's draw pile and face-down layout
cards) is then dealt afresh by ``Engine.reshuffle_hidden`` from a seed of its own,
:func:`referee.matches.history.reshuffle_seed` of the match's seed and the version the rollback
is applied at, so no seat knows an order it saw in the undone moves, and the audit still
replays (the reshuffle is a step of the line).  Table mode has nothing to reshuffle: the
service never knows those orders.  The events
name the undone moves by version, type and player only, never their fields (an action may hold
a card only its player knew), at most :data:`UNDONE_LISTED` of them (the earliest) with
``undone_count``, so a rollback over a thousand moves is still a small answer and event; the
audit's history holds every undone action in full once the match is over.

Each step takes an ``Idempotency-Key`` like a match action: a retried propose, withdraw or
vote is applied once, and its first answer replayed (the key's record is written in the same
commit as the step).
"""
from __future__ import annotations

from typing import Any

from referee.matches.callers import Caller
from referee.matches.envelope import envelope
from referee.matches.history import actions_of, line_at, replay, reshuffle_seed
from referee.matches.idempotency import Once, once
from referee.matches.loading import game_entry
from referee.matches import kept, pauses
from referee.matches.service import MatchService, expected_version
from referee.matches.reading import for_reader
from referee.refusals import Forbidden, InvalidInput, Refusal, StaleVersion, version_moved

Answer = tuple[int, dict[str, Any], bool]
"""``(status, body, replayed)``: ``replayed`` when an ``Idempotency-Key`` retry got the first
answer again (:mod:`referee.matches.idempotency`)."""

APPROVALS = ("all", "majority")
"""How many seats must approve a digital-mode rollback: every one, or more than half."""

UNDONE_LISTED = 20
"""A proposal, its events and its history entry name at most this many undone moves (the
earliest; ``undone_count`` says how many it undoes in all), and as many redone ones
(``redone``, ``redone_count``)."""

VOTE_RETRIES = 8
"""Votes are commutative, so a vote that loses a race with another is tried again."""


def propose(svc: MatchService, record: dict[str, Any], caller: Caller, body: dict[str, Any],
            if_match: str | None, key: str | None = None) -> Answer:
    """The host's rollback to ``body["to_version"]`` (see the module docstring); return the
    outcome (:func:`_outcome`).  403 not the host or the match is over; 409 another rollback
    pending or the match moved on; 422 ``invalid-input`` for a ``to_version`` that is not an
    earlier version or undoes nothing; 428 no expected version."""
    if not caller.host:
        raise Forbidden("Only the host token proposes a rollback.")
    expected = expected_version(if_match, body.get("expected_version"))
    keyed = once(caller, key, {"rollback": "propose", **body, "expected_version": expected})
    prior = svc.prior(record, keyed)
    if prior is not None:
        return prior
    engine = game_entry(record["game"]).engine
    if engine.is_over(record["state"]):
        raise Forbidden("The match is over: its result stands (the audit is open); start a "
                        "rematch instead.")
    if record.get("rollback"):
        raise _pending(record)
    if record["version"] != expected:
        raise version_moved(record["version"], expected)
    target = body["to_version"]
    if record["version"] == 1:
        raise _bad_target("The match is at version 1, its start: there is no earlier version "
                          "to go back to.")
    if not 1 <= target < record["version"]:
        raise _bad_target(f"to_version must be an earlier version, 1 to {record['version'] - 1}.")
    (undone, undone_count), (redone, redone_count), crosses = _undoing(svc, record, target)
    if not undone_count and not redone_count:
        raise _bad_target(f"Version {target} has the same game state as now: nothing to undo.")
    approval = "all" if crosses else body.get("approval", "all")
    proposal = {"proposal": record["version"] + 1, "to_version": target,
                "reason": body["reason"], "approval": approval, "crosses_scoring": crosses,
                "undone": [_named(step) for step in undone],
                "undone_count": undone_count, "redone": [_named(step) for step in redone],
                "redone_count": redone_count, "approved_by": [], "rejected_by": []}
    if (record["mode"] == "table" and not crosses) or not _voters(record):
        # the host decides: table mode, or no seat is held (nobody else has a vote)
        return _apply(svc, record, caller, {**proposal, "decided_by": "host"}, [], keyed)
    return _commit(svc, record, caller, "pending", keyed, {"rollback": proposal},
                   [{"type": "rollback_proposed", **_public(proposal)}],
                   {"rollback": {"step": "proposed", **_public(proposal)}})


def vote(svc: MatchService, record: dict[str, Any], caller: Caller, body: dict[str, Any],
         key: str | None = None) -> Answer:
    """A seat's ``{"proposal", "approve"}`` on the pending rollback; applies or rejects it
    when the vote decides it.  403 not a seat; 409 ``no-rollback`` when ``proposal`` is not the
    pending one; 422 the seat already voted otherwise.  The same vote again answers again."""
    if caller.seat is None:
        raise Forbidden("The seats approve a rollback, each with its own token.")
    keyed = once(caller, key, {"rollback": "vote", **body})
    for _ in range(VOTE_RETRIES):
        prior = svc.prior(record, keyed)
        if prior is not None:
            return prior
        pending = record.get("rollback")
        if not pending or pending["proposal"] != body["proposal"]:
            raise Refusal("no-rollback", f"Rollback proposal {body['proposal']} is not "
                          "pending (decided, withdrawn, or never made).",
                          errors=[{"field": "proposal", "message": "not pending"}],
                          pending=pending["proposal"] if pending else None)
        mine = "approved_by" if body["approve"] else "rejected_by"
        other = "rejected_by" if body["approve"] else "approved_by"
        if caller.seat in pending[other]:
            raise InvalidInput(f"{caller.seat} already voted the other way.",
                               errors=[{"field": "approve", "message": "already voted"}])
        if caller.seat in pending[mine]:
            return 200, _outcome(record, [], caller, "pending"), False
        pending = {**pending, mine: pending[mine] + [caller.seat]}
        try:
            return _decide(svc, record, caller, pending, keyed)
        except StaleVersion:
            pass
        record = svc.load(record["id"])
    raise version_moved(record["version"], record["version"])


def withdraw(svc: MatchService, record: dict[str, Any], caller: Caller,
             key: str | None = None) -> Answer:
    """The host withdraws the pending rollback.  403 not the host; 409 ``no-rollback``."""
    if not caller.host:
        raise Forbidden("Only the host token withdraws a rollback.")
    keyed = once(caller, key, {"rollback": "withdraw"})
    prior = svc.prior(record, keyed)
    if prior is not None:
        return prior
    pending = record.get("rollback")
    if not pending:
        raise Refusal("no-rollback", "No rollback is pending.", pending=None)
    step = {"step": "withdrawn", "proposal": pending["proposal"]}
    return _commit(svc, record, caller, "withdrawn", keyed, {"rollback": None},
                   [{"type": "rollback_withdrawn", **step}], {"rollback": step})


def _decide(svc, record, caller, pending, keyed: Once | None) -> Answer:
    """Commit a vote: apply, reject, or keep the proposal pending with the vote added."""
    seats = _voters(record)  # an open seat has nobody to vote (its seat must be claimed)
    needed = seats if pending["approval"] == "all" else seats // 2 + 1
    voter = caller.seat
    vote_event = {"type": "rollback_vote", "proposal": pending["proposal"], "player": voter,
                  "approve": voter in pending["approved_by"]}
    if len(pending["approved_by"]) >= needed:
        return _apply(svc, record, caller, pending, [vote_event], keyed)
    if seats - len(pending["rejected_by"]) < needed:
        step = {"step": "rejected", "proposal": pending["proposal"],
                "rejected_by": pending["rejected_by"]}
        return _commit(svc, record, caller, "rejected", keyed, {"rollback": None},
                       [vote_event, {"type": "rollback_rejected", **step}],
                       {"rollback": step})
    return _commit(svc, record, caller, "pending", keyed, {"rollback": pending}, [vote_event],
                   {"rollback": {"step": "vote", **vote_event}})


def _apply(svc, record, caller, proposal, events, keyed: Once | None) -> Answer:
    """Commit the rollback: the state of ``to_version`` again, its hidden orders dealt
    afresh in digital mode (the reshuffle step of the commit's version, kept in the history
    entry), logged with who approved.  The state comes from the latest kept state on the
    target's line (:func:`referee.matches.kept.state_at`: a few hundred actions replayed at
    most), or, for a record made before kept states, from the deal and the whole line."""
    engine = game_entry(record["game"]).engine
    target, version = proposal["to_version"], record["version"] + 1
    step = {"step": "applied", "from_version": record["version"], **_public(proposal)}
    event = {"type": "rollback_applied", **_public(step)}
    if record["mode"] != "table":  # table mode: the service knows no hidden order
        step["reshuffle"] = reshuffle_seed(record["seed"], version)
    changes: dict[str, Any] = {"rollback": None}
    try:
        if not kept.kept_by(record):
            raise LookupError("a record made before kept states")
        walk = svc.walk(record)
        state = kept.state_at(walk, engine, record["setup"], record["seed"], target)
        if "reshuffle" in step:
            state = engine.reshuffle_hidden(state, step["reshuffle"])
        changes["line"] = kept.after_rollback(walk.line(target), version,
                                              step.get("reshuffle"))
    except LookupError:
        line = line_at(svc.history(record), target)
        if "reshuffle" in step:
            line = line + [{"version": version, "reshuffle": step["reshuffle"]}]
        state = replay(engine, record["setup"], record["seed"], line, rest=pauses.pause)
        changes["line"] = None  # from now on this match walks its history (kept.kept_by)
    return _commit(svc, record, caller, "applied", keyed, {**changes, "state": state},
                   events + [event], {"rollback": step})


def _commit(svc, record, caller, status: str, keyed: Once | None, changes, events,
            entry) -> Answer:
    """Commit one step and answer its :func:`_outcome` (stored under ``keyed``'s key in the
    same commit; replayed if a retry with that key committed first)."""
    return svc.commit_answer(record, changes, events, entry,
                             lambda new, numbered: _outcome(new, numbered, caller, status),
                             keyed)


def _outcome(record, numbered, caller: Caller, status: str) -> dict[str, Any]:
    """The answer: ``{"id", "version", "status", "rollback" (pending or None), "events" (this
    step's, as the caller may see them), then the envelope: "phase", "to_move" (empty while
    the rollback is pending), "awaiting", "awaiting_message", "score", "outcome", "over",
    "view"}`` (:func:`referee.matches.envelope.envelope`)."""
    entry = game_entry(record["game"])
    return {"id": record["id"], "version": record["version"], "status": status,
            "rollback": record.get("rollback"), "events": for_reader(numbered, caller.viewer),
            **envelope(entry, record, record["state"], caller)}


Moves = tuple[list[dict[str, Any]], int]
"""``(the first`` :data:`UNDONE_LISTED` ``action steps, how many there are)``."""


def _undoing(svc: MatchService, record: dict[str, Any], target: int
             ) -> tuple[Moves, Moves, bool]:
    """What a rollback to ``target`` changes: ``(undone, redone, crosses)`` — the actions on
    the line now that are not on the target's line (taken back), those on the target's line
    that are not on the line now (brought back: ``target`` is a version an earlier rollback
    took back, so this one undoes that rollback), and whether either holds an action that
    closed a hand's scoring (:data:`referee.matches.kept.SCORING_EVENTS`: taking it back, or
    bringing it back, needs every seat).

    From the record's line and the kept states (:mod:`referee.matches.kept`): a few hundred
    history entries read at most.  A record made before kept states (or one whose kept state
    is missing) walks the whole history and the log back to the first version concerned, as
    :func:`_undoing_walked` does."""
    if not kept.kept_by(record):
        return _undoing_walked(svc, record, target)
    walk = svc.walk(record)
    try:
        then = walk.line(target)
        ranges = (kept.difference(record["line"], then), kept.difference(then, record["line"]))
        counts = [kept.count_in(walk, found) for found in ranges]
    except LookupError:
        return _undoing_walked(svc, record, target)
    moves = []
    for found, count in zip(ranges, counts):
        listed: list[dict[str, Any]] = []
        for first, last in found:
            if len(listed) >= UNDONE_LISTED:
                break
            listed += walk.actions_in(first, last, UNDONE_LISTED - len(listed))
        moves.append((listed, count))
    crosses = any(first <= version <= last for version in record["scored"]
                  for first, last in ranges[0] + ranges[1])
    return moves[0], moves[1], crosses


def _undoing_walked(svc: MatchService, record: dict[str, Any], target: int
                    ) -> tuple[Moves, Moves, bool]:
    """:func:`_undoing` by walking the whole history (every entry read, both lines made)
    and reading the log back from its end to the first event of the earliest version
    concerned (:meth:`MatchService.logged_since`): a scoring event of one of them crosses."""
    history = svc.history(record)
    now, then = actions_of(line_at(history)), actions_of(line_at(history, target))
    on_now = {step["version"] for step in now}  # a version names its one action: sets,
    on_then = {step["version"] for step in then}  # not list scans
    undone = [step for step in now if step["version"] not in on_then]
    redone = [step for step in then if step["version"] not in on_now]
    versions = {step["version"] for step in undone + redone}
    crosses = bool(versions) and any(
        ev["type"] in kept.SCORING_EVENTS and ev.get("version") in versions
        for ev in svc.logged_since(record, min(versions)))
    return ((undone[:UNDONE_LISTED], len(undone)), (redone[:UNDONE_LISTED], len(redone)),
            crosses)


def _voters(record: dict[str, Any]) -> int:
    """How many seats vote on a rollback: those someone holds (a token); an open seat
    (:mod:`referee.matches.seating`) has nobody to vote until it is claimed."""
    return sum(1 for player in record["players"] if record["seats"].get(player) is not None)


def _named(step: dict[str, Any]) -> dict[str, Any]:
    """An undone action step as events show it: version, type and player (no card)."""
    action = step["action"]
    return {"version": step["version"], "type": action.get("type"),
            "player": action.get("player")}


def _public(proposal: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in proposal.items() if key != "step"}


def _pending(record) -> Refusal:
    return Refusal("rollback-pending", "A rollback is already proposed: the seats decide it, "
                   "or the host withdraws it, first.", pending=record["rollback"]["proposal"])




def _bad_target(detail: str) -> Refusal:
    return InvalidInput(detail,
                        errors=[{"field": "to_version", "message": detail}])
