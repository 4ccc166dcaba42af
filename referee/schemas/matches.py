"""Bodies of the match API (``/v1/matches``): requests, responses, query strings."""
from __future__ import annotations

from marshmallow import INCLUDE, Schema, fields, validate

from referee.schemas.fields import List, MAX_PLAYERS, Mode, Options, PlayerName, Seed

MAX_SEQ = 2**63 - 1
"""The largest ``after`` (a Redis list index is a signed 64-bit integer)."""

_VERSION = fields.Integer(required=True, metadata={"description": "the match's version: 1 "
                                                   "after creation, +1 per applied action"})


class MatchCreateSchema(Schema):
    """``POST /v1/matches``: ``game`` plus that game's setup body (``players``, ``options``,
    ``mode``, ``seed`` and its own fields such as All Fours ``dealer`` or ``sides``), checked
    by the game's setup schema (``GET /v1/games/{game}``)."""

    class Meta:
        unknown = INCLUDE

    game = fields.String(required=True, metadata={"description": "a registered game name"})
    players = List(PlayerName(), required=True, validate=validate.Length(2, MAX_PLAYERS),
                          metadata={"description": "seat names in seat/play order (the "
                                    "game's setup says how many)"})
    options = Options()
    mode = Mode(metadata={"description": "digital: the service deals from the seed; table: "
                          "real cards, the service keeps the public record"})
    seed = Seed(metadata={"description": "the shuffle seed; default a fresh 256-bit one as 64 "
                          "hex digits. Whoever supplies it can know every deal."})


class MatchCreatedSchema(Schema):
    """The new match: its id and version, the dealing commitment and every secret token
    (returned only here: the service stores their SHA-256 hashes)."""

    id = fields.String(required=True)
    game = fields.String(required=True)
    mode = fields.String(required=True)
    version = _VERSION
    players = List(fields.String(), required=True)
    commitment = fields.String(required=True, metadata={
        "description": "SHA-256 hex of the UTF-8 bytes '<seed>:<match id>' (seed in decimal "
                       "when an integer); the audit reveals the seed once the match is over"})
    seats = fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                        metadata={"description": "player → seat token (Bearer)"})
    host_token = fields.String(required=True, metadata={
        "description": "sees the referee view; acts for host-only actions and, in table "
                       "mode, for any player; deletes the match"})
    ttl = fields.Integer(required=True, metadata={"description": "idle seconds before the "
                                                  "match expires"})


class MatchViewSchema(Schema):
    """What the caller may see of a match: its seat view, the public view (no token) or the
    referee view (host token; never the seed)."""

    id = fields.String(required=True)
    game = fields.String(required=True)
    mode = fields.String(required=True)
    version = _VERSION
    role = fields.String(required=True, validate=validate.OneOf(["seat", "public", "host"]))
    seat = fields.String(allow_none=True, required=True)
    players = List(fields.String(), required=True)
    to_move = List(fields.String(), required=True)
    over = fields.Boolean(required=True)
    commitment = fields.String(required=True)
    view = fields.Dict(required=True, metadata={"description": "the game's view for this "
                                                "reader (see the game's views module)"})


class MatchActionSchema(Schema):
    """``POST /v1/matches/{id}/actions``: the action (``type``, ``player`` = the token's seat,
    the action's fields) and the expected version (or the ``If-Match`` header)."""

    action = fields.Dict(required=True, metadata={"description": "an action of the game"})
    expected_version = fields.Integer(strict=True, validate=validate.Range(1), metadata={
        "description": "the version the action was chosen at; or send If-Match: \"<version>\""})


class MatchActedSchema(Schema):
    """The applied action's outcome as the acting token sees it."""

    id = fields.String(required=True)
    version = _VERSION
    events = List(fields.Dict(), required=True, metadata={
        "description": "this action's events the caller may see, each with seq and version"})
    view = fields.Dict(required=True)
    to_move = List(fields.String(), required=True)
    over = fields.Boolean(required=True)


class EventsQuerySchema(Schema):
    """``?after=N``: only events with ``seq`` greater than N (default 0: all)."""

    after = fields.Integer(load_default=0, validate=validate.Range(0, MAX_SEQ), metadata={
        "description": f"0 to {MAX_SEQ}"})


class MatchEventsSchema(Schema):
    """The events the caller may see, in order."""

    version = _VERSION
    events = List(fields.Dict(), required=True)


class MatchLegalActionsSchema(Schema):
    """The caller's legal actions now (the host: everyone's, host-only ones included)."""

    version = _VERSION
    actions = List(fields.Dict(), required=True)
    to_move = List(fields.String(), required=True)


class AuditSchema(Schema):
    """Everything needed to replay a finished match through the stateless endpoints."""

    id = fields.String(required=True)
    game = fields.String(required=True)
    setup = fields.Dict(required=True, metadata={"description": "the setup body, seed "
                                                 "included: POST it to /v1/games/{game}/setup"})
    seed = Seed(required=True)
    commitment = fields.String(required=True)
    actions = List(fields.Dict(), required=True, metadata={
        "description": "every applied action in order: POST each to /v1/games/{game}/apply"})
    final_state = fields.Dict(required=True)
    version = _VERSION
