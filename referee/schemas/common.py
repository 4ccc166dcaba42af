"""Envelopes shared by every game: the stateless endpoints' request and response bodies."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from referee.games.common.grouping import FORMS
from referee.schemas.fastcheck import FastLoad
from referee.schemas.fields import List, PlayerName, Seed


class StateRequestSchema(FastLoad, Schema):
    """``{"state": snapshot}`` — the snapshot is checked by the game's ``StateSchema``.  A
    valid body (this envelope and those below) is loaded without marshmallow's walk
    (:class:`referee.schemas.fastcheck.FastLoad`)."""

    state = fields.Dict(required=True, metadata={"description": "a snapshot from setup/apply"})


class LegalActionsRequestSchema(StateRequestSchema):
    """``{"state", "player"?}``: without ``player``, every player's legal actions."""

    player = PlayerName()


class ActionRequestSchema(StateRequestSchema):
    """``{"state", "action"}``: the action is checked by the game's action schemas."""

    action = fields.Dict(required=True, metadata={"description": "an action: type, player, …"})


class ReshuffleRequestSchema(StateRequestSchema):
    """``{"state", "seed"}``: a rollback's reshuffle, as a match audit's ``steps`` name it."""

    seed = Seed(required=True, metadata={"description": "the reshuffle seed: a step's "
                                         "reshuffle in a match audit"})


class ViolationSchema(Schema):
    """One broken rule (in ``validate`` answers and in ``illegal-action`` problems)."""

    rule = fields.String(required=True, metadata={"description": "rule ID, e.g. AF-P3"})
    title = fields.String(metadata={"description": "the rule's title in the negotiated "
                                    "language (GET /v1/games/{game}/rules/{rule})"})
    code = fields.String(metadata={"description": "the stable machine code of the message, "
                                   "e.g. coup.challenge.not_claimed (the same in every "
                                   "language: apps may localise or link by it)"})
    message = fields.String(required=True, metadata={
        "description": "the sentence, in the negotiated language (Accept-Language)"})
    field = fields.String(metadata={"description": "the offending field, e.g. action.card"})


class SetupResponseSchema(Schema):
    """The initial snapshot and the events its first deal made (All Fours scores the kick at
    once, AF-K1: ``points`` and maybe ``game_over``; other games none)."""

    state = fields.Dict(required=True)
    events = List(fields.Dict(), required=True)


class LegalActionsQuerySchema(Schema):
    """``?form=``: ``flat`` (the default: one entry per legal action) or ``grouped`` (one entry
    per action type, with the choices of each field and the illegal combinations)."""

    form = fields.String(load_default="flat", validate=validate.OneOf(FORMS), metadata={
        "description": "flat (default): actions, one per legal action; grouped: groups, one "
                       "per action type with each field's choices (for pickers)"})


class LegalActionGroupSchema(Schema):
    """Legal actions of one type, player and set of fields, for a picker: every combination of
    ``choices`` (one value per field) is legal but those in ``illegal``
    (:mod:`referee.games.common.grouping`)."""

    type = fields.String(required=True)
    player = fields.String(required=True, allow_none=True)
    choices = fields.Dict(keys=fields.String(), values=List(fields.Raw()), required=True,
                          metadata={"description": "field -> its legal values (e.g. card: "
                                    "[...], target: [...]); empty for an action without "
                                    "fields"})
    illegal = List(fields.Dict(), required=True, metadata={
        "description": "the combinations of choices ({field: value, ...}) that are not "
                       "legal; never more than the legal actions the group stands for"})


ACTIONS_TEXT = "every legal action now, one entry each (in both forms)"
GROUPS_TEXT = ("with form=grouped only: the same legal actions grouped for pickers; expanding "
               "each group's choices but its illegal combinations gives exactly actions")


class LegalActionsResponseSchema(Schema):
    """Every legal action now (``actions``) and, with ``?form=grouped``, the same grouped for
    pickers (``groups``); ``to_move`` lists who may act."""

    actions = List(fields.Dict(), required=True, metadata={"description": ACTIONS_TEXT})
    groups = List(fields.Nested(LegalActionGroupSchema),
                  metadata={"description": GROUPS_TEXT})
    to_move = List(fields.String(), required=True)


class ValidateResponseSchema(Schema):
    """``legal`` and, when false, every rule broken (the first 50; ``violation_count`` in all)."""

    legal = fields.Boolean(required=True)
    violations = List(fields.Nested(ViolationSchema), required=True,
                             metadata={"description": "at most 50"})
    violation_count = fields.Integer(required=True, metadata={
        "description": "how many rules the action breaks in all"})


class ApplyResponseSchema(Schema):
    """The new snapshot, what happened, and the score."""

    state = fields.Dict(required=True)
    events = List(fields.Dict(), required=True)
    score = fields.Dict(required=True)
    over = fields.Boolean(required=True)


class ReshuffleResponseSchema(Schema):
    """The snapshot with its hidden orders dealt afresh."""

    state = fields.Dict(required=True)


class GameSchema(Schema):
    """A registered game."""

    name = fields.String(required=True)
    title = fields.String(required=True)
    players = fields.Dict(required=True, metadata={"description": "{min, max}"})
    modes = List(fields.String(), required=True)
    rules_version = fields.String(required=True)
    options = fields.Dict(required=True, metadata={"description": "{name: {default, type, rule, "
                                                   "description, choices?}}"})
    actions = List(fields.String(), required=True)


class HealthSchema(Schema):
    """A probe's answer."""

    status = fields.String(required=True, validate=validate.Equal("ok"))
