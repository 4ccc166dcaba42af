"""The match view in the OpenAPI document (issue 22): one ``MatchView`` for every game, a
``oneOf`` of one variant per registered game told apart by ``game`` (a ``discriminator``),
each variant the shared envelope with the game's own ``view`` and ``score.breakdown``.

- :func:`register_view_schemas` registers each game's schemas of
  :data:`referee.schemas.views.VIEW_SCHEMAS` (``AllFoursView``, ``AllFoursRefereeView``,
  ``AllFoursScoreBreakdown``…); a game without them has a free object there;
- :func:`type_match_views` turns the generic ``MatchView`` component (what the marshmallow
  schema gives) into ``<Game>MatchView`` variants and the union, and gives the other answers
  that carry a view (``MatchActed``, ``RollbackResult``) every game's ``view`` and ``score``
  (``anyOf``: they do not name their game).

In a variant ``view`` is ``anyOf`` the seat/public view and the referee view (for code
generators), and an ``if``/``then``/``else`` on ``role`` says which: the referee view for the
host, the seat or public view for everyone else.
"""
from __future__ import annotations

import copy
from typing import Any

from referee.registry import GAMES
from referee.schemas.views import VIEW_SCHEMAS

SCHEMA_REF = "#/components/schemas/"
KINDS = ("View", "RefereeView", "ScoreBreakdown")
"""The component suffixes of a game's schemas, in :data:`VIEW_SCHEMAS` order."""

_FREE = {"type": "object", "additionalProperties": {}}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": SCHEMA_REF + name}


def register_view_schemas(spec: Any, camel) -> None:
    """Register every game's view, referee view and score breakdown schemas under
    ``<Game><Kind>`` (``camel``: the game name's CamelCase)."""
    for game, schemas in VIEW_SCHEMAS.items():
        if game not in GAMES:
            continue
        for kind, schema in zip(KINDS, schemas):
            name = camel(game) + kind
            if name not in spec.components.schemas:
                spec.components.schema(name, schema=schema)


def type_match_views(schemas: dict[str, Any], camel) -> None:
    """``MatchView`` as one variant per game (module docstring)."""
    generic = schemas["MatchView"]
    variants, mapping, views, scores = [], {}, [], []
    for game in GAMES:
        prefix = camel(game)
        typed = [_ref(prefix + kind) if prefix + kind in schemas else _FREE for kind in KINDS]
        view = {"anyOf": typed[:2], "description": "the seat or public view, or (host token) "
                "the referee view"}
        score = copy.deepcopy(schemas["Score"])
        score["properties"]["breakdown"] = typed[2]
        schemas[prefix + "Score"] = score
        variant = copy.deepcopy(generic)
        variant["description"] = f"A match of {game} as the caller may see it."
        variant["properties"].update(game={"type": "string", "enum": [game]}, view=view,
                                     score=_ref(prefix + "Score"))
        variant["if"] = {"properties": {"role": {"const": "host"}}}  # the host: the referee's
        variant["then"] = {"properties": {"view": typed[1]}}
        variant["else"] = {"properties": {"view": typed[0]}}
        schemas[prefix + "MatchView"] = variant
        variants.append(_ref(prefix + "MatchView"))
        mapping[game] = SCHEMA_REF + prefix + "MatchView"
        views += typed[:2]
        scores.append(_ref(prefix + "Score"))
    schemas["MatchView"] = {
        "description": "A match as the caller may see it (a seat token: that seat's view; "
                       "the host token: the referee view; no token: the public view). One "
                       "variant per game, told apart by `game`: the envelope (phase, to_move, "
                       "awaiting, score, outcome, over) is the same in every game, `view` and "
                       "`score.breakdown` are the game's own.",
        "oneOf": variants, "discriminator": {"propertyName": "game", "mapping": mapping}}
    for name in ("MatchActed", "RollbackResult"):
        properties = schemas[name]["properties"]
        properties["view"] = {"anyOf": views, "description": properties["view"].get(
            "description", "the game's own view")}
        properties["score"] = {"anyOf": scores}
