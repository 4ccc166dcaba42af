"""Match endpoints (``/v1/matches``): a whole table plays a match kept by the service.

Each view parses, calls :class:`referee.matches.service.MatchService` and serialises.  Tokens go in
``Authorization: Bearer <token>``; match reads and action responses carry ``ETag: "<version>"``.
Errors are problem+json: 401 ``unauthorized`` (missing/unknown token where one is needed), 403
``forbidden`` (acting as another seat; the audit before the end; deleting without the host
token), 404 ``not-found``, 409 ``version-conflict`` (with ``current_version``),
``rollback-pending``, ``no-rollback``, ``match-not-over`` (a rematch before the end), 422
``invalid-input``/``invalid-setup``/``illegal-action``/``idempotency-key-reused``, 428
``precondition-required`` (no expected version), 503 ``store-unavailable`` with
``Retry-After`` (the match store is down; the stateless endpoints still answer).
"""
from __future__ import annotations

from flask import Response, current_app, g, request
from flask.views import MethodView
from referee.api.parsing import Blueprint

from referee.matches import creation, disputes, live
from referee.matches.rematch import rematch as start_rematch
from referee.api import fair_share, open_caps
from referee.api.audit_text import audit_chunks
from referee.api.errors import ProblemSchema
from referee.matches.audit import audit_texts
from referee.matches.loading import document_order
from referee.refusals import InvalidInput
from referee.matches.service import MatchService
from referee.games.common.grouping import in_form
from referee.i18n.negotiation import language
from referee.schemas.common import LegalActionsQuerySchema
from referee.schemas.matches import (AuditSchema, EventsQuerySchema, MatchActedSchema,
                                     MatchActionSchema, MatchCreatedSchema, MatchCreateSchema,
                                     MatchEventsSchema, MatchLegalActionsSchema, MatchViewSchema,
                                     RematchRequestSchema, RematchSchema, RollbackProposeSchema, RollbackResultSchema,
                                     RollbackVoteSchema, StreamHeadersSchema,
                                     StreamQuerySchema, StreamTicketSchema)

blp = Blueprint("matches", __name__, url_prefix="/v1/matches",
                description="Matches kept by the service: seat tokens, versions, events, audit.")

_ERRORS = {"description": "problem+json", "schema": ProblemSchema}
_UNAVAILABLE = {"description": "problem+json store-unavailable: the match store does not "
                "answer or refuses writes (nothing was written), or match-limit-reached: a new "
                "match would pass REFEREE_MAX_LIVE_MATCHES; retry after Retry-After seconds",
                "schema": ProblemSchema,
                "headers": {"Retry-After": {"schema": {"type": "integer"},
                                            "description": "seconds to wait"}}}
_ETAG_HEADER = {"ETag": {"schema": {"type": "string"}, "description": 'the version, "7"'}}
_ACT_HEADERS = [
    {"name": "If-Match", "in": "header", "schema": {"type": "string"},
     "description": 'the version the action was chosen at, "7" (or body expected_version)'},
    {"name": "Idempotency-Key", "in": "header", "schema": {"type": "string"},
     "description": "1-255 visible ASCII characters; a retry returns the first response"}]


def problems(*statuses: int):
    """Document these problem statuses, and 503 ``store-unavailable``, on an endpoint.

    flask-smorest's ``alt_response`` documents a status by wrapping the view in a function
    that only calls it through (``current_app.ensure_sync``), its ``_apidoc`` holding the
    documentation: ``view`` itself is returned with that ``_apidoc``, so the OpenAPI document
    is the same and a call does not pass through one layer per status (issue 11: seven
    layers on ``…/actions``)."""
    def decorate(view):
        documented = view
        for status in statuses:
            documented = blp.alt_response(status, **_ERRORS)(documented)
        view._apidoc = blp.alt_response(503, **_UNAVAILABLE)(documented)._apidoc
        return view
    return decorate


def service() -> MatchService:
    """The app's match service (its store and idle TTL)."""
    config = current_app.config
    return MatchService(current_app.extensions["referee.store"], config["MATCH_TTL_SECONDS"],
                        invite_seconds=config.get("INVITE_SECONDS", 3600),
                        replay_seconds=config.get("CREATE_REPLAY_SECONDS", 600))


def _etag(version: int) -> dict[str, str]:
    return {"ETag": f'"{version}"'}


def needs_token(view):
    """Mark ``view`` as one whose caller must hold a seat or host token of the match:
    :func:`authenticate` then checks the token before the body is read."""
    view.needs_token = True
    return view


