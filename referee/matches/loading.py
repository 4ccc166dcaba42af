"""Parsing bodies into validated data, and finding a game: shared by the HTTP layer and the
match service, owned by neither (no Flask).  Input errors are :class:`InvalidInput` /
:class:`UnknownGame` refusals (mapped to problems by ``referee.api.errors``); a submitted
snapshot is checked once here, and returned as the engine's ``CheckedState``."""
from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Mapping
from typing import Any

from marshmallow import Schema, ValidationError

from referee.matches.checked_memo import MEMO
from referee.games.base import REFEREE, CheckedState, ImpossibleState, InvalidSetup, Violation
from referee.games.common.verdicts import LISTED
from referee.games.common.vocabulary import HOST
from referee.games.common.quoting import quoted
from referee.refusals import InvalidInput, UnknownGame
from referee.schemas.fastcheck import Check, checker, loader_of
from referee.schemas.fields import name_keys
from referee.registry import GAMES, GameEntry


def game_entry(game: str) -> GameEntry:
    """The registry entry of ``game``; ``unknown-game`` (404) problem otherwise."""
    entry = GAMES.get(game)
    if entry is None:
        raise UnknownGame(f"No game is called {game!r}; known games: "
                      f"{', '.join(sorted(GAMES))}.",
                      errors=[{"field": "game", "message": f"unknown game {game!r}"}])
    return entry


def load(schema: Schema, data: Any, prefix: str = "") -> dict[str, Any]:
    """Load ``data`` with ``schema``; ``invalid-input`` problem naming each field otherwise
    (in document order, :func:`flatten_messages`)."""
    try:
        return schema.load(data)
    except ValidationError as exc:
        raise InvalidInput.naming(flatten_messages(exc.messages, prefix, data)) from None


def flatten_messages(messages: Any, prefix: str = "", data: Any = None) -> list[dict[str, str]]:
    """Turn marshmallow's nested error messages into ``[{"field", "message"}]``, fields of one
    object in the order ``data`` (the input that was loaded) holds them, the others (a missing
    required field, the object's own ``_schema`` errors) after them as marshmallow gave them.

    So the same input gets the same answer in every process: marshmallow finds unknown fields
    by iterating a ``set`` of the input's keys, whose order follows the process's string hash
    (``PYTHONHASHSEED``), so two workers listed them in two orders.  Without ``data`` (or where
    it is not an object) marshmallow's order is kept."""
    out: list[dict[str, str]] = []
    if isinstance(messages, dict):
        for key in document_order(messages, data):
            value, inside = messages[key], _member(data, key)
            if isinstance(value, dict) and value and set(value) <= {"key", "value"}:
                # a Dict field's entry: "value" errors are the entry's, "key" its name's
                for part, inner in value.items():
                    name = f"{prefix}.{key}" if prefix else str(key)
                    out += (flatten_messages(inner, name, inside) if part == "value"
                            else flatten_messages(inner, f"{name} (key)"))
                continue
            if key == "_schema":
                path, inside = prefix, None
            elif isinstance(key, int):
                path = f"{prefix}[{key}]"
            else:
                path = f"{prefix}.{key}" if prefix else str(key)
            out += flatten_messages(value, path, inside)
    elif isinstance(messages, (list, tuple)):
        if all(isinstance(m, str) for m in messages):
            out += [{"field": prefix or "body", "message": m} for m in messages]
        else:
            for m in messages:
                out += flatten_messages(m, prefix, data)
    else:
        out.append({"field": prefix or "body", "message": str(messages)})
    return out


def document_order(keyed: Mapping, data: Any) -> list:
    """The keys of ``keyed``: those ``data`` (a mapping: what the request sent) holds in its
    order, then the rest in their own order (a stable sort); ``keyed``'s own order when
    ``data`` is no mapping."""
    if len(keyed) < 2 or not isinstance(data, Mapping):
        return list(keyed)
    place = {key: i for i, key in enumerate(data) if key in keyed}
    return sorted(keyed, key=lambda key: place.get(key, len(data)))


def _member(data: Any, key: Any) -> Any:
    """``data[key]`` when ``data`` is a mapping holding ``key`` or a list holding index
    ``key``, else ``None``."""
    if isinstance(data, Mapping):
        return data.get(key) if isinstance(key, str) else None
    if isinstance(data, list) and isinstance(key, int) and 0 <= key < len(data):
        return data[key]
    return None


