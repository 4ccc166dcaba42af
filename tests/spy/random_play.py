"""Seeded random games of Spy driven by ``legal_actions``, for the property and view tests.

A table-mode game is dealt like a digital one, then some cards are replaced by ``"unknown"``
in the state: the test keeps the real cards and answers truthfully from them, as a defender at
a real table would.
"""
from __future__ import annotations

import random
from typing import Iterator

from referee.games.base import UNKNOWN
from referee.games.spy.answers import true_answer
from referee.games.spy.engine import ENGINE

MAX_ACTIONS = 400
"""Bound of one game; the policy below ends every game well before it (asserted)."""


def new_game(rng: random.Random, mode: str) -> tuple[dict, dict[str, list[str]]]:
    """A dealt 2–4 player game and the real cards of every base (table mode: some hidden)."""
    players = ["ana", "ben", "cy", "di"][:rng.randint(2, 4)]
    options = {"mirror": rng.choice(["across", "same"]),
               "top_secret_2_eliminates": rng.random() < 0.8,
               "first_player": rng.choice(players)}
    seed = rng.getrandbits(32)
    state = ENGINE.setup({"players": players, "mode": "digital", "options": options}, seed=seed)
    real = {p: list(b["cards"]) for p, b in state["bases"].items()}
    if mode == "table":  # the players enter their arranged bases, most cards unknown (SPY-S2)
        bases = {p: {"cards": [c if rng.random() < 0.3 else UNKNOWN for c in real[p]],
                     "spy_gap": b["spy_gap"], "facing": b["facing"]}
                 for p, b in state["bases"].items()}
        state = ENGINE.setup({"players": players, "mode": mode, "options": options,
                              "bases": bases}, seed=seed)
    return state, real


def truthful(state: dict, real: dict[str, list[str]]) -> dict:
    """The defender's true answer to the pending table-mode spy."""
    pending = state["turn"]["pending"]
    defender = pending["defender"]
    answer, card = true_answer({**state["bases"][defender], "cards": real[defender]},
                               pending["position"])
    action = {"type": "answer", "player": defender, "answer": answer}
    return {**action, "card": card} if card else action


def choose(rng: random.Random, state: dict, actions: list[dict], real: dict) -> dict:
    """The policy: answer truthfully; turn round or move now and then; mostly spy, so that
    bombs and Top Secrets end the game; rarely end the turn without spying."""
    if state["turn"]["pending"]:
        return truthful(state, real)
    by_type: dict[str, list[dict]] = {}
    for action in actions:
        by_type.setdefault(action["type"], []).append(action)
    for kind, chance in (("turn_round", 0.3), ("move", 0.6), ("spy", 0.9)):
        if kind in by_type and rng.random() < chance:
            return rng.choice(by_type[kind])
    return by_type["end_turn"][0]


class Step:
    """One step of a game: the ``state``, its ``listed`` legal actions, the ``action`` chosen,
    and the ``new`` state and ``events`` it gave; ``real`` holds the real cards."""

    def __init__(self, state, listed, action, new, events, real):
        self.state, self.listed, self.action = state, listed, action
        self.new, self.events, self.real = new, events, real


def play(seed: int, mode: str) -> Iterator[Step]:
    """Yield every :class:`Step` of one seeded game, which must end (one player left) within
    ``MAX_ACTIONS`` actions."""
    rng = random.Random(seed)
    state, real = new_game(rng, mode)
    for _ in range(MAX_ACTIONS):
        listed = ENGINE.legal_actions(state)
        if not listed:
            assert ENGINE.is_over(state)
            return
        action = choose(rng, state, listed, real)
        new, events = ENGINE.apply(state, action)
        yield Step(state, listed, action, new, events, real)
        state = new
    raise AssertionError(f"game {seed} ({mode}) did not end in {MAX_ACTIONS} actions")
