"""The OpenAPI 3.1 document of the service, generated from its marshmallow schemas.

flask-smorest documents every blueprint's routes as they are registered (apispec's
``MarshmallowPlugin`` turns each schema into a component, nullable fields as
``type: [..., "null"]``).  :func:`document` finishes that document for clients:

- **names**: a game's schemas are named after the game (``AllFoursState``, ``CoupDeal``), so two
  games' ``DealSchema`` never collide (:func:`schema_name`, the plugin's name resolver);
- **per-game bodies**: each game's setup ``options`` lists the game's options (type,
  default, bounds or choices, rule) from its engine's option table;
- **per-game paths**: the generic stateless operations ``/v1/games/{game}/setup``,
  ``legal-actions``, ``validate``, ``apply`` and ``reshuffle`` are documented once per
  registered game at its concrete path (``/v1/games/all-fours/apply``) with that game's
  setup, snapshot and action schemas.  ``<Game>Action`` is a ``oneOf`` of the game's action schemas with a
  ``discriminator`` on ``type`` (mapping every action type to its schema);
- **errors**: every operation lists the statuses it can answer with, each as
  ``application/problem+json`` with the ``Problem`` schema (RFC 9457): what its decorators
  document, plus 400/413/415/422 for any operation with a body (the request guards), 422 for
  any ``/v1`` operation (an unknown or repeated query parameter), 404 for any path with a
  parameter (it may name nothing) and 500;
- **tokens**: a ``bearer`` security scheme (``seatToken``), required or optional on each match
  operation as :data:`MATCH_SECURITY` says, so ``/docs`` can send a token (Authorize);
- **match actions**: ``POST /v1/matches/{match_id}/actions``'s ``action`` is ``anyOf`` the games'
  ``<Game>Action`` unions (the match's game decides which one applies);
- **match views**: ``MatchView`` is one variant per game told apart by ``game``, the shared
  envelope around the game's own ``view`` and ``score.breakdown``
  (:mod:`referee.contract.views`);
- **limits**: 429 ``rate-limited`` (with ``Retry-After`` and ``RateLimit-*``) on every limited
  operation, 408 ``request-timeout`` on every operation with a body;
- an ``operationId`` on every operation, a tag per game, unused components dropped, and
  docstrings' ````literals```` as Markdown ```code```.

The document is built once per app (:func:`document`); :func:`render_yaml` and
:func:`render_json` give the exact text of ``openapi.yaml`` and of ``/openapi.json``.
"""
from __future__ import annotations

import copy
import json
import re
import threading
import warnings
from typing import Any

import yaml
from apispec.ext.marshmallow.common import resolve_schema_cls
from flask import Flask
from marshmallow import Schema

from referee.api.errors import PROBLEM_MIMETYPE, PROBLEMS
from referee.contract.views import register_view_schemas, type_match_views
from referee.registry import GAMES

GENERIC_OPERATIONS = ("setup", "legal-actions", "validate", "apply", "reshuffle")
"""The stateless operations every game has, documented per game."""

GENERIC_PATH = "/v1/games/{game}/"
HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
SCHEMA_REF = "#/components/schemas/"

BODY_PROBLEMS = {"400": "malformed-json", "413": "payload-too-large",
                 "415": "unsupported-media-type", "422": "invalid-input"}
"""What any operation taking a JSON body may answer before its view runs (``limits``,
``MAX_CONTENT_LENGTH``, body parsing)."""

SHARED_RESPONSES = {
    "MalformedJson": ("malformed-json", "The body is not JSON, or is nested deeper than 64 "
                      "levels."),
    "PayloadTooLarge": ("payload-too-large", "The body is larger than "
                        "REFEREE_MAX_BODY_BYTES (default 256 KiB)."),
    "UnsupportedMediaType": ("unsupported-media-type", "The body is not sent as "
                             "application/json."),
    "InvalidInput": ("invalid-input", "A field has the wrong type or an unknown value, a "
                     "body object names a key twice, or a query parameter is unknown or "
                     "repeated; errors names each field."),
    "NotFound": ("not-found", "Nothing is at this path: the id (or name) in it names nothing "
                 "(never created, deleted, or expired)."),
    "InternalError": ("internal-error", "Never expected: the referee hit an unexpected error "
                      "(logged, without the request body)."),
}
"""Reusable problem responses: component name -> (problem slug, description)."""

