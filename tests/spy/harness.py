"""Helpers of the Spy tests: entered bases, a game driven through the engine, and the HTTP API.

Players are ``A, B, C, D`` in seat order as in ``shared/cases/spy/scenarios.md``.  Positions are
``c0…c(n-1)`` from the holder's left; the Spy in gap ``g`` faces ``c[g]`` facing right and
``c[g-1]`` facing left.
"""
from __future__ import annotations

from referee.games.spy.engine import ENGINE
from tests.rule_checks import rules_broken

# Spy-excluded bases used throughout (3–4 players: 6 cards, no Bomb 2).
ORDERED = ["safe_1", "safe_2", "top_secret_1", "top_secret_2", "bomb_1", "bomb_3"]


def base(cards: list[str], gap: int, facing: str = "right") -> dict:
    """An arranged base (SPY-S2)."""
    return {"cards": list(cards), "spy_gap": gap, "facing": facing}


def body(bases: dict[str, dict], mode: str = "digital", **options) -> dict:
    """A setup body with every base entered, players in the order of ``bases``."""
    return {"players": list(bases), "mode": mode, "options": options, "bases": bases}


def start(bases: dict[str, dict], mode: str = "digital", **options) -> "Game":
    """A game set up through the engine from entered bases."""
    return Game(ENGINE.setup(body(bases, mode, **options), seed=1))


class Game:
    """A game driven through the engine: ``do`` applies an action and keeps its events."""

    def __init__(self, state: dict):
        self.state = state
        self.events: list[dict] = []

    def do(self, kind: str, player: str, **fields) -> "Game":
        self.state, self.last = ENGINE.apply(self.state, {"type": kind, "player": player,
                                                          **fields})
        self.events += self.last
        return self

    def rules(self, kind: str, player: str, **fields) -> set[str]:
        """The rule IDs an action breaks; when it breaks any, apply refuses it too."""
        return rules_broken(ENGINE, self.state, {"type": kind, "player": player, **fields})

    def base(self, player: str) -> dict:
        return self.state["bases"][player]

    def answer(self) -> dict:
        """The last answer event."""
        return [e for e in self.last if e["type"] == "answer"][-1]


class Api:
    """The stateless HTTP endpoints of one game, for the scenario tests."""

    def __init__(self, client):
        self.client = client

    def post(self, endpoint: str, payload: dict):
        return self.client.post(f"/v1/games/spy/{endpoint}", json=payload)

    def setup(self, payload: dict) -> dict:
        response = self.post("setup", payload)
        assert response.status_code == 200, response.get_json()
        return response.get_json()["state"]

    def setup_problem(self, payload: dict) -> dict:
        """The problem body of a refused setup (422 invalid-setup)."""
        response = self.post("setup", payload)
        assert response.status_code == 422, response.get_json()
        assert response.mimetype == "application/problem+json"
        return response.get_json()

    def validate(self, state: dict, action: dict) -> set[str] | None:
        """``None`` when legal, else the set of rule IDs cited."""
        response = self.post("validate", {"state": state, "action": action})
        assert response.status_code == 200, response.get_json()
        data = response.get_json()
        assert data["legal"] == (not data["violations"])
        return None if data["legal"] else {v["rule"] for v in data["violations"]}

    def apply(self, state: dict, action: dict) -> tuple[dict, list[dict], dict]:
        response = self.post("apply", {"state": state, "action": action})
        assert response.status_code == 200, response.get_json()
        data = response.get_json()
        return data["state"], data["events"], data["score"]

    def refused(self, state: dict, action: dict) -> set[str]:
        """Apply an illegal action: 422 illegal-action; return the rule IDs cited."""
        response = self.post("apply", {"state": state, "action": action})
        assert response.status_code == 422, response.get_json()
        problem = response.get_json()
        assert problem["type"].endswith("illegal-action")
        return {v["rule"] for v in problem["violations"]}

    def legal(self, state: dict, player: str | None = None) -> list[dict]:
        payload = {"state": state} if player is None else {"state": state, "player": player}
        response = self.post("legal-actions", payload)
        assert response.status_code == 200, response.get_json()
        return response.get_json()["actions"]


def moves(actions: list[dict]) -> list[int]:
    """The step counts of the move actions in ``actions``."""
    return sorted(a["steps"] for a in actions if a["type"] == "move")
