"""The one-pass test of a Spy log entry (``spy/log.py``'s ``_fits``, issue 11) passes exactly
the entries the per-field check (``_entry_problem``) finds nothing wrong with: every entry of
seeded games of 2–4 players in both modes, each of its fields mutated (wrong type, out of
range, another field's value, removed, added, an unhashable value) and each field set to each
value of a pool of near misses (``True`` for 1, ``1.0``, the base's size, a name of the wrong
kind)."""
from __future__ import annotations

import pytest

from referee.games.base import Problems
from referee.games.spy.log import _entry_problem, _fits, _specs
from referee.games.spy.rules import base_cards
from tests.snapshot_mutations import mutations
from tests.spy.random_play import play

NEAR_MISSES = (True, False, 0, 1, 2, -1, 1.0, None, [], {}, [1], "ana", "zz", "left", "right",
               "exposed", "lit_bomb", "safe", "safe_1", "bomb_2", "SPY-R5", "SPY-R7",
               "SPY-E2", "turn", "move")


def _variants(entry: dict, size: int):
    """``entry``, its mutations, each field set to each near miss and to the edges of the
    base, the ``card`` field added and removed, the type swapped for every other."""
    yield entry
    for mutation in mutations(entry):
        yield mutation.applied(entry)
    for key in entry:
        for value in NEAR_MISSES + (size - 1, size, size + 1):
            yield {**entry, key: value}
    yield {**entry, "card": "safe_1"}
    yield {k: v for k, v in entry.items() if k != "card"}
    for kind in ("turn_round", "move", "spy", "answer", "eliminated", "game_over", "turn"):
        yield {**entry, "type": kind}


@pytest.mark.parametrize("mode", ["digital", "table"])
def test_spy_s2_the_fast_entry_check_agrees_with_the_per_field_check(mode):
    verdicts = {True: 0, False: 0}
    for seed in range(6):
        steps = list(play(seed, mode))
        state = steps[-1].new
        players = state["players"]
        specs = _specs(tuple(players), len(base_cards(len(players))))
        for entry in state["log"]:
            for variant in _variants(entry, len(base_cards(len(players)))):
                fits = _fits(variant, specs)
                flagged = _entry_problem(state, variant, 0, Problems())
                assert fits is not flagged, (players, variant)
                verdicts[fits] += 1
    assert verdicts[True] > 100 and verdicts[False] > 1000, verdicts
