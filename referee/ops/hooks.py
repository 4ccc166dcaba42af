"""Per-request hooks: the request id, the access log line and the request/verdict metrics.

Kept cheap (a few microseconds a request): one clock read at each end, a cached metric child,
one JSON line.  Verdicts are counted from ``g.referee_verdict`` (the rule IDs broken, set
where the verdict is made: ``validate`` and the ``illegal-action`` problem), no body parsed.

- ``X-Request-ID``: taken from the request when it is 1–128 characters of ``[A-Za-z0-9._:-]``,
  else 16 random hex digits; always sent back on the answer.
"""
from __future__ import annotations

import os
import re
import time

from flask import Flask, g, request

from referee.ops import logs, metrics

_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
_VERDICT_ENDPOINTS = {"games.validate", "games.apply", "matches.act"}


def begin() -> None:
    """before_request: start the clock, settle the request id."""
    ctx = g._get_current_object()
    ctx.referee_started = time.perf_counter()
    given = request._get_current_object().headers.get("X-Request-ID")
    ctx.request_id = given if given and _REQUEST_ID.fullmatch(given) else os.urandom(8).hex()


def end(response):
    """after_request: metrics, the access line, the ``X-Request-ID`` header."""
    ctx = g._get_current_object()
    req = request._get_current_object()
    started = getattr(ctx, "referee_started", None)
    seconds = time.perf_counter() - started if started is not None else 0.0
    rule = req.url_rule
    endpoint = rule.rule if rule is not None else "unmatched"
    status = response.status_code
    metrics.observe_request(endpoint, req.method, status, seconds)
    match = getattr(ctx, "referee_match", None)
    if rule is not None and rule.endpoint in _VERDICT_ENDPOINTS:
        _count_verdict(rule.endpoint, status, req, match)
    request_id = getattr(ctx, "request_id", None) or os.urandom(8).hex()
    response.headers["X-Request-ID"] = request_id
    if _ACCESS_LOG:
        logs.write("referee.access", "request", request_id=request_id, method=req.method,
                   path=req.path, endpoint=endpoint, status=status,
                   duration_ms=round(seconds * 1000, 3),
                   match_id=match[0] if match else None, version=match[2] if match else None)
    return response


def _count_verdict(endpoint: str, status: int, req, match) -> None:
    """Count the verdict a validate/apply/move answer carries: by rule ID (AF-…, COUP-…,
    SPY-…, GN-…) for the stateless calls; a match move only as legal or illegal (which rule
    refused it may be hidden information, see :mod:`referee.ops.metrics`)."""
    if endpoint == "matches.act":
        game = match[1] if match else "unknown"
    else:
        game = (req.view_args or {}).get("game", "unknown")
    if status == 200 and endpoint != "games.validate":
        metrics.VERDICTS.labels(game, "legal", "").inc()
        return
    if status not in (200, 422):
        return
    rules = g.get("referee_verdict")  # set where the verdict was made (no body parsed again)
    if rules is None:  # no verdict: a 422 for bad input or an impossible state
        return
    if not rules:
        metrics.VERDICTS.labels(game, "legal", "").inc()
        return
    if endpoint == "matches.act":  # a match's refusal: no rule (hidden information, metrics)
        metrics.VERDICTS.labels(game, "illegal", "").inc()
        return
    for rule in set(rules):
        metrics.VERDICTS.labels(game, "illegal", rule).inc()


_ACCESS_LOG = os.environ.get("REFEREE_ACCESS_LOG", "1") != "0"


def init_app(app: Flask) -> None:
    """Install the hooks (``begin`` first among before_request functions, so the clock covers
    the others)."""
    global _ACCESS_LOG
    _ACCESS_LOG = bool(app.config.get("ACCESS_LOG", _ACCESS_LOG))
    app.before_request_funcs.setdefault(None, []).insert(0, begin)
    app.after_request(end)
