"""Coup request bodies (``shared/rules/coup.md``, "Setup body" and "Vocabulary").

Types only: the engine (``referee.games.coup``) decides what is legal and possible, citing rule
IDs.  Characters are lower-case; ``"unknown"`` is a face-down card at a table (COUP-X1).
"""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from referee.games.base import UNKNOWN
from referee.games.coup.apply import STAGES
from referee.games.coup.rules import CHARACTERS
from referee.games.coup.vocabulary import VOCABULARY
from referee.schemas.fields import (MAX_PLAYERS, Dict, List, Code, Mode, Options, PlayerName,
                                     Players, Seats, Seed)
from referee.schemas.vocabulary import action_schemas


def Character(**kwargs):
    """A character: duchess, assassin, captain, ambassador, inquisitor, countess."""
    return Code(CHARACTERS, "character (" + ", ".join(CHARACTERS) + ")", **kwargs)


def CardOrUnknown(**kwargs):
    """A character, or ``"unknown"`` for a face-down card at a table."""
    return Code(CHARACTERS + (UNKNOWN,), "character or 'unknown'", **kwargs)


def _cards(**kwargs) -> fields.List:
    return List(CardOrUnknown(), **kwargs)


def _seat_cards(**kwargs) -> fields.Dict:
    return Seats(_cards(), **kwargs)


class DealSchema(Schema):
    """An entered deal: ``hands`` (2 cards each; 1 with 2 players), ``court`` (top first) and,
    with 2 players, ``piles`` (5 cards each, COUP-S5)."""

    hands = _seat_cards(required=True)
    court = _cards(required=True)
    piles = _seat_cards()


class SetupSchema(Schema):
    """``POST /v1/games/coup/setup``: 2–8 players in seat order, options (exchanger,
    first_player, two_player_first_coin, steal_from_empty, examine_order), mode, and a
    ``seed`` (the service shuffles) or an entered ``deal``."""

    players = Players(2, 8)
    options = Options()
    mode = Mode()
    seed = Seed()
    deal = fields.Nested(DealSchema)


class TurnSchema(Schema):
    """The turn in progress (see ``referee.games.coup.apply``)."""

    number = fields.Integer(required=True, validate=validate.Range(1))
    player = PlayerName(required=True)
    stage = fields.String(required=True, validate=validate.OneOf(STAGES))
    action = fields.Dict(required=True, allow_none=True)
    passed = List(PlayerName(), required=True)
    challenger = PlayerName(required=True, allow_none=True)
    block = fields.Dict(required=True, allow_none=True)
    drawn = _cards(required=True)
    shown = CardOrUnknown(required=True, allow_none=True)


class LossSchema(Schema):
    """An influence ``player`` must lose now, and the rule that costs it."""

    player = PlayerName(required=True)
    rule = fields.String(required=True)


class LastTurnSchema(Schema):
    """The turn just finished: its player, declared action and block, if any (COUP-A1–A3, B2)."""

    player = PlayerName(required=True)
    action = fields.Dict(required=True, allow_none=True)
    block = fields.Dict(required=True, allow_none=True)


class RecordSchema(Schema):
    """A knowledge record (COUP-X1): one copy of ``card`` is in one of ``places``."""

    card = Character(required=True)
    places = List(fields.String(), required=True)


class DisputeSchema(Schema):
    """A move the referee's knowledge contradicts (COUP-X1), for the host to judge."""

    turn = fields.Integer(required=True, strict=True, validate=validate.Range(1))
    player = PlayerName(required=True)
    action = fields.String(required=True)
    card = Character(required=True)
    place = fields.String(required=True)
    reader = fields.String(required=True)
    rule = fields.String(required=True)
    known = fields.Integer(required=True, strict=True, validate=validate.Range(0))
    copies = fields.Integer(required=True, strict=True, validate=validate.Range(0))


class StateSchema(Schema):
    """A Coup snapshot as returned by setup/apply (types only: ``check_snapshot`` decides whether
    it is possible)."""

    game = fields.String(required=True, validate=validate.Equal("coup"))
    mode = Mode(required=True)
    seed = Seed(required=True)
    options = fields.Dict(required=True)
    players = Players(2, 8)
    coins = Seats(fields.Integer(strict=True), required=True)
    treasury = fields.Integer(required=True, strict=True)
    hands = _seat_cards(required=True)
    revealed = _seat_cards(required=True)
    court = _cards(required=True)
    piles = _seat_cards(required=True)
    shuffles = fields.Integer(required=True, strict=True, validate=validate.Range(0))
    turn = fields.Nested(TurnSchema, required=True)
    loss = fields.Nested(LossSchema, required=True, allow_none=True)
    winner = PlayerName(required=True, allow_none=True)
    last_turn = fields.Nested(LastTurnSchema, required=True, allow_none=True)
    knowledge = Dict(keys=fields.String(), values=List(fields.Nested(RecordSchema)),
                     max_entries=MAX_PLAYERS + 1, required=True)  # each seat's and the host's
    disputes = List(fields.Nested(DisputeSchema), required=True)


ACTION_SCHEMAS: dict[str, type[Schema]] = action_schemas(VOCABULARY, {
    "character": Character, "card_or_unknown": CardOrUnknown})
"""One Schema per action declared in ``referee/games/coup/vocabulary.py``."""
