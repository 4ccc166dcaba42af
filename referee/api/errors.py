"""Every error the API returns, as an RFC 9457 ``application/problem+json`` body.

Body: ``type`` (a stable URI reference, ``/problems/<slug>``), ``title``, ``status``,
``detail``, ``instance`` (the request path) and, where the problem is about input, ``errors``:
``[{"field": "state.hands.ana[2]", "message": ..., "rule"?: "AF-D1"}]``.  An illegal action
also carries ``violations`` (``[{"rule", "title", "message", "field"?}]``).  Titles, details
and field messages are in the negotiated language (``referee.i18n``).  Each list holds at most
:data:`MAX_LISTED` (50) entries; ``error_count`` and ``violation_count`` give how many there
are in all, so an answer stays small whatever the input; user values a text quotes are cut to
64 characters and a whole problem body to
:data:`referee.api.problem_bounds.MAX_PROBLEM_BYTES`.

Each kind of failure maps to exactly one problem type (``PROBLEMS``); nothing ever answers with
a stack trace.
"""
from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any, Iterable
from urllib.parse import quote

from flask import Flask, g, has_request_context, jsonify, request
from marshmallow import INCLUDE, Schema, fields
from werkzeug.exceptions import HTTPException

from referee.games.base import (IllegalAction, ImpossibleState, InvalidSetup, RefereeError,
                                Violation)
from referee.games.common.verdicts import LISTED
from referee.api.problem_bounds import bound_problem
from referee.i18n.answers import localize_problem, violation_answer
from referee.matches.loading import flatten_messages  # noqa: F401  (re-exported: one copy)
from referee.refusals import Refusal, fields_detail
from referee.schemas.common import ViolationSchema

log = logging.getLogger("referee.api")

PROBLEM_MIMETYPE = "application/problem+json"

# slug -> (status, title)
PROBLEMS: dict[str, tuple[int, str]] = {
    "malformed-json": (400, "Malformed JSON"),
    "bad-request": (400, "Bad request"),
    "unauthorized": (401, "Missing or unknown token"),
    "forbidden": (403, "Not allowed for this token"),
    "not-found": (404, "Not found"),
    "unknown-game": (404, "Unknown game"),
    "method-not-allowed": (405, "Method not allowed"),
    "version-conflict": (409, "Version conflict"),
    "rollback-pending": (409, "A rollback is pending"),
    "no-rollback": (409, "No such rollback pending"),
    "match-not-over": (409, "The match is not over"),
    "rematch-started": (409, "The rematch has already started"),
    "invite-invalid": (403, "Not a live invite code"),
    "invite-used": (409, "Invite code already used"),
    "invite-expired": (410, "Invite code expired"),
    "precondition-required": (428, "Precondition required"),
    "request-timeout": (408, "Request timeout"),
    "payload-too-large": (413, "Request body too large"),
    "unsupported-media-type": (415, "Unsupported media type"),
    "invalid-input": (422, "Invalid input"),
    "invalid-setup": (422, "Invalid setup"),
    "impossible-state": (422, "Impossible state"),
    "illegal-action": (422, "Illegal action"),
    "inconsistent-sheet": (422, "Inconsistent trick sheet"),
    "idempotency-key-reused": (422, "Idempotency key reused with another request"),
    "rate-limited": (429, "Too many requests"),
    "too-many-streams": (429, "Too many open streams"),
    "too-many-connections": (429, "Too many connections"),
    "internal-error": (500, "Internal error"),
    "store-unavailable": (503, "Match store unavailable"),
    "match-limit-reached": (503, "Too many live matches"),
}

MAX_LISTED = LISTED
"""At most this many ``errors`` (and ``violations``) in one answer (50); the counts give the
total.  Engines word no more than that either (:data:`referee.games.common.verdicts.LISTED`)."""

_BY_STATUS = {400: "bad-request", 401: "unauthorized", 403: "forbidden", 404: "not-found",
              405: "method-not-allowed", 408: "request-timeout", 409: "version-conflict", 413: "payload-too-large",
              415: "unsupported-media-type", 422: "invalid-input", 428: "precondition-required",
              429: "rate-limited", 503: "store-unavailable"}


class ProblemFieldSchema(Schema):
    """One offending field."""

    field = fields.String(required=True, metadata={
        "description": "dotted path of the field, e.g. state.hands.ana[2]; body for the body"})
    message = fields.String(required=True)
    rule = fields.String(metadata={"description": "rule ID, when a rule decides it"})