def authenticate() -> None:
    """A ``before_request`` hook, run before the body guards: for a view marked
    :func:`needs_token`, load the match and identify the token first — 404 ``not-found`` or
    401 ``unauthorized`` before any body is parsed or validated, so a caller without a valid
    token learns nothing of the body checks.  The view reuses what was loaded."""
    if request.blueprint != blp.name or request.method == "OPTIONS" or not request.view_args:
        return
    view = current_app.view_functions.get(request.endpoint or "")
    cls = getattr(view, "view_class", None)
    target = getattr(cls, request.method.lower(), None) if cls is not None else view
    if getattr(target, "needs_token", False):
        g.match_call = _load_caller(request.view_args["match_id"], True)


def _with_caller(match_id: str, required: bool = False):
    known = g.pop("match_call", None)
    return known if known is not None else _load_caller(match_id, required)


def _load(svc: MatchService, match_id: str) -> dict:
    """The match's record: the one the match budgets read in their round trip
    (``g.match_read``, see :mod:`referee.api.ratelimits`), else read now."""
    read = g.pop("match_read", None)
    return svc.load(match_id, read[1] if read is not None and read[0] == match_id else None)


def _load_caller(match_id: str, required: bool):
    svc = service()
    record = _load(svc, match_id)
    return svc, record, svc.caller(record, request.headers.get("Authorization"), required)


_CREATE_KEY = [{"name": "Idempotency-Key", "in": "header",
                "schema": {"type": "string", "minLength": 32, "maxLength": 255,
                           "pattern": "^[!-~]+$"},
                "description": "32-255 visible ASCII characters, random (a UUIDv4): a retry "
                "within REFEREE_CREATE_REPLAY_SECONDS (600) gets the first 201 again, the same "
                "match and tokens; whoever knows the key can, so keep it as secret as a token"}]


@blp.route("")
class Matches(MethodView):
    @blp.doc(parameters=_CREATE_KEY)
    @blp.arguments(MatchCreateSchema)
    @blp.response(201, MatchCreatedSchema, headers={
        **_ETAG_HEADER, "Location": {"schema": {"type": "string"},
                                     "description": "/v1/matches/{id}"},
        "Idempotent-Replayed": {"schema": {"type": "string"},
                                "description": "true when this is the first answer replayed"}})
    @problems(404, 422)
    def post(self, body):
        """Create a match: ``{"game", "players", "options"?, "mode"?, "seed"?, "open_seats"?,
        ...the game's setup fields}`` → id, version 1, commitment, a seat token per player
        (``open_seats``: none for those, an invite code each instead), host token, recovery
        code.

        Secrets are shown only here (the service keeps their SHA-256).  Digital mode deals
        from the seed (256 random bits unless given); table mode deals nothing.  With an
        ``Idempotency-Key`` a retry gets this answer again (``Idempotent-Replayed: true``) for
        ``REFEREE_CREATE_REPLAY_SECONDS`` (see :mod:`referee.matches.creation`).  Errors: 404
        ``unknown-game``; 422 ``invalid-input``, ``invalid-setup`` (rule ID and field),
        ``idempotency-key-reused``.
        """
        # marshmallow keeps INCLUDE'd fields in set (hash) order: put them back in the order
        # sent, so the game's setup schema lists their errors alike in every process
        status, created, replayed = creation.create(
            service(), {key: body[key] for key in document_order(body, g.get("json_body"))},
            request.headers.get("Idempotency-Key"))
        _, status, headers = _answer(status, created, replayed)
        return created, status, {"Location": f"{blp.url_prefix}/{created['id']}", **headers}


@blp.route("/<match_id>")
class Match(MethodView):
    @blp.response(200, MatchViewSchema, headers=_ETAG_HEADER)
    @problems(401, 404)
    def get(self, match_id):
        """Read the match: a seat token (``Authorization: Bearer``) gives that seat's view,
        the host token the referee view (never the seed) and ``connections``: each seat's
        open streams and long-polls now (null when not counted), no token the public view.
        401 for an unknown token.  ``ETag`` is the version (``connections`` changes without
        it)."""
        svc, record, caller = _with_caller(match_id)
        view = svc.view(record, caller)
        if caller.host:
            caps = current_app.extensions.get("referee.open_caps")
            view["connections"] = None if caps is None else caps.connections(record)
        return view, 200, _etag(record["version"])

    @blp.response(204)
    @problems(401, 403, 404)
    @needs_token
    def delete(self, match_id):
        """Delete the match and everything kept of it (host token only)."""
        svc, record, caller = _with_caller(match_id, required=True)
        svc.delete(record, caller)