SHARED_RESPONSES.update({
    "RequestTimeout": ("request-timeout", "The body did not arrive within "
                       "REFEREE_BODY_TIMEOUT_SECONDS (default 10); the connection is closed."),
    "RateLimited": ("rate-limited", "A budget of this client (IP or token) is spent; "
                    "Retry-After and RateLimit-* say for how long."),
})

RATE_LIMIT_HEADERS = {
    "Retry-After": "seconds until the budget refills",
    "RateLimit-Limit": "the budget's size (requests per window)",
    "RateLimit-Remaining": "requests left in the window (0)",
    "RateLimit-Reset": "seconds until the window ends",
    "RateLimit-Policy": 'the budget: "<name>";q=<size>;w=<window seconds>'}

LIMITED_PREFIXES = ("/v1/games", "/v1/matches")
"""Paths under these carry the abuse limits (health, docs and OpenAPI do not)."""

BEARER = "seatToken"
"""The security scheme's name: a seat or host token, ``Authorization: Bearer <token>``."""

MATCH_SECURITY = {  # (path, method) -> True: a token is required; False: optional
    ("/v1/matches/{match_id}", "get"): False,
    ("/v1/matches/{match_id}", "delete"): True,
    ("/v1/matches/{match_id}/actions", "post"): True,
    ("/v1/matches/{match_id}/events", "get"): False,
    ("/v1/matches/{match_id}/legal-actions", "get"): True,
    ("/v1/matches/{match_id}/seats/{player}/invite", "post"): True,
    ("/v1/matches/{match_id}/seats/{player}/token", "post"): True,
}
"""Which match operations take a token (the others, creation and the audit, take none)."""

_SHARED_BY_SLUG = {slug: name for name, (slug, _) in SHARED_RESPONSES.items()}
_CACHE_KEY = "referee.openapi"
_LOCK = threading.Lock()


