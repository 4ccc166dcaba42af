"""Reusable marshmallow fields: player names, seeds, modes, card codes."""
from __future__ import annotations

import unicodedata
from typing import Any

from marshmallow import ValidationError, fields, utils, validate

MAX_NAME = 64
MAX_PLAYERS = 8
MAX_ITEM_ERRORS = 50
"""A list stops checking its items after this many bad ones (the answer lists at most 50 errors
anyway): a body of thousands of bad items costs no more than one of fifty (issue 12)."""


class List(fields.List):
    """``fields.List`` with bounded work: a ``Length`` validator is applied before any item is
    read (a list too long is refused at once), and item checking stops after
    :data:`MAX_ITEM_ERRORS` bad items.  Same schema, same error shapes as ``fields.List``."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not utils.is_collection(value):
            raise self.make_error("invalid")
        for validator in self.validators:
            if isinstance(validator, validate.Length):
                validator(value)
        result, errors = [], {}
        for index, item in enumerate(value):
            try:
                result.append(self.inner.deserialize(item, **kwargs))
            except ValidationError as error:
                if error.valid_data is not None:
                    result.append(error.valid_data)
                errors[index] = error.messages
                if len(errors) >= MAX_ITEM_ERRORS:
                    break
        if errors:
            raise ValidationError(errors, valid_data=result)
        return result


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a player, or ``None``: it must be printable text (no control,
    format or bidirectional characters such as NUL or U+202E, no unassigned code points), in
    Unicode NFC, without leading or trailing white space.  Nothing is ever fixed silently."""
    if name != name.strip():
        return "A player's name must not start or end with white space."
    if not name.isprintable():
        bad = next(c for c in name if not c.isprintable())
        return (f"A player's name must be printable: U+{ord(bad):04X} "
                f"({unicodedata.name(bad, unicodedata.category(bad))}) is not.")
    if not unicodedata.is_normalized("NFC", name):
        return "A player's name must be in Unicode NFC (composed) form."
    return None


NAME_PATTERN = r"^\S(.*\S)?$"
"""The part of :func:`name_problem` a JSON Schema pattern can say: no white space at the ends."""

NAME_RULES = ("a player's name: 1-64 printable characters (no control, format or bidi "
              "characters), Unicode NFC, no white space at either end; names in one game "
              "differ after case folding")


def _valid_name(name: str) -> None:
    problem = name_problem(name)
    if problem is not None:
        raise ValidationError(problem)


def name_key(name: str) -> str:
    """What two names must not share: the NFC form case-folded (``Ana`` and ``ANA`` clash)."""
    return unicodedata.normalize("NFC", name.casefold())


def PlayerName(**kwargs: Any) -> fields.String:
    """A player's name: 1–64 printable characters in NFC, not padded (:func:`name_problem`)."""
    metadata = {"pattern": NAME_PATTERN, "description": NAME_RULES, **kwargs.pop("metadata", {})}
    return fields.String(validate=[validate.Length(1, MAX_NAME), _valid_name],
                         metadata=metadata, **kwargs)


def Players(min_players: int, max_players: int, **kwargs: Any) -> fields.List:
    """The seated players in seat/play order, names distinct after case folding."""
    def distinct(names: list[str]) -> None:
        keys = [name_key(name) for name in names]
        if len(set(keys)) != len(keys):
            raise ValidationError("Each player must be named once (names that differ only "
                                  "in case count as one).")
    return List(PlayerName(), required=True,
                       validate=[validate.Length(min_players, max_players), distinct], **kwargs)


def Mode(**kwargs: Any) -> fields.String:
    """``digital`` (the service knows every card) or ``table`` (real cards, some unknown)."""
    if not kwargs.get("required"):
        kwargs.setdefault("load_default", "digital")
    return fields.String(validate=validate.OneOf(["digital", "table"]), **kwargs)


def Options(**kwargs: Any) -> fields.Dict:
    """Game options by name; names and types are checked against the game's option table."""
    return fields.Dict(keys=fields.String(), load_default=dict, **kwargs)


class Seed(fields.Field):
    """A shuffle seed: a non-negative integer (up to 256 bits) or a string of 1–128 chars.
    Its JSON Schema says so (``type: [integer, string]``, plus ``null`` where ``allow_none``),
    so a schema-valid seed is an accepted one."""

    def __init__(self, **kwargs: Any):
        metadata = {"type": ["integer", "string"], "minimum": 0, "maximum": 2**256 - 1,
                    "minLength": 1,
                    "maxLength": 128, **kwargs.pop("metadata", {})}
        super().__init__(metadata=metadata, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool):
            raise ValidationError("A seed is a non-negative integer or a string.")
        if isinstance(value, int):
            if value < 0 or value.bit_length() > 256:
                raise ValidationError("An integer seed must be between 0 and 2**256 - 1.")
            return value
        if isinstance(value, str) and 1 <= len(value) <= 128:
            return value
        raise ValidationError("A seed is a non-negative integer or a string of 1-128 characters.")


class Code(fields.String):
    """A string restricted to a fixed set of codes (cards, characters…), with a helpful message."""

    def __init__(self, codes, what: str, **kwargs: Any):
        self.codes = tuple(codes)
        super().__init__(validate=validate.OneOf(self.codes, error=f"Not a {what}: {{input}}."),
                         **kwargs)


def action_schema(kind: str, doc: str, **extra: Any) -> type:
    """Return a Schema class for action ``kind``: ``type`` (must equal ``kind``), ``player``
    (required) and the ``extra`` fields; ``doc`` becomes its docstring (the OpenAPI text)."""
    from marshmallow import Schema

    attrs = {"type": fields.String(required=True, validate=validate.Equal(kind)),
             "player": PlayerName(required=True), **extra, "__doc__": doc}
    return type(f"{kind.title().replace('_', '')}ActionSchema", (Schema,), attrs)


class StrictBoolean(fields.Boolean):
    """JSON ``true`` or ``false`` only: ``"yes"``, ``"true"``, ``1`` are refused, not coerced."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise ValidationError("Must be true or false.")
        return value
