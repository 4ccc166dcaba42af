"""The one-pass card tests of a Gnoming snapshot (issue 11) give the per-card tests' verdict:
``card_sets.all_in(CARD_NAMES, row)`` (a finished round's layout rows, GN-C1) is
``all(is_card(card) ...)``
and ``snapshot._card_list`` (the draw pile, the discard piles, the held card) answers the
cards and flags the problems its per-card pass does — on the rows and piles of states of
seeded random games, each card replaced in turn by near misses (``"unknown"``, other games'
codes, other types, unhashable values)."""
from __future__ import annotations

import pytest

from bench.payloads import playout, setup_body
from referee.games.base import Problems
from referee.games.gnoming import snapshot
from referee.games.common.card_sets import all_in
from referee.games.gnoming.rules import CARD_NAMES, is_card

NEAR_MISSES = ("unknown", "9", "0", "-5", "m", "H ", "", 3, -1, None, True, 1.5, ["3"],
               {"card": "3"})


def _lists(state: dict) -> list[list]:
    """The card lists of ``state``: its piles, its layouts' and its finished rounds' rows."""
    rows = [[cell["card"] for cell in row] for grid in state["layouts"].values()
            for row in grid]
    rows += [row for record in state["history"] for grid in record["layouts"].values()
             for row in grid]
    return [state["draw_pile"], *state["discard_piles"], *rows]


def _variants(cards: list):
    yield cards
    for i in range(len(cards)):
        for value in NEAR_MISSES + (cards[i - 1],):
            yield cards[:i] + [value] + cards[i + 1:]


def _per_card(cards: list, unknown_ok: bool) -> tuple[list, list]:
    """What ``_card_list`` answered before its one-pass test: each entry tested in turn."""
    allowed = snapshot.CARD_OR_UNKNOWN if unknown_ok else snapshot.CARD_NAMES
    problems = Problems()
    for i, card in enumerate(cards):
        if not (type(card) is str and card in allowed):
            problems.flag("GN-C1", "gnoming.snapshot.not_a_card", f"x[{i}]", at="x", i=i,
                          entered=repr(card))
    return [c for c in cards if type(c) is str and c in allowed], problems.items


@pytest.mark.parametrize("mode", ["digital", "table"])
def test_gn_c1_the_one_pass_card_tests_agree_with_the_per_card_tests(mode):
    verdicts = {True: 0, False: 0}
    for seed in range(2):
        _, steps = playout("gnoming", seed, limit=300, setup={**setup_body("gnoming"),
                                                              "mode": mode})
        for state, _ in steps[::75]:
            for cards in _lists(state):
                for variant in _variants(cards):
                    fine = all_in(CARD_NAMES, variant)
                    assert fine == all(is_card(c) for c in variant), variant
                    verdicts[fine] += 1
                    for unknown_ok in (False, True):
                        problems = Problems()
                        got = snapshot._card_list(variant, "x", unknown_ok, problems)
                        assert (got, problems.items) == _per_card(variant, unknown_ok), variant
    assert verdicts[True] > 100 and verdicts[False] > 1000, verdicts
