"""Reusable marshmallow fields: player names, seeds, modes, card codes."""
from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, validate

MAX_NAME = 64
MAX_PLAYERS = 8


def PlayerName(**kwargs: Any) -> fields.String:
    """A player's name: 1–64 characters."""
    return fields.String(validate=validate.Length(1, MAX_NAME), **kwargs)


def Players(min_players: int, max_players: int, **kwargs: Any) -> fields.List:
    """The seated players in seat/play order, names distinct."""
    def distinct(names: list[str]) -> None:
        if len(set(names)) != len(names):
            raise ValidationError("Each player must be named once.")
    return fields.List(PlayerName(), required=True,
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
    """A shuffle seed: a non-negative integer (up to 256 bits) or a string of 1–128 chars."""

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
