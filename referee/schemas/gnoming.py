"""Gnoming A Round request and response bodies (``shared/rules/gnoming.md``, Vocabulary).

Card names inside layouts and deals are plain strings here: the engine checks them against the
GN-C1 deck and names the offending field (``deal.layouts.ana[0][2]``) with its rule ID.
"""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from referee.games.base import UNKNOWN
from referee.games.gnoming.engine import GnomingEngine
from referee.games.gnoming.rules import DECK_COUNTS
from referee.games.gnoming.vocabulary import VOCABULARY
from referee.schemas.fields import (List, Code, Mode, Options, PlayerName, Players, Seats,
                                     Seed)
from referee.schemas.vocabulary import action_schemas

CARDS = tuple(DECK_COUNTS)
MAX_ROUNDS = GnomingEngine.options["rounds"].maximum
"""The most rounds a game has (``options.rounds``, GN-C3): a longer score sheet is refused
before any round is read."""
ROWS = List(List(fields.String()))  # 3×3 checked by the engine (GN-S1)


def Card(**kwargs):
    """A Gnoming card: ``"3"``…``"8"``, ``"-1"``…``"-4"``, ``"M"`` (Mulligan), ``"H"`` (Hazard)."""
    return Code(CARDS, "Gnoming card (3-8, -1 to -4, M, H)", **kwargs)


def Position(**kwargs):
    """A layout position ``[row, col]``, both 0–2, row 0 at the top."""
    return List(fields.Integer(strict=True, validate=validate.Range(0, 2)),
                       validate=validate.Length(2, 2), **kwargs)


class DealSchema(Schema):
    """An entered deal (rules file, Setup body): every one of the 110 cards placed."""

    layouts = Seats(ROWS, required=True, metadata={"description": "{player: 3×3 rows of cards}"})
    discard_piles = List(List(fields.String()), required=True,
                                metadata={"description": "[[card], [card]]"})
    draw_pile = List(fields.String(), required=True,
                            metadata={"description": "the rest, top first"})
    removed = List(fields.String(), metadata={
        "description": "Hazards turned up to start a pile and set aside (GN-S4)"})


class SetupSchema(Schema):
    """``POST /v1/games/gnoming/setup``: players in seat (clockwise) order, options, mode, and
    a seed or an entered ``deal`` (digital mode only)."""

    players = Players(2, 7)
    options = Options()
    mode = Mode()
    seed = Seed()
    deal = fields.Nested(DealSchema)


class StateSchema(Schema):
    """A Gnoming snapshot as returned by setup/apply (types only; ``check_snapshot`` decides
    whether it is possible — see ``referee/games/gnoming/snapshot.py``)."""

    game = fields.String(required=True, validate=validate.Equal("gnoming"))
    mode = Mode(required=True)
    players = List(PlayerName(), required=True)
    options = fields.Dict(required=True)
    seed = Seed(required=True)
    round = fields.Integer(strict=True, required=True)
    starter = PlayerName(required=True)
    phase = fields.String(required=True)
    layouts = Seats(List(List(fields.Dict())), required=True)
    draw_pile = List(Code(CARDS + (UNKNOWN,), "card or 'unknown'"), required=True)
    discard_piles = List(List(Card()), required=True)
    removed = List(Card(), required=True)
    flips_due = Seats(fields.Integer(strict=True), required=True)
    turn = fields.Dict(required=True)
    went_out = PlayerName(required=True, allow_none=True)
    final_turns = List(PlayerName(), required=True)
    reshuffles = fields.Integer(strict=True, required=True)
    history = List(fields.Dict(), required=True)


ACTION_SCHEMAS: dict[str, type[Schema]] = action_schemas(VOCABULARY, {
    "card": Card, "position": Position, "pile": lambda **kw: fields.Integer(strict=True, **kw)})
"""One Schema per action declared in ``referee/games/gnoming/vocabulary.py``."""


class RoundSheetSchema(Schema):
    """A finished round (``shared/cases/README.md``): every layout face up, and who went out."""

    layouts = Seats(ROWS, required=True, metadata={"description": "{player: 3×3 rows of cards}"})
    went_out = PlayerName(allow_none=True, metadata={
        "description": "who went out first (GN-P7); without it no ±5"})


class ScoreRoundRequestSchema(Schema):
    """``POST /v1/games/gnoming/score-round``: ``{"round", "options"?}``."""

    round = fields.Nested(RoundSheetSchema, required=True)
    options = Options()


class ScoreGameRequestSchema(Schema):
    """``POST /v1/games/gnoming/score-game``: ``{"rounds", "options"?}``."""

    rounds = List(fields.Nested(RoundSheetSchema), required=True,
                  validate=validate.Length(max=MAX_ROUNDS))
    options = Options()


class SetScoredSchema(Schema):
    """A row or column that forms a set (GN-P1, P4, P5)."""

    line = fields.String(required=True, metadata={"description": "row or column"})
    index = fields.Integer(required=True)
    value = fields.Integer(required=True)
    points = fields.Integer(required=True)
    positions = List(List(fields.Integer()), required=True)


class MulliganSchema(Schema):
    """The value a Mulligan took in its row set and its column set (``null``: in no such set;
    in no set at all it scores 0, GN-P4)."""

    position = List(fields.Integer(), required=True)
    row = fields.Integer(allow_none=True, required=True)
    column = fields.Integer(allow_none=True, required=True)


class BreakdownSchema(Schema):
    """How one player's round score comes about."""

    base = fields.Integer(required=True, metadata={"description": "before GN-P7"})
    out_first = fields.Integer(required=True, metadata={"description": "-5, +5 or 0 (GN-P7)"})
    sets = List(fields.Nested(SetScoredSchema), required=True)
    mulligans = List(fields.Nested(MulliganSchema), required=True)
    hazards = fields.Integer(required=True, metadata={"description": "+10 each (GN-P6)"})


class ScoreRoundResponseSchema(Schema):
    """Round scores (±5 included) and their breakdown per player."""

    scores = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    breakdown = fields.Dict(keys=fields.String(), values=fields.Nested(BreakdownSchema),
                            required=True)


class ScoreGameResponseSchema(Schema):
    """Every round's scores, the totals and the winners (GN-W1; several = a shared win)."""

    round_scores = List(fields.Dict(keys=fields.String(), values=fields.Integer()),
                               required=True)
    totals = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    winners = List(fields.String(), required=True)
