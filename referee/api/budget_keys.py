"""Who a match call's budgets count it under (:mod:`referee.api.ratelimits`): its token's
budget, the public budget of its address and match, its address's.

- a call with a bearer token: that token's budget (:func:`token_key`);
- a read with ``?ticket=`` and no token: the budget of the token that minted the ticket, or,
  for a ticket that is not one of this match's, the public budget (:func:`ticket_keys`);
- any other call (no token: a scoreboard, phones without a seat): the public budget of its
  address and match (:func:`public_key`);
- every call: its address's (:func:`ip_key`).

A key function answering ``None`` means the call does not spend that budget.
:func:`blamed_field` says what a spent budget was keyed by, for the 429's ``errors``.
"""
from __future__ import annotations

from typing import Any

from flask import request

from referee.matches.callers import token_hash
from referee.matches.live import ticket_token_hash
from referee.matches.service import MATCH_ID
from referee.store import MatchNotFound

PUBLIC_SCOPE = "match-public"
"""The budget of match calls without a token or a ticket of the match (per address and
match)."""


def ip_key() -> str:
    """The client's IP (``request.remote_addr``, rewritten by ``ProxyFix`` when trusted)."""
    return f"ip:{request.remote_addr or '-'}"


def token_key() -> str | None:
    """The bearer token's budget key (:func:`budget_key_of`); ``None`` (this budget not
    spent) when the call has none.  A read with ``?ticket=`` is keyed by the token that minted
    the ticket instead (:func:`ticket_keys`).  A stream or long-poll is one request, so it
    counts once however long it stays open."""
    token = _bearer()
    return budget_key_of(token_hash(token)) if token else None


def public_key() -> str | None:
    """For a call without a token, the client's IP and the match it reads
    (``public:<ip>:<match id>``); ``None`` (this budget not spent) for a call with one.  A
    ticket read's keys are :func:`ticket_keys`'."""
    if _bearer():
        return None
    match_id = (request.view_args or {}).get("match_id")
    if match_id is None or not MATCH_ID.fullmatch(match_id):
        match_id = "-"
    return f"public:{request.remote_addr or '-'}:{match_id}"


def blamed_field(scope: str) -> str:
    """What the spent budget ``scope`` was keyed by, as the 429 names it: ``Authorization``
    (a token's), ``ticket`` (the budget of the token that minted the ticket read with) or
    ``client`` (the address: every other budget)."""
    if scope != "match-token":
        return "client"
    return "ticket" if not _bearer() and request.args.get("ticket") else "Authorization"


def budget_key_of(stored_hash: str) -> str:
    """The token budget's key of the token whose SHA-256 hex is ``stored_hash`` (what a
    match record stores of each token): the same for the token and its tickets."""
    return "token:" + stored_hash[:32]


def _bearer() -> str:
    return request.headers.get("Authorization", "").partition(" ")[2].strip()


def ticket_keys(store: Any, match_id: str
                ) -> tuple[dict[str, str | None] | None, dict[str, Any] | None]:
    """For a read with ``?ticket=`` and no token: ``(keys, record)``, the budget keys of the
    call (``{scope: key or None}`` for :meth:`SharedBudgets.hit`) and the match's record, read
    for them: the budget of the token that minted the ticket
    (:func:`referee.matches.live.ticket_token_hash`: one budget per seat or host, whatever
    ticket), or the public budget when the ticket is not one of this match's (forged,
    reworded, expired; the record ``None`` when there is no such match).  ``(None, None)``
    for any other call.  Raises :class:`~referee.store.StoreUnavailable` when the store does
    not answer."""
    ticket = request.args.get("ticket")
    if not ticket or _bearer() or store is None:
        return None, None
    try:
        record = store.load(match_id)
    except MatchNotFound:
        record = None
    stored_hash = None if record is None else ticket_token_hash(record, ticket)
    if stored_hash is None:
        return {"match-token": None, PUBLIC_SCOPE: public_key()}, record
    return {"match-token": budget_key_of(stored_hash), PUBLIC_SCOPE: None}, record
