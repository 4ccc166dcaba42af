"""Bodies of the match API (``/v1/matches``): requests, responses, query strings."""
from __future__ import annotations

from marshmallow import EXCLUDE, INCLUDE, Schema, fields, validate

from referee.schemas.common import ACTIONS_TEXT, GROUPS_TEXT, LegalActionGroupSchema
from referee.schemas.envelope import EnvelopeSchema
from referee.schemas.fastcheck import FastLoad
from referee.schemas.seats import InviteCodeSchema
from referee.schemas.fields import (AsciiInteger, List, MAX_PLAYERS, Mode, NAME_PATTERN,
                                    Options, PlayerName, SeatName, Seed, StrictBoolean,
                                    TEXT_RULES, valid_text)

MAX_SEQ = 2**63 - 1
"""The largest ``after`` (a Redis list index is a signed 64-bit integer)."""
PAGE_EVENTS = 100
"""Events in a page of ``GET …/events`` unless ``limit`` says otherwise."""
MAX_PAGE_EVENTS = 200
"""The most events a page holds (``limit`` may not ask for more)."""

_VERSION = fields.Integer(required=True, metadata={"description": "the match's version: 1 "
                                                   "after creation, +1 per applied action"})


class MatchCreateSchema(Schema):
    """``POST /v1/matches``: ``game`` plus that game's setup body (``players``, ``options``,
    ``mode``, ``seed`` and its own fields such as All Fours ``dealer`` or ``sides``), checked
    by the game's setup schema (``GET /v1/games/{game}``)."""

    class Meta:
        unknown = INCLUDE

    game = fields.String(required=True, metadata={"description": "a registered game name"})
    players = List(SeatName(), required=True, validate=validate.Length(2, MAX_PLAYERS),
                   metadata={"uniqueItems": True,
                             "description": "seat names in seat/play order (the game's setup "
                             "says how many); each named once: names differ after case and "
                             "compatibility (NFKC) folding (Ana, ANA and full-width ＡＮＡ "
                             "clash) and do not look alike (Unicode TS #39 skeletons: ana "
                             "and Cyrillic аna, ı and i, 1 and ١ clash)"})
    options = Options()
    mode = Mode(metadata={"description": "digital: the service deals from the seed; table: "
                          "real cards, the service keeps the public record"})
    seed = Seed(metadata={"description": "the shuffle seed; default a fresh 256-bit one as 64 "
                          "hex digits. Whoever supplies it can know every deal."})
    open_seats = List(PlayerName(), validate=validate.Length(0, MAX_PLAYERS), metadata={
        "uniqueItems": True,
        "description": "players whose seats start open: no token is minted for them; the "
                       "answer's invites hold one code each, which a phone trades for the "
                       "seat's token (POST /v1/matches/{id}/seats/{player}/claim). Default "
                       "none: every seat's token is in the answer"})


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
                        metadata={"description": "player → seat token (Bearer), for every "
                                  "seat that is not open"})
    open_seats = List(fields.String(), required=True, metadata={
        "description": "the seats created open (no token yet), in seat order"})
    invites = fields.Dict(keys=fields.String(), values=fields.Nested(InviteCodeSchema),
                          required=True, metadata={
                              "description": "open seat → its invite code (single-use, "
                                             "expiring)"})
    host_token = fields.String(required=True, metadata={
        "description": "sees the referee view; acts for host-only actions and, in table "
                       "mode, for any player; deletes the match; invites and re-issues seats"})
    recovery_code = fields.String(required=True, metadata={
        "description": "20 letters and digits (100 bits) that make a new host token (POST "
                       "/v1/matches/{id}/host/token) if this one is lost; keep it apart from "
                       "the host token. Valid as long as the match"})
    ttl = fields.Integer(required=True, metadata={"description": "idle seconds before the "
                                                  "match expires"})


_CONNECTIONS = (
    "the host's read only (GET with the host token): how many streams and long-polls each "
    "seat holds open now, in seat order ({\"ana\": 1, \"ben\": 0}; 0 for a seat not yet "
    "claimed); a phone gone counts until the server sees its stream closed or the stream's "
    "lease lapses (REFEREE_STREAM_LEASE_SECONDS). null when they are not counted "
    "(REFEREE_STREAMS_PER_TOKEN=0, REFEREE_RATE_LIMITS=off) or their storage does not "
    "answer. Changes without the version")


