"""Liveness and readiness."""
from __future__ import annotations

from flask import current_app
from flask_smorest import Blueprint

from referee.api.errors import PROBLEM_MIMETYPE, ProblemSchema
from referee.schemas.common import HealthSchema

blp = Blueprint("health", __name__, description="Liveness and readiness probes.")


@blp.route("/livez")
@blp.response(200, HealthSchema)
def livez():
    """Answer 200 while the process serves requests."""
    return {"status": "ok"}


@blp.route("/readyz")
@blp.response(200, HealthSchema)
@blp.alt_response(503, description="store-unavailable: the match store does not answer or "
                  "refuses writes",
                  schema=ProblemSchema, content_type=PROBLEM_MIMETYPE)
def readyz():
    """Answer 200 when the match store answers and accepts writes (503 ``store-unavailable``
    with ``Retry-After`` otherwise: down, full under ``noeviction``, read-only)."""
    store = current_app.extensions.get("referee.store")
    if store is not None:
        store.ready()
    return {"status": "ok"}
