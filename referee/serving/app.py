"""The Flask application factory."""
from __future__ import annotations

import importlib
from typing import Any

from flask import Flask

from referee import __version__
from referee.api import (cross_origin, docs, errors, fair_share, games, health, limits,
                         matches, no_content, open_caps, query_guard, ratelimits, rules, seats,
                         store_problems, table)
from referee.api.json_codec import FastJSONProvider
from referee.i18n import negotiation
from referee.ops import hooks, logs, metrics
from referee.ops.store import instrument
from referee.registry import GAMES
from referee.serving import config
from referee.store import StoreFull, StoreUnavailable, make_store


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: settings from the environment, overridden by ``test_config``; one
    blueprint per area; every error as ``application/problem+json``; every answer with its
    ``Content-Language``."""
    app = Flask(__name__)
    app.json = FastJSONProvider(app)  # orjson where it writes what json.dumps would
    app.config.update(config.from_env())
    for module in (limits, ratelimits, open_caps, fair_share, cross_origin, metrics):
        app.config.update(module.settings())
    app.config.update(test_config or {})
    app.config["API_VERSION"] = __version__
    app.json.sort_keys = False
    logs.configure(app.config["LOG_LEVEL"], app.config["LOG_FORMAT"])
    api = docs.make_api(app, "An impartial rules arbiter for tabletop card games.")
    stateless = [games.blp, rules.blp, *game_blueprints()]
    for blueprint in (health.blp, *stateless, matches.blp):
        api.register_blueprint(blueprint)
    app.extensions["referee.store"] = instrument(make_store(app.config))
    docs.init_app(app)
    table.init_app(app)  # the table page, /table/ (not part of the documented API)
    errors.init_app(app)
    app.register_error_handler(StoreUnavailable, store_problems.store_unavailable)
    app.register_error_handler(StoreFull, store_problems.store_full)
    cross_origin.init_app(app)
    ratelimits.init_app(app, matches.blp, stateless,  # checks run before the body is read
                        claims=seats.CLAIM_ENDPOINTS)
    app.before_request(matches.authenticate)  # a token is checked before any body
    fair_share.init_app(app)  # the body arrives, then the address's turn: then the work
    app.before_request(limits.guard_request)
    app.before_request(query_guard.guard_query)
    negotiation.init_app(app)
    metrics.init_app(app)
    hooks.init_app(app)
    no_content.init_app(app)  # after the hooks: it runs before them
    return app


def game_blueprints() -> list:
    """The blueprints of the games' own endpoints, as the registry names them."""
    found = []
    for entry in GAMES.values():
        if entry.blueprint:
            module, _, attribute = entry.blueprint.partition(":")
            found.append(getattr(importlib.import_module(module), attribute))
    return found
