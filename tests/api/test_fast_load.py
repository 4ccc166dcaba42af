"""A trick-sheet body is loaded without marshmallow's walk when it is certainly valid
(``referee.schemas.fastcheck.FastLoad``, issue 11): for every sheet of the shared cases, the
bench's sheets, random played-out sheets (with and without ``sides``, ``score_before`` and
options) and thousands of one-place mutations of them, ``load`` answers exactly what
marshmallow's own ``Schema.load`` does — the same value, or the same ``ValidationError``
messages — and every valid body takes the fast path."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from marshmallow import Schema, ValidationError

from bench.payloads import SIX_TRICKS, twelve_tricks
from referee.schemas import fastcheck
from referee.schemas.allfours import ScoreRequestSchema
from tests.allfours.sheets import random_options, random_sheet
from tests.api.test_state_fastcheck import mutations

CASES = Path(__file__).resolve().parents[1] / "cases" / "allfours"


def bodies(count: int = 40) -> list[dict]:
    """Valid score bodies: the cases' sheets, the bench's, ``count`` random ones."""
    found = [{"sheet": SIX_TRICKS}, {"sheet": twelve_tricks(), "options": {"target": 21}}]
    for path in sorted(CASES.glob("*.json")):
        case = json.loads(path.read_text())
        if case.get("kind") == "trick-sheet":
            found.append({k: case[k] for k in ("sheet", "options") if k in case})
    rng = random.Random(5)
    for _ in range(count):
        options = random_options(rng)
        body = {"sheet": random_sheet(rng, (options or {}).get("target", 14))}
        if options is not None:
            body["options"] = options
        found.append(body)
    return found


def _outcome(load, body):
    try:
        return "loaded", load(body)
    except ValidationError as exc:
        return "refused", exc.messages


def differences(schema: Schema, rng: random.Random, made=bodies, count: int = 40
                ) -> tuple[list, int, int]:
    """Bodies (``made()`` and ``count`` mutations of each) on which ``schema.load`` and
    marshmallow's ``Schema.load`` differ, and how many bodies were refused and accepted."""
    found, refused, accepted = [], 0, 0
    for body in made():
        for case in [body, *mutations(body, rng, count)]:
            fast = _outcome(schema.load, case)
            slow = _outcome(lambda b: Schema.load(schema, b), case)
            if fast != slow:
                found.append((case, fast, slow))
            refused += slow[0] == "refused"
            accepted += slow[0] == "loaded"
    return found, refused, accepted


def test_fast_load_of_a_sheet_body_is_marshmallows_load():
    found, refused, accepted = differences(ScoreRequestSchema(), random.Random(1))
    assert found == []
    assert refused > 500 and accepted > 200  # both answers are compared, many times


def test_every_valid_sheet_body_takes_the_fast_path(monkeypatch):
    schema = ScoreRequestSchema()
    monkeypatch.setattr(Schema, "load", lambda *a, **k: pytest.fail("marshmallow loaded"))
    for body in bodies():
        assert schema.load(body)["sheet"] == body["sheet"]


def test_the_comparison_finds_a_loader_that_is_wrong(monkeypatch):
    """Proven once: a loader that forgets ``options``' default (``{}``) is caught."""
    monkeypatch.setattr(fastcheck, "loader", lambda schema: dict)
    found, _, _ = differences(ScoreRequestSchema(), random.Random(1))
    assert found
