"""Bodies of the seat endpoints (``/v1/matches/{id}/seats/…``, ``…/claim``, ``…/host/token``):
invite codes, claims, re-issued tokens, host recovery."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

_CODE_TEXT = validate.Length(1, 64)
"""A code as typed: hyphens, spaces and case are ignored (:mod:`referee.matches.codes`)."""

_VERSION = fields.Integer(required=True, metadata={
    "description": "the match's version after this change (a seat change is a version of its "
                   "own: the game state does not change)"})


class InviteCodeSchema(Schema):
    """One seat's invite code: single-use, expiring."""

    code = fields.String(required=True, metadata={
        "description": "12 letters and digits in groups of four (K7M2-Q9XD-4HPA), 60 random "
                       "bits; case, hyphens and spaces do not matter, O reads as 0, I and L as 1"})
    expires_at = fields.Integer(required=True, metadata={
        "description": "Unix time (seconds) after which the code no longer claims the seat"})
    expires_in = fields.Integer(required=True, metadata={
        "description": "seconds from this answer to expires_at (as of the first answer, when "
                       "it is replayed)"})


class InviteSchema(InviteCodeSchema):
    """``POST …/seats/{player}/invite``: a new invite code for the seat (an unused older one
    stops working)."""

    id = fields.String(required=True)
    player = fields.String(required=True)
    version = _VERSION


class ClaimSchema(Schema):
    """``POST …/seats/{player}/claim`` and ``POST …/claim``: the invite code."""

    code = fields.String(required=True, validate=_CODE_TEXT, metadata={
        "description": "the seat's invite code, as the host shared it"})


class SeatTokenSchema(Schema):
    """A seat's new token (a claim, or the host's re-issue): the seat's previous token, if any,
    no longer works."""

    id = fields.String(required=True)
    player = fields.String(required=True)
    token = fields.String(required=True, metadata={"description": "the seat token (Bearer)"})
    version = _VERSION
    ttl = fields.Integer(required=True, metadata={"description": "idle seconds before the "
                                                  "match expires"})


class RecoverySchema(Schema):
    """``POST …/host/token``: the recovery code returned when the match was created."""

    recovery_code = fields.String(required=True, validate=_CODE_TEXT, metadata={
        "description": "the match's recovery code"})


class HostTokenSchema(Schema):
    """The new host token: the previous one no longer works; the recovery code stays valid."""

    id = fields.String(required=True)
    host_token = fields.String(required=True)
    version = _VERSION
    ttl = fields.Integer(required=True)
