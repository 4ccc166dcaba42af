"""``table.base_has_arrangement`` (issue 11: the snapshot check's "some arrangement of the
cards fits every position's candidates", SPY-C1) answers what ``has_arrangement(domains(base),
deck)`` answers: on the bases of states of seeded random games (3 and 4 players), and on each
of them changed — a card dropped from its candidates, candidates narrowed to another card, two
cards swapped or repeated, a card made ``"unknown"`` (as at a table), a card from outside the
deck, a position too few or too many, an unhashable card."""
from __future__ import annotations

import copy

import pytest

from bench.payloads import playout, setup_body
from referee.games.spy.rules import base_cards
from referee.games.spy.table import base_has_arrangement, domains, has_arrangement


def _outcome(check, base, deck):
    try:
        return check(base, deck)
    except TypeError as exc:
        return type(exc)


def _variants(base: dict, deck: tuple):
    yield base
    cards, cands = base["cards"], base["candidates"]
    for pos, card in enumerate(cards):
        changed = copy.deepcopy(base)
        changed["candidates"][pos] = [c for c in cands[pos] if c != card] or [deck[0]]
        yield changed
        changed = copy.deepcopy(base)
        changed["candidates"][pos] = [deck[(deck.index(card) + 1) % len(deck)]] \
            if card in deck else list(deck)
        yield changed
        for value in ("unknown", "joker", cards[pos - 1], ["safe_1"]):
            changed = copy.deepcopy(base)
            changed["cards"][pos] = value
            yield changed
        changed = copy.deepcopy(base)
        changed["cards"][pos], changed["cards"][pos - 1] = cards[pos - 1], cards[pos]
        yield changed
    for cut in ({"cards": cards[:-1]}, {"candidates": cands[:-1]},
                {"cards": cards + [cards[0]], "candidates": cands + [cands[0]]}):
        yield {**base, **cut}


@pytest.mark.parametrize("players", [3, 4])
def test_spy_c1_the_quick_arrangement_test_answers_as_the_matching(players):
    answers = {True: 0, False: 0}
    for seed in range(3):
        _, steps = playout("spy", seed, limit=40, setup=setup_body("spy", players))
        for state, _ in steps[::8]:
            deck = base_cards(len(state["players"]))
            for base in state["bases"].values():
                for variant in _variants(base, deck):
                    fast = _outcome(base_has_arrangement, variant, deck)
                    slow = _outcome(lambda b, d: has_arrangement(domains(b), d), variant, deck)
                    assert fast == slow, variant
                    answers[fast] = answers.get(fast, 0) + 1
    assert answers[True] > 50 and answers[False] > 50, answers
