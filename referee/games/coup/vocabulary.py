"""Coup's action vocabulary, declared once (``shared/rules/coup.md``, "Vocabulary"): the API's
``ACTION_SCHEMAS`` (``referee/schemas/coup.py``) and the engine's shape check and dispatch
(``judge.py``) are derived from it.

Fields besides ``type`` and ``player``; a wrong shape cites the action's own rule (the rule
that defines it), a sender who is no player COUP-S1.  Characters are only strings here: a name
that is no character of this game is refused by the rules (COUP-S2, B2).
"""
from __future__ import annotations

from referee.games.common.vocabulary import (HOST, ActionSpec, FieldSpec, Phrase, ShapeWords,
                                             Vocabulary)

_TARGET = {"target": FieldSpec("player", required=True)}

TURN = (
    ActionSpec("income", "Take 1 coin (COUP-A1).", rule="COUP-A1"),
    ActionSpec("foreign_aid", "Take 2 coins; the Duchess blocks it (COUP-A2).", rule="COUP-A2"),
    ActionSpec("coup", "Pay 7: the target loses one influence (COUP-A3).", _TARGET,
               rule="COUP-A3"),
    ActionSpec("tax", "Duchess: take 3 coins (COUP-A4).", rule="COUP-A4"),
    ActionSpec("assassinate", "Assassin: pay 3, the target loses one influence (COUP-A5).",
               _TARGET, rule="COUP-A5"),
    ActionSpec("steal", "Captain: take 2 coins from the target (COUP-A6).", _TARGET,
               rule="COUP-A6"),
    ActionSpec("exchange", "Ambassador (COUP-A7) or Inquisitor (COUP-A8a) exchange.",
               rule="COUP-A7"),
    ActionSpec("examine", "Inquisitor: look at one of the target's cards (COUP-A8b).", _TARGET,
               rule="COUP-A8b"),
)
"""COUP-T1: the actions a player may declare on their turn, each with the rule defining it."""

ANSWERS = (
    ActionSpec("challenge", "Challenge the open claim (COUP-C1).", rule="COUP-C1"),
    ActionSpec("pass", "Decline to challenge or block in the open window (COUP-W1).",
               rule="COUP-W1"),
    ActionSpec("concede", "Answer a challenge by not proving (COUP-C2, C3).", rule="COUP-C2"),
    ActionSpec("close_window", f"The host ({HOST!r}) closes the open window: whoever has not "
               "acted passes (COUP-W1).", rule="COUP-W1", sender=HOST),
    ActionSpec("block", "Block by claiming a character (COUP-B1).",
               {"character": FieldSpec("character", required=True)}, rule="COUP-B1"),
    ActionSpec("prove", "Reveal the claimed character (COUP-C2, C4); card required in table "
               "mode.", {"card": FieldSpec("character")}, rule="COUP-C2"),
    ActionSpec("lose_influence", "Turn up one face-down card (COUP-L1).",
               {"card": FieldSpec("character", required=True)}, rule="COUP-L1"),
    ActionSpec("return_cards", "Return the exchange's cards to the court deck (COUP-A7, A8a).",
               {"cards": FieldSpec("cards", required=True, items="card_or_unknown",
                                   length=(0, 8))}, rule="COUP-A7"),
    ActionSpec("show_card", "Show one face-down card to the Inquisitor (COUP-A8b).",
               {"card": FieldSpec("card_or_unknown", required=True)}, rule="COUP-A8b"),
    ActionSpec("examine_decide", "Give the examined card back or have it swapped (COUP-A8b).",
               {"swap": FieldSpec("bool", required=True)}, rule="COUP-A8b"),
    ActionSpec("choose_card", "2 players: choose the second card from your pile (COUP-S5).",
               {"card": FieldSpec("card_or_unknown", required=True)}, rule="COUP-S5"),
)
"""Every other action: answers in a window, proofs, choices (COUP-W1, C1–C4, B1, L1, A7, A8,
S5)."""

VOCABULARY = Vocabulary(TURN + ANSWERS, ShapeWords(
    not_object=Phrase("COUP-T1", "coup.action.not_an_object"),
    unknown_type=Phrase("COUP-T1", "coup.action.unknown_type",
                        {"kind": "value", "known": "known"}),
    not_a_player=Phrase("COUP-S1", "coup.action.not_a_player", {"player": "value"}),
    not_host=Phrase("COUP-W1", "coup.action.close_window_by_host", {"host": "host"}),
    unknown_field=Phrase(None, "coup.action.unknown_field", {"action": "type", "key": "key"}),
    bad_value=Phrase(None, "coup.action.field_type",
                     {"action": "type", "key": "key", "types": "types"})))

TURN_ACTIONS = tuple(spec.type for spec in TURN)
"""COUP-T1: the actions a player may declare on their turn."""
TARGETED = tuple(spec.type for spec in TURN if "target" in spec.fields)
"""COUP-A9: actions that name a ``target``."""
ACTION_RULES = {spec.type: spec.rule for spec in TURN}
"""The rule that defines each turn action."""
TYPE_RULES = {spec.type: spec.rule for spec in VOCABULARY.actions}
"""The rule each action type's wrong shape cites (an exchange's return: see
``cards.exchange_return_rule``)."""
