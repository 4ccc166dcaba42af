"""Random Gnoming playouts driven by legal_actions (seeded, bounded: about 800 rounds of 2–7
players, digital and table mode, in well under 20 s).

At about one step in 25 every listed action is applied (each must apply and keep the 110 cards);
otherwise the one chosen is.

At every step: every listed action applies; a sampled action that is not listed is refused with
GN- rule IDs; the input state is never changed; the 110 cards of GN-C1 are all accounted for
(layouts + draw pile + discard piles + removed Hazards + the card in hand); every round ends
within a bounded number of steps (GN-E1) and every game after options.rounds rounds (GN-C3).
"""
import random
from collections import Counter

import pytest

from referee.games.base import UNKNOWN, IllegalAction
from referee.games.common.jsoncopy import json_copy
from referee.games.gnoming.engine import ENGINE
from referee.games.gnoming.rules import DECK_COUNTS, DECK_SIZE

NAMES = ["ana", "ben", "cy", "dee", "eve", "fay", "gus"]
MAX_STEPS_PER_ROUND = 3000


def all_cards(state):
    found = [c["card"] for g in state["layouts"].values() for row in g for c in row]
    found += state["draw_pile"] + state["removed"] + sum(state["discard_piles"], [])
    if state["turn"]["holding"] is not None:
        found.append(state["turn"]["holding"])
    return found


def assert_conserved(state):
    """GN-C1: all 110 cards are somewhere; no card more often than the deck holds it."""
    found = all_cards(state)
    assert len(found) == DECK_SIZE
    known = Counter(c for c in found if c != UNKNOWN)
    assert all(known[c] <= n for c, n in DECK_COUNTS.items()) and set(known) <= set(DECK_COUNTS)
    if state["mode"] == "digital":
        assert known == Counter(DECK_COUNTS)


def random_action(rng, state):
    """Any well-formed action, legal or not."""
    player = rng.choice(state["players"])
    kind = rng.choice(["flip", "draw", "place", "discard"])
    action = {"type": kind, "player": player}
    if kind in ("flip", "place"):
        action["position"] = [rng.randrange(3), rng.randrange(3)]
    if kind == "draw":
        action["source"] = rng.choice(["draw_pile", "discard"])
    if kind == "discard" or action.get("source") == "discard":
        if rng.random() < 0.9:
            action["pile"] = rng.randrange(2)
    if rng.random() < 0.3:
        action["card"] = rng.choice(list(DECK_COUNTS))
    return action


def choose(rng, legal, state):
    """Mostly play over face-down cards so that rounds end quickly; otherwise any action."""
    layouts = state["layouts"]
    quick = [a for a in legal if a["type"] == "place"
             and not layouts[a["player"]][a["position"][0]][a["position"][1]]["up"]]
    return rng.choice(quick if quick and rng.random() < 0.85 else legal)


def play_game(seed, mode):
    rng = random.Random(seed)
    count = rng.randint(2, 7)
    options = {"allow_two_players": count == 2, "rounds": rng.choice([1, 2, 3]),
               "out_first_tie": rng.choice(["lowest", "not_lowest"]),
               "first_player": rng.choice([None] + NAMES[:count])}
    state = ENGINE.setup({"players": NAMES[:count], "options": ENGINE.resolve_options(options),
                          "mode": mode}, seed)
    rounds, steps = 0, 0
    while state["phase"] != "over":  # ENGINE.is_over at the end
        legal = ENGINE.legal_actions(state)
        assert legal, f"no legal action in phase {state['phase']}"
        sampled = rng.random() < 0.25
        if sampled:
            assert {a["player"] for a in legal} == set(ENGINE.to_move(state))
            other = random_action(rng, state)
            if other not in legal:
                found = ENGINE.violations(state, other)
                assert found and all(v.rule.startswith("GN-") and v.message for v in found)
                with pytest.raises(IllegalAction):
                    ENGINE.apply(state, other)
        if rng.random() < 0.04:
            for action in legal:
                assert_conserved(ENGINE.apply(state, action)[0])
        before = json_copy(state) if sampled else state
        new, events = ENGINE.apply(state, choose(rng, legal, state))
        assert state == before, "apply changed its input state"
        assert all(isinstance(e, dict) and e.get("type") for e in events)
        state = new
        assert_conserved(state)
        steps += 1
        assert steps <= MAX_STEPS_PER_ROUND, "a round did not end"
        if any(e["type"] == "round_ended" for e in events):
            rounds, steps = rounds + 1, 0
    assert ENGINE.is_over(state) and rounds == options["rounds"] == len(state["history"])
    score = ENGINE.score(state)
    assert score["winner"] and set(score["winner"]) <= set(state["players"])
    return rounds


@pytest.mark.parametrize("mode, games", [("digital", 80), ("table", 40)])
def test_gn_random_playouts_conserve_cards_and_every_round_ends(mode, games):
    rounds = sum(play_game(seed, mode) for seed in range(games))
    assert rounds >= games  # each game is 1-3 rounds
