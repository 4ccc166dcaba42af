"""Public knowledge of a base after an answer or a declared number (SPY-R2…R5, SPY-C3): each
position keeps exactly the cards some arrangement of the whole base still gives it.

``narrowed`` finds them from one arrangement and alternating paths; here every arrangement is
enumerated (all permutations of the base's cards) and the two must agree, on random
candidate lists of 6- and 7-card bases (3–4 and 2 players, SPY-S1)."""
from __future__ import annotations

import itertools
import random

import pytest

from referee.games.spy.rules import base_cards
from referee.games.spy.table import narrowed


def brute_force(candidates, position, allowed, deck):
    """Per position, the cards it holds in some arrangement of ``deck`` fitting every
    candidate list (position ``position`` cut to ``allowed``)."""
    cands = [[c for c in deck if c in set(cs)] for cs in candidates]
    cands[position] = [c for c in cands[position] if c in set(allowed)]
    fitting = [p for p in itertools.permutations(deck)
               if all(card in cands[i] for i, card in enumerate(p))]
    if not fitting:
        return cands  # no arrangement at all: nothing more to learn (the answer is refused)
    return [[c for c in cs if any(p[i] == c for p in fitting)] for i, cs in enumerate(cands)]


@pytest.mark.parametrize("players", [2, 3])
def test_narrowed_keeps_exactly_the_cards_some_arrangement_allows_spy_r2_c3(players):
    deck = list(base_cards(players))
    rng = random.Random(players)
    cut = kept = 0
    for _ in range(120):
        hidden = rng.sample(deck, len(deck))
        # candidates that always fit the real cards, sometimes very few, sometimes all
        candidates = [sorted({card, *rng.sample(deck, rng.randrange(len(deck)))},
                             key=deck.index) for card in hidden]
        position = rng.randrange(len(deck))
        allowed = rng.sample(deck, rng.randrange(1, len(deck) + 1))
        base = {"cards": hidden, "candidates": candidates}
        found = narrowed(base, position, allowed, deck)
        assert found == brute_force(candidates, position, allowed, deck)
        before = sum(map(len, candidates))
        cut += sum(map(len, found)) < before
        kept += sum(map(len, found)) == before
    assert cut > 20 and kept > 2, (cut, kept)  # both outcomes occur
