"""Spy's action vocabulary, declared once (``shared/rules/spy.md``, Vocabulary): the API's
``ACTION_SCHEMAS`` (``referee/schemas/spy.py``) and the engine's shape check and dispatch
(``judge.py``, ``apply.py``) are derived from it.

Fields besides ``type`` and ``player``.  The engine's shape check refuses an unknown type or
field (SPY-T1) and a sender who is no player (SPY-S1); the values are judged by the rules,
which cite their own: steps SPY-M1, a target SPY-P1, an answer SPY-R2.
"""
from __future__ import annotations

from referee.games.common.vocabulary import ActionSpec, FieldSpec, Phrase, ShapeWords, Vocabulary
from referee.games.spy.rules import short_repr

ACTIONS = (
    ActionSpec("turn_round", "Turn your Spy round, before or after the move (SPY-M4)."),
    ActionSpec("move", "Move your Spy exactly the number of the card it faces; 1 or 2 facing an "
               "exposed card (SPY-M1, M2).  In table mode, the declared number.",
               {"steps": FieldSpec("int", required=True)}),
    ActionSpec("spy", "Spy on the mirror card of an opponent still in (SPY-P1).",
               {"target": FieldSpec("player", required=True)}),
    ActionSpec("end_turn", "End the turn without spying (SPY-T1)."),
    ActionSpec("answer", "Table mode: the defender's answer (safe, top_secret, exposed + card, "
               "tsss, lit_bomb + card, already_exposed; SPY-R2…R6).",
               {"answer": FieldSpec("str", required=True), "card": FieldSpec("str")}),
)

VOCABULARY = Vocabulary(ACTIONS, ShapeWords(
    not_object=Phrase("SPY-T1", "spy.action.not_object"),
    unknown_type=Phrase("SPY-T1", "spy.action.unknown_type",
                        {"given": "value", "choices": "known"}),
    not_a_player=Phrase("SPY-S1", "spy.player.unknown", {"given": "value", "players": "players"}),
    unknown_field=Phrase("SPY-T1", "spy.action.extra_field", {"kind": "type", "given": "key"}),
    quote=short_repr))
"""A turn's actions (SPY-T1) and the table-mode defender's answer (SPY-P2)."""
