"""All Fours request and response bodies (``shared/rules/allfours.md``, Vocabulary)."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from referee.games.allfours.engine import AllFours
from referee.games.allfours.rules import MAX_HAND
from referee.games.base import UNKNOWN
from referee.games.common.cards import PACK
from referee.games.allfours.vocabulary import VOCABULARY
from referee.schemas.fastcheck import FastLoad
from referee.schemas.fields import (List, Code, Mode, Options, PlayerName, Players, Seats,
                                     Seed)
from referee.schemas.vocabulary import action_schemas

MAX_SEATS = AllFours.max_players
"""The most players an All Fours game has (the engine's ``max_players``), so the most cards
one trick can hold."""
SIDE_NAME = fields.String(validate=validate.Length(1, 64))


def Card(**kwargs):
    """A card code: rank 2-10, J, Q, K, A and suit C, D, H, S (``"10H"``)."""
    return Code(PACK, "card (rank 2-10, J, Q, K, A and suit C, D, H, S, e.g. 10H)", **kwargs)


def CardOrUnknown(**kwargs):
    """A card code, or ``"unknown"`` for a face-down card in table mode."""
    return Code(PACK + (UNKNOWN,), "card or 'unknown'", **kwargs)


class DealSchema(Schema):
    """An entered deal: 6 cards to each player and the stock, top first (the first kick)."""

    hands = Seats(List(Card()), required=True)
    stock = List(Card(), required=True)


class SetupSchema(Schema):
    """``POST /v1/games/all-fours/setup``: players in play order (2, or 4 in partnerships),
    the dealer (default the first player), options, mode; ``deal`` (entered deal) or ``seed``
    (the service shuffles); in table mode an optional ``kick`` (the first kick's card)."""

    players = Players(2, 4)
    dealer = PlayerName()
    sides = Seats(List(PlayerName()), keys=SIDE_NAME)
    options = Options()
    mode = Mode()
    seed = Seed()
    deal = fields.Nested(DealSchema)
    kick = Card()


class TrickSchema(Schema):
    """A trick: who led and the cards in play order (``players`` and ``winner`` in a state)."""

    leader = PlayerName(required=True)
    cards = List(Card(), required=True, validate=validate.Length(0, 4))
    players = List(PlayerName())
    winner = PlayerName()


class ScoredAwardSchema(Schema):
    """One award a scored hand gave (AF-S6's order): High, Low, Jack, Game or a renege's point."""

    award = fields.String(required=True, validate=validate.OneOf(
        ["high", "low", "jack", "game", "renege"]))
    side = fields.String(required=True, validate=validate.Length(1, 64))
    points = fields.Integer(strict=True, required=True, validate=validate.Range(1))


MAX_AWARDS = 4 + MAX_SEATS * MAX_HAND
"""A sheet line's awards at most: High, Low, Jack and Game (AF-S1-S4), and a renege's point
for each card a hand can see played (AF-I1: at most one renege per card played, each giving
the other side of two a point)."""


class ScoredHandSchema(Schema):
    """A line of the score sheet: a scored hand's number, the awards it gave (those scored
    before a side reached the target, AF-S6), its points per side (the kick's and a give-one's
    included) and the match score per side after it."""

    hand = fields.Integer(strict=True, required=True, validate=validate.Range(1))
    awards = List(fields.Nested(ScoredAwardSchema), required=True,
                  validate=validate.Length(max=MAX_AWARDS))
    points = Seats(fields.Integer(strict=True), keys=SIDE_NAME, required=True)
    score = Seats(fields.Integer(strict=True), keys=SIDE_NAME, required=True)


class StateSchema(Schema):
    """An All Fours snapshot as returned by setup/apply (types only: ``check_snapshot`` decides
    whether it is possible)."""

    game = fields.String(validate=validate.Equal("all-fours"))
    mode = Mode(required=True)
    seed = Seed(required=True)
    players = Players(2, MAX_SEATS)
    sides = Seats(List(PlayerName()), keys=SIDE_NAME, required=True)
    options = fields.Dict(required=True)
    dealer = PlayerName(required=True)
    next_dealer = PlayerName(allow_none=True, required=True)
    hand_number = fields.Integer(strict=True, required=True, validate=validate.Range(1))
    redeals = fields.Integer(strict=True, required=True, validate=validate.Range(0))
    phase = fields.String(required=True, validate=validate.OneOf(
        ["deal", "beg", "answer", "play", "hand_over", "game_over"]))
    hands = Seats(List(CardOrUnknown()), required=True)
    dealt = Seats(List(Card()), required=True)
    stock = List(Card(), required=True)
    kicks = List(Card(), required=True)
    trump = fields.String(allow_none=True, required=True, validate=validate.OneOf("CDHS"))
    beg = fields.String(allow_none=True, required=True, validate=validate.OneOf(
        ["stand", "begged", "give_one", "run_pack"]))
    tricks = List(fields.Nested(TrickSchema), required=True,
                  validate=validate.Length(max=MAX_HAND))  # AF-B3: 21 cards a hand at most
    trick = fields.Nested(TrickSchema, required=True)
    exposed = Seats(List(Card()), required=True)
    claims = List(fields.Dict(), required=True)
    reneges = List(fields.Dict(), required=True)
    score = Seats(fields.Integer(strict=True), keys=SIDE_NAME, required=True)
    hand_points = Seats(fields.Integer(strict=True), keys=SIDE_NAME,
                              required=True)
    last_hand = fields.Dict(allow_none=True, required=True)
    scored_hands = List(fields.Nested(ScoredHandSchema), metadata={
        "description": "the score sheet, one line per scored hand in order; optional in a "
                       "submitted snapshot (missing: none kept), continued from it"})
    winner = fields.String(allow_none=True, required=True)


ACTION_SCHEMAS: dict[str, type[Schema]] = action_schemas(VOCABULARY, {"card": Card})
"""One Schema per action declared in ``referee/games/allfours/vocabulary.py``."""


class SheetTrickSchema(Schema):
    """A trick on a sheet: its leader and the cards in play order from the leader."""

    leader = PlayerName(required=True)
    cards = List(Card(), required=True, validate=validate.Length(max=MAX_SEATS), metadata={
        "description": f"one card per player, so at most {MAX_SEATS} (the most players)"})


class SheetSchema(Schema):
    """A trick sheet (``shared/cases/README.md``, AF-X1)."""

    players = Players(2, MAX_SEATS)
    sides = Seats(List(PlayerName()), keys=SIDE_NAME)
    dealer = PlayerName(required=True)
    kicks = List(Card(), required=True, validate=validate.Length(1, 6))
    beg = fields.String(required=True, validate=validate.OneOf(["stand", "give_one",
                                                                "run_pack"]))
    tricks = List(fields.Nested(SheetTrickSchema), required=True,
                         validate=validate.Length(1, 21))
    score_before = Seats(fields.Integer(strict=True, validate=validate.Range(0, 10000)),
                         keys=SIDE_NAME)


class ScoreRequestSchema(FastLoad, Schema):
    """``POST /v1/games/all-fours/score``: ``{"sheet", "options"?}`` (a valid body is loaded
    without marshmallow's walk: :class:`referee.schemas.fastcheck.FastLoad`)."""

    sheet = fields.Nested(SheetSchema, required=True)
    options = Options()


class CardHolderSchema(Schema):
    """High or Low: the card and the player who was dealt it (AF-S1, AF-S2)."""

    card = fields.String(required=True)
    player = fields.String(required=True, metadata={"description": "who was dealt it"})


class JackSchema(Schema):
    """Jack (AF-S3): who was dealt it, who won its trick, the points, whether it was hanged."""

    player = fields.String(required=True, metadata={"description": "who was dealt the jack"})
    won_by = fields.String(required=True, metadata={"description": "who won its trick"})
    points = fields.Integer(strict=True, required=True)
    hanged = fields.Boolean(required=True)


class GameResultSchema(Schema):
    """Game (AF-S4): card points per side and the side scoring Game (null: nobody)."""

    totals = fields.Dict(keys=fields.String(), values=fields.Integer(strict=True),
                         required=True)
    side = fields.String(allow_none=True, required=True)


class RenegeSchema(Schema):
    """A renege the sheet proves (AF-I1): the trick of the failure and the card proving it."""

    player = fields.String(required=True)
    trick = fields.Integer(strict=True, required=True,
                           metadata={"description": "trick of the failure, from 1"})
    rule = fields.String(required=True, metadata={"description": "AF-I1, the renege rule"})
    broke = fields.String(required=True, metadata={
        "description": "the rule failed in that trick: AF-P2, AF-P3 or AF-P4"})
    proven_by = fields.String(required=True)
    proven_at = fields.Integer(strict=True, required=True)
    loses_game = fields.Boolean(required=True)


class ScoreResponseSchema(Schema):
    """The hand's score from a trick sheet, in the order of AF-S6."""

    valid = fields.Boolean(required=True)
    points = fields.Dict(keys=fields.String(), values=fields.Integer(strict=True),
                         required=True)
    score = fields.Dict(keys=fields.String(), values=fields.Integer(strict=True), required=True,
                        metadata={"description": "match score after this hand"})
    winner = fields.String(allow_none=True, required=True)
    trump = fields.String(required=True)
    high = fields.Nested(CardHolderSchema, allow_none=True, required=True)
    low = fields.Nested(CardHolderSchema, allow_none=True, required=True)
    jack = fields.Nested(JackSchema, allow_none=True, required=True)
    game = fields.Nested(GameResultSchema, required=True)
    reneges = List(fields.Nested(RenegeSchema), required=True)