class ProblemSchema(Schema):
    """An RFC 9457 problem details body (``application/problem+json``).

    Documentation only (bodies are built by :func:`problem_response`): the members every
    problem has, and the extension members some carry; other extension members may be added
    (RFC 9457 section 3.2), so the schema allows them."""

    class Meta:
        unknown = INCLUDE

    type = fields.String(required=True, metadata={"description": "/problems/<slug>, e.g. "
                                                  "/problems/illegal-action"})
    title = fields.String(required=True)
    status = fields.Integer(required=True, metadata={"description": "the HTTP status"})
    detail = fields.String(metadata={"description": "what went wrong, for people"})
    instance = fields.String(metadata={"description": "the request path"})
    errors = fields.List(fields.Nested(ProblemFieldSchema), metadata={
        "description": f"each offending field (input problems), at most {MAX_LISTED}"})
    error_count = fields.Integer(metadata={
        "description": "how many offending fields there are in all (errors lists the first "
                       f"{MAX_LISTED})"})
    violations = fields.List(fields.Nested(ViolationSchema), metadata={
        "description": f"illegal-action: every rule the action breaks, at most {MAX_LISTED}"})
    violation_count = fields.Integer(metadata={
        "description": "illegal-action: how many rules it breaks in all"})
    current_version = fields.Integer(metadata={
        "description": "version-conflict: the version the match is at now"})
    cap = fields.String(metadata={
        "description": "too-many-streams: the cap reached, streams-per-token or "
                       "streams-per-address"})
    limit = fields.Integer(metadata={
        "description": "too-many-streams, too-many-connections: the size of the cap reached"})


class Problem(Refusal):
    """Raise anywhere in the HTTP layer to answer with a problem: a :class:`Refusal` that
    may carry HTTP headers.

    ``Problem("version-conflict", "Match is at version 7, not 5.", headers={...})``.
    """

    def __init__(self, slug: str, detail: str, *, errors: Iterable[dict] | None = None,
                 headers: dict[str, str] | None = None, **extra: Any):
        super().__init__(slug, detail, errors=errors, **extra)
        self.headers = headers or {}


def refusal_headers(refusal: Refusal) -> dict[str, str]:
    """The HTTP headers a refusal implies: its own (a :class:`Problem`'s), the ``Bearer``
    challenge of a 401, the ``ETag`` of the version a 409 names."""
    headers = dict(getattr(refusal, "headers", {}))
    if refusal.slug == "unauthorized":
        headers.setdefault("WWW-Authenticate", "Bearer")
    if refusal.slug == "version-conflict" and "current_version" in refusal.extra:
        headers.setdefault("ETag", f'"{refusal.extra["current_version"]}"')
    return headers


# The field a problem is about when the raiser named none (every problem about the request
# names one; a service condition — store-unavailable, match-limit-reached — names none).
DEFAULT_FIELD = {"not-found": "path", "unknown-game": "game", "method-not-allowed": "method",
                 "payload-too-large": "body", "unsupported-media-type": "Content-Type",
                 "malformed-json": "body", "bad-request": "body", "invalid-input": "body",
                 "version-conflict": "If-Match", "precondition-required": "If-Match",
                 "forbidden": "Authorization", "unauthorized": "Authorization",
                 "idempotency-key-reused": "Idempotency-Key",
                 "rollback-pending": "path", "no-rollback": "proposal",
                 "match-not-over": "path", "rematch-started": "body",
                 "invite-invalid": "code", "invite-used": "code", "invite-expired": "code",
                 "rate-limited": "client", "request-timeout": "body",
                 "too-many-streams": "client", "too-many-connections": "client"}


_PATH_SAFE = "/:@!$&'()*+,;=-._~"
"""The characters a URI path keeps as they are (RFC 3986: unreserved, sub-delims, ':', '@')."""


def problem_response(slug: str, detail: str, *, errors: list | None = None,
                     headers: dict | None = None, error_count: int | None = None, **extra: Any):
    """Build the Flask response for problem ``slug``, its texts in the negotiated language.
    ``errors`` (and ``extra["violations"]``) are listed up to :data:`MAX_LISTED`;
    ``error_count`` (``extra["violation_count"]``) is how many there are in all when the
    caller rendered only the first ones (default: how many it passed)."""
    status, title = PROBLEMS[slug]
    body: dict[str, Any] = {"type": f"/problems/{slug}", "title": title, "status": status,
                            "detail": detail}
    try:  # the path as a URI reference: percent-encoded, so no bidi or NUL character reaches
        body["instance"] = quote(request.path, safe=_PATH_SAFE)  # a reader's screen
    except RuntimeError:
        pass
    if not errors and slug in DEFAULT_FIELD:
        errors = [{"field": DEFAULT_FIELD[slug], "message": detail}]
    if errors:
        body["errors"] = errors[:MAX_LISTED]
        body["error_count"] = len(errors) if error_count is None else error_count
    if "violations" in extra:
        count = extra.pop("violation_count", None)
        extra["violation_count"] = len(extra["violations"]) if count is None else count
        extra["violations"] = extra["violations"][:MAX_LISTED]
    body.update(extra)
    response = jsonify(bound_problem(localize_problem(body)))
    response.status_code = status
    response.mimetype = PROBLEM_MIMETYPE
    for key, value in (headers or {}).items():
        response.headers[key] = value
    return response


def violation_fields(violations: list[Violation], answers: list[dict[str, Any]],
                     default: str = "body") -> list[dict[str, str]]:
    """The ``errors`` list of a problem raised by an engine error: each violation's field
    (``default`` when it names none), its rendered message (``answers``, as
    :func:`~referee.i18n.answers.violation_answer` rendered them) and rule."""
    return [{"field": v.field or default, "message": a["message"], "rule": v.rule}
            for v, a in zip(violations, answers)]