RESERVED_NAMES = frozenset({REFEREE, HOST})
"""Names no player may take: the referee view's viewer id and the host of host-only actions;
a seat so named would be served the referee's view."""

_RESERVED_KEYS = frozenset(key for name in RESERVED_NAMES for key in name_keys(name))
"""The reserved names as names are compared (:func:`name_keys`: ``"Host"`` and full-width
``"ＨＯＳＴ"`` are ``"host"``, and so is anything whose TS #39 skeleton is ``host``'s)."""


def _refuse_reserved(entry: GameEntry, players: list[str]) -> None:
    """Refuse a reserved name, compared by :func:`name_keys` like every name (``"Host"``,
    full-width ``"ＨＯＳＴ"`` and look-alikes too): one of :data:`RESERVED_NAMES` is 422
    ``invalid-input`` (field ``players``); one of the game's own (``engine.reserved_names``:
    ``"unknown"`` in every game, Coup's ``"court"`` and characters) is 422 ``invalid-setup``
    with the game's rule, naming ``players[i]``."""
    reserved = [name for name in players if not _RESERVED_KEYS.isdisjoint(name_keys(name))]
    if reserved:
        raise InvalidInput(f"{reserved[0]!r} is reserved (\"host\" names the host and "
                           "\"__referee__\" the referee's view, in any case, width or "
                           "look-alike form) and cannot name a player.", errors=[
                               {"field": "players", "message": f"{reserved[0]!r} is reserved"}])
    own = _own_reserved(entry)
    problems = []
    for i, name in enumerate(players):
        found = next((own[key] for key in name_keys(name) if key in own), None)
        if found is not None:
            problems.append(dataclasses.replace(found, field=f"players[{i}]",
                                                params={"name": repr(name)}))
    if problems:
        raise InvalidSetup(problems)


_OWN: dict[str, dict[tuple[str, str], Violation]] = {}


def _own_reserved(entry: GameEntry) -> dict[tuple[str, str], Violation]:
    """``{key: violation}`` of the game's reserved names, each under every one of its
    :func:`name_keys` (built once per game)."""
    own = _OWN.get(entry.name)
    if own is None:
        own = _OWN[entry.name] = {key: refusal
                                  for name, refusal in entry.engine.reserved_names.items()
                                  for key in name_keys(name)}
    return own


def load_setup(entry: GameEntry, data: Any) -> tuple[dict[str, Any], int | str]:
    """Validate a setup body with the game's ``SetupSchema`` and its options; return the body
    (options completed with defaults, ``seed`` removed) and the seed: the one given, or a fresh
    256-bit one as 64 hex digits (a string, so no JSON client rounds it)."""
    body = load(_instance(entry.schemas.SetupSchema), data)
    _refuse_reserved(entry, body.get("players", []))
    body["options"] = entry.engine.resolve_options(body.get("options"))
    seed = body.pop("seed", None)
    return body, secrets.token_hex(32) if seed is None else seed


def load_action(entry: GameEntry, action: Any, prefix: str = "action") -> dict[str, Any]:
    """Validate an action against the game's schema for its ``type``; ``invalid-input`` (422)
    naming ``<prefix>.type`` when the type is not the game's, the value quoted as every message
    quotes one (:func:`referee.games.common.quoting.quoted`: a string's first 64 characters,
    then "…")."""
    schemas = entry.schemas.ACTION_SCHEMAS
    if not isinstance(action, dict):
        raise InvalidInput(f"{prefix} must be an object.",
                      errors=[{"field": prefix, "message": "Not an object."}])
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in schemas:  # a list or object is no type either
        message = (f"Unknown action type {quoted(kind)} for {entry.engine.name}; one of: "
                   f"{', '.join(schemas)}.")
        raise InvalidInput(message,
                      errors=[{"field": f"{prefix}.type", "message": message}])
    schema = _instance(schemas[kind])
    fast = loader_of(schema)(action)
    return fast if fast is not None else load(schema, action, prefix)


