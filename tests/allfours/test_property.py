"""Random All Fours games driven by legal_actions (seeded, bounded).

For every step: each listed action is accepted; a sample of unlisted plays is refused with a
rule ID; the snapshot stays possible (check_snapshot: 52 cards, hand sizes); every game ends with a
side at the target (AF-S6) or a game-losing renege (AF-I1).
"""
import random

import pytest

from referee.games.allfours.engine import ENGINE
from referee.games.common.cards import PACK

GAMES = 40


def _play_game(rng, players, mode, target):
    body = {"players": players, "dealer": players[0], "mode": mode,
            "options": ENGINE.resolve_options({"target": target})}
    if mode == "table":
        body["kick"] = rng.choice(PACK)
    state = ENGINE.setup(body, seed=rng.randrange(2**64))
    steps = 0
    while not ENGINE.is_over(state):
        steps += 1
        assert steps < 5000, "a game must end"
        legal = ENGINE.legal_actions(state)
        assert legal, f"no legal action in phase {state['phase']}"
        if mode == "digital" and state["phase"] == "play":
            _assert_unlisted_refused(rng, state, legal)
        action = rng.choice(legal)
        if action["type"] == "misdeal" and rng.random() < 0.9:
            action = next(a for a in legal if a["type"] != "misdeal")
        state, _ = ENGINE.apply(state, action)
        ENGINE.check_snapshot(state)
    return state


def _assert_unlisted_refused(rng, state, legal):
    listed = {(a["player"], a.get("card")) for a in legal if a["type"] == "play"}
    for _ in range(3):
        player = rng.choice(state["players"])
        card = rng.choice(PACK)
        if (player, card) in listed:
            continue
        found = ENGINE.violations(state, {"type": "play", "player": player, "card": card})
        assert found and all(v.rule.startswith("AF-") for v in found)


@pytest.mark.parametrize("players", [["ana", "ben"], ["ana", "ben", "cy", "dee"]])
def test_random_digital_games_end_with_a_side_at_the_target(players):
    rng = random.Random(len(players))
    for _ in range(GAMES):
        state = _play_game(rng, players, "digital", 14)
        assert state["winner"] in state["sides"]
        assert state["score"][state["winner"]] >= 14  # AF-S6
        loser = next(s for s in state["sides"] if s != state["winner"])
        assert state["score"][loser] < 14  # the game stops at the first side to 14


def test_af_s6_the_score_sheet_adds_up_to_the_score():
    """One line per hand, from hand 1; each line's match score is the line before's plus the
    hand's points (the kicks of every deal of it, AF-K1 and AF-B4, and a give one, AF-B2,
    included); the awards to a side are within its points; the final score is the last
    line's, or more when a later hand's kick or give one reached the target."""
    rng = random.Random(11)
    for players in (["ana", "ben"], ["ana", "ben", "cy", "dee"]):
        for _ in range(10):
            state = _play_game(rng, players, "digital", 14)
            score = {side: 0 for side in state["sides"]}
            for line in state["scored_hands"]:
                assert line["score"] == {s: score[s] + line["points"][s] for s in score}
                for side in score:
                    assert sum(a["points"] for a in line["awards"] if a["side"] == side) \
                        <= line["points"][side]
                score = line["score"]
            hands = [line["hand"] for line in state["scored_hands"]]
            assert hands == list(range(1, len(hands) + 1))
            if hands and hands[-1] == state["hand_number"]:  # the last hand's scoring ended it
                assert score == state["score"]
            else:  # the game ended at the deal (or beg) of a hand not scored
                assert len(hands) == state["hand_number"] - 1
                assert all(score[s] + state["hand_points"][s] <= state["score"][s] for s in score)


def test_random_table_games_end_and_reneges_are_caught():
    rng = random.Random(7)
    reneges = 0
    for _ in range(GAMES):
        state = _play_game(rng, ["ana", "ben", "cy", "dee"], "table", 5)
        assert state["winner"] in state["sides"]
        reneges += len(state["reneges"])
    assert reneges > 0  # random play to real leads fails to follow suit sometimes
