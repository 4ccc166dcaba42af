"""The one-set card test of a Coup snapshot's card lists (``snapshot._check_cards_list``,
issue 11) flags exactly what its per-card pass flags (COUP-S2, COUP-X1): the hands, revealed
cards, piles, court and drawn cards of states of seeded random games (2 and 4 players, digital
and table), each card replaced in turn by near misses (``"unknown"``, the other exchanger, other
games' codes, other types, unhashable values), in both modes."""
from __future__ import annotations

import pytest

from bench.payloads import playout, setup_body
from referee.games.base import Problems
from referee.games.coup import snapshot
from referee.games.coup.rules import characters_in_game

NEAR_MISSES = ("unknown", "ambassador", "inquisitor", "Duke", "duke ", "", "AS", 3, None, True,
               ["duke"], {"card": "duke"})


def _lists(state: dict) -> list[list]:
    places = [state["hands"], state["revealed"], state["piles"]]
    return [cards for place in places for cards in place.values()] + [
        state["court"], state["turn"]["drawn"]]


def _flagged(cards: list, mode: str, in_game: tuple) -> list:
    problems = Problems()
    snapshot._check_cards_list(cards, "state.x", mode, in_game, problems)
    return problems.items


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("mode", ["digital", "table"])
def test_coup_s2_the_one_set_card_test_flags_what_the_per_card_pass_flags(monkeypatch, players,
                                                                           mode):
    lists = []
    for seed in range(3):
        _, steps = playout("coup", seed, limit=80,
                           setup={**setup_body("coup", players), "mode": mode})
        lists += [cards for state, _ in steps[::20] for cards in _lists(state)]
    verdicts = {True: 0, False: 0}
    for exchanger in ("ambassador", "inquisitor"):
        in_game = characters_in_game(exchanger)
        for cards in lists:
            variants = [cards] + [cards[:i] + [v] + cards[i + 1:] for i in range(len(cards))
                                  for v in NEAR_MISSES]
            for variant in variants:
                for judged_mode in ("digital", "table"):
                    fast = _flagged(variant, judged_mode, in_game)
                    with monkeypatch.context() as patch:  # the per-card pass alone
                        patch.setattr(snapshot, "_allowed", lambda *args: frozenset())
                        slow = _flagged(variant, judged_mode, in_game)
                    assert fast == slow, (variant, judged_mode, exchanger)
                    verdicts[not fast] += 1
    assert verdicts[True] > 100 and verdicts[False] > 1000, verdicts
