"""Property test: seeded random games driven by ``legal_actions`` (2–8 players, both
exchangers, every option, digital and table mode).

Every listed action is accepted; a sample of unlisted actions (wrong player, wrong or missing
target, a card not held, a claim of an absent character…) is refused with a COUP rule ID;
coins (COUP-S7) and cards (COUP-S3) are conserved after every step (``check_snapshot``); every
game ends with exactly one winner (COUP-E1).  500 games (tests/test_conformance.py plays
every player count and mode too), bounded: well under a minute.
"""
from __future__ import annotations

import random

from referee.games.base import UNKNOWN
from referee.games.coup.engine import ENGINE
from referee.games.coup.rules import CHARACTERS, HOST, TREASURY_VALUE

GAMES = 250
MAX_STEPS = 3000
PLAYERS = "ABCDEFGH"


def _canonical(action: dict) -> tuple:
    """Compare actions up to the order of returned cards."""
    action = dict(action)
    if "cards" in action:
        action["cards"] = tuple(sorted(action["cards"]))
    return tuple(sorted(action.items()))


def _mutations(state: dict, action: dict, rng: random.Random) -> list[dict]:
    """Unlisted variants of a listed action: other player, other target or card."""
    players = state["players"]
    out = [{**action, "player": rng.choice([p for p in players if p != action["player"]])},
           {**action, "player": "nobody"}]
    if "target" in action:
        out += [{**action, "target": action["player"]}, {**action, "target": "nobody"},
                {k: v for k, v in action.items() if k != "target"}]
        dead = [p for p in players if not state["hands"][p]]
        if dead:
            out.append({**action, "target": dead[0]})
    if "card" in action and state["mode"] == "digital":
        out.append({**action, "card": rng.choice(CHARACTERS)})
    if "character" in action:
        out.append({**action, "character": rng.choice(CHARACTERS)})
    if "cards" in action and state["mode"] == "digital":
        out += [{**action, "cards": action["cards"][:-1]},
                {**action, "cards": [rng.choice(CHARACTERS) for _ in action["cards"]]}]
    out.append({**action, "type": rng.choice(["income", "challenge", "block", "pass",
                                              "lose_influence", "concede"])})
    return out


def _total_cards(state: dict) -> int:
    cards = sum(len(h) + len(r) for h, r in zip(state["hands"].values(),
                                               state["revealed"].values()))
    return (cards + len(state["court"]) + len(state["turn"]["drawn"])
            + sum(len(p) for p in state["piles"].values()))


def _play_one(number: int) -> int:
    rng = random.Random(number)
    n = rng.randint(2, 8)
    mode = "table" if number % 10 == 9 else "digital"
    options = {"exchanger": rng.choice(["ambassador", "inquisitor"]),
               "steal_from_empty": rng.random() < 0.3,
               "examine_order": rng.choice(["seed", "reformation"]),
               "two_player_first_coin": rng.random() < 0.5,
               "first_player": rng.choice([None, PLAYERS[rng.randrange(n)]])}
    state = ENGINE.setup({"players": list(PLAYERS[:n]), "options": options, "mode": mode},
                         number)
    deck = _total_cards(state)
    for step in range(MAX_STEPS):
        if ENGINE.is_over(state):
            break
        legal = ENGINE.legal_actions(state)
        assert legal, (number, step, state["turn"])
        if step % 7 == 0:
            listed = {_canonical(a) for a in legal}
            for wrong in _mutations(state, rng.choice(legal), rng):
                if _canonical(wrong) in listed or (wrong["type"] == "prove"
                                                   and "card" not in wrong):
                    continue
                found = ENGINE.violations(state, wrong)
                assert found and all(v.rule.startswith("COUP-") for v in found), (number, wrong)
        # Prefer real decisions over the host closing windows, and keep games short-ish.
        choices = [a for a in legal if a["player"] != HOST] or legal
        if rng.random() < 0.05:
            choices = legal
        action = rng.choice(choices)
        state, events = ENGINE.apply(state, action)
        ENGINE.check_snapshot(state)  # S3, S7, hand sizes, the turn record
        assert sum(state["coins"].values()) + state["treasury"] == TREASURY_VALUE
        assert _total_cards(state) == deck
        assert all(e.get("visible_to") is None or isinstance(e["visible_to"], list)
                   for e in events)
        if mode == "digital":
            assert UNKNOWN not in str(state["hands"])
    else:
        raise AssertionError(f"game {number} did not end in {MAX_STEPS} steps")
    alive = [p for p in state["players"] if state["hands"][p]]
    assert len(alive) == 1 and ENGINE.score(state)["winner"] == alive[0]
    assert ENGINE.legal_actions(state) == [] and ENGINE.to_move(state) == []
    return step


def test_random_games_accept_listed_refuse_unlisted_conserve_and_end_with_one_winner():
    """COUP-S3, S7, E1, T1, W1 and every action rule, over 250 seeded random games."""
    lengths = [_play_one(number) for number in range(GAMES)]
    assert max(lengths) < MAX_STEPS
