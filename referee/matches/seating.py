"""Seats that join and rejoin: invite codes, claims, re-issued tokens, host recovery.

- **Open seats** (created with ``open_seats``): no token exists for them until a phone claims
  the seat with its **invite code** (:mod:`referee.matches.codes`: 12 symbols, 60 bits,
  single-use, expiring after ``REFEREE_INVITE_SECONDS``, default 3600).  Only the code's hash
  is kept (``record["invites"][player]``: ``{"code": hash, "expires": Unix seconds, "used"?:
  version}``), one live code per seat: the host's ``POST …/seats/{player}/invite`` makes a new
  one (the unused older one stops working) for an open seat, or for a taken seat whose phone
  lost its token (claiming it then replaces that token).
- **Claim** (``POST …/seats/{player}/claim`` or ``POST …/claim``, no token: the code is the
  credential): the seat's new token.  A code that matches no live invite of the seat is 403
  ``invite-invalid``, a used one 409 ``invite-used``, an expired one 410 ``invite-expired``.
  Two claims of one code race on the match's version (one atomic compare-and-set): one wins,
  the other then finds the code used.  With an ``Idempotency-Key`` the answer (the token) is
  kept sealed under the code and the key (:mod:`referee.matches.sealed`) for
  ``REFEREE_CREATE_REPLAY_SECONDS``: a retry of a claim whose answer was lost gets the same
  token.
- **Re-issue** (``POST …/seats/{player}/token``, host token): a new token for the seat; the
  old one stops working at once — its next request is 401, its stream tickets no longer
  verify (they are keyed with the stored hash) and its open streams end with ``reason``
  ``revoked`` (:mod:`referee.matches.live`).
- **Host recovery** (``POST …/host/token`` with the recovery code of the creation answer): a
  new host token, the old one stops working; the recovery code stays valid for the match.

Each change is a commit of its own (like a rollback's steps): the version goes up by one, the
game state does not change, one public event names the seat and nothing else
(``seat_invited``, ``seat_claimed``, ``seat_reissued``, ``host_reissued``) and the history
keeps ``{"version", "seat": {"step": "invited"|"claimed"|"reissued", "player"}}`` or
``{"version", "host": {"step": "reissued"}}`` (the audit shows them; never a code or token).
None needs ``If-Match``: none depends on the game state, so a change that loses a race with a
move is tried again on the new version (:data:`RETRIES`); an action chosen before it gets 409
``version-conflict`` and is sent again at the new version (its legal actions are the same).
"""
from __future__ import annotations

import hmac
import time
from typing import Any, Callable

from referee.matches.callers import Caller, new_token, token_hash
from referee.matches.codes import (INVITE_SYMBOLS, RECOVERY_SYMBOLS, canonical, code_hash,
                                   new_code)
from referee.matches.idempotency import IDEMPOTENCY_KEY
from referee.matches.sealed import kept_id, seal, unseal
from referee.matches.kept import checkpoint
from referee.matches.service import MatchService, advance
from referee.refusals import Forbidden, InvalidInput, NotFound, Refusal
from referee.store import AlreadyRecorded, MatchNotFound, VersionConflict

RETRIES = 8
"""A seat change that loses a race with another commit is tried again this many times."""

Answer = tuple[int, dict[str, Any], bool]
"""``(status, body, replayed)``."""

Change = tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any], dict[str, Any]]
"""What a seat change commits: ``(record changes, events, history entry, answer)``."""


def invite_code(match_id: str, player: str, seconds: int, now: int
                ) -> tuple[dict[str, Any], dict[str, Any]]:
    """A fresh invite code of ``player``'s seat valid ``seconds`` from ``now`` (Unix seconds):
    ``(answer part {"code", "expires_at", "expires_in"}, what the record keeps
    {"code": hash, "expires"})``."""
    code = new_code(INVITE_SYMBOLS)
    return ({"code": code, "expires_at": now + seconds, "expires_in": seconds},
            {"code": code_hash(match_id, f"invite:{player}", code), "expires": now + seconds})


