"""Run every case file of ``$REFEREE_CASES_DIR`` (default ``tests/cases``, the repository's copy) through the HTTP
API and compare with its hand-checked ``expect`` (format: ``tests/cases/README.md``).

Kinds: ``trick-sheet`` (``POST /v1/games/all-fours/score``), ``sequence`` (setup, then
validate and apply step by step), ``round-score`` / ``game-score`` (Gnoming scoring endpoints).
Cases of games not registered yet are skipped, not failed.
"""
from __future__ import annotations

import json

import pytest

from referee.registry import GAMES
from tests.conftest import CASES_DIR

ENDPOINTS = {"trick-sheet": "/v1/games/all-fours/score",
             "round-score": "/v1/games/gnoming/score-round",
             "game-score": "/v1/games/gnoming/score-game"}


def _case_files():
    return sorted(CASES_DIR.glob("*/*.json")) if CASES_DIR.is_dir() else []


def _id(path):
    return f"{path.parent.name}/{path.stem}"


def contains(actual, expected, where="expect"):
    """Assert ``actual`` has at least what ``expected`` has (dicts: each key; lists: same length,
    item by item)."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{where}: expected an object, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{where}.{key} missing from {actual!r}"
            contains(actual[key], value, f"{where}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), \
            f"{where}: expected {expected!r}, got {actual!r}"
        for i, (a, e) in enumerate(zip(actual, expected)):
            contains(a, e, f"{where}[{i}]")
    else:
        assert actual == expected, f"{where}: expected {expected!r}, got {actual!r}"


def test_cases_folder_exists():
    """The case folder is there and holds case files (else every case would silently skip)."""
    assert _case_files(), f"no case files under {CASES_DIR}"


@pytest.mark.parametrize("path", _case_files(), ids=_id)
def test_case(client, path):
    """One case file, through the public HTTP API only (rules cited in the case's ``rules``)."""
    case = json.loads(path.read_text())
    if case["game"] not in GAMES:
        pytest.skip(f"game {case['game']} is not registered yet")
    if case["kind"] == "sequence":
        _run_sequence(client, case)
        return
    body = {k: case[k] for k in ("sheet", "round", "rounds", "options") if k in case}
    response = client.post(ENDPOINTS[case["kind"]], json=body)
    expect = case["expect"]
    if expect.get("valid") is False:
        assert 400 <= response.status_code < 500, response.get_json()
        problem = response.get_json()
        assert response.mimetype == "application/problem+json"
        assert problem["errors"], "an invalid case must name the problem"
        return
    assert response.status_code == 200, response.get_json()
    contains(response.get_json(), expect)


def _run_sequence(client, case):
    game = case["game"]
    response = client.post(f"/v1/games/{game}/setup", json=case["setup"])
    assert response.status_code == 200, response.get_json()
    state = response.get_json()["state"]
    score = None
    for number, step in enumerate(case["steps"], start=1):
        body = {"state": state, "action": step["action"]}
        verdict = client.post(f"/v1/games/{game}/validate", json=body)
        assert verdict.status_code == 200, (number, verdict.get_json())
        verdict = verdict.get_json()
        assert verdict["legal"] == step["legal"], (number, step, verdict)
        cited = {v["rule"] for v in verdict["violations"]}
        assert set(step.get("rules", [])) <= cited, (number, step, cited)
        if step.get("rules_any"):
            assert cited & set(step["rules_any"]), (number, step, cited)
        applied = client.post(f"/v1/games/{game}/apply", json=body)
        if step["legal"]:
            assert applied.status_code == 200, (number, applied.get_json())
            state, score = applied.get_json()["state"], applied.get_json()["score"]
        else:  # an illegal step changes nothing and is refused with the same rules
            assert applied.status_code == 422, (number, applied.get_json())
            assert {v["rule"] for v in applied.get_json()["violations"]} == cited
    if case.get("expect"):
        contains(score, case["expect"])
