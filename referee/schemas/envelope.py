"""The envelope of every match answer that shows a view (issue 22): the same fields for every
game, mode and reader around the game's own ``view`` (:mod:`referee.matches.envelope`).

:class:`EnvelopeSchema` holds the fields; an answer's schema lists its own fields first and
the envelope after them by naming the envelope *first* among its bases (marshmallow collects
inherited fields from the last base to the first): ``class MatchViewSchema(EnvelopeSchema,
MatchHeadSchema)``.  The OpenAPI document then gives ``view`` and ``score.breakdown`` each
game's own schema (:mod:`referee.contract.views`).
"""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from referee.games.common.summary import WINS_BY
from referee.schemas.fields import List


class MessageSchema(Schema):
    """A message: its stable code and parameters (a client may render its own sentence)."""

    code = fields.String(required=True, metadata={"description": "stable machine code, e.g. "
                                                  "allfours.now.play (the same in every "
                                                  "language)"})
    params = fields.Dict(required=True, metadata={"description": "the sentence's parameters"})


class ReasonSchema(MessageSchema):
    """Why the game ended: the message and its sentence in the answer's language."""

    message = fields.String(required=True, metadata={
        "description": "the sentence, in the negotiated language (Accept-Language)"})


class ScoreSchema(Schema):
    """The running score, one shape in every game: kept per side (All Fours) or per player
    (Coup, Spy, Gnoming), with the game's own breakdown."""

    by = fields.String(required=True, validate=validate.OneOf(["side", "player"]), metadata={
        "description": "what the score is kept for: an All Fours side, or each player"})
    sides = fields.Dict(keys=fields.String(), values=List(fields.String()), required=True,
                        metadata={"description": "each unit (side or player) and its players "
                                                 "(a player alone when kept per player)"})
    totals = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True, metadata={
        "description": "the running score per unit: All Fours points toward the target; "
                       "Gnoming the finished rounds' points (lowest wins); Coup influence "
                       "left; Spy cards exposed"})
    wins_by = fields.String(required=True, validate=validate.OneOf(WINS_BY), metadata={
        "description": "target: first to the target; highest/lowest: the total at the end; "
                       "last_in: the last player still in"})
    target = fields.Integer(required=True, allow_none=True, metadata={
        "description": "the points that win (All Fours options.target), else null"})
    in_ = List(fields.String(), required=True, data_key="in", attribute="in", metadata={
        "description": "players still in, in seat order (Coup: with influence; Spy: not "
                       "eliminated; All Fours, Gnoming: everyone)"})
    breakdown = fields.Dict(required=True, metadata={"description": "the game's own detail"})


class OutcomeSchema(Schema):
    """How a finished game ended, the same shape in every game."""

    winners = List(fields.String(), required=True, metadata={
        "description": "the winning players (an All Fours side's partners; Gnoming players "
                       "sharing a win)"})
    sides = List(fields.String(), required=True, metadata={
        "description": "the winning units of score.sides"})
    reason = fields.Nested(ReasonSchema, required=True)


class EnvelopeSchema(Schema):
    """The envelope's fields, in the order answers write them (module docstring)."""

    phase = fields.String(required=True, metadata={
        "description": "the game's phase; \"over\" once the game has ended"})
    to_move = List(fields.String(), required=True, metadata={
        "description": "the players who may act now, in seat order; empty while a rollback "
                       "is pending and once the match is over (host-only actions such as "
                       "Coup's close_window are not listed)"})
    awaiting = fields.String(required=True, metadata={
        "description": "what the match waits for, as a sentence in the negotiated language"})
    awaiting_message = fields.Nested(MessageSchema, required=True, metadata={
        "description": "awaiting as a message (code and params)"})
    score = fields.Nested(ScoreSchema, required=True)
    outcome = fields.Nested(OutcomeSchema, required=True, allow_none=True, metadata={
        "description": "null until the game is over"})
    over = fields.Boolean(required=True)
    view = fields.Dict(required=True, metadata={
        "description": "the game's own view for this reader: a seat's, the public's or (host "
                       "token) the referee's"})
