"""Seat endpoints (on the match blueprint, ``/v1/matches/{id}/…``): invite codes, claims,
re-issued seat tokens and host recovery (:mod:`referee.matches.seating`).

| endpoint | who | answer |
| --- | --- | --- |
| ``POST …/seats/{player}/invite`` | host token | 201 a new invite code for the seat |
| ``POST …/seats/{player}/claim`` ``{"code"}`` | anyone with the code | 200 the seat's token |
| ``POST …/claim`` ``{"code"}`` | anyone with the code | 200 the token of the seat it invites to |
| ``POST …/seats/{player}/token`` | host token | 200 a new token; the old one stops working |
| ``POST …/host/token`` ``{"recovery_code"}`` | anyone with the code | 200 a new host token |

Claims and recoveries carry no token: their code is the credential, so they spend the claim
budget (``REFEREE_LIMIT_CLAIM``, per client address: :mod:`referee.api.ratelimits`) besides
the match budgets.  Each change is a new version of the match (``ETag``), the game state
unchanged, and a public event naming the seat (never a code or token).
"""
from __future__ import annotations

from flask import request

from referee.api.matches import (_ETAG_HEADER, _answer, _etag, _load, _with_caller, blp,
                                 needs_token, problems, service)
from referee.matches import seating
from referee.ops.metrics import SEAT_CHANGES
from referee.refusals import Refusal
from referee.schemas.seats import (ClaimSchema, HostTokenSchema, InviteSchema, RecoverySchema,
                                   SeatTokenSchema)

CLAIM_ENDPOINTS = frozenset({"matches.claim_seat", "matches.claim_any_seat",
                             "matches.recover_host"})
"""The endpoints whose code is the credential: they spend the claim budget."""

_CLAIM_KEY = [{"name": "Idempotency-Key", "in": "header", "schema": {"type": "string"},
               "description": "1-255 visible ASCII characters: a retry with the same code and "
               "key within REFEREE_CREATE_REPLAY_SECONDS (600) gets the same token again"}]
_KEYED = {**_ETAG_HEADER, "Idempotent-Replayed": {
    "schema": {"type": "string"}, "description": "true when this is the first answer replayed"}}


@blp.route("/<match_id>/seats/<player>/invite", methods=["POST"])
@blp.response(201, InviteSchema, headers=_ETAG_HEADER)
@problems(401, 403, 404)
@needs_token
def invite_seat(match_id, player):
    """A new invite code for ``player``'s seat (host token): 12 letters and digits, single-use,
    valid ``REFEREE_INVITE_SECONDS`` (3600); the seat's unused older code stops working.  For
    an open seat, or a taken one whose phone lost its token (claiming replaces that token).
    403 not the host token; 404 no such seat."""
    svc, record, caller = _with_caller(match_id, required=True)
    body = seating.invite(svc, record, caller, player)
    SEAT_CHANGES.labels("invited").inc()
    return body, 201, _etag(body["version"])


@blp.route("/<match_id>/seats/<player>/claim", methods=["POST"])
@blp.doc(parameters=_CLAIM_KEY)
@blp.arguments(ClaimSchema)
@blp.response(200, SeatTokenSchema, headers=_KEYED)
@problems(403, 404, 409, 410, 422, 429)
def claim_seat(body, match_id, player):
    """Trade the seat's invite code for its token (no token needed: the code is the
    credential).  The code works once: 403 ``invite-invalid`` (not a live code of this seat),
    409 ``invite-used``, 410 ``invite-expired``; 422 not a code at all; 404 no such seat.  A
    seat that had a token gets a new one (the old stops working)."""
    return _claimed(match_id, player, body["code"])


@blp.route("/<match_id>/claim", methods=["POST"])
@blp.doc(parameters=_CLAIM_KEY)
@blp.arguments(ClaimSchema)
@blp.response(200, SeatTokenSchema, headers=_KEYED)
@problems(403, 404, 409, 410, 422, 429)
def claim_any_seat(body, match_id):
    """Like ``POST …/seats/{player}/claim`` for whichever seat the code invites to (``player``
    in the answer): for a link that carries only the match and the code."""
    return _claimed(match_id, None, body["code"])


def _claimed(match_id: str, player: str | None, code: str):
    svc = service()
    record = _load(svc, match_id)  # no token: the code is the credential
    try:
        status, answer, replayed = seating.claim(svc, record, player, code,
                                                 request.headers.get("Idempotency-Key"))
    except Refusal as refused:
        if refused.slug.startswith("invite-"):
            SEAT_CHANGES.labels("claim_refused").inc()
        raise
    if not replayed:
        SEAT_CHANGES.labels("claimed").inc()
    return _answer(status, answer, replayed)


@blp.route("/<match_id>/seats/<player>/token", methods=["POST"])
@blp.response(200, SeatTokenSchema, headers=_ETAG_HEADER)
@problems(401, 403, 404)
@needs_token
def reissue_seat(match_id, player):
    """A new token for ``player``'s seat (host token): the old one stops working at once — its
    next request is 401, its stream tickets fail, its open streams end (``reason``
    ``revoked``).  The event log says the seat was re-issued; the game state does not
    change.  403 not the host token; 404 no such seat."""
    svc, record, caller = _with_caller(match_id, required=True)
    body = seating.reissue(svc, record, caller, player)
    SEAT_CHANGES.labels("reissued").inc()
    return body, 200, _etag(body["version"])


@blp.route("/<match_id>/host/token", methods=["POST"])
@blp.arguments(RecoverySchema)
@blp.response(200, HostTokenSchema, headers=_ETAG_HEADER)
@problems(403, 404, 422, 429)
def recover_host(body, match_id):
    """A new host token for the match's recovery code (from the creation answer; no token
    needed): the old host token stops working, the recovery code stays valid.  403 another
    code; 422 not a recovery code at all."""
    svc = service()
    record = _load(svc, match_id)  # no token: the recovery code is the credential
    answer = seating.recover_host(svc, record, body["recovery_code"])
    SEAT_CHANGES.labels("host_reissued").inc()
    return answer, 200, _etag(answer["version"])
