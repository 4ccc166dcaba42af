"""Who is calling a match endpoint, and what they may see and do.

A secret token (``Authorization: Bearer``) decides it: one per seat and one for the host,
generated with :func:`secrets.token_urlsafe` and stored only as SHA-256 hex.  A seat sees and
acts as itself; the host sees the referee view (never the seed), acts for host-only actions (a
``player`` that is not a seat, such as Coup's ``"host"``) and, in table mode, for any player;
no token gives the public view.  An **open** seat (stored as ``None``) has no token until it is
claimed (:mod:`referee.matches.seating`); a re-issued token replaces the stored hash, so the
old token stops identifying anyone at once, and a caller remembers the hash it was identified
by (:attr:`Caller.credential`) so an open stream can tell when it has been replaced
(:func:`still_holds`).
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any

from referee.games.base import PUBLIC, REFEREE
from referee.i18n.answers import localize_view
from referee.refusals import Forbidden, Refusal, Unauthorized
from referee.registry import GameEntry


def new_token() -> str:
    """A fresh secret token (256 random bits, URL-safe text)."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What is stored of a token: the SHA-256 hex of its UTF-8 bytes."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Caller:
    """Who sent the request: a seat (``seat`` is the player), the host, or the public;
    ``credential``: the stored token hash that identified a seat or the host."""

    seat: str | None = None
    host: bool = False
    credential: str | None = None

    @property
    def viewer(self) -> str | None:
        """The engine's viewer id: the player, ``REFEREE`` or ``PUBLIC``."""
        return REFEREE if self.host else self.seat if self.seat is not None else PUBLIC

    @property
    def role(self) -> str:
        """``"host"``, ``"seat"`` or ``"public"``."""
        return "host" if self.host else "seat" if self.seat is not None else "public"


def identify(record: dict[str, Any], authorization: str | None,
             required: bool = False) -> Caller:
    """Who holds the ``Authorization: Bearer <token>`` of match ``record``; no header is the
    public (401 ``unauthorized`` when ``required``); an unknown token is always 401.  Tokens
    are compared by their hashes in constant time."""
    if not authorization:
        if required:
            raise _unauthorized("This needs a seat or host token: Authorization: Bearer "
                                "<token>.")
        return Caller()
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise _unauthorized("Send the token as Authorization: Bearer <token>.")
    digest = token_hash(token.strip())
    found = (Caller(host=True, credential=record["host"])
             if hmac.compare_digest(record["host"], digest) else None)
    for seat, stored in record["seats"].items():
        if stored is not None and hmac.compare_digest(stored, digest):
            found = Caller(seat=seat, credential=stored)
    if found is None:
        raise _unauthorized("This token is no seat's or host's token of this match (a "
                            "re-issued token stops working at once).")
    return found


def still_holds(record: dict[str, Any], caller: Caller) -> bool:
    """Whether ``caller``'s token (or ticket) is still its seat's or the host's in ``record``:
    ``False`` once the token was re-issued or the seat claimed anew; always ``True`` for the
    public and for a caller made without a credential."""
    if caller.credential is None:
        return True
    stored = record["host"] if caller.host else record["seats"].get(caller.seat)
    return stored is not None and hmac.compare_digest(stored, caller.credential)


VIEW_LOG = 100
"""A view shows at most the last this many entries of a game's public ``log`` (Spy keeps every
public event in its state, so a long match's log grows without end); ``log_from`` is the index
of the first one shown.  Every entry is in ``GET …/events`` (as a public event)."""


def see(entry: GameEntry, state: dict[str, Any], caller: Caller) -> dict[str, Any]:
    """The game's view of ``state`` for ``caller``, never with the seed (it would tell every
    future deal: only the audit reveals it, after the end), its ``log`` (if any) cut to the
    last :data:`VIEW_LOG` entries (``log_from``: how many earlier ones are left out), so a
    view stays small however long the match."""
    view = {key: value for key, value in entry.engine.view(state, caller.viewer).items()
            if key != "seed"}
    log = view.get("log")
    if isinstance(log, list) and len(log) > VIEW_LOG:
        view["log"], view["log_from"] = log[-VIEW_LOG:], len(log) - VIEW_LOG
    return localize_view(view)


def authorize(record: dict[str, Any], caller: Caller, action: dict[str, Any]) -> None:
    """A seat acts only as itself; the host for host-only actions (a ``player`` that is no
    seat) and, in table mode, for anyone; the public not at all (403 ``forbidden``)."""
    player = action["player"]
    if caller.seat is not None and player != caller.seat:
        raise Forbidden(f"This is {caller.seat}'s token: it may not act as "
                        f"{player}.", errors=[{"field": "action.player",
                                               "message": f"must be {caller.seat}"}])
    if caller.host and player in record["seats"] and record["mode"] != "table":
        raise Forbidden(f"In a digital match {player} acts with their own seat "
                        "token; the host token acts only for the host.",
                        errors=[{"field": "action.player", "message": "a seat, not the host"}])


def _unauthorized(detail: str) -> Refusal:
    return Unauthorized(detail)
