"""Creating a match: seats with tokens or open, invite and recovery codes, and creation that a
lost answer cannot lose.

``POST /v1/matches`` deals the match (:meth:`MatchService.deal`) and answers every secret once:
a token for each seat that is not open, one invite code for each open seat
(:mod:`referee.matches.seating`), the host token and the recovery code.  Only their hashes are
stored.

**Idempotent creation.**  With an ``Idempotency-Key`` (:data:`CREATE_KEY`: 32-255 visible ASCII
characters — a random UUID, or 32 hex digits from a secure random source) the match id is
derived from the key (:func:`match_id_of`), so a retry cannot make a second match: the store's
create is atomic and refuses an id that exists.  The first answer is kept with the match,
sealed with a key derived from the ``Idempotency-Key`` (:mod:`referee.matches.sealed`), for
``REFEREE_CREATE_REPLAY_SECONDS`` (default 600) and then deleted by the store's expiry; a retry
within that window with the same key and the same body gets it again (201,
``Idempotent-Replayed: true``); the same key with another body is 422
``idempotency-key-reused``, and so is the same key after the window (the match it made still
exists, its secrets are no longer kept).  Whoever holds the key can replay the answer — every
token — for those minutes, so the key must be as secret and as unguessable as a token.
"""
from __future__ import annotations

import base64
import hashlib
import re
import secrets
import time
from typing import Any

from referee.matches.callers import new_token, token_hash
from referee.matches.codes import RECOVERY_SYMBOLS, code_hash, new_code
from referee.matches.idempotency import fingerprint
from referee.matches.loading import game_entry, load_setup
from referee.matches.seating import invite_code
from referee.matches.sealed import seal, unseal
from referee.matches.service import MatchService
from referee.refusals import IdempotencyKeyReused, InvalidInput
from referee.store import MatchExists, MatchNotFound

CREATE_KEY = re.compile(r"[\x21-\x7e]{32,255}")
"""An ``Idempotency-Key`` of ``POST /v1/matches``: 32-255 visible ASCII characters.  The length
is what can be checked; the key must also be random (a UUIDv4 carries 122 bits)."""

Answer = tuple[int, dict[str, Any], bool]
"""``(status, body, replayed)``."""


def match_id_of(key: str) -> str:
    """The id of the match created with ``Idempotency-Key`` ``key``: the first 22 characters
    of base64url(SHA-256(``"referee match id\\n" + key``)) — 128 bits, shaped like a random id;
    the key cannot be read back from it."""
    digest = hashlib.sha256(f"referee match id\n{key}".encode()).digest()
    return base64.urlsafe_b64encode(digest).decode()[:22]


def create(svc: MatchService, body: dict[str, Any], key: str | None = None) -> Answer:
    """Deal a new match from ``{"game", "open_seats"?, ...the game's setup body}`` (see
    :class:`~referee.schemas.matches.MatchCreateSchema`); return ``(201, answer, replayed)``:
    id, version 1, commitment, ``seats`` (a token per seat not open), ``open_seats``,
    ``invites`` (a code per open seat), ``host_token``, ``recovery_code``, ``ttl``.  With
    ``key`` (an ``Idempotency-Key``) see the module docstring.  422 ``invalid-input`` (also
    for a key that is not 32-255 visible ASCII characters, or ``open_seats`` naming no
    player), ``invalid-setup``, ``idempotency-key-reused``; 404 ``unknown-game``."""
    body = dict(body)
    request = fingerprint(body)
    match_id = None
    if key is not None:
        if not CREATE_KEY.fullmatch(key):
            raise InvalidInput("An Idempotency-Key that creates a match is 32-255 visible "
                               "ASCII characters: a random UUID, or 32 hex digits from a "
                               "secure random source (whoever knows it gets the answer again).",
                               errors=[{"field": "Idempotency-Key",
                                        "message": "not 32-255 visible ASCII characters"}])
        match_id = match_id_of(key)
        replayed = _replay(svc, match_id, key, request)
        if replayed is not None:
            return replayed
    open_list = body.pop("open_seats", None) or []
    entry = game_entry(body.pop("game"))
    setup, seed = load_setup(entry, body)
    _check_open(setup["players"], open_list)
    match_id = match_id or secrets.token_urlsafe(16)
    tokens = {p: new_token() for p in setup["players"] if p not in open_list}
    host, recovery = new_token(), new_code(RECOVERY_SYMBOLS)
    now = int(time.time())
    invites, stored_invites = {}, {}
    for player in setup["players"]:
        if player in open_list:
            invites[player], stored_invites[player] = invite_code(
                match_id, player, svc.invite_seconds, now)
    answer: dict[str, Any] = {}

    def keep(record: dict[str, Any]) -> tuple[str, int] | None:
        answer.update({key_: record[key_] for key_ in ("id", "game", "mode", "version",
                                                       "players", "commitment")})
        answer.update({"seats": tokens, "open_seats": [p for p in setup["players"]
                                                       if p in open_list],
                       "invites": invites, "host_token": host, "recovery_code": recovery,
                       "ttl": svc.ttl})
        if key is None or svc.replay_seconds <= 0:
            return None
        return seal(f"create\n{key}", {"request": request, "body": answer}), svc.replay_seconds

    seats = {p: token_hash(tokens[p]) if p in tokens else None for p in setup["players"]}
    try:
        svc.deal(entry, setup, seed, seats, token_hash(host), match_id=match_id, keep=keep,
                 recovery=code_hash(match_id, "recovery", recovery), invites=stored_invites)
    except MatchExists:
        if key is None:
            raise
        replayed = _replay(svc, match_id, key, request)  # the same key's first request won
        if replayed is None:
            raise _expired(match_id, svc.replay_seconds) from None
        return replayed
    return 201, answer, False


def _check_open(players: list[str], open_list: list[str]) -> None:
    """422 ``invalid-input`` naming ``open_seats[i]``, the first name that is no player or is
    listed twice."""
    for i, name in enumerate(open_list):
        if name not in players:
            raise InvalidInput("open_seats lists players of this match, each once.", errors=[
                {"field": f"open_seats[{i}]", "message": "not one of the players"}])
        if name in open_list[:i]:
            raise InvalidInput("open_seats lists players of this match, each once.", errors=[
                {"field": f"open_seats[{i}]", "message": "listed twice"}])


def _replay(svc: MatchService, match_id: str, key: str, request: str) -> Answer | None:
    """The kept first answer of ``key`` (``(201, body, True)``), ``None`` when no match was made
    with it; 422 ``idempotency-key-reused`` when it was made from another body, or its answer
    is no longer kept."""
    sealed = svc.store.kept(match_id)
    if sealed is None:
        try:
            svc.store.load(match_id)
        except MatchNotFound:
            return None
        # A racing request with the same key may have created the match (and its kept
        # answer, in the same atomic write) between the two reads above: read it again.
        sealed = svc.store.kept(match_id)
        if sealed is None:
            raise _expired(match_id, svc.replay_seconds)
    kept = unseal(f"create\n{key}", sealed)
    if kept is None or kept["request"] != request:
        raise IdempotencyKeyReused("This Idempotency-Key created a match from another body; "
                                   "use a new key.", errors=[{"field": "Idempotency-Key",
                                                              "message": "already used"}])
    return 201, kept["body"], True


def _expired(match_id: str, seconds: int) -> IdempotencyKeyReused:
    return IdempotencyKeyReused(f"This Idempotency-Key created the match {match_id} more than "
                                f"{seconds} seconds ago: its answer is no longer kept. Use a "
                                "new key.", errors=[{"field": "Idempotency-Key",
                                                     "message": "already used"}])