def camel(name: str) -> str:
    """``"all-fours"`` / ``"give_one"`` -> ``"AllFours"`` / ``"GiveOne"``."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[-_\s]+", name) if part)


def _game_prefixes() -> dict[str, str]:
    return {entry.schemas.__name__: camel(name) for name, entry in GAMES.items()}


def schema_name(schema: type[Schema] | Schema) -> str:
    """Component name of a marshmallow schema: its class name without ``Schema``, prefixed
    with the game's name when it belongs to a game's schema module (``AllFoursTrick``)."""
    cls = resolve_schema_cls(schema)
    cls = cls[0] if isinstance(cls, list) else cls
    name = cls.__name__.removesuffix("Schema") or cls.__name__
    prefix = _game_prefixes().get(cls.__module__, "")
    return name if name.startswith(prefix) else prefix + name


def action_component(game: str, kind: str) -> str:
    """Component name of action ``kind`` of ``game`` (``AllFoursPlayAction``)."""
    return f"{camel(game)}{camel(kind)}Action"


def ref(name: str) -> dict[str, str]:
    """A reference to component schema ``name``."""
    return {"$ref": SCHEMA_REF + name}


def document(app: Flask) -> dict[str, Any]:
    """The finished OpenAPI document of ``app`` (built on first use, then cached on the app).

    Raises ``RuntimeError`` if two schemas resolve to the same component name."""
    doc = app.extensions.get(_CACHE_KEY)
    if doc is None:
        with _LOCK:
            doc = app.extensions.get(_CACHE_KEY)
            if doc is None:
                doc = app.extensions[_CACHE_KEY] = _build(_api(app).spec)
    return doc


def render_yaml(doc: dict[str, Any]) -> str:
    """The document as YAML: keys sorted, unicode kept, the text of ``openapi.yaml``."""
    return yaml.safe_dump(doc, sort_keys=True, allow_unicode=True, width=100)


def render_json(doc: dict[str, Any]) -> str:
    """The document as JSON: keys sorted, two-space indent, trailing newline."""
    return json.dumps(doc, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def _api(app: Flask):
    return app.extensions["flask-smorest"]["apis"][""]["ext_obj"]


def _build(spec) -> dict[str, Any]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _register_game_schemas(spec)
        register_view_schemas(spec, camel)
        doc = copy.deepcopy(spec.to_dict())
    clashes = [str(w.message) for w in caught if "Multiple schemas" in str(w.message)]
    if clashes:
        raise RuntimeError("Two schemas resolve to one component name: " + "; ".join(clashes))
    schemas = doc["components"]["schemas"]
    for game in GAMES:
        _add_game_envelopes(schemas, game)
    type_match_views(schemas, camel)
    _expand_generic_paths(doc)
    _type_match_actions(doc)
    _secure_match_operations(doc)
    _document_problems(doc)
    _name_operations(doc["paths"])
    _link_match_creation(doc)
    _tag_games(doc)
    _drop_unused_components(doc)
    return _markdown(doc)


def _register(spec, name: str, schema: type[Schema]) -> None:
    if name not in spec.components.schemas:
        spec.components.schema(name, schema=schema)


def _register_game_schemas(spec) -> None:
    """Setup, snapshot and every action schema of every game, under stable names."""
    for game, entry in GAMES.items():
        _register(spec, schema_name(entry.schemas.SetupSchema), entry.schemas.SetupSchema)
        _register(spec, schema_name(entry.schemas.StateSchema), entry.schemas.StateSchema)
        for kind, cls in entry.schemas.ACTION_SCHEMAS.items():
            _register(spec, action_component(game, kind), cls)


def _derive(schemas: dict, base: str, name: str, title: str, **properties: Any) -> None:
    """Component ``name``: a copy of ``base`` whose ``properties`` are replaced."""
    derived = copy.deepcopy(schemas[base])
    derived["description"] = f"{title}: {derived.get('description', base)}"
    for key, value in properties.items():
        assert key in derived["properties"], (base, key)
        derived["properties"][key] = value
    schemas[name] = derived


def _add_game_envelopes(schemas: dict, game: str) -> None:
    """``<Game>Action`` (oneOf + discriminator) and the game's request/response envelopes."""
    entry = GAMES[game]
    prefix, title = camel(game), entry.engine.describe()["title"]
    kinds = list(entry.schemas.ACTION_SCHEMAS)
    schemas[f"{prefix}Action"] = {
        "description": f"An action of {title}: one of {', '.join(kinds)}, told apart by "
                       "`type`.",
        "oneOf": [ref(action_component(game, kind)) for kind in kinds],
        "discriminator": {"propertyName": "type", "mapping": {
            kind: SCHEMA_REF + action_component(game, kind) for kind in kinds}},
    }
    setup = schemas[schema_name(entry.schemas.SetupSchema)]
    if "options" in setup.get("properties", {}):
        setup["properties"]["options"] = options_schema(entry.engine.describe()["options"])
    state = ref(schema_name(entry.schemas.StateSchema))
    action = ref(f"{prefix}Action")
    _derive(schemas, "SetupResponse", f"{prefix}SetupResponse", title, state=state)
    _derive(schemas, "LegalActionsRequest", f"{prefix}LegalActionsRequest", title, state=state)
    _derive(schemas, "LegalActionsResponse", f"{prefix}LegalActionsResponse", title,
            actions={"type": "array", "items": action})
    _derive(schemas, "ActionRequest", f"{prefix}ActionRequest", title, state=state,
            action=action)
    _derive(schemas, "ApplyResponse", f"{prefix}ApplyResponse", title, state=state)
    _derive(schemas, "ReshuffleRequest", f"{prefix}ReshuffleRequest", title, state=state)
    _derive(schemas, "ReshuffleResponse", f"{prefix}ReshuffleResponse", title, state=state)


_OPTION_TYPES = {"int": {"type": "integer"}, "bool": {"type": "boolean"},
                 "choice": {"type": "string"}, "str": {"type": ["string", "null"]},
                 "dict": {"type": "object"}}


def options_schema(options: dict[str, dict]) -> dict:
    """The ``options`` object of a game's setup from its option table (``Engine.describe``):
    each option's type, default, bounds or choices, and the rule it switches."""
    properties = {}
    for name, spec in options.items():
        prop = dict(_OPTION_TYPES.get(spec["type"], {}))
        prop.update({"default": spec["default"],
                     "description": f"{spec['description']} ({spec['rule']})"})
        for key in ("minimum", "maximum"):
            if spec.get(key) is not None:
                prop[key] = spec[key]
        if spec.get("choices"):
            prop["enum"] = list(spec["choices"])
        properties[name] = prop
    return {"type": "object", "properties": properties, "additionalProperties": False,
            "description": "Options by name; each defaults as shown (GET /v1/games/{game})."}


