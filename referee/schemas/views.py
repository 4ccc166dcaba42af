"""Each game's own part of a match view (issue 22), for the OpenAPI document: the seat and
public view, the referee view (the whole state, never the seed) and the score's breakdown.

A match view is the envelope every game shares (:mod:`referee.schemas.envelope`) around the
game's ``view``; :data:`VIEW_SCHEMAS` gives, per game, the schemas of that ``view`` and of its
``score.breakdown`` (:mod:`referee.contract.views` writes them into ``MatchView``, one
variant per game told apart by ``game``).  Fields the envelope now carries are kept in the
views for one release and marked ``deprecated``: ``to_move`` (All Fours, Coup), ``winner``
(All Fours, Coup, Spy), ``awaiting`` and ``awaiting_message`` (Coup).
"""
from __future__ import annotations

from marshmallow import Schema, fields

from referee.schemas import allfours, coup, gnoming, spy
from referee.schemas.fields import List, PlayerName

_COUNTS = {"keys": fields.String(), "values": fields.Integer()}


def _deprecated(field: fields.Field, instead: str) -> fields.Field:
    field.metadata = {**field.metadata, "deprecated": True,
                      "description": f"deprecated: read {instead} of the envelope"}
    return field


def _viewer() -> fields.Field:
    return PlayerName(required=True, allow_none=True, metadata={
        "description": "the seat this view is for; null for the public view"})


# --- All Fours ---------------------------------------------------------------------------
class AllFoursViewSchema(allfours.StateSchema):
    """All Fours as a seat or the public sees it: every hand as a count (a seat also sees its
    own ``hand``), never the stock; ``dealt`` and the table-mode ``claims`` hidden."""

    class Meta:
        exclude = ("hands", "dealt", "stock", "seed", "claims")

    hand_sizes = fields.Dict(required=True, **_COUNTS)
    stock_size = fields.Integer(required=True)
    hand = List(allfours.CardOrUnknown(), metadata={"description": "the seat's own hand "
                                                    "(seat views only)"})
    viewer = _viewer()
    to_move = _deprecated(List(fields.String(), required=True), "to_move")
    winner = _deprecated(fields.String(allow_none=True, required=True), "outcome")


class AllFoursRefereeViewSchema(allfours.StateSchema):
    """The referee view (host token): the whole All Fours state but the seed."""

    class Meta:
        exclude = ("seed",)


class AllFoursAwardSchema(Schema):
    """High or Low of the last hand (AF-S1, AF-S2): the card, who was dealt it, the side it
    scored for (Low with ``options.low`` ``taker``: null once the next hand is dealt)."""

    card = fields.String(required=True)
    player = fields.String(required=True)
    side = fields.String(required=True, allow_none=True)


class AllFoursJackAwardSchema(allfours.JackSchema):
    """Jack of the last hand (AF-S3) and the side it scored for."""

    side = fields.String(required=True)


class AllFoursLastHandSchema(Schema):
    """The last scored hand: High, Low, Jack and Game, each with the side that won it."""

    high = fields.Nested(AllFoursAwardSchema, required=True, allow_none=True)
    low = fields.Nested(AllFoursAwardSchema, required=True, allow_none=True)
    jack = fields.Nested(AllFoursJackAwardSchema, required=True, allow_none=True)
    game = fields.Nested(allfours.GameResultSchema, required=True)
    points = fields.Dict(required=True, **_COUNTS)
    reneges = fields.Integer(required=True, metadata={"description": "reneges proven (AF-I1)"})


class AllFoursSheetLineSchema(allfours.ScoredHandSchema):
    """A line of the score sheet as the envelope gives it: the state's, and the points the
    hand gave at the deal and the beg (kicks, AF-K1, AF-B3, AF-B4; a give one, AF-B2)."""

    deal_points = fields.Dict(required=True, metadata={
        "description": "per side: the hand's points not from its awards"}, **_COUNTS)


class AllFoursScoreBreakdownSchema(Schema):
    """All Fours' score detail: the hand being played, the last scored hand and every scored
    hand's line of the score sheet."""

    hand_number = fields.Integer(required=True)
    hand = fields.Dict(required=True, metadata={"description": "this hand's points per side "
                                                "so far (the kick, give one)"}, **_COUNTS)
    last_hand = fields.Nested(AllFoursLastHandSchema, required=True, allow_none=True)
    hands = List(fields.Nested(AllFoursSheetLineSchema), required=True, metadata={
        "description": "the score sheet: one line per scored hand, in order (the state's "
                       "scored_hands)"})


# --- Coup --------------------------------------------------------------------------------
class CoupSeenTurnSchema(coup.TurnSchema):
    """The turn as a seat sees it: the exchange's draw (``drawn``) to the exchanger only, an
    examined card (``shown``) to the Inquisitor and its owner only."""

    drawn = List(coup.CardOrUnknown())
    shown = coup.CardOrUnknown(allow_none=True)
    drawn_count = fields.Integer(required=True)