_ENGINE_SLUGS = ((IllegalAction, "illegal-action"), (ImpossibleState, "impossible-state"),
                 (InvalidSetup, "invalid-setup"))


def engine_problem(exc: RefereeError, prefix: str = ""):
    """Problem response for an engine error; ``prefix`` is prepended to field paths.

    Only the violations the answer lists (the first :data:`MAX_LISTED`) are rendered; the
    others are counted (``error_count``, ``violation_count``: every one the engine found), so
    the work of an answer does not grow with the problems of the input (issue 21).  The
    ``detail`` says the listed ones' sentences, each once, the first three of them, then
    "(and N more)": N the further sentences among them plus every violation not listed."""
    slug = next((s for cls, s in _ENGINE_SLUGS if isinstance(exc, cls)), "invalid-input")
    if getattr(exc, "slug", None):
        slug = exc.slug
    found = exc.violations
    count = getattr(exc, "count", len(found))  # counted by the engine past the ones worded
    listed = [replace(v, field=_prefixed(prefix, v.field)) for v in found[:MAX_LISTED]]
    answers = [violation_answer(v) for v in listed]
    sentences = list(dict.fromkeys(a["message"] for a in answers))  # each said once: two
    detail = " ".join(sentences[:3])  # bases with the same fault differ in `errors` only
    more = len(sentences) - 3 + count - len(listed)
    if more > 0:
        detail += f" (and {more} more)"
    extra = {"violations": answers, "violation_count": count} \
        if slug == "illegal-action" else {}
    if slug == "illegal-action" and has_request_context():
        g.referee_verdict = {v.rule for v in found}  # counted by referee.ops.hooks
    default = {"illegal-action": "action", "impossible-state": "state"}.get(slug, "body")
    return problem_response(slug, detail, errors=violation_fields(listed, answers, default),
                            error_count=count, **extra)


def _prefixed(prefix: str, where: str | None) -> str | None:
    if not prefix or where is None:
        return where
    if where.startswith(prefix.split(".")[0] + "."):
        return where
    return f"{prefix}.{where}"


def handle_http_exception(error: HTTPException):
    """Map any werkzeug/flask-smorest HTTP error (webargs validation included) to a problem;
    an error that carries its own response (Flask-Limiter's 429) answers with it."""
    if error.response is not None:
        return error.response
    data = getattr(error, "data", None) or {}
    messages = data.get("messages") or data.get("errors")
    code = error.code or 500
    slug = _BY_STATUS.get(code, "bad-request" if code < 500 else "internal-error")
    headers = dict(data.get("headers") or {})
    if messages:
        if isinstance(messages, dict) and set(messages) <= {"json", "query", "headers", "form",
                                                             "files", "view_args"}:
            flat = []
            for location, msgs in messages.items():
                flat += flatten_messages(msgs, _PREFIXES.get(location, location),
                                         _sent(location))
        else:
            flat = flatten_messages(messages, "", _sent("json"))
        if any("Invalid JSON body" in e["message"] for e in flat):
            return problem_response("malformed-json", "The request body is not valid JSON.",
                                    errors=[{"field": "body", "message": "Invalid JSON body."}])
        return problem_response(slug if code != 400 else "invalid-input",
                                fields_detail(flat) or error.description, errors=flat,
                                headers=headers)
    detail = data.get("message") or error.description or error.name
    if code == 413:
        detail = f"The request body is larger than the limit of {_limit()} bytes."
        headers["Connection"] = "close"  # the rest of the body is not read (referee.serving.worker)
    for key, value in error.get_headers():
        if key.lower() == "allow":  # 405: the methods the resource has (RFC 9110 15.5.6)
            headers["Allow"] = value
    return problem_response(slug, detail, headers=headers)


_PREFIXES = {"json": "", "headers": ""}
"""webargs locations whose fields are named bare: the body's members (``seed``) and the headers
(``Last-Event-ID``, as every refusal of a header names it: ``Idempotency-Key``,
``If-Match``); the others under their location (``query.after``)."""


def _sent(location: str) -> Any:
    """What the request sent at a webargs ``location`` (the parsed body, the query), so its
    errors are listed in the order it holds the fields; ``None`` elsewhere."""
    if location == "json":
        return g.get("json_body")
    return request.args if location == "query" else None


def _limit() -> int:
    from flask import current_app
    return current_app.config.get("MAX_CONTENT_LENGTH") or 0


def init_app(app: Flask) -> None:
    """Register the problem handlers on ``app`` (after flask-smorest's, so these win)."""
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(Refusal, lambda p: problem_response(
        p.slug, p.detail, errors=p.errors, headers=refusal_headers(p), **p.extra))
    app.register_error_handler(RefereeError, engine_problem)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):  # pragma: no cover - defensive; logged, never shown
        if isinstance(exc, HTTPException):
            return handle_http_exception(exc)
        log.exception("unexpected error on %s %s", request.method, request.path)
        return problem_response("internal-error", "The referee hit an unexpected error; it "
                                "has been logged.")
