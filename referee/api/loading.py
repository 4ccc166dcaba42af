"""Parsing request bodies into validated data, and finding a game: errors become problems."""
from __future__ import annotations

import secrets
from typing import Any

from flask import g
from marshmallow import Schema, ValidationError

from referee.api.errors import Problem, flatten_messages
from referee.games.base import REFEREE, ImpossibleState, Violation
from referee.registry import GAMES, GameEntry


def game_entry(game: str) -> GameEntry:
    """The registry entry of ``game``; ``unknown-game`` (404) problem otherwise."""
    entry = GAMES.get(game)
    if entry is None:
        raise Problem("unknown-game", f"No game is called {game!r}; known games: "
                      f"{', '.join(sorted(GAMES))}.",
                      errors=[{"field": "game", "message": f"unknown game {game!r}"}])
    return entry


def json_object() -> dict[str, Any]:
    """The request body as a JSON object, as ``limits.guard_request`` parsed it (it already
    refused what is not JSON); 422 ``invalid-input`` for a missing body or a JSON value that is
    not an object."""
    if "json_body" not in g:
        raise Problem("invalid-input", "The request needs a JSON object body.",
                      errors=[{"field": "body", "message": "Missing body."}])
    data = g.json_body
    if not isinstance(data, dict):
        raise Problem("invalid-input", "The request body must be a JSON object, not "
                      f"{type(data).__name__ if data is not None else 'null'}.",
                      errors=[{"field": "body", "message": "Not a JSON object."}])
    return data


def load(schema: Schema, data: Any, prefix: str = "") -> dict[str, Any]:
    """Load ``data`` with ``schema``; ``invalid-input`` problem naming each field otherwise."""
    try:
        return schema.load(data)
    except ValidationError as exc:
        errors = flatten_messages(exc.messages, prefix)
        detail = "; ".join(f"{e['field']}: {e['message']}" for e in errors[:3])
        raise Problem("invalid-input", detail, errors=errors) from None


RESERVED_NAMES = frozenset({REFEREE, "host"})
"""Names no player may take: the referee view's viewer id and the host of host-only actions;
a seat so named would be served the referee's view."""


def load_setup(entry: GameEntry, data: Any) -> tuple[dict[str, Any], int | str]:
    """Validate a setup body with the game's ``SetupSchema`` and its options; return the body
    (options completed with defaults, ``seed`` removed) and the seed: the one given, or a fresh
    256-bit one as 64 hex digits (a string, so no JSON client rounds it)."""
    body = load(_instance(entry.schemas.SetupSchema), data)
    reserved = [name for name in body.get("players", []) if name in RESERVED_NAMES]
    if reserved:
        raise Problem("invalid-input", f"{reserved[0]!r} is reserved (the host's and the "
                      "referee's names) and cannot name a player.",
                      errors=[{"field": "players", "message": f"{reserved[0]!r} is reserved"}])
    body["options"] = entry.engine.resolve_options(body.get("options"))
    seed = body.pop("seed", None)
    return body, secrets.token_hex(32) if seed is None else seed


def load_action(entry: GameEntry, action: Any, prefix: str = "action") -> dict[str, Any]:
    """Validate an action against the game's schema for its ``type``."""
    schemas = entry.schemas.ACTION_SCHEMAS
    if not isinstance(action, dict):
        raise Problem("invalid-input", f"{prefix} must be an object.",
                      errors=[{"field": prefix, "message": "Not an object."}])
    kind = action.get("type")
    if kind not in schemas:
        message = (f"Unknown action type {kind!r} for {entry.engine.name}; one of: "
                   f"{', '.join(schemas)}.")
        raise Problem("invalid-input", message,
                      errors=[{"field": f"{prefix}.type", "message": message}])
    return load(_instance(schemas[kind]), action, prefix)


def load_state(entry: GameEntry, state: Any, prefix: str = "state") -> dict[str, Any]:
    """Type-check a snapshot with the game's ``StateSchema`` then run the engine's
    ``check_state`` (``impossible-state`` problem listing every inconsistency)."""
    if not isinstance(state, dict):
        raise Problem("invalid-input", f"{prefix} must be an object.",
                      errors=[{"field": prefix, "message": "Not an object."}])
    errors = _instance(entry.schemas.StateSchema).validate(state)
    if errors:
        flat = flatten_messages(errors, prefix)
        raise Problem("invalid-input", "; ".join(f"{e['field']}: {e['message']}"
                                                 for e in flat[:3]), errors=flat)
    try:
        entry.engine.check_state(state)
    except ImpossibleState as exc:
        raise ImpossibleState([_under(prefix, v) for v in exc.violations]) from None
    return state


def _under(prefix: str, violation: Violation) -> Violation:
    where = violation.field or prefix
    if where != prefix and not where.startswith(prefix + "."):
        where = f"{prefix}.{where}"
    return Violation(violation.rule, violation.message, where)


_CACHE: dict[type, Schema] = {}


def _instance(cls: type[Schema]) -> Schema:
    """Schema instances are built once (they are stateless after construction)."""
    if cls not in _CACHE:
        _CACHE[cls] = cls()
    return _CACHE[cls]


def schema(cls: type[Schema]) -> Schema:
    """Shared instance of ``cls``."""
    return _instance(cls)