class _MatchHeadSchema(Schema):
    """The match fields of :class:`MatchViewSchema`, before its envelope."""

    id = fields.String(required=True)
    game = fields.String(required=True, metadata={"description": "the match's game: it "
                                                  "decides the shape of view and "
                                                  "score.breakdown"})
    mode = fields.String(required=True)
    version = _VERSION
    players = List(fields.String(), required=True)
    commitment = fields.String(required=True)
    open_seats = List(fields.String(), required=True, metadata={
        "description": "seats nobody has claimed yet (no token acts for them)"})
    role = fields.String(required=True, validate=validate.OneOf(["seat", "public", "host"]))
    seat = fields.String(allow_none=True, required=True)
    rollback = fields.Dict(allow_none=True, required=True, metadata={
        "description": "the pending rollback proposal (proposal, to_version, reason, "
                       "approval, crosses_scoring, undone: the first 20 moves it undoes, "
                       "undone_count: how many in all, redone and redone_count: the moves "
                       "it brings back when to_version is a version an earlier rollback "
                       "took back, approved_by, rejected_by), or null"})
    rematch = fields.String(allow_none=True, required=True, metadata={
        "description": "the id of this finished match's rematch, once started"})
    connections = fields.Dict(keys=fields.String(), values=fields.Integer(), allow_none=True,
                              metadata={"description": _CONNECTIONS})


class MatchViewSchema(EnvelopeSchema, _MatchHeadSchema):
    """What the caller may see of a match: the match, then the envelope every game shares
    (phase, to_move, awaiting, score, outcome, over) around the game's own view — a seat's
    view, the public view (no token) or the referee view (host token; never the seed)."""


class MatchActionSchema(FastLoad, Schema):
    """``POST /v1/matches/{id}/actions``: the action (``type``, ``player`` = the token's seat,
    the action's fields) and the expected version (or the ``If-Match`` header).  A certainly
    valid body is loaded without marshmallow's walk (:class:`~referee.schemas.fastcheck.
    FastLoad`; ``tests/matches/test_action_body_load.py`` compares both)."""

    action = fields.Dict(required=True, metadata={"description": "an action of the game"})
    expected_version = fields.Integer(strict=True, validate=validate.Range(1, MAX_SEQ), metadata={
        "description": "the version the action was chosen at; or send If-Match: \"<version>\""})


class _ActedHeadSchema(Schema):
    """The fields of :class:`MatchActedSchema` before its envelope."""

    id = fields.String(required=True)
    version = _VERSION
    events = List(fields.Dict(), required=True, metadata={
        "description": "this action's events the caller may see, each with seq and version"})


class MatchActedSchema(EnvelopeSchema, _ActedHeadSchema):
    """The applied action's outcome as the acting token sees it: the new version, its events,
    and the match view's envelope around the caller's view."""


_AFTER = AsciiInteger(load_default=0, validate=validate.Range(0, MAX_SEQ), metadata={
    "description": f"0 to {MAX_SEQ}"})

_TICKET = fields.String(validate=validate.Length(1, 200), metadata={
    "description": "a stream ticket (POST /v1/matches/{id}/stream-tickets) instead of the "
                   "Authorization header; never put the token itself in a URL"})


class EventsQuerySchema(Schema):
    """``?after=N``: only events with ``seq`` greater than N (default 0: from the first);
    ``limit=L``: at most L of them (1-200, default 100; a page also stops before 60,000
    bytes of events, so an answer stays under 64 KB); ``wait=S``: when there are none yet,
    wait up to S seconds (0–25) for one (long-polling)."""

    after = _AFTER
    limit = AsciiInteger(load_default=PAGE_EVENTS, validate=validate.Range(1, MAX_PAGE_EVENTS),
                         metadata={"description": f"the most events in the answer (1-"
                                   f"{MAX_PAGE_EVENTS}, default {PAGE_EVENTS}); follow next "
                                   "for the rest"})
    wait = AsciiInteger(load_default=0, validate=validate.Range(0, 25), metadata={
        "description": "seconds to wait for a new event when there is none (0-25)"})
    ticket = _TICKET


class StreamQuerySchema(Schema):
    """``?after=N`` (start after event N, default 0; a ``Last-Event-ID`` header wins) and
    ``?ticket=`` for browsers, whose EventSource cannot send headers."""

    after = _AFTER
    ticket = _TICKET


class StreamHeadersSchema(Schema):
    """``Last-Event-ID``: the seq of the last event received; the stream resumes after it
    (an ``EventSource`` sends it when it reconnects) and it wins over ``?after``."""

    class Meta:
        unknown = EXCLUDE

    last_event_id = AsciiInteger(data_key="Last-Event-ID", validate=validate.Range(0, MAX_SEQ),
                                   metadata={"description": "resume after this event seq"})


class StreamTicketSchema(Schema):
    """A read-only ticket for ``GET …/stream?ticket=`` and ``GET …/events?ticket=``."""

    ticket = fields.String(required=True)
    expires_in = fields.Integer(required=True, metadata={
        "description": "seconds the ticket may be used to open a stream"})


class MatchEventsSchema(Schema):
    """A page of the events the caller may see, in order, and where the next page starts."""

    version = _VERSION
    events = List(fields.Dict(), required=True)
    next = fields.Integer(required=True, allow_none=True, metadata={
        "description": "more events follow: ask again with after=next; null when this page "
                       "reaches the last event logged"})