def invite(svc: MatchService, record: dict[str, Any], caller: Caller, player: str
           ) -> dict[str, Any]:
    """A new invite code for ``player``'s seat (host token): ``{"id", "player", "code",
    "expires_at", "expires_in", "version"}``; the seat's unused older code stops working.  403
    ``forbidden`` without the host token, 404 ``not-found`` for no such seat."""
    if not caller.host:
        raise Forbidden("Only the host token makes invite codes.")
    _seat(record, player)

    def change(current: dict[str, Any]) -> Change:
        shown, kept = invite_code(current["id"], player, svc.invite_seconds, int(time.time()))
        return ({"invites": {**current.get("invites", {}), player: kept}},
                [{"type": "seat_invited", "player": player}],
                {"seat": {"step": "invited", "player": player}},
                {"id": current["id"], "player": player, **shown,
                 "version": current["version"] + 1})
    return _commit(svc, record, change)[1]


def claim(svc: MatchService, record: dict[str, Any], player: str | None, text: str,
          key: str | None = None) -> Answer:
    """Trade invite code ``text`` for its seat's token (``player``: the seat named in the
    path, or ``None`` for whichever seat the code invites to): ``(200, {"id", "player",
    "token", "version", "ttl"}, replayed)``.  422 ``invalid-input`` for text that is no code
    (or a malformed ``Idempotency-Key``); 404 for no such seat; 403 ``invite-invalid``, 409
    ``invite-used``, 410 ``invite-expired``.  With ``key`` see the module docstring."""
    if player is not None:
        _seat(record, player)
    code = canonical(text, INVITE_SYMBOLS, "code")
    material = scoped = None
    if key is not None:
        if not IDEMPOTENCY_KEY.fullmatch(key):
            raise InvalidInput("Idempotency-Key must be 1-255 visible ASCII characters.",
                               errors=[{"field": "Idempotency-Key",
                                        "message": "not 1-255 visible ASCII characters"}])
        material = f"claim\n{record['id']}\n{code}\n{key}"
        scoped = kept_id(material)
        replayed = _claimed_before(svc, record["id"], scoped, material)
        if replayed is not None:
            return replayed

    def change(current: dict[str, Any]) -> Change:
        seat = _invited(current, player, code)
        token = new_token()
        version = current["version"] + 1
        invites = {**current["invites"], seat: {**current["invites"][seat], "used": version}}
        return ({"seats": {**current["seats"], seat: token_hash(token)}, "invites": invites},
                [{"type": "seat_claimed", "player": seat}],
                {"seat": {"step": "claimed", "player": seat}},
                {"id": current["id"], "player": seat, "token": token, "version": version,
                 "ttl": svc.ttl})

    def kept(answer: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        if material is None:
            return None
        return scoped, {"sealed": seal(material, answer),
                        "until": int(time.time()) + svc.replay_seconds}
    try:
        return 200, _commit(svc, record, change, kept)[1], False
    except AlreadyRecorded:  # the same claim with the same key won a race with this one
        replayed = _claimed_before(svc, record["id"], scoped, material)
        if replayed is None:
            raise svc._not_found(record["id"]) from None
        return replayed


def reissue(svc: MatchService, record: dict[str, Any], caller: Caller, player: str
            ) -> dict[str, Any]:
    """A new token for ``player``'s seat (host token): ``{"id", "player", "token", "version",
    "ttl"}``; the seat's old token (if any) stops working at once.  403 ``forbidden`` without
    the host token, 404 for no such seat."""
    if not caller.host:
        raise Forbidden("Only the host token re-issues a seat's token.")
    _seat(record, player)

    def change(current: dict[str, Any]) -> Change:
        token = new_token()
        return ({"seats": {**current["seats"], player: token_hash(token)}},
                [{"type": "seat_reissued", "player": player}],
                {"seat": {"step": "reissued", "player": player}},
                {"id": current["id"], "player": player, "token": token,
                 "version": current["version"] + 1, "ttl": svc.ttl})
    return _commit(svc, record, change)[1]


def recover_host(svc: MatchService, record: dict[str, Any], text: str) -> dict[str, Any]:
    """A new host token for the match's recovery code ``text``: ``{"id", "host_token",
    "version", "ttl"}``; the old host token stops working, the recovery code stays valid.
    422 ``invalid-input`` for text that is no recovery code; 403 ``forbidden`` for another
    code (or a match made before recovery codes existed)."""
    code = canonical(text, RECOVERY_SYMBOLS, "recovery_code")
    stored = record.get("recovery")
    made_for = record.get("recovery_match", record["id"])  # a rematch keeps the first's code
    if stored is None or not hmac.compare_digest(
            stored, code_hash(made_for, "recovery", code)):
        raise Forbidden("This is not the recovery code of this match.",
                        errors=[{"field": "recovery_code", "message": "not this match's"}])

    def change(current: dict[str, Any]) -> Change:
        token = new_token()
        return ({"host": token_hash(token)}, [{"type": "host_reissued"}],
                {"host": {"step": "reissued"}},
                {"id": current["id"], "host_token": token,
                 "version": current["version"] + 1, "ttl": svc.ttl})
    return _commit(svc, record, change)[1]


def _commit(svc: MatchService, record: dict[str, Any],
            change: Callable[[dict[str, Any]], Change],
            kept: Callable[[dict[str, Any]], tuple[str, dict[str, Any]] | None] | None = None
            ) -> tuple[dict[str, Any], dict[str, Any]]:
    """Commit ``change(record)`` as the next version; on a version conflict read the match
    again and apply ``change`` to it (up to :data:`RETRIES` times: it checks what it needs
    afresh).  ``kept(answer)``: the idempotency record to write in the same commit.  Returns
    ``(new record, answer)``; 404 if the match is gone; raises
    :class:`~referee.store.AlreadyRecorded` when ``kept``'s key was recorded first."""
    for _ in range(RETRIES):
        changes, events, entry, answer = change(record)
        new, numbered = advance(record, changes, events)
        try:
            svc.store.commit(record["id"], record["version"], new,
                             {"version": new["version"], **entry}, numbered, svc.ttl,
                             kept(answer) if kept is not None else None,
                             checkpoint(new, False))
            return new, answer
        except VersionConflict:
            record = svc.load(record["id"])
        except MatchNotFound:
            raise svc._not_found(record["id"]) from None
    raise Refusal("version-conflict", "The match kept changing while this seat change was "
                  "made; send it again.", current_version=record["version"])


def _claimed_before(svc: MatchService, match_id: str, scoped: str, material: str
                    ) -> Answer | None:
    """The first answer of this claim and key, while it is kept; else ``None``."""
    found = svc.store.recorded(match_id, scoped)
    if found is None or found.get("until", 0) <= time.time():
        return None
    answer = unseal(material, found["sealed"])
    return None if answer is None else (200, answer, True)


def _invited(record: dict[str, Any], player: str | None, code: str) -> str:
    """The seat whose live invite ``code`` is (``player``'s only, when given); 403
    ``invite-invalid``, 409 ``invite-used``, 410 ``invite-expired``."""
    invites = record.get("invites") or {}
    for seat in [player] if player is not None else record["players"]:
        invite_ = invites.get(seat)
        if invite_ is None or not hmac.compare_digest(
                invite_["code"], code_hash(record["id"], f"invite:{seat}", code)):
            continue
        if invite_.get("used"):
            raise Refusal("invite-used", "This invite code has been used already: ask the "
                          "host for a new one.", errors=[{"field": "code",
                                                          "message": "already used"}])
        if invite_["expires"] <= time.time():
            raise Refusal("invite-expired", "This invite code has expired: ask the host for a "
                          "new one.", errors=[{"field": "code", "message": "past its expiry"}])
        return seat
    raise Refusal("invite-invalid", "This is not a live invite code of this seat: check it, "
                  "or ask the host for a new one.",
                  errors=[{"field": "code", "message": "not a live invite code"}])


def _seat(record: dict[str, Any], player: str) -> None:
    if player not in record["players"]:
        raise NotFound(f"There is no seat {player!r} in this match.")
