"""The service's Prometheus metrics and ``GET /metrics`` (the Prometheus text exposition format).

| metric | type | labels |
| --- | --- | --- |
| ``referee_http_requests_total`` | counter | ``endpoint`` (URL rule, e.g. ``/v1/matches/<match_id>``), ``method`` (a non-standard one as ``other``), ``status`` |
| ``referee_http_request_duration_seconds`` | histogram | ``endpoint`` |
| ``referee_verdicts_total`` | counter | ``game``, ``outcome`` (``legal``/``illegal``), ``rule`` (the rule ID broken by a stateless ``validate``/``apply``; always empty for match actions) |
| ``referee_matches_created_total`` | counter | ``game`` |
| ``referee_matches_active`` | gauge | — (live matches in the store, counted at scrape time) |
| ``referee_store_errors_total`` | counter | ``operation`` (``load``, ``commit``…) |
| ``referee_seat_changes_total`` | counter | ``change``: ``invited``, ``claimed``, ``claim_refused`` (a code that is wrong, used or expired: a rise is someone guessing), ``reissued``, ``host_reissued`` |

Under gunicorn the samples of every worker are added up (:mod:`referee.ops.multiproc`).

**Not a side channel.** Metrics are for the operator, not the players: ``GET /metrics`` is
served only when ``REFEREE_METRICS_TOKEN`` is set, to requests with ``Authorization: Bearer
<that token>`` (compared in constant time); without the setting it is 404 ``not-found`` (as
if absent), with a missing or wrong token 401 ``unauthorized``.  Nothing in it names a match
or a seat, and a refused match action is counted without its rule: which rule a hidden
-information match refused (``COUP-X1`` "every copy is accounted for"…) is the mover's to
know, not anyone's who can scrape (the stateless ``validate``/``apply`` calls hold their
whole input, so their rule IDs stay).
"""
from __future__ import annotations

import hmac
import os

from flask import Flask, Response, current_app, request
from prometheus_client import (CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, Counter,
                               Histogram, generate_latest)
from prometheus_client.core import GaugeMetricFamily
from werkzeug.exceptions import NotFound

from referee.ops.multiproc import ENV
from referee.refusals import Refusal

REQUESTS = Counter("referee_http_requests_total", "HTTP requests answered",
                   ["endpoint", "method", "status"])
LATENCY = Histogram("referee_http_request_duration_seconds",
                    "Time from the first hook to the answer, in seconds", ["endpoint"],
                    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
                             2.5))
VERDICTS = Counter("referee_verdicts_total", "Actions judged (validate, apply, match moves)",
                   ["game", "outcome", "rule"])
MATCHES_CREATED = Counter("referee_matches_created_total", "Matches created", ["game"])
STORE_ERRORS = Counter("referee_store_errors_total",
                       "Match store calls that failed because the store was unavailable",
                       ["operation"])

SEAT_CHANGES = Counter("referee_seat_changes_total",
                       "Seat invites, claims (and refused claims), re-issued seat and host tokens",
                       ["change"])

_children: dict[tuple, tuple] = {}

STANDARD_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS",
                              "TRACE", "CONNECT"})
"""Methods counted under their own name; any other (``BREW``, ``FOO1``…) is counted as
``other``, so a client cannot add label values (series) at will."""


def method_label(method: str) -> str:
    """The ``method`` label of a request: the method itself when standard (RFC 9110 section 9
    and PATCH), else ``"other"``."""
    return method if method in STANDARD_METHODS else "other"


def observe_request(endpoint: str, method: str, status: int, seconds: float) -> None:
    """Count one answered request and its latency (label children cached: no lock taken on
    the hot path after the first request of each label set); a non-standard ``method`` is
    counted as ``other`` (:func:`method_label`)."""
    method = method_label(method)
    key = (endpoint, method, status)
    pair = _children.get(key)
    if pair is None:
        pair = _children[key] = (REQUESTS.labels(endpoint, method, str(status)),
                                 LATENCY.labels(endpoint))
    pair[0].inc()
    pair[1].observe(seconds)


class _ActiveMatches:
    """Collector of ``referee_matches_active``: the store's own count, at scrape time."""

    def __init__(self, store):
        self.store = store

    def collect(self):
        try:
            count = self.store.count()
        except Exception:  # the store is down: the gauge is absent, store errors say why
            count = None
        if count is not None:
            yield GaugeMetricFamily("referee_matches_active", "Live matches in the store",
                                    value=count)


def exposition() -> bytes:
    """Every metric, in the text format: this process's, or every gunicorn worker's when
    ``PROMETHEUS_MULTIPROC_DIR`` is set, plus the store's live-match count."""
    if os.environ.get(ENV):
        from prometheus_client import multiprocess
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        registry = REGISTRY
    store = CollectorRegistry()
    store.register(_ActiveMatches(current_app.extensions["referee.store"]))
    return generate_latest(registry) + generate_latest(store)


def settings(env=None) -> dict:
    """Flask config of ``/metrics`` from ``env`` (default ``os.environ``): its bearer token,
    ``None`` (metrics not served) when ``REFEREE_METRICS_TOKEN`` is unset or empty."""
    env = os.environ if env is None else env
    return {"METRICS_TOKEN": env.get("REFEREE_METRICS_TOKEN") or None}


def _authorised(token: str) -> bool:
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(),
                                                              token.encode())


def metrics_view() -> Response:
    """``GET /metrics``: the Prometheus text exposition (not part of the API contract), for
    ``Authorization: Bearer <METRICS_TOKEN>`` only; 404 when no token is configured, 401
    for a missing or wrong one (problem+json)."""
    token = current_app.config.get("METRICS_TOKEN")
    if not token:
        raise NotFound()  # as any path that is not there
    if not _authorised(token):
        raise Refusal("unauthorized", "GET /metrics needs Authorization: Bearer with the "
                      "metrics token.", errors=[{"field": "Authorization",
                                                 "message": "missing or wrong metrics token"}])
    return Response(exposition(), content_type=CONTENT_TYPE_LATEST,
                    headers={"Cache-Control": "no-store"})


def init_app(app: Flask) -> None:
    """Serve ``GET /metrics``."""
    app.add_url_rule("/metrics", "metrics", metrics_view, methods=["GET"])
