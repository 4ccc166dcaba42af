"""One conformance suite for every registered game, in both modes (STYLE.md, after
OpenSpiel's): seeded random playouts through the checked protocol of ``games/base.py``,
checking every property of ``tests/conformance_checks.py`` (listed actions apply, unlisted ones
are refused with a rule ID, apply never changes its input, JSON and ``check_snapshot`` round
trips, no view depends on a card its viewer may not see, declared conservation, progress);
the stateless HTTP endpoints agree with the engine and check each snapshot once per request.
``test_conformance_selftest.py`` proves each of these checks can fail.
"""
from __future__ import annotations

import pytest

from referee.matches.checked_memo import MEMO
from referee.games.base import MODES
from referee.registry import GAMES
from tests.conformance_checks import NAMES, Budget, playout

SEEDS = 2
"""Seeded playouts per game, mode and player count."""


def _body(entry, count: int, mode: str) -> dict:
    body = {"players": NAMES[:count], "mode": mode,
            "options": entry.engine.resolve_options({})}
    if entry.name == "spy" and mode == "table":  # the players enter their bases (SPY-S2)
        body["bases"] = {p: _spy_base(count) for p in NAMES[:count]}
    return body


def _spy_base(count: int) -> dict:
    return {"cards": ["unknown"] * (7 if count == 2 else 6), "spy_gap": 0, "facing": "right"}


CASES = [(game, mode, count) for game, entry in sorted(GAMES.items()) for mode in MODES
         for count in entry.player_counts()]


@pytest.mark.parametrize("game, mode, count", CASES)
def test_conformance_random_playouts(game, mode, count):
    entry = GAMES[game]
    for seed in range(SEEDS):
        failures, _ = playout(entry.engine, _body(entry, count, mode), seed, Budget())
        assert failures == [], failures[:5]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_conformance_http_setup_and_apply_agree_with_the_engine(client, game):
    engine = GAMES[game].engine
    body = {**GAMES[game].example_setup, "seed": 5}
    response = client.post(f"/v1/games/{game}/setup", json=body)
    assert response.status_code == 200, response.get_json()
    state = response.get_json()["state"]
    assert state == engine.setup({**body, "mode": "digital",
                                  "options": engine.resolve_options({})}, 5)
    legal = client.post(f"/v1/games/{game}/legal-actions", json={"state": state}).get_json()
    assert legal["actions"] == engine.legal_actions(state)
    action = legal["actions"][0]
    verdict = client.post(f"/v1/games/{game}/validate", json={"state": state, "action": action})
    assert verdict.get_json() == {"legal": True, "violations": [], "violation_count": 0}
    applied = client.post(f"/v1/games/{game}/apply", json={"state": state, "action": action})
    assert applied.status_code == 200, applied.get_json()
    assert applied.get_json()["state"] == engine.apply(state, action)[0]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_request_checks_its_snapshot_exactly_once(client, monkeypatch, game):
    """/apply, /validate and /legal-actions check the snapshot sent once, at the boundary
    (issue 10): the engine's later calls trust the checked state; the same snapshot sent
    again is not checked a second time (issue 11, :mod:`referee.matches.checked_memo`)."""
    engine = GAMES[game].engine
    state = engine.setup({**GAMES[game].example_setup, "mode": "digital",
                          "options": engine.resolve_options({})}, 5)
    action = engine.legal_actions(state)[0]
    checks = []
    real = engine._check_snapshot
    monkeypatch.setattr(engine, "_check_snapshot", lambda s: checks.append(1) or real(s))
    for path, body in (("apply", {"state": state, "action": action}),
                       ("validate", {"state": state, "action": action}),
                       ("legal-actions", {"state": state})):
        MEMO.clear()  # a snapshot not seen before
        checks.clear()
        response = client.post(f"/v1/games/{game}/{path}", json=body)
        assert response.status_code == 200, response.get_json()
        assert len(checks) == 1, (path, len(checks))
        # the same snapshot again passed before: remembered, not checked (checked_memo)
        assert client.post(f"/v1/games/{game}/{path}", json=body).status_code == 200
        assert len(checks) == 1, (path, "again", len(checks))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_match_s_stored_state_is_never_checked_again(client, monkeypatch, game):
    """A match's state comes from the service's own store, written by the engine from checked
    input (referee.matches.service.stored): its reads and moves check no snapshot at all; the setup
    body was checked when the match was created."""
    engine = GAMES[game].engine
    created = client.post("/v1/matches", json={"game": game, **GAMES[game].example_setup,
                                               "seed": 5}).get_json()
    url, host = f"/v1/matches/{created['id']}", {"Authorization": f"Bearer {created['host_token']}"}
    checks = []
    real = engine._check_snapshot
    monkeypatch.setattr(engine, "_check_snapshot", lambda s: checks.append(1) or real(s))
    legal = client.get(url + "/legal-actions", headers=host).get_json()
    action = legal["actions"][0]
    token = created["host_token"] if action["player"] not in created["seats"] else \
        created["seats"][action["player"]]
    moved = client.post(url + "/actions", json={"action": action, "expected_version": 1},
                        headers={"Authorization": f"Bearer {token}"})
    assert moved.status_code == 200, moved.get_json()
    assert client.get(url, headers=host).status_code == 200
    assert checks == []


@pytest.mark.parametrize("game", sorted(GAMES))
def test_conformance_games_are_described(client, game):
    described = client.get(f"/v1/games/{game}").get_json()
    engine = GAMES[game].engine
    assert described["players"]["min"] == engine.min_players
    assert set(described["options"]) == set(engine.options)
    assert set(described["actions"]) == set(GAMES[game].schemas.ACTION_SCHEMAS)


def test_each_request_parses_its_body_once(client, monkeypatch):
    """guard_request parses the JSON body; webargs (``@blp.arguments``) reads that parse back
    instead of parsing the bytes again (issue 10)."""
    import webargs.core

    parsed = []
    real = webargs.core.parse_json
    monkeypatch.setattr(webargs.core, "parse_json",
                        lambda *a, **k: parsed.append(1) or real(*a, **k))
    engine = GAMES["coup"].engine
    state = engine.setup({**GAMES["coup"].example_setup, "mode": "digital",
                          "options": engine.resolve_options({})}, 5)
    response = client.post("/v1/games/coup/legal-actions", json={"state": state})
    assert response.status_code == 200 and response.get_json()["actions"]
    assert parsed == []
