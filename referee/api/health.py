"""Liveness and readiness."""
from __future__ import annotations

from flask import current_app
from flask_smorest import Blueprint

blp = Blueprint("health", __name__, description="Liveness and readiness probes.")


@blp.route("/livez")
@blp.response(200)
def livez():
    """Answer 200 while the process serves requests."""
    return {"status": "ok"}


@blp.route("/readyz")
@blp.response(200)
def readyz():
    """Answer 200 when the match store answers (503 problem otherwise)."""
    store = current_app.extensions.get("referee.store")
    if store is not None:
        store.ping()
    return {"status": "ok"}
