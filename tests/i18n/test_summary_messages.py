"""Every message of the match view's envelope (issue 22: ``awaiting``, the outcome's ``reason``)
has its sentence in every language: each state of seeded random games of every game and mode
is summarised and rendered in English and Burmese (a code without a text in a language raises
``UnknownMessage``; a parameter left unfilled shows as ``{name}``), and the games are played to
their end so the outcomes are met too."""
from __future__ import annotations

import random

import pytest

from referee.games.base import MODES
from referee.i18n import LANGUAGES
from referee.i18n.answers import localize_summary
from referee.i18n.catalogs import catalog
from referee.i18n.verdicts import render
from referee.registry import GAMES
from tests.test_conformance import _body

CASES = [(game, mode) for game in sorted(GAMES) for mode in MODES]


def _codes_met(game: str, mode: str) -> set[str]:
    engine, met = GAMES[game].engine, set()
    for seed in range(3):
        state, rng = engine.setup(_body(GAMES[game], GAMES[game].player_counts()[-1], mode),
                                  seed), random.Random(seed)
        while True:
            summary = engine.summary(state, None)
            for lang in LANGUAGES:
                told = localize_summary(summary, lang)
                assert "{" not in told["awaiting"], (lang, told["awaiting"])
                if told["outcome"]:
                    assert "{" not in told["outcome"]["reason"]["message"]
            met.add(summary["awaiting"]["code"])
            if summary["outcome"]:
                met.add(summary["outcome"]["reason"]["code"])
            if engine.is_over(state):
                break
            state, _ = engine.apply(state, rng.choice(engine.legal_actions(state)))
    return met


@pytest.mark.parametrize("game, mode", CASES)
def test_every_awaiting_and_outcome_renders_in_every_language(game, mode):
    met = _codes_met(game, mode)
    assert any(".outcome." in c or ".game_over." in c for c in met)  # the games ended
    assert len(met) >= 3


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_service_s_own_envelope_texts_are_in_every_catalog(lang):
    """The rollback-pending sentence and the generic texts of a game without a summary."""
    known = {m.id for m in catalog(lang, "verdicts") if m.id and m.string}
    for code in ("match.now.rollback", "game.now.to_move", "game.now.over",
                 "game.outcome.over"):
        assert code in known
    assert "4" in render("match.now.rollback", {"to_version": 4}, lang)
