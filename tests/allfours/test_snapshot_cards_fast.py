"""The one-pass card test of an All Fours snapshot (``snapshot.distinct_cards``, issue 11)
passes exactly the card lists ``_card_problems`` finds nothing wrong with (AF-D1: every card
of the pack, none twice, ``"unknown"`` aside): the cards of states of seeded random games
(2 and 4 players), each card replaced in turn by near misses (a card held
elsewhere, ``"unknown"``, non-cards, other types, unhashable values), and cards added twice."""
from __future__ import annotations

import pytest

from bench.payloads import playout, setup_body
from referee.games.allfours.snapshot import _card_problems, distinct_cards

NEAR_MISSES = ("unknown", "1X", "", "as", "AS ", "10", 10, None, True, ["AS"], {"c": "AS"})


def _cards(state: dict) -> list:
    players = state["players"]
    held = [c for p in players for c in state["hands"][p] + state["exposed"][p]]
    return held + state["kicks"] + state["stock"] + [
        c for trick in state["tricks"] + [state["trick"]] for c in trick["cards"]]


def _finds_nothing(cards: list) -> bool:
    try:
        return not _card_problems([("state.x", c) for c in cards], full_pack=False)
    except TypeError:  # an unhashable card: check() reports the snapshot malformed
        return False


def _variants(cards: list):
    yield cards
    yield []
    for i in range(len(cards)):
        for value in NEAR_MISSES + (cards[i - 1], cards[-1]):
            yield cards[:i] + [value] + cards[i + 1:]
    for value in ("2C", "AS", "unknown"):
        yield cards + [value, value]


@pytest.mark.parametrize("players", [2, 4])
def test_af_d1_the_fast_card_test_agrees_with_card_problems(players):
    verdicts = {True: 0, False: 0}
    for seed in range(4):
        _, steps = playout("all-fours", seed, limit=60,
                           setup=setup_body("all-fours", players))
        for state, _ in steps[::15]:
            for variant in _variants(_cards(state)):
                fast = distinct_cards(variant)
                assert fast == _finds_nothing(variant), variant
                verdicts[fast] += 1
    assert verdicts[True] > 20 and verdicts[False] > 1000, verdicts
