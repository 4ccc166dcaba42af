"""The committed JSON Schemas (``schemas/``) against real data: every case file of
``$REFEREE_CASES_DIR`` (its sheet, round(s), setup and actions, and the API's answers to it)
and every snapshot, legal action and answer of seeded random playouts of every game."""
from __future__ import annotations

import json
import random

import pytest
from jsonschema import Draft202012Validator

from referee.contract.jsonschema import json_schemas
from referee.contract.openapi import document
from referee.games.base import InvalidSetup
from referee.registry import GAMES
from tests.conftest import CASES_DIR
from tests.contract.helpers import SCHEMAS, assert_valid

NAMES = ["ana", "ben", "cy", "dee", "eli", "fay", "gus", "hal"]
STEPS = 120
SCORING = {"trick-sheet": ("all-fours", "score", "/v1/games/all-fours/score"),
           "round-score": ("gnoming", "score-round", "/v1/games/gnoming/score-round"),
           "game-score": ("gnoming", "score-game", "/v1/games/gnoming/score-game")}


def test_every_file_is_a_valid_2020_12_schema_and_none_is_missing(app):
    expected = json_schemas(document(app))
    committed = {str(p.relative_to(SCHEMAS)) for p in SCHEMAS.rglob("*.json")}
    assert committed == set(expected)
    for game in GAMES:
        for name in ("setup", "state", "action", "legal-actions-result", "validate-result",
                     "apply-result"):
            assert f"{game}/{name}.json" in committed
    for name in committed:
        schema = json.loads((SCHEMAS / name).read_text())
        Draft202012Validator.check_schema(schema)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert {"all-fours/score-request.json", "gnoming/score-round-request.json",
            "gnoming/score-game-request.json"} <= committed


def test_the_schemas_reject_what_the_api_rejects():
    """Spot checks that the schemas are not vacuous."""
    action = json.loads((SCHEMAS / "all-fours/action.json").read_text())
    validator = Draft202012Validator(action)
    assert validator.is_valid({"type": "play", "player": "ana", "card": "10H"})
    assert not validator.is_valid({"type": "play", "player": "ana", "card": "1X"})
    assert not validator.is_valid({"type": "play", "player": "ana"})
    assert not validator.is_valid({"type": "fly", "player": "ana"})
    assert not validator.is_valid({"type": "beg", "player": "ana", "card": "2C"})


def _case_files():
    return sorted(CASES_DIR.glob("*/*.json")) if CASES_DIR.is_dir() else []


@pytest.mark.parametrize("path", _case_files(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_case_file_fits_the_schemas(client, path):
    """The case's bodies fit the request schemas, and the API's answers the result schemas."""
    case = json.loads(path.read_text())
    game = case["game"]
    if game not in GAMES:
        pytest.skip(f"{game} is not registered")
    if case["kind"] == "sequence":
        assert_valid(f"{game}/setup.json", case["setup"], "setup")
        answer = client.post(f"/v1/games/{game}/setup", json=case["setup"]).get_json()
        assert_valid(f"{game}/state.json", answer["state"], "setup answer")
        state = answer["state"]
        for number, step in enumerate(case["steps"], start=1):
            assert_valid(f"{game}/action.json", step["action"], f"step {number}")
            body = {"state": state, "action": step["action"]}
            verdict = client.post(f"/v1/games/{game}/validate", json=body).get_json()
            assert_valid(f"{game}/validate-result.json", verdict, f"step {number} verdict")
            applied = client.post(f"/v1/games/{game}/apply", json=body)
            if applied.status_code == 200:
                assert_valid(f"{game}/apply-result.json", applied.get_json(), f"step {number}")
                state = applied.get_json()["state"]
            else:
                assert_valid("problem.json", applied.get_json(), f"step {number} problem")
        return
    game, op, endpoint = SCORING[case["kind"]]
    body = {k: case[k] for k in ("sheet", "round", "rounds", "options") if k in case}
    assert_valid(f"{game}/{op}-request.json", body, path.name)
    answer = client.post(endpoint, json=body)
    if answer.status_code == 200:
        assert_valid(f"{game}/{op}-result.json", answer.get_json(), f"{path.name} answer")
    else:
        assert case["expect"].get("valid") is False
        assert_valid("problem.json", answer.get_json(), f"{path.name} problem")


def _setups(game):
    engine = GAMES[game].engine
    counts = engine.player_counts or (engine.min_players, engine.max_players)
    for count in sorted({counts[0], counts[-1]}):
        for mode in ("digital", "table"):
            yield {"players": NAMES[:count], "mode": mode, "options": engine.resolve_options({})}


def _entered_spy_bases(engine, body):
    """Spy bases as a table enters them: Spy gap and facing, every card "unknown"."""
    dealt = engine.setup({**body, "mode": "digital"}, seed=1)
    return {p: {"cards": ["unknown"] * len(b["cards"]), "spy_gap": b["spy_gap"],
                "facing": b["facing"]} for p, b in dealt["bases"].items()}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_random_playout_snapshots_actions_and_answers_fit_the_schemas(game):
    """Seeded playouts driven by legal_actions, in both modes, fewest and most players."""
    engine = GAMES[game].engine
    rng = random.Random(f"contract-{game}")
    checked = 0
    # several games per setup when games end quickly (a Spy bomb can end one in 15 steps)
    for body in [b for _ in range(4) for b in _setups(game)]:
        if checked >= 4 * STEPS:
            break
        if game == "spy" and body["mode"] == "table":  # the players enter their bases (SPY-S2)
            body["bases"] = _entered_spy_bases(engine, body)
        assert_valid(f"{game}/setup.json", body, "setup body")
        try:
            state = engine.setup(body, rng.randrange(2**32))
        except InvalidSetup:
            continue
        assert_valid(f"{game}/state.json", state, f"{body['mode']} setup")
        seen: set[str] = set()
        for step in range(STEPS):
            legal = engine.legal_actions(state)
            fresh = [a for a in legal if json.dumps(a, sort_keys=True) not in seen]
            seen.update(json.dumps(a, sort_keys=True) for a in fresh)
            assert_valid(f"{game}/legal-actions-result.json",  # each action once is enough
                         {"actions": fresh, "to_move": engine.to_move(state)}, f"step {step}")
            if engine.is_over(state) or not legal:
                break
            action = rng.choice(legal)
            state, events = engine.apply(state, action)
            assert_valid(f"{game}/apply-result.json", {
                "state": state, "events": events, "score": engine.score(state),
                "over": engine.is_over(state)}, f"step {step} after {action}")
            checked += 1
    assert checked >= STEPS, f"{game}: only {checked} steps checked"