class MatchLegalActionsSchema(Schema):
    """The caller's legal actions now (the host: everyone's, host-only ones included) and,
    with ``?form=grouped``, the same grouped for pickers (``groups``); none, and nobody to
    move, while a rollback is pending."""

    version = _VERSION
    actions = List(fields.Dict(), required=True, metadata={"description": ACTIONS_TEXT})
    groups = List(fields.Nested(LegalActionGroupSchema),
                  metadata={"description": GROUPS_TEXT})
    to_move = List(fields.String(), required=True)


class RollbackProposeSchema(Schema):
    """``POST /v1/matches/{id}/rollback`` (host token): back to an earlier version."""

    to_version = fields.Integer(required=True, strict=True, validate=validate.Range(1),
                                metadata={"description": "the version whose game state "
                                          "returns"})
    reason = fields.String(required=True, validate=[validate.Length(1, 500), valid_text],
                           metadata={"pattern": NAME_PATTERN,
                                     "description": f"1-500 {TEXT_RULES}"})
    approval = fields.String(load_default="all", validate=validate.OneOf(["all", "majority"]),
                             metadata={"description": "digital mode: every seat approves, "
                                       "or more than half (a rollback across a finished "
                                       "hand's scoring always needs every seat)"})
    expected_version = fields.Integer(strict=True, validate=validate.Range(1, MAX_SEQ), metadata={
        "description": "the version the host saw; or send If-Match"})


class RollbackVoteSchema(Schema):
    """``POST /v1/matches/{id}/rollback/votes`` (seat token): approve or reject."""

    proposal = fields.Integer(required=True, strict=True, validate=validate.Range(1),
                              metadata={"description": "the pending rollback's proposal "
                                        "number (the version it was proposed at)"})
    approve = StrictBoolean(required=True, metadata={
        "description": "true approves, false rejects"})


class _RollbackHeadSchema(Schema):
    """The fields of :class:`RollbackResultSchema` before its envelope."""

    id = fields.String(required=True)
    version = _VERSION
    status = fields.String(required=True, validate=validate.OneOf(
        ["pending", "applied", "rejected", "withdrawn"]))
    rollback = fields.Dict(allow_none=True, required=True, metadata={
        "description": "the proposal still pending, or null"})
    events = List(fields.Dict(), required=True)


class RollbackResultSchema(EnvelopeSchema, _RollbackHeadSchema):
    """What a rollback step did, as the calling token sees it, and the match view's envelope
    (``to_move`` empty while the proposal is pending)."""


class RematchRequestSchema(Schema):
    """``POST …/rematch``'s optional body: the facts of the new deal, which a rematch never
    copies (table mode: All Fours ``kick``, Coup ``deal``, Spy ``bases``, required there,
    SPY-S2; digital: an entered ``deal``), and All Fours' ``dealer``; each checked by the
    game's setup schema, and a field the game does not deal refused (422 ``invalid-input``)."""

    dealer = PlayerName()
    kick = fields.String(metadata={"description": "All Fours, table mode: the first kick"})
    deal = fields.Dict(metadata={"description": "an entered deal (the game's setup ``deal``)"})
    bases = fields.Dict(metadata={"description": "Spy: every player's arranged base"})


class RematchSchema(Schema):
    """The rematch: a new match, same game, setup and seats (the old tokens act in it), a
    fresh seed and commitment."""

    id = fields.String(required=True)
    game = fields.String(required=True)
    mode = fields.String(required=True)
    version = _VERSION
    players = List(fields.String(), required=True)
    commitment = fields.String(required=True)
    rematch_of = fields.String(required=True)
    ttl = fields.Integer(required=True)


class AuditSchema(Schema):
    """Everything needed to replay a finished match through the stateless endpoints."""

    id = fields.String(required=True)
    game = fields.String(required=True)
    setup = fields.Dict(required=True, metadata={"description": "the setup body, seed "
                                                 "included: POST it to /v1/games/{game}/setup"})
    seed = Seed(required=True)
    commitment = fields.String(required=True)
    steps = List(fields.Dict(), required=True, metadata={
        "description": "what made the final state from the setup, in order: {version, "
                       "action} (POST it to /v1/games/{game}/apply) or {version, reshuffle} "
                       "(a rollback dealt the hidden orders afresh: POST the state and "
                       "reshuffle as seed to /v1/games/{game}/reshuffle; reshuffle is "
                       "sha256(\"<seed>:rollback:<version>\") in hex)"})
    actions = List(fields.Dict(), required=True, metadata={
        "description": "the actions among steps, in order (actions a rollback undid are not "
                       "here)"})
    history = List(fields.Dict(), required=True, metadata={
        "description": "every commit in order, each with its version: {action}, or "
                       "{rollback: {step, ...approved_by, undone}} or {rematch}, or a seat "
                       "change {seat: {step: invited|claimed|reissued, player}} or {host: "
                       "{step: reissued}} (never a code or token)"})
    final_state = fields.Dict(required=True)
    version = _VERSION
