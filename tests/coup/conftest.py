"""Fixtures for the Coup tests: the engine, entered deals, and the HTTP API as a small helper.

Players are ``A, B, C…`` in seat order as in ``shared/cases/coup/scenarios.md``.
"""
from __future__ import annotations

from collections import Counter

import pytest

from referee.games.coup.engine import ENGINE
from referee.games.coup.rules import characters_in_game, copies_per_character
from tests.rule_checks import rules_broken

PLAYERS = "ABCDEFGH"


def court_for(hands: dict[str, list[str]], exchanger: str = "ambassador",
              top: tuple[str, ...] = ()) -> list[str]:
    """The court deck completing ``hands`` to the full deck (COUP-S3), ``top`` cards first, the
    rest in a fixed order."""
    copies = copies_per_character(len(hands))
    left = Counter({c: copies for c in characters_in_game(exchanger)})
    left.subtract(c for cards in hands.values() for c in cards)
    left.subtract(top)
    assert all(v >= 0 for v in left.values()), left
    return list(top) + sorted(left.elements())


def deal_body(hands: dict[str, list[str]], exchanger: str = "ambassador",
              top: tuple[str, ...] = (), mode: str = "digital", **options) -> dict:
    """A setup body with an entered deal (3–8 players)."""
    return {"players": list(hands), "mode": mode,
            "options": {"exchanger": exchanger, **options},
            "deal": {"hands": hands, "court": court_for(hands, exchanger, top)}}


class Game:
    """A game driven through the engine directly: ``do`` applies actions and keeps events."""

    def __init__(self, state: dict):
        self.state = state
        self.events: list[dict] = []

    def do(self, kind: str, player: str, **fields) -> "Game":
        action = {"type": kind, "player": player, **fields}
        self.state, events = ENGINE.apply(self.state, action)
        self.events += events
        return self

    def rules(self, kind: str, player: str, **fields) -> set[str]:
        """The rule IDs an action breaks (and that apply refuses it the same way)."""
        return rules_broken(ENGINE, self.state, {"type": kind, "player": player, **fields})

    @property
    def coins(self) -> dict[str, int]:
        return self.state["coins"]

    @property
    def hands(self) -> dict[str, list[str]]:
        return self.state["hands"]

    @property
    def revealed(self) -> dict[str, list[str]]:
        return self.state["revealed"]

    @property
    def turn(self) -> dict:
        return self.state["turn"]


@pytest.fixture(name="deal_body")
def deal_body_fixture():
    """:func:`deal_body`: a setup body with an entered deal."""
    return deal_body


@pytest.fixture
def new_game():
    """``new_game(hands, exchanger=…, top=…, seed=…, **options)`` → a :class:`Game` from an
    entered deal; ``coins`` sets starting coins (moved from/to the treasury)."""
    def make(hands, exchanger="ambassador", top=(), seed=7, mode="digital", coins=None,
             **options):
        state = ENGINE.setup(deal_body(hands, exchanger, top, mode, **options), seed)
        for player, amount in (coins or {}).items():
            state["treasury"] -= amount - state["coins"][player]
            state["coins"][player] = amount
        ENGINE.check_snapshot(state)
        return Game(state)
    return make


class Api:
    """The stateless HTTP endpoints of Coup, through the Flask test client."""

    def __init__(self, client):
        self.client = client
        self.state: dict | None = None
        self.events: list[dict] = []
        self.score: dict | None = None

    def setup(self, body: dict) -> dict:
        response = self.client.post("/v1/games/coup/setup", json=body)
        assert response.status_code == 200, response.get_json()
        self.state = response.get_json()["state"]
        return self.state

    def setup_problem(self, body: dict) -> dict:
        response = self.client.post("/v1/games/coup/setup", json=body)
        assert response.status_code == 422, response.get_json()
        return response.get_json()

    def do(self, kind: str, player: str, **fields) -> "Api":
        body = {"state": self.state, "action": {"type": kind, "player": player, **fields}}
        verdict = self.client.post("/v1/games/coup/validate", json=body)
        assert verdict.status_code == 200 and verdict.get_json()["legal"], verdict.get_json()
        response = self.client.post("/v1/games/coup/apply", json=body)
        assert response.status_code == 200, response.get_json()
        answer = response.get_json()
        self.state, self.score = answer["state"], answer["score"]
        self.events += answer["events"]
        return self

    def refused(self, kind: str, player: str, **fields) -> set[str]:
        """Validate says illegal, apply answers 422 with the same rules; return them."""
        body = {"state": self.state, "action": {"type": kind, "player": player, **fields}}
        verdict = self.client.post("/v1/games/coup/validate", json=body).get_json()
        assert verdict["legal"] is False, verdict
        response = self.client.post("/v1/games/coup/apply", json=body)
        assert response.status_code == 422, response.get_json()
        rules = {v["rule"] for v in response.get_json()["violations"]}
        assert rules == {v["rule"] for v in verdict["violations"]}
        return rules

    def legal(self, player: str | None = None) -> list[dict]:
        body = {"state": self.state} if player is None else {"state": self.state,
                                                             "player": player}
        response = self.client.post("/v1/games/coup/legal-actions", json=body)
        assert response.status_code == 200, response.get_json()
        return response.get_json()["actions"]


@pytest.fixture
def api(client):
    """An :class:`Api` bound to the test client."""
    return Api(client)
