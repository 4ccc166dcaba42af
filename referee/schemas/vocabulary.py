"""The API side of a game's action vocabulary (``referee.games.common.vocabulary``): one
marshmallow Schema per declared action, each field made from its kind.

A game's schema module passes the factories of its own kinds (Coup's ``Character``, All Fours'
``Card``…); :data:`COMMON_FIELDS` makes the kinds every game shares.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from marshmallow import Schema, fields, validate

from referee.games.common.vocabulary import FieldSpec, Vocabulary
from referee.schemas.fields import List, PlayerName, StrictBoolean, action_schema

Factory = Callable[..., fields.Field]

COMMON_FIELDS: Mapping[str, Factory] = {
    "player": PlayerName, "bool": StrictBoolean,
    "int": lambda **kw: fields.Integer(strict=True, **kw), "str": fields.String}
"""Field factories of the kinds every game shares (``**kwargs``: ``required``…)."""


def action_schemas(vocabulary: Vocabulary,
                   factories: Mapping[str, Factory]) -> dict[str, type[Schema]]:
    """``ACTION_SCHEMAS`` (``{type: Schema}``, in declaration order) of ``vocabulary``, each
    field made by the factory of its kind (``factories`` over :data:`COMMON_FIELDS`), the
    action's ``doc`` its description.  Raises ``KeyError`` for a kind without a factory."""
    makers = {**COMMON_FIELDS, **factories}
    return {spec.type: action_schema(spec.type, spec.doc, **{
        name: _field(makers, fspec) for name, fspec in spec.fields.items()})
        for spec in vocabulary.actions}


def _field(makers: Mapping[str, Factory], fspec: FieldSpec) -> fields.Field:
    kwargs: dict[str, Any] = {"required": True} if fspec.required else {}
    if fspec.kind == "cards":
        if fspec.length is not None:
            kwargs["validate"] = validate.Length(*fspec.length)
        return List(makers[fspec.items](), **kwargs)
    if fspec.kind == "choice":
        return fields.String(validate=validate.OneOf(list(fspec.choices)), **kwargs)
    return makers[fspec.kind](**kwargs)