@blp.route("/<match_id>/actions", methods=["POST"])
@blp.doc(parameters=_ACT_HEADERS)
@blp.arguments(MatchActionSchema)
@blp.response(200, MatchActedSchema, headers={
    **_ETAG_HEADER, "Idempotent-Replayed": {"schema": {"type": "string"}, "description":
                                            "true when this is the first answer replayed"}})
@problems(401, 403, 404, 409, 422, 428)
@needs_token
def act(body, match_id):
    """Apply an action: ``{"action": {...}, "expected_version"?}`` with the acting seat's
    token and ``If-Match: "<version>"`` (or ``expected_version``).

    200: the new version, the action's events the caller may see, the caller's view.  401 no
    or unknown token; 403 acting as another seat; 409 the match moved on (``current_version``);
    422 ``illegal-action`` with every violated rule; 428 no expected version.  With
    ``Idempotency-Key`` a retry gets the first 200 again (``Idempotent-Replayed: true``), never
    a second application; the same key with another body is 422 ``idempotency-key-reused``.
    """
    svc, record, caller = _with_caller(match_id, required=True)
    result, status, headers = _answer(*svc.act(record, caller, body,
                                               request.headers.get("If-Match"),
                                               request.headers.get("Idempotency-Key")))
    # Written as it is: MatchActedSchema's dump would copy it unchanged (issue 11: the
    # service answers exactly that schema's fields, types and order, the first answer
    # replayed included; tests/matches/test_acted_answer.py compares the two).
    return current_app.json.response(result), status, headers


def _answer(status: int, result: dict, replayed: bool):
    """A keyed write's answer: ``ETag`` of its version, ``Idempotent-Replayed: true`` when
    it is the first answer to its ``Idempotency-Key`` again."""
    headers = _etag(result["version"])
    if replayed:
        headers["Idempotent-Replayed"] = "true"
    return result, status, headers


@blp.route("/<match_id>/events")
@blp.arguments(EventsQuerySchema, location="query")
@blp.response(200, MatchEventsSchema, headers=_ETAG_HEADER)
@problems(401, 404, 422)
def events(query, match_id):
    """The event log the caller may see (``?after=N``: events with ``seq`` > N), in order,
    each event once with the fields the caller may see, a page at a time: at most ``limit``
    (default 100, at most 200) and under 64 KB; ``next`` is the ``after`` of the next page
    (``null``: no more logged yet).  Long-poll: with ``wait=S`` (0–25)
    and nothing new yet, the answer waits up to S seconds for an event (none when the match is
    over).  Authorised by token, by ``?ticket=`` (a stream ticket) or neither (public).
    ``ETag`` is the version the answer was read at."""
    svc, record, caller = _reader(match_id, query.get("ticket"))
    if query["wait"]:
        lease = _lease(caller)
        try:
            body = live.long_poll(svc.store, record, caller, query["after"], query["wait"],
                                  idle=fair_share.idle, limit=query["limit"])
        finally:
            lease.release()
    else:
        body = svc.events(record, caller, query["after"], query["limit"])
    return body, 200, _etag(body["version"])


_STREAM_DOC = {
    "description": "text/event-stream: `event: event` (id: seq, data: the event), `event: "
                   "view` (data: version, rollback and the match view's envelope: phase, "
                   "to_move, awaiting, awaiting_message, score, outcome, over, view), `: "
                   "heartbeat` comments, and last `event: end` (data: version, reason over|gone|"
                   "revoked|reconnect; revoked: the token that opened it was re-issued; "
                   "reconnect: its time is up, a read of the store failed, or it caught up "
                   f"{live.CATCH_UP_EVENTS:,} logged events and is still behind: resume with "
                   "Last-Event-ID, the id of the last event it sent; each such stream counts "
                   "against the token's budget)",
    "content": {"text/event-stream": {"schema": {
        "description": "one Server-Sent Event (its fields as the SSE format names them)",
        "type": "object", "properties": {
            "event": {"type": "string", "enum": ["event", "view", "end"]},
            "id": {"type": "string", "description": "the event's seq"},
            "data": {"type": "string", "description": "JSON text"},
            "retry": {"type": "integer"}}}}}}


