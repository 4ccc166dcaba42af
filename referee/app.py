"""The Flask application factory."""
from __future__ import annotations

import logging
from typing import Any

from flask import Flask, request
from flask_smorest import Api

from referee import __version__, config
from referee.api import allfours, errors, games, gnoming, health
from referee.api.errors import Problem

JSON_TYPES = ("application/json", "application/merge-patch+json")


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: settings from the environment, overridden by ``test_config``; one
    blueprint per area; every error as ``application/problem+json``."""
    app = Flask(__name__)
    app.config.update(config.from_env())
    app.config.update(test_config or {})
    app.config["API_VERSION"] = __version__
    app.json.sort_keys = False
    logging.basicConfig(level=app.config["LOG_LEVEL"])
    api = Api(app, spec_kwargs={"info": {"description": "An impartial rules arbiter for "
                                         "tabletop card games."}})
    for blueprint in (health.blp, games.blp, allfours.blp, gnoming.blp):
        api.register_blueprint(blueprint)
    errors.init_app(app)
    app.before_request(_require_json)
    return app


def _require_json() -> None:
    """Bodies of POST/PUT/PATCH must be JSON (415 otherwise)."""
    if request.method in ("POST", "PUT", "PATCH") and request.content_length:
        mimetype = request.mimetype or ""
        if mimetype not in JSON_TYPES and not mimetype.endswith("+json"):
            raise Problem("unsupported-media-type", f"Send the body as application/json, "
                          f"not {mimetype or 'an untyped body'}.",
                          errors=[{"field": "Content-Type", "message": "must be application/json"}])