def load_state(entry: GameEntry, state: Any, prefix: str = "state",
               finite: bool | None = None) -> CheckedState:
    """Type-check a snapshot with the game's ``StateSchema`` then run the engine's
    ``check_snapshot``, once: the engine's later calls trust the :class:`CheckedState`
    returned.  :class:`ImpossibleState` lists every inconsistency, fields under ``prefix``.
    A snapshot that passed before in this process (the same game, the same JSON) passes
    without the check being run again (:mod:`referee.matches.checked_memo`; ``finite``: whether the
    snapshot is known to hold no NaN or infinity, see :meth:`CheckedMemo.key`)."""
    return _possible(entry, state, prefix, _typed(entry, state, prefix, finite))


def load_state_and_action(entry: GameEntry, body: dict[str, Any], finite: bool | None = None,
                          sent: Any = None) -> tuple[CheckedState, dict[str, Any]]:
    """The ``state`` (:func:`load_state`) and ``action`` (:func:`load_action`) of a
    ``{"state", "action"}`` body (``/validate``, ``/apply``), every wrong field of both named
    at once: one ``invalid-input`` listing the state's fields and the action's in the order
    the request held the two (``sent``, the body as sent; default ``body``), before the
    engine judges whether the snapshot is possible (:class:`ImpossibleState` only for a
    snapshot of the right types beside a valid action)."""
    loaded: dict[str, Any] = {}
    refused: list[InvalidInput] = []
    for name in document_order(dict.fromkeys(("state", "action")),
                               body if sent is None else sent):
        try:
            loaded[name] = (_typed(entry, body["state"], "state", finite) if name == "state"
                            else load_action(entry, body["action"]))
        except InvalidInput as exc:
            refused.append(exc)
    if len(refused) == 1:
        raise refused[0]
    if refused:
        raise InvalidInput.naming([error for exc in refused for error in exc.errors])
    return _possible(entry, body["state"], "state", loaded["state"]), loaded["action"]


def _typed(entry: GameEntry, state: Any, prefix: str, finite: bool | None) -> bytes | None:
    """The memo key of ``state`` (:meth:`CheckedMemo.key`) once its types are right
    (``invalid-input`` naming each wrong field under ``prefix`` otherwise); a snapshot that
    passed before is not type-checked again."""
    if not isinstance(state, dict):
        raise InvalidInput(f"{prefix} must be an object.",
                      errors=[{"field": prefix, "message": "Not an object."}])
    key = MEMO.key(entry.name, state, finite)
    if key in MEMO:  # passed before: the same JSON gets the same verdict (checked_memo)
        return key
    schema = _instance(entry.schemas.StateSchema)
    errors = None if _fast_check(schema)(state) else schema.validate(state)
    if errors:
        raise InvalidInput.naming(flatten_messages(errors, prefix, state))
    return key


def _possible(entry: GameEntry, state: dict[str, Any], prefix: str,
              key: bytes | None) -> CheckedState:
    """``state``, of the right types (:func:`_typed` gave ``key``), as the engine accepts it:
    :class:`ImpossibleState` with the first inconsistencies, fields under ``prefix``."""
    if key in MEMO:
        return CheckedState(state)
    try:
        checked = entry.engine.accept(state)
    except ImpossibleState as exc:  # the answer words the first LISTED: the rest counted
        listed = exc.violations[:LISTED]
        raise ImpossibleState([_under(prefix, v) for v in listed],
                              unlisted=exc.count - len(listed)) from None
    MEMO.add(key)
    return checked


def _under(prefix: str, violation: Violation) -> Violation:
    where = violation.field or prefix
    if where != prefix and not where.startswith(prefix + "."):
        where = f"{prefix}.{where}"
    return dataclasses.replace(violation, field=where)


_CACHE: dict[type, Schema] = {}


def _instance(cls: type[Schema]) -> Schema:
    """Schema instances are built once (they are stateless after construction)."""
    if cls not in _CACHE:
        _CACHE[cls] = cls()
    return _CACHE[cls]


_CHECKS: dict[int, Check] = {}


def _fast_check(schema: Schema) -> Check:
    """The compiled "certainly valid" test of a shared schema instance (built once): when it
    says yes marshmallow would find nothing; otherwise marshmallow runs and its errors are
    the answer (:mod:`referee.schemas.fastcheck`)."""
    found = _CHECKS.get(id(schema))
    if found is None:
        found = _CHECKS[id(schema)] = checker(schema)
    return found


def schema(cls: type[Schema]) -> Schema:
    """Shared instance of ``cls``."""
    return _instance(cls)
