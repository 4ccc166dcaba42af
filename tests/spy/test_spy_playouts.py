"""Property test: seeded random games of 2–4 players driven by ``legal_actions``.

At every step: each listed action is legal (no violation); a sample of the actions not listed,
of every shape and by every player, is refused with SPY- rule IDs (so legal_actions misses no
legal action); on every sixth step each listed action is applied and gives a possible state.
Every game ends with exactly one winner (SPY-E2).  Digital mode, and table mode where the test
keeps the real cards and the defender answers truthfully from them.

Bounded: 250 digital and 70 table games (the policy prefers spying so games end; each game is
capped at ``MAX_ACTIONS`` and must end before it).
"""
from __future__ import annotations

import random

import pytest

from referee.games.base import IllegalAction
from referee.games.spy.engine import ENGINE
from referee.games.spy.judge import action_violations, to_move
from referee.games.spy.rules import BASE_CARDS
from referee.games.spy.table import ANSWERS
from tests.spy.random_play import Step, play

GAMES = {"digital": 120, "table": 40}
CHUNKS = 4


def other_actions(state: dict) -> list[dict]:
    """Actions of every shape by every player, legal or not.  Moves of 0…n+1 steps: at a table
    without card_moves any number ≥ 1 may be declared, and legal_actions lists 1…n, one per
    gap the Spy may land in."""
    players = state["players"] + ["zed"]
    size = len(state["bases"][players[0]]["cards"])
    out = []
    for player in players:
        out += [{"type": "turn_round", "player": player}, {"type": "end_turn", "player": player}]
        out += [{"type": "move", "player": player, "steps": k} for k in range(0, size + 2)
                if state["mode"] == "digital" or k <= size]
        out += [{"type": "spy", "player": player, "target": t} for t in players]
        out += [{"type": "answer", "player": player, "answer": a} for a in ANSWERS]
        out += [{"type": "answer", "player": player, "answer": a, "card": c}
                for a in ("exposed", "lit_bomb") for c in BASE_CARDS[::2]]
    return out


def check_step(rng: random.Random, step: Step, number: int) -> None:
    """Check one step of a game.  ``legal_actions`` has just checked the state, so the other
    actions are judged by the rules alone (``action_violations``); one of them goes through the
    public ``apply`` too."""
    state, listed = step.state, step.listed
    assert to_move(state) == sorted({a["player"] for a in listed})
    for action in listed:
        assert action_violations(state, action) == [], action
    if number % 6 == 0:
        for action in listed:
            ENGINE.check_snapshot(ENGINE.apply(state, action)[0])
    others = [a for a in other_actions(state) if a not in listed]
    for action in rng.sample(others, 4):
        found = action_violations(state, action)
        assert found, f"{action} is legal but not listed"
        assert all(v.rule.startswith("SPY-") and v.message for v in found)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, rng.choice(others))


@pytest.mark.parametrize("mode, chunk", [(m, c) for m in GAMES for c in range(CHUNKS)])
def test_random_games_end_with_one_winner_spy_e2(mode, chunk):
    size = GAMES[mode] // CHUNKS
    for seed in range(chunk * size, (chunk + 1) * size):
        rng = random.Random(-seed)
        for number, step in enumerate(play(seed, mode)):
            check_step(rng, step, number)
        final = step.new
        ENGINE.check_snapshot(final)
        left = [p for p in final["players"] if p not in final["eliminated"]]
        score = ENGINE.score(final)
        assert len(left) == 1 and final["winner"] == left[0] == score["winner"]
        assert ENGINE.is_over(final) and ENGINE.legal_actions(final) == []
        assert score["points"] == {p: len(b["exposed"]) for p, b in final["bases"].items()}
        if mode == "digital":  # SPY-S2: the order of a base never changes
            assert {p: b["cards"] for p, b in final["bases"].items()} == step.real