_GAME_BODIES = {  # operation -> (request component suffix, 200 response component suffix)
    "setup": ("Setup", "SetupResponse"),
    "legal-actions": ("LegalActionsRequest", "LegalActionsResponse"),
    "validate": ("ActionRequest", None),
    "apply": ("ActionRequest", "ApplyResponse"),
    "reshuffle": ("ReshuffleRequest", "ReshuffleResponse"),
}


def _expand_generic_paths(doc: dict) -> None:
    """Replace ``/v1/games/{game}/<op>`` by one concrete path per registered game."""
    paths = doc["paths"]
    for op in GENERIC_OPERATIONS:
        generic = paths.pop(GENERIC_PATH + op)
        for game in GAMES:
            item = copy.deepcopy(generic)
            params = [p for p in item.pop("parameters", []) if p.get("name") != "game"]
            if params:
                item["parameters"] = params
            request, response = _GAME_BODIES[op]
            for method in HTTP_METHODS:
                if method not in item:
                    continue
                operation = item[method]
                operation["tags"] = [game]
                operation["requestBody"] = {"required": True, "content": {
                    "application/json": {"schema": ref(camel(game) + request)}}}
                if response:
                    operation["responses"]["200"]["content"] = {
                        "application/json": {"schema": ref(camel(game) + response)}}
            paths[f"/v1/games/{game}/{op}"] = item


def _type_match_actions(doc: dict) -> None:
    """The match action body's ``action``: any game's ``<Game>Action`` (``anyOf``: two games
    may share an action type); and a new match's ``game``: one of the registered games."""
    doc["components"]["schemas"]["MatchCreate"]["properties"]["game"]["enum"] = list(GAMES)
    body = doc["components"]["schemas"]["MatchAction"]["properties"]
    body["action"] = {"description": body["action"].get("description", "") + ": one of the "
                      "match's game's actions (`type`, `player` = the token's seat, the "
                      "action's fields)",
                      "anyOf": [ref(f"{camel(game)}Action") for game in GAMES]}


def _secure_match_operations(doc: dict) -> None:
    """The ``seatToken`` bearer scheme, and each match operation's use of it."""
    doc["components"].setdefault("securitySchemes", {})[BEARER] = {
        "type": "http", "scheme": "bearer", "description": "A seat token (that seat's view and "
        "actions) or the host token (the referee view, host-only actions, delete), as returned "
        "by POST /v1/matches: Authorization: Bearer <token>."}
    for (path, method), required in MATCH_SECURITY.items():
        operation = doc["paths"][path][method]
        operation["security"] = [{BEARER: []}] if required else [{}, {BEARER: []}]


def _problem_response(description: str) -> dict:
    return {"description": description,
            "content": {PROBLEM_MIMETYPE: {"schema": ref("Problem")}}}


def _document_problems(doc: dict) -> None:
    """Every 4xx/5xx as problem+json; the body guards' and 500 on every operation."""
    shared = doc["components"].setdefault("responses", {})
    for name, (slug, text) in SHARED_RESPONSES.items():
        shared[name] = _problem_response(f"{slug}: {text}")
    shared["RateLimited"]["headers"] = {
        name: {"description": text, "schema": {"type": "string" if name == "RateLimit-Policy"
                                               else "integer"}}
        for name, text in RATE_LIMIT_HEADERS.items()}
    for path, item in doc["paths"].items():
        for method in HTTP_METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            responses = operation["responses"]
            for status, response in responses.items():
                if status[0] in "45" and "$ref" not in response:
                    description = response.get("description") or PROBLEMS.get(
                        _slug_for(status), ("", "problem"))[1]
                    responses[status] = _problem_response(description)
            if "requestBody" in operation:
                for status, slug in BODY_PROBLEMS.items():
                    responses.setdefault(status, _shared(slug))
                responses.setdefault("408", _shared("request-timeout"))
            if path.startswith(LIMITED_PREFIXES):
                responses.setdefault("429", _shared("rate-limited"))
            if path.startswith("/v1/"):  # an unknown or repeated query parameter (query_guard)
                responses.setdefault("422", _shared("invalid-input"))
            if "{" in path:
                responses.setdefault("404", _shared("not-found"))
            responses.setdefault("500", _shared("internal-error"))


def _shared(slug: str) -> dict:
    return {"$ref": "#/components/responses/" + _SHARED_BY_SLUG[slug]}


