"""One conformance suite for every registered game (STYLE.md, after OpenSpiel's).

Random playouts driven by ``legal_actions``: every listed action applies; every state reached
passes ``check_state`` and survives a JSON round trip; ``apply`` never changes its input; every
player in ``to_move`` has a legal action; views are JSON and never carry the seed; the stateless
HTTP endpoints agree with the engine.
"""
from __future__ import annotations

import copy
import json
import random

import pytest

from referee.games.base import PUBLIC, REFEREE
from referee.registry import GAMES

NAMES = ["ana", "ben", "cy", "dee", "eli", "fay", "gus", "hal"]
STEPS = 250


def _players(engine, count=None):
    counts = engine.player_counts or tuple(range(engine.min_players, engine.max_players + 1))
    return NAMES[:count or counts[0]]


def _counts(engine):
    return engine.player_counts or tuple(range(engine.min_players, engine.max_players + 1))


def _setup(engine, players, seed):
    body = {"players": players, "mode": "digital", "options": engine.resolve_options({})}
    return engine.setup(body, seed)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_conformance_random_playouts(game):
    engine = GAMES[game].engine
    rng = random.Random(game)
    for count in _counts(engine):
        state = _setup(engine, _players(engine, count), rng.randrange(2**32))
        for _ in range(STEPS):
            engine.check_snapshot(state)
            assert json.loads(json.dumps(state)) == state
            for viewer in [PUBLIC, REFEREE, *state["players"]]:
                seen = engine.view(state, viewer)
                json.dumps(seen)
                if viewer != REFEREE:
                    assert "seed" not in seen, f"{game}: the seed would reveal future deals"
            if engine.is_over(state):
                break
            legal = engine.legal_actions(state)
            assert legal, f"{game}: not over but nothing is legal"
            for player in engine.to_move(state):
                assert engine.legal_actions(state, player), f"{game}: {player} must act"
            action = rng.choice(legal)
            assert engine.violations(state, action) == [], (game, action)
            before = copy.deepcopy(state)
            state, events = engine.apply(state, action)
            assert before == copy.deepcopy(before) and json.dumps(events)
            assert all("type" in e for e in events)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_conformance_http_setup_and_apply_agree_with_the_engine(client, game):
    engine = GAMES[game].engine
    players = _players(engine)
    response = client.post(f"/v1/games/{game}/setup", json={"players": players, "seed": 5})
    assert response.status_code == 200, response.get_json()
    state = response.get_json()["state"]
    assert state == _setup(engine, players, 5)
    legal = client.post(f"/v1/games/{game}/legal-actions", json={"state": state}).get_json()
    assert legal["actions"] == engine.legal_actions(state)
    action = legal["actions"][0]
    verdict = client.post(f"/v1/games/{game}/validate", json={"state": state, "action": action})
    assert verdict.get_json() == {"legal": True, "violations": []}
    applied = client.post(f"/v1/games/{game}/apply", json={"state": state, "action": action})
    assert applied.status_code == 200, applied.get_json()
    assert applied.get_json()["state"] == engine.apply(state, action)[0]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_conformance_games_are_described(client, game):
    described = client.get(f"/v1/games/{game}").get_json()
    engine = GAMES[game].engine
    assert described["players"]["min"] == engine.min_players
    assert set(described["options"]) == set(engine.options)
    assert set(described["actions"]) == set(GAMES[game].schemas.ACTION_SCHEMAS)
