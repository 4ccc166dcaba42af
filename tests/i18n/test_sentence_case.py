"""Every English verdict is a sentence that starts with a capital letter (F7): its text opens
with a capital, a placeholder, or a field or action name quoted as it is sent (``mode must
be…``, ``state.turn.player…``, ``close_window is sent by…``); a text opening with a game term
(``{action}`` -> "an assassination") is capitalised when it is rendered."""
from __future__ import annotations

import re

import pytest

from referee.i18n.catalogs import catalog
from referee.i18n.verdicts import render, starts_with_term

FIELD_STARTS = frozenset({
    "answer", "bases", "c", "candidates", "cards", "close_window", "colours", "deal", "dealt",
    "declared", "done", "eliminated", "examine", "exposed", "facing", "first_player", "game",
    "last_hand", "lit", "log", "mode", "options", "phase", "pile", "players", "position",
    "score_before", "scored_hands", "seed", "sides", "source", "spy_gap", "state", "steps", "trump", "turn",
    "went_out", "winner"})
"""Field and action names a verdict may open with, lower-case as the client sends them
(``c{position}`` is Spy's position ``c3``)."""


def bad_start(text: str) -> bool:
    """True when ``text`` opens with a lower-case word that is no field or action name."""
    if not text or text[0] == "{" or not text[0].islower():
        return False
    word = re.match(r"[a-z_]+", text)
    return word is None or word.group() not in FIELD_STARTS


def test_every_english_verdict_starts_with_a_capital_a_placeholder_or_a_field_name():
    sentences = {m.id: m.string for m in catalog("en", "verdicts")
                 if m.id and not m.id.startswith("term.")}  # terms are parts of sentences
    assert len(sentences) > 500
    assert [code for code, text in sentences.items() if bad_start(text)] == []


def test_the_start_check_can_fail():
    assert bad_start("an assassination costs 3 coins; ana has 2.")
    assert bad_start("every card is played once.")
    assert not bad_start("mode must be digital or table.")
    assert not bad_start("{player} has no card.") and not bad_start("Trick 1 is short.")


@pytest.mark.parametrize("code, params, sentence", [
    # COUP-A2 (the Assassin's 3 coins): the tester's example, now a capitalised sentence
    ("coup.declare.too_few_coins", {"action": "assassinate", "cost": 3, "player": "ana",
                                    "coins": 2}, "An assassination costs 3 coins; ana has 2."),
    ("coup.block.wrong_character", {"character": "captain", "action": "steal",
                                    "characters": ["ambassador", "captain"]},
     "The Captain cannot block a steal; only the Ambassador or the Captain can."),
    ("coup.challenge.not_claimed", {"action": "income"},
     "Income claims no character, so it cannot be challenged."),
    ("coup.proof.wrong_card", {"card": "duchess", "character": "captain"},
     "The Duchess proves nothing: the claim was the Captain."),
])
def test_a_verdict_opening_with_a_game_term_is_capitalised(code, params, sentence):
    assert render(code, params, "en") == sentence


def test_a_player_name_or_value_at_the_start_goes_in_as_it_is():
    # a name is the player's own spelling: "ana" stays "ana" (only game terms are capitalised)
    assert not starts_with_term("{player} has no card.") and starts_with_term("{action} x")
    english = {m.id: m.string for m in catalog("en", "verdicts") if m.id}
    code = next(c for c, t in english.items() if t.startswith("{player} ") and "{" not in
                t[len("{player}"):])
    assert render(code, {"player": "ana"}, "en").startswith("ana ")
