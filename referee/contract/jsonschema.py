"""JSON Schemas (draft 2020-12) of every game's bodies, cut from the OpenAPI document.

OpenAPI 3.1 schema objects are JSON Schema 2020-12, so each file is one component of
:func:`referee.contract.openapi.document` with every component it reaches copied under
``$defs`` (references rewritten from ``#/components/schemas/X`` to ``#/$defs/X``): a file
validates on its own with any 2020-12 validator.  ``discriminator`` is kept as an annotation
(validators ignore it; code generators use it).

Files (:func:`json_schemas`), per registered game ``<game>``:

- ``<game>/setup.json`` — the body of ``POST /v1/games/<game>/setup``;
- ``<game>/state.json`` — a snapshot (what setup and apply return, what the client sends back);
- ``<game>/action.json`` — any action of the game (``oneOf``, told apart by ``type``);
- ``<game>/legal-actions-result.json``, ``validate-result.json``, ``apply-result.json`` — the
  answers of the stateless endpoints;
- ``<game>/<op>-request.json`` and ``<op>-result.json`` for each of the game's own endpoints
  (All Fours ``score``: the trick sheet; Gnoming ``score-round`` and ``score-game``);

and ``problem.json``, the RFC 9457 problem body of every error, and ``match-view.json``, what
``GET /v1/matches/{id}`` answers for every game (the envelope, one variant per game).
"""
from __future__ import annotations

import copy
from typing import Any

from referee.contract.openapi import (GENERIC_OPERATIONS, SCHEMA_REF, camel, references,
                                      schema_name)
from referee.registry import GAMES

DIALECT = "https://json-schema.org/draft/2020-12/schema"

_GAME_FILES = {  # file name -> component name (``{P}``: the game's CamelCase name)
    "setup.json": "{setup}",
    "state.json": "{state}",
    "action.json": "{P}Action",
    "legal-actions-result.json": "{P}LegalActionsResponse",
    "validate-result.json": "ValidateResponse",
    "apply-result.json": "{P}ApplyResponse",
}


def json_schemas(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """``{path relative to schemas/: JSON Schema}`` for every game and ``problem.json``.

    ``doc`` is an OpenAPI document from :func:`referee.contract.openapi.document`.  Raises
    ``KeyError`` if a component the files need is missing from it."""
    components = doc["components"]["schemas"]
    out = {"problem.json": standalone(components, "Problem"),
           "match-view.json": standalone(components, "MatchView")}
    for game, entry in GAMES.items():
        names = {"P": camel(game), "setup": schema_name(entry.schemas.SetupSchema),
                 "state": schema_name(entry.schemas.StateSchema)}
        for filename, pattern in _GAME_FILES.items():
            out[f"{game}/{filename}"] = standalone(components, pattern.format(**names))
        for op, request, result in _own_operations(doc, game):
            if request:
                out[f"{game}/{op}-request.json"] = standalone(components, request)
            if result:
                out[f"{game}/{op}-result.json"] = standalone(components, result)
    return out


def _own_operations(doc: dict, game: str):
    """``(op, request component, 200 component)`` of each POST ``/v1/games/<game>/<op>`` that
    is not one of the generic operations."""
    prefix = f"/v1/games/{game}/"
    for path in sorted(doc["paths"]):
        op = path.removeprefix(prefix)
        if not path.startswith(prefix) or "/" in op or op in GENERIC_OPERATIONS:
            continue
        post = doc["paths"][path].get("post")
        if post is None:
            continue
        request = _component(post.get("requestBody", {}).get("content", {}))
        result = _component(post["responses"].get("200", {}).get("content", {}))
        yield op, request, result


def _component(content: dict) -> str | None:
    target = content.get("application/json", {}).get("schema", {}).get("$ref", "")
    return target.removeprefix(SCHEMA_REF) if target.startswith(SCHEMA_REF) else None


def standalone(components: dict[str, Any], name: str) -> dict[str, Any]:
    """Component ``name`` as a self-contained JSON Schema document (its references under
    ``$defs``)."""
    defs: dict[str, Any] = {}
    todo = [name]
    while todo:
        current = todo.pop()
        if current in defs:
            continue
        defs[current] = _rewrite(copy.deepcopy(components[current]))
        todo += sorted(_targets(components[current]))
    return {"$schema": DIALECT, "title": name,
            "description": components[name].get("description", name),
            "$ref": f"#/$defs/{name}", "$defs": defs}


def _targets(node: Any) -> set[str]:
    return {target.removeprefix(SCHEMA_REF) for target in references(node)
            if target.startswith(SCHEMA_REF)}


def _rewrite(node: Any) -> Any:
    if isinstance(node, dict):
        return {key: _rewrite(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_rewrite(value) for value in node]
    if isinstance(node, str) and node.startswith(SCHEMA_REF):
        return node.replace(SCHEMA_REF, "#/$defs/")  # $ref and discriminator mappings
    return node