class CoupViewSchema(Schema):
    """Coup as a seat or the public sees it (COUP-V1): the seat's own face-down cards, every
    face-up card, all coins, the court deck as a count."""

    game = fields.String(required=True)
    mode = fields.String(required=True)
    viewer = _viewer()
    options = fields.Dict(required=True)
    players = List(fields.String(), required=True)
    coins = fields.Dict(required=True, **_COUNTS)
    treasury = fields.Integer(required=True)
    hands = fields.Dict(keys=fields.String(), values=List(coup.CardOrUnknown()), required=True,
                        metadata={"description": "the seat's own face-down cards only"})
    hand_sizes = fields.Dict(required=True, **_COUNTS)
    revealed = fields.Dict(keys=fields.String(), values=List(coup.Character()), required=True)
    court_size = fields.Integer(required=True)
    piles = fields.Dict(keys=fields.String(), values=List(coup.CardOrUnknown()), required=True)
    pile_sizes = fields.Dict(required=True, **_COUNTS)
    turn = fields.Nested(CoupSeenTurnSchema, required=True)
    loss = fields.Nested(coup.LossSchema, required=True, allow_none=True)
    last_turn = fields.Nested(coup.LastTurnSchema, required=True, allow_none=True)
    known = List(fields.Nested(coup.RecordSchema), required=True)
    winner = _deprecated(fields.String(required=True, allow_none=True), "outcome")
    to_move = _deprecated(List(fields.String(), required=True), "to_move")
    awaiting = _deprecated(fields.String(required=True), "awaiting")
    awaiting_message = _deprecated(fields.Dict(required=True), "awaiting_message")


class CoupRefereeViewSchema(coup.StateSchema):
    """The referee view (host token): the whole Coup state but the seed."""

    class Meta:
        exclude = ("seed",)


class CoupScoreBreakdownSchema(Schema):
    """Coup's score detail: influence (face-down cards) left and coins, per player."""

    influence = fields.Dict(required=True, **_COUNTS)
    coins = fields.Dict(required=True, **_COUNTS)


# --- Gnoming -----------------------------------------------------------------------------
class GnomingViewSchema(gnoming.StateSchema):
    """Gnoming as a seat or the public sees it (GN-V1): face-down layout cards hidden from
    everyone (``{"card": null, "up": false}``), the draw pile as a count, the discard piles'
    tops; ``turn.player`` null once the game is over."""

    class Meta:
        exclude = ("seed", "draw_pile", "discard_piles")

    viewer = _viewer()
    draw_pile_count = fields.Integer(required=True)
    discard_tops = List(gnoming.Card(allow_none=True), required=True)
    discard_counts = List(fields.Integer(), required=True)


class GnomingRefereeViewSchema(gnoming.StateSchema):
    """The referee view (host token): the whole Gnoming state but the seed."""

    class Meta:
        exclude = ("seed",)


class GnomingScoreBreakdownSchema(Schema):
    """Gnoming's score detail: the round, each finished round's scores (GN-P1–P7) and the
    totals after it (GN-W1), and this round's points from the face-up cards so far (null once
    over)."""

    round = fields.Integer(required=True)
    rounds = fields.Integer(required=True)
    round_scores = List(fields.Dict(**_COUNTS), required=True)
    running_totals = List(fields.Dict(**_COUNTS), required=True, metadata={
        "description": "each player's total after each finished round (one per round_scores)"})
    round_points = fields.Dict(required=True, allow_none=True, **_COUNTS)


# --- Spy ---------------------------------------------------------------------------------
class SpyViewBaseSchema(spy.BaseSchema):
    """A base as a reader sees it: the holder its every card, the others the exposed cards
    (hidden ones as ``"hidden"``); the current exposure target (SPY-R1)."""

    target = fields.String(required=True, allow_none=True)


class SpyViewSchema(spy.StateSchema):
    """Spy as a seat or the public sees it (SPY-S2): the seat's own base, of the others what is
    public."""

    class Meta:
        exclude = ("seed",)

    viewer = _viewer()
    bases = fields.Dict(keys=fields.String(), values=fields.Nested(SpyViewBaseSchema),
                        required=True)
    winner = _deprecated(fields.String(required=True, allow_none=True), "outcome")


class SpyRefereeViewSchema(spy.StateSchema):
    """The referee view (host token): the whole Spy state but the seed."""

    class Meta:
        exclude = ("seed",)


class SpyScoreBreakdownSchema(Schema):
    """Spy's score detail: cards exposed per player, and the players out, in order (SPY-E1)."""

    exposed = fields.Dict(required=True, **_COUNTS)
    eliminated = List(fields.String(), required=True)


VIEW_SCHEMAS = {
    "all-fours": (AllFoursViewSchema, AllFoursRefereeViewSchema, AllFoursScoreBreakdownSchema),
    "coup": (CoupViewSchema, CoupRefereeViewSchema, CoupScoreBreakdownSchema),
    "gnoming": (GnomingViewSchema, GnomingRefereeViewSchema, GnomingScoreBreakdownSchema),
    "spy": (SpyViewSchema, SpyRefereeViewSchema, SpyScoreBreakdownSchema),
}
"""Game -> (seat and public view, referee view, score breakdown) schemas."""
