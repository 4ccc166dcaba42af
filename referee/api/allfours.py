"""All Fours endpoints beyond the generic ones: scoring a trick sheet (AF-X1)."""
from __future__ import annotations

from flask import current_app

from referee.api.parsing import Blueprint

from referee.api.errors import PROBLEM_MIMETYPE, ProblemSchema
from referee.games.allfours.engine import ENGINE
from referee.games.allfours.sheet import score_sheet
from referee.schemas.allfours import ScoreRequestSchema, ScoreResponseSchema

blp = Blueprint("all-fours", __name__, url_prefix="/v1/games/all-fours",
                description="Also: scoring a hand from a trick sheet.")


@blp.route("/score", methods=["POST"])
@blp.arguments(ScoreRequestSchema)
@blp.response(200, ScoreResponseSchema)
@blp.alt_response(422, description="problem+json: invalid-input, invalid-setup (options) or "
                  "inconsistent-sheet listing every AF-X1 problem", schema=ProblemSchema,
                  content_type=PROBLEM_MIMETYPE)
def score(body):
    """Score one hand from a trick sheet: High, Low, Jack, Game, reneges and the race to the target.

    Body ``{"sheet": {...}, "options": {...}}`` exactly as ``shared/cases/README.md`` describes.
    Points count in the order of AF-S6 and stop at the award that reaches the target.
    """
    # Written as it is: ScoreResponseSchema's dump would copy it unchanged (issue 11:
    # score_sheet answers exactly that schema's fields, types and order;
    # tests/allfours/test_score_answer.py compares the two).
    return current_app.json.response(score_sheet(ENGINE, body["sheet"], body.get("options")))