def _slug_for(status: str) -> str:
    return next((slug for slug, (code, _) in PROBLEMS.items() if str(code) == status), "")


def _name_operations(paths: dict) -> None:
    """``operationId`` = method + the path's words: ``postGamesAllFoursApply``."""
    for path, item in paths.items():
        words = []
        for part in path.strip("/").split("/"):
            if part == "v1":
                continue
            words.append("By" + camel(part[1:-1]) if part.startswith("{") else camel(part))
        for method in HTTP_METHODS:
            if method in item:
                item[method]["operationId"] = method + "".join(words)


MATCH_LINKS = {  # link name -> (operationId, with the host token, If-Match "1")
    "ReadAsHost": ("getMatchesByMatchId", True, False),
    "ReadPublicly": ("getMatchesByMatchId", False, False),
    "Events": ("getMatchesByMatchIdEvents", False, False),
    "LegalActionsAsHost": ("getMatchesByMatchIdLegalActions", True, False),
    "ActAsHost": ("postMatchesByMatchIdActions", True, True),
    "Audit": ("getMatchesByMatchIdAudit", False, False),
    "DeleteAsHost": ("deleteMatchesByMatchId", True, False),
    "InviteAsHost": ("postMatchesByMatchIdSeatsByPlayerInvite", True, False),
    "ReissueAsHost": ("postMatchesByMatchIdSeatsByPlayerToken", True, False),
}
"""OpenAPI links from a created match to what can be done with it (stateful clients and
schemathesis's state machine follow them)."""


def _link_match_creation(doc: dict) -> None:
    """Links on ``POST /v1/matches``'s 201: the new id (and the host token) into each match
    operation."""
    links = {}
    for name, (operation, host, version) in MATCH_LINKS.items():
        parameters = {"path.match_id": "$response.body#/id"}
        if host:
            parameters["header.Authorization"] = "Bearer {$response.body#/host_token}"
        if version:
            parameters["header.If-Match"] = '"{$response.body#/version}"'
        if "ByPlayer" in operation:
            parameters["path.player"] = "$response.body#/players/0"
        links[name] = {"operationId": operation, "parameters": parameters}
    links["RecoverHost"] = {"operationId": "postMatchesByMatchIdHostToken",
                            "parameters": {"path.match_id": "$response.body#/id"},
                            "requestBody": {"recovery_code": "$response.body#/recovery_code"}}
    doc["paths"]["/v1/matches"]["post"]["responses"]["201"]["links"] = links


def _tag_games(doc: dict) -> None:
    """One tag per registered game, listing its stateless endpoints."""
    tags = {tag["name"]: tag for tag in doc.setdefault("tags", [])}
    for game, entry in GAMES.items():
        title = entry.engine.describe()["title"]
        text = f"{title}: setup, legal actions, validate, apply, reshuffle (stateless)."
        if game in tags:
            tags[game]["description"] = f"{text} {tags[game].get('description', '')}".strip()
        else:
            doc["tags"].append({"name": game, "description": text})


def _markdown(node: Any) -> Any:
    """Docstrings' reST literals (````x````) as Markdown code (```x```) in every ``summary`` and
    ``description``."""
    if isinstance(node, dict):
        return {key: value.replace("``", "`") if key in ("summary", "description")
                and isinstance(value, str) else _markdown(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_markdown(value) for value in node]
    return node


def references(node: Any) -> set[str]:
    """Every ``$ref`` and discriminator ``mapping`` target inside ``node``."""
    found: set[str] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                found.add(value)
            elif key == "mapping" and isinstance(value, dict):
                found.update(v for v in value.values() if isinstance(v, str))
            else:
                found |= references(value)
    elif isinstance(node, list):
        for value in node:
            found |= references(value)
    return found


def _drop_unused_components(doc: dict) -> None:
    """Keep only the components the paths reach (directly or through other components)."""
    components = doc["components"]
    reached: set[str] = set()
    todo = references(doc["paths"])
    while todo:
        target = todo.pop()
        if target in reached:
            continue
        reached.add(target)
        kind, name = target.split("/")[2:4]
        todo |= references(components.get(kind, {}).get(name, {}))
    for kind in list(components):
        if kind == "securitySchemes":  # named by operations' security, not by $ref
            continue
        for name in list(components[kind]):
            if f"#/components/{kind}/{name}" not in reached:
                del components[kind][name]
        if not components[kind]:
            del components[kind]