@blp.route("/<match_id>/stream")
@blp.doc(responses={"200": _STREAM_DOC})
@blp.arguments(StreamQuerySchema, location="query")
@blp.arguments(StreamHeadersSchema, location="headers", as_kwargs=True)
@problems(401, 404, 422)
def stream(query, match_id, last_event_id=None):
    """Follow the match live (Server-Sent Events): the events the caller may see after
    ``Last-Event-ID`` (or ``?after``), each once, then the caller's view; again after every
    change; heartbeats while quiet; ``end`` when the match is over (see
    :mod:`referee.matches.live`).  Authorised like the reads: a token, ``?ticket=`` (browsers'
    EventSource) or public."""
    svc, record, caller = _reader(match_id, query.get("ticket"))
    after = query["after"] if last_event_id is None else last_event_id
    config = current_app.config
    lease = _lease(caller)
    try:
        body = live.follow(svc.store, record["id"], caller, after,
                           config["STREAM_HEARTBEAT_SECONDS"], config["STREAM_MAX_SECONDS"],
                           lang=language(), part=fair_share.address_turn())
        response = Response(body, mimetype="text/event-stream",
                            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    except BaseException:
        lease.release()
        raise
    response.call_on_close(lease.release)  # when the stream ends, however it ends
    return response


def _lease(caller) -> open_caps.Lease:
    """A slot under the caps on open streams and long-polls (:mod:`referee.api.open_caps`)
    for ``caller``'s token (a ticket counts as its token) and the client's address; 429
    ``too-many-streams`` when one is full."""
    caps = current_app.extensions.get("referee.open_caps")
    if caps is None:
        return open_caps.Lease()
    return caps.open(caller.credential, request.remote_addr or "-")


@blp.route("/<match_id>/stream-tickets", methods=["POST"])
@blp.response(201, StreamTicketSchema)
@problems(401, 404)
@needs_token
def stream_ticket(match_id):
    """Trade a seat or host token for a read-only ticket (``?ticket=`` on ``…/stream`` and
    ``…/events``), valid for ``expires_in`` seconds: the token never goes in a URL."""
    svc, record, caller = _with_caller(match_id, required=True)
    return live.issue_ticket(record, caller), 201


_KEYED_RESPONSE = {**_ETAG_HEADER, "Idempotent-Replayed": {
    "schema": {"type": "string"}, "description": "true when this is the first answer replayed"}}


@blp.route("/<match_id>/rollback", methods=["POST"])
@blp.doc(parameters=_ACT_HEADERS)
@blp.arguments(RollbackProposeSchema)
@blp.response(200, RollbackResultSchema, headers=_KEYED_RESPONSE)
@problems(401, 403, 404, 409, 422, 428)
@needs_token
def propose_rollback(body, match_id):
    """Propose (digital mode) or make (table mode) a rollback to ``to_version`` with a
    ``reason``, host token, at the match's version (``If-Match`` or ``expected_version``).

    ``status`` ``applied`` or ``pending`` (the seats vote: ``…/rollback/votes``).  403 not the
    host, or the match is over; 409 ``version-conflict``, ``rollback-pending``; 422 a
    ``to_version`` that is not earlier or undoes nothing; 428 no version.  A rollback across a
    finished hand's scoring needs every seat's approval (see
    :mod:`referee.matches.disputes`).  With ``Idempotency-Key`` a retry gets the first answer
    again (``Idempotent-Replayed: true``), never a second proposal; the same key with another
    body is 422 ``idempotency-key-reused``."""
    svc, record, caller = _with_caller(match_id, required=True)
    return _answer(*disputes.propose(svc, record, caller, body, request.headers.get("If-Match"),
                                     request.headers.get("Idempotency-Key")))


@blp.route("/<match_id>/rollback", methods=["DELETE"])
@blp.doc(parameters=_ACT_HEADERS[1:])
@blp.response(200, RollbackResultSchema, headers=_KEYED_RESPONSE)
@problems(401, 403, 404, 409, 422)
@needs_token
def withdraw_rollback(match_id):
    """Withdraw the pending rollback (host token); 409 ``no-rollback`` if none is pending.
    ``Idempotency-Key``: a retry gets the first answer again (``Idempotent-Replayed``)."""
    svc, record, caller = _with_caller(match_id, required=True)
    return _answer(*disputes.withdraw(svc, record, caller,
                                      request.headers.get("Idempotency-Key")))


@blp.route("/<match_id>/rollback/votes", methods=["POST"])
@blp.doc(parameters=_ACT_HEADERS[1:])
@blp.arguments(RollbackVoteSchema)
@blp.response(200, RollbackResultSchema, headers=_KEYED_RESPONSE)
@problems(401, 403, 404, 409, 422)
@needs_token
def vote_rollback(body, match_id):
    """A seat approves (``"approve": true``) or rejects the pending rollback ``proposal``;
    the deciding vote applies or rejects it.  403 not a seat; 409 ``no-rollback``.
    ``Idempotency-Key``: a retry gets the first answer again (``Idempotent-Replayed``)."""
    svc, record, caller = _with_caller(match_id, required=True)
    return _answer(*disputes.vote(svc, record, caller, body,
                                  request.headers.get("Idempotency-Key")))


@blp.route("/<match_id>/rematch", methods=["POST"])
@blp.arguments(RematchRequestSchema, required=False)
@blp.response(201, RematchSchema)
@blp.alt_response(200, schema=RematchSchema, description="the rematch already started")
@problems(401, 403, 404, 409, 422)
@needs_token
def rematch(entered, match_id):
    """Start the next match of a finished one (host token): same game, setup and seats —
    every seat and host token of this match acts in it — and a fresh seed.  The old deal's
    facts (an entered ``deal``, All Fours' table ``kick``, Spy's ``bases``) are not copied:
    the optional body enters the new deal's, and All Fours' ``dealer``.  Again: the same
    rematch (200; 409 ``rematch-started`` if the body enters another deal than it has).  403
    not the host token; 409 ``match-not-over`` before the end; 422
    ``invalid-input`` (a field the game does not deal), ``invalid-setup`` (a field the new
    deal needs, naming it: Spy table ``bases``, SPY-S2)."""
    svc, record, caller = _with_caller(match_id, required=True)
    status, body = start_rematch(svc, record, caller, entered or None)
    return body, status, {"Location": f"{blp.url_prefix}/{body['id']}"}


@blp.route("/<match_id>/legal-actions")
@blp.arguments(LegalActionsQuerySchema, location="query", as_kwargs=True)
@blp.response(200, MatchLegalActionsSchema, headers=_ETAG_HEADER)
@problems(401, 404, 422)
@needs_token
def legal_actions(match_id, form="flat"):
    """The calling seat's legal actions now (the host token: everyone's, host-only ones too):
    ``actions`` and, with ``?form=grouped``, also ``groups`` (one per action type with each
    field's choices and the illegal combinations, for pickers).  ``ETag`` is the version they are
    legal at (send it back as ``If-Match``).  422 naming ``query.form`` for another form."""
    svc, record, caller = _with_caller(match_id, required=True)
    answer = in_form(svc.legal_actions(record, caller), form)
    if form != "flat":
        return answer, 200, _etag(record["version"])
    # The flat answer is written as it is: MatchLegalActionsSchema's dump would copy it
    # unchanged (issue 25: a table's every move reads it; tests/matches/
    # test_legal_actions_answer.py compares the two).
    return current_app.json.response(answer), 200, _etag(record["version"])


@blp.route("/<match_id>/audit")
@blp.response(200, AuditSchema, headers=_ETAG_HEADER)
@problems(403, 404)
def audit(match_id):
    """Once the match is over: the seed, the setup body, every action and the final state.

    Replay: ``POST /v1/games/{game}/setup`` with ``setup``, then ``POST /v1/games/{game}/apply``
    each action in order; the last state equals ``final_state``, and
    ``sha256("<seed>:<id>")`` equals ``commitment``.  403 ``forbidden`` before the end.
    ``ETag`` is the final version.  The whole history is read before the answer starts (a
    store failure is still a 503), then the answer is written a part at a time.
    """
    svc = service()
    record = _load(svc, match_id)
    chunks = audit_chunks(audit_texts(svc, record, current_app.json.ensure_ascii,
                                      current_app.json.sort_keys))
    return Response(chunks, mimetype=current_app.json.mimetype,
                    headers=_etag(record["version"]))


def _reader(match_id: str, ticket: str | None):
    """Service, record and caller of a read that also takes a stream ticket (not both)."""
    svc = service()
    record = _load(svc, match_id)
    authorization = request.headers.get("Authorization")
    if ticket is None:
        return svc, record, svc.caller(record, authorization)
    if authorization:
        raise InvalidInput("Send a token or a ticket, not both.",
                           errors=[{"field": "ticket", "message": "with Authorization"}])
    return svc, record, live.ticket_caller(record, ticket)
