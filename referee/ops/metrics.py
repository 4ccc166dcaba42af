"""The service's Prometheus metrics and ``GET /metrics`` (the Prometheus text exposition format).

| metric | type | labels |
| --- | --- | --- |
| ``referee_http_requests_total`` | counter | ``endpoint`` (URL rule, e.g. ``/v1/matches/<match_id>``), ``method``, ``status`` |
| ``referee_http_request_duration_seconds`` | histogram | ``endpoint`` |
| ``referee_verdicts_total`` | counter | ``game``, ``outcome`` (``legal``/``illegal``), ``rule`` (the rule ID broken; empty when legal) |
| ``referee_matches_created_total`` | counter | ``game`` |
| ``referee_matches_active`` | gauge | — (live matches in the store, counted at scrape time) |
| ``referee_store_errors_total`` | counter | ``operation`` (``load``, ``commit``…) |

Under gunicorn the samples of every worker are added up (:mod:`referee.ops.multiproc`).
"""
from __future__ import annotations

import os

from flask import Flask, Response, current_app
from prometheus_client import (CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, Counter,
                               Histogram, generate_latest)
from prometheus_client.core import GaugeMetricFamily

from referee.ops.multiproc import ENV

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

_children: dict[tuple, tuple] = {}


def observe_request(endpoint: str, method: str, status: int, seconds: float) -> None:
    """Count one answered request and its latency (label children cached: no lock taken on
    the hot path after the first request of each label set)."""
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


def metrics_view() -> Response:
    """``GET /metrics``: the Prometheus text exposition (not part of the API contract)."""
    return Response(exposition(), content_type=CONTENT_TYPE_LATEST,
                    headers={"Cache-Control": "no-store"})


def init_app(app: Flask) -> None:
    """Serve ``GET /metrics``."""
    app.add_url_rule("/metrics", "metrics", metrics_view, methods=["GET"])
