"""``POST /v1/games/all-fours/score`` writes ``score_sheet``'s answer as it is, without
``ScoreResponseSchema``'s dump (issue 11): the bytes must be those flask-smorest's dump and
``jsonify`` would have written — the slow path — for random played-out hands with random
options and scores before (reneges, game-losing reneges, a side reaching the target, High,
Low and Jack absent or present), the bench's sheets and the shared cases' sheets."""
from __future__ import annotations

from flask import jsonify

from referee.schemas.allfours import ScoreResponseSchema
from tests.api.test_fast_load import bodies

SCHEMA = ScoreResponseSchema()


def slow_path(app, answer: dict) -> bytes:
    """What ``@blp.response(200, ScoreResponseSchema)`` writes for ``answer``."""
    with app.app_context():
        return jsonify(SCHEMA.dump(answer)).get_data()


def test_af_x1_every_score_answer_is_what_the_schema_dump_writes(app, client):
    seen = {"reneges": 0, "lost": 0, "winner": 0, "no_jack": 0, "jack": 0}
    for body in bodies(200):  # the bench's sheets, the cases' and random hands
        response = client.post("/v1/games/all-fours/score", json=body)
        if response.status_code == 422:
            continue  # an inconsistent sheet (the cases hold some): a problem, no dump
        assert response.status_code == 200, response.get_json()
        answer = response.get_json()
        assert list(answer) == list(SCHEMA.fields)  # every field, in the schema's order
        assert response.get_data() == slow_path(app, answer)
        seen["reneges"] += bool(answer["reneges"])
        seen["lost"] += any(r["loses_game"] for r in answer["reneges"])
        seen["winner"] += answer["winner"] is not None
        seen["no_jack" if answer["jack"] is None else "jack"] += 1
    assert all(n >= 3 for n in seen.values()), seen  # each shape of answer is compared
