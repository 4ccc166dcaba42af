"""Gnoming A Round endpoints beyond the generic ones: scoring finished rounds and games."""
from __future__ import annotations

from referee.api.parsing import Blueprint

from referee.api.errors import ProblemSchema
from referee.games.gnoming.engine import ENGINE
from referee.games.gnoming.scoring import score_game_sheet, score_round_sheet
from referee.schemas.gnoming import (ScoreGameRequestSchema, ScoreGameResponseSchema,
                                     ScoreRoundRequestSchema, ScoreRoundResponseSchema)

blp = Blueprint("gnoming", __name__, url_prefix="/v1/games/gnoming",
                description="Gnoming A Round: round and game scoring.")

_ERRORS = {"schema": ProblemSchema, "description": "problem+json: invalid-input (types), "
           "invalid-setup (options) or impossible-state (a layout the deck cannot produce, "
           "naming the field and rule)"}


@blp.route("/score-round", methods=["POST"])
@blp.arguments(ScoreRoundRequestSchema)
@blp.response(200, ScoreRoundResponseSchema)
@blp.alt_response(422, **_ERRORS)
def score_round(body):
    """Score one finished round: each player's score (±5 included) and how it comes about.

    Body ``{"round": {"layouts": {player: 3×3 rows}, "went_out"?}, "options"?}`` as
    ``shared/cases/README.md`` describes (GN-P1…GN-P7).
    """
    return score_round_sheet(body["round"], ENGINE.resolve_options(body.get("options")))


@blp.route("/score-game", methods=["POST"])
@blp.arguments(ScoreGameRequestSchema)
@blp.response(200, ScoreGameResponseSchema)
@blp.alt_response(422, **_ERRORS)
def score_game(body):
    """Score a whole game: every round's scores, the totals and the winners (GN-W1).

    Body ``{"rounds": [round, ...], "options"?}``; as many rounds as ``options.rounds``.
    """
    return score_game_sheet(body["rounds"], ENGINE.resolve_options(body.get("options")))
