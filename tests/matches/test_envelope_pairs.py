"""The envelope leaks nothing (issue 22 item 1; AF views, COUP-V1, GN-V1, SPY-S2): two matches
that differ only in cards hidden from a reader give that reader identical envelopes — phase,
to_move, awaiting, score (no score of a hidden hand), outcome — and identical answers, in
every game and both modes, early in the game and once it is over.

The pairs are made as in ``test_information_sets.py``: a state of a seeded random game and the
same state with the cards hidden from the reader dealt round again (``scrambled``), each
written into a match of its own.  ``test_the_pair_check_catches_a_score_of_a_hidden_hand``
proves the comparison can fail.
"""
from __future__ import annotations

import random

import pytest

from referee.games.base import MODES
from referee.registry import GAMES
from tests.conformance_checks import scrambled
from tests.matches.test_information_sets import _match_with, _random_state

ENVELOPE = ("phase", "to_move", "awaiting", "awaiting_message", "score", "outcome", "over")
CASES = [(game, mode) for game in sorted(GAMES) for mode in MODES]


def _final_state(game: str, mode: str, rng: random.Random) -> dict:
    """The end of a seeded random game."""
    engine = GAMES[game].engine
    state = _random_state(game, mode, GAMES[game].player_counts()[0], rng)
    while not engine.is_over(state):
        state, _ = engine.apply(state, rng.choice(engine.legal_actions(state)))
    return state


def _answer(match, reader: str) -> dict:
    """The reader's match view, the match's own id and commitment left out."""
    seen = match.read(reader)
    return {k: v for k, v in seen.items() if k not in ("id", "commitment")}


def pairs_agree(client, table, game: str, mode: str, rng: random.Random) -> int:
    """Compare the envelopes of pairs of matches; return how many pairs differed in a card."""
    engine, differed = GAMES[game].engine, 0
    for first in (_random_state(game, mode, GAMES[game].player_counts()[0], rng),
                  _final_state(game, mode, rng)):
        for reader in first["players"]:
            second, moved = scrambled(engine, first, reader)
            differed += moved > 0
            one, two = (_match_with(client, table, game, s, 3) for s in (first, second))
            mine, theirs = _answer(one, reader), _answer(two, reader)
            assert {k: mine[k] for k in ENVELOPE} == {k: theirs[k] for k in ENVELOPE}, (
                game, mode, reader)
            assert mine == theirs, (game, mode, reader)
    return differed


@pytest.mark.parametrize("game, mode", CASES)
def test_two_matches_differing_in_hidden_cards_give_a_reader_the_same_envelope(
        client, table, game, mode):
    differed = pairs_agree(client, table, game, mode, random.Random(f"{game}:{mode}"))
    if mode == "digital":  # the service knows every card: the pairs really differed
        assert differed > 0


def test_the_pair_check_catches_a_score_of_a_hidden_hand(client, table, monkeypatch):
    """Proof the comparison can fail: an All Fours score that counted the trumps in every
    hand (a hidden hand's score) is caught."""
    from referee.games.allfours import summary
    real = summary._score

    def leaky(state):
        told = real(state)
        told["breakdown"]["trumps_held"] = {
            p: sum(c[-1] == state["trump"] for c in h) for p, h in state["hands"].items()}
        return told
    monkeypatch.setattr(summary, "_score", leaky)
    with pytest.raises(AssertionError, match="all-fours"):
        pairs_agree(client, table, "all-fours", "digital", random.Random("leak"))
