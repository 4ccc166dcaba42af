"""One view envelope for every game (issue 22 item 1): ``GET /v1/matches/{id}`` of every
registered game, in both modes, read by every seat, the host and the public, at the start, in
the middle and once over, validates against the one committed schema ``schemas/match-view.json``
(the OpenAPI ``MatchView``: the envelope, one variant per game told apart by ``game``); so do
the action answers (``MatchActed``) met on the way.

The states come from seeded random playouts of the engine (``tests/conformance_checks.py``'s
setup bodies), each written into a match of the same setup as its version 2, so a finished
Gnoming game is reached without 400 requests.
"""
from __future__ import annotations

import json
import random

import jsonschema
import pytest

from referee.contract.files import ROOT
from referee.contract.jsonschema import standalone
from referee.contract.openapi import document
from referee.games.base import MODES
from referee.registry import GAMES
from tests.test_conformance import _body

SCHEMA = json.loads((ROOT / "schemas" / "match-view.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
CASES = [(game, mode) for game in sorted(GAMES) for mode in MODES]


def playout_states(game: str, mode: str, seed: int) -> tuple[dict, list[dict]]:
    """A setup body and three states of one seeded random game: its start, its middle and
    its end (over)."""
    engine = GAMES[game].engine
    body = _body(GAMES[game], GAMES[game].player_counts()[0], mode)
    state = engine.setup(body, seed)
    rng, states = random.Random(f"{game}:{mode}:{seed}"), [state]
    while not engine.is_over(state):
        state, _ = engine.apply(state, rng.choice(engine.legal_actions(state)))
        states.append(state)
    return body, [states[0], states[len(states) // 2], states[-1]]


def match_of(client, game: str, body: dict, state: dict, seed: int) -> dict:
    """A new match of ``game`` from setup ``body`` whose state is ``state`` (its version 2);
    returns the 201 body (the tokens)."""
    created = client.post("/v1/matches", json={"game": game, "seed": seed, **{
        k: v for k, v in body.items() if k != "options"}})
    assert created.status_code == 201, created.get_json()
    created = created.get_json()
    store = client.application.extensions["referee.store"]
    record = store.load(created["id"])
    store.commit(created["id"], 1, {**record, "state": state, "version": 2},
                 {"type": "snapshot"}, [], 3600)
    return created


def readers(created: dict) -> list[tuple[str, str | None]]:
    """``(name, token)`` of every seat, the host and the public."""
    return [*created["seats"].items(), ("host", created["host_token"]), ("public", None)]


@pytest.mark.parametrize("game, mode", CASES)
def test_every_view_of_every_game_is_the_one_match_view_schema(client, game, mode):
    body, states = playout_states(game, mode, 1)
    seen = set()
    for state in states:
        created = match_of(client, game, body, state, 1)
        for name, token in readers(created):
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            answer = client.get(f"/v1/matches/{created['id']}", headers=headers)
            assert answer.status_code == 200, answer.get_json()
            view = answer.get_json()
            VALIDATOR.validate(view)  # raises, naming the path, when it does not fit
            assert view["role"] == {"host": "host", "public": "public"}.get(name, "seat")
            seen.add((view["over"], view["outcome"] is None))
    assert seen == {(False, True), (True, False)}  # mid-game (no outcome) and over (outcome)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_action_answers_carry_the_same_envelope(client, game):
    """``POST …/actions`` answers (MatchActed) carry the envelope around the actor's view."""
    components = document(client.application)["components"]["schemas"]
    acted = standalone(components, "MatchActed")
    body, states = playout_states(game, "digital", 2)
    created = match_of(client, game, body, states[1], 2)
    engine = GAMES[game].engine
    action = engine.legal_actions(states[1])[0]
    token = created["seats"].get(action["player"], created["host_token"])
    answer = client.post(f"/v1/matches/{created['id']}/actions", json={
        "action": action, "expected_version": 2}, headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200, answer.get_json()
    jsonschema.Draft202012Validator(acted).validate(answer.get_json())


def test_the_schema_check_can_fail(client):
    """Proof the validation is real: a view whose outcome lacks its reason, whose game part is
    another game's, or a seat's answer carrying the referee view, is refused."""
    body, states = playout_states("coup", "digital", 1)
    created = match_of(client, "coup", body, states[-1], 1)
    view = client.get(f"/v1/matches/{created['id']}").get_json()
    VALIDATOR.validate(view)
    broken = {**view, "outcome": {k: v for k, v in view["outcome"].items() if k != "reason"}}
    with pytest.raises(jsonschema.ValidationError):
        VALIDATOR.validate(broken)
    with pytest.raises(jsonschema.ValidationError):
        VALIDATOR.validate({**view, "game": "spy"})
    host = client.get(f"/v1/matches/{created['id']}", headers={
        "Authorization": f"Bearer {created['host_token']}"}).get_json()
    VALIDATOR.validate(host)
    with pytest.raises(jsonschema.ValidationError):
        VALIDATOR.validate({**view, "view": host["view"]})  # the public given every hand
