"""``legal-actions``, ``validate`` and ``apply`` write their answers as they build them, without
their response schema's dump (issue 11): the bytes must be those flask-smorest's dump and
``jsonify`` would have written — the slow path — for states along seeded random games of every
game: every player's and one player's legal actions, a legal and an illegal action judged (its
violations rendered in English and in Burmese), the legal one applied (events, score, the end)."""
from __future__ import annotations

import pytest
from flask import jsonify

from bench.payloads import playout
from referee.registry import GAMES
from referee.schemas.common import (ApplyResponseSchema, LegalActionsResponseSchema,
                                    ValidateResponseSchema)

SCHEMAS = {"legal-actions": LegalActionsResponseSchema(), "validate": ValidateResponseSchema(),
           "apply": ApplyResponseSchema()}


def assert_as_dumped(app, response, endpoint: str, absent: str | None = None) -> dict:
    """The answer's keys are its schema's in order (but ``absent``: legal-actions answers
    ``groups`` with ``?form=grouped`` only), its bytes the dump's through jsonify."""
    assert response.status_code == 200, response.get_json()
    answer = response.get_json()
    schema = SCHEMAS[endpoint]
    assert list(answer) == [name for name in schema.fields if name != absent]
    with app.app_context():
        assert response.get_data() == jsonify(schema.dump(answer)).get_data()
    return answer


def _illegal(action: dict, state: dict) -> dict:
    """``action`` made by a seat it is not for (or with an odd field): some rule forbids it."""
    others = [p for p in state["players"] if p != action["player"]]
    return {**action, "player": others[0]} if others else {**action, "card": "nothing"}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_stateless_answer_is_what_the_schema_dump_writes(app, client, game):
    base = f"/v1/games/{game}"
    seen = {"violations": 0, "events": 0, "over": 0}
    for seed in (1, 2):
        first, steps = playout(game, seed, limit=400)
        chosen = steps[::max(1, len(steps) // 6)] + steps[-1:]
        for state, action in chosen:
            for body in ({"state": state}, {"state": state, "player": action["player"]}):
                assert_as_dumped(app, client.post(f"{base}/legal-actions", json=body),
                                 "legal-actions", absent="groups")
                assert_as_dumped(app, client.post(f"{base}/legal-actions?form=grouped",
                                                  json=body), "legal-actions")
            for judged, lang in ((action, "en"), (_illegal(action, state), "en"),
                                 (_illegal(action, state), "my")):
                answer = assert_as_dumped(app, client.post(
                    f"{base}/validate", json={"state": state, "action": judged},
                    headers={"Accept-Language": lang}), "validate")
                seen["violations"] += bool(answer["violations"])
            answer = assert_as_dumped(app, client.post(
                f"{base}/apply", json={"state": state, "action": action}), "apply")
            seen["events"] += bool(answer["events"])
            seen["over"] += answer["over"]
    assert seen["violations"] >= 4 and seen["events"] >= 4, seen
