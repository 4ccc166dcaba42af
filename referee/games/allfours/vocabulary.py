"""All Fours' action vocabulary, declared once (``shared/rules/allfours.md``, Vocabulary): the
API's ``ACTION_SCHEMAS`` (``referee/schemas/allfours.py``) and the engine's shape check and
dispatch (``judge.py``) are derived from it.

Fields besides ``type`` and ``player``.  The engine's shape check refuses an unknown type
(AF-VOCAB) and a sender who is no player (AF-D1); a card's value is judged by the action's
rules (AF-D1 for a name that is no card, after what forbids the action itself).
"""
from __future__ import annotations

from referee.games.common.vocabulary import ActionSpec, FieldSpec, Phrase, ShapeWords, Vocabulary

_CARD = {"card": FieldSpec("card", required=True)}

ACTIONS = (
    ActionSpec("deal", "The dealer deals the next hand (AF-D2, D3); in table mode with the "
               "card kicked.", {"kick": FieldSpec("card")}),
    ActionSpec("stand", "The player on the dealer's right plays on with this trump (AF-B1)."),
    ActionSpec("beg", "The player on the dealer's right begs (AF-B1)."),
    ActionSpec("give_one", "The dealer gives one point to the beggar's side (AF-B2)."),
    ActionSpec("run_pack", "The dealer runs the pack (AF-B3); in table mode with the kicks "
               "turned, in order.", {"kicks": FieldSpec("cards", items="card", length=(1, 5))}),
    ActionSpec("play", "Play a card to the current trick (AF-P1…P5).", _CARD),
    ActionSpec("call", "Call an opponent's exposed card to this trick (AF-P6).", _CARD),
    ActionSpec("expose", "Table mode: record a card shown out of turn (AF-P6).", _CARD),
    ActionSpec("misdeal", "Table mode: a wrong number of cards was dealt (AF-I2)."),
)

VOCABULARY = Vocabulary(ACTIONS, ShapeWords(
    unknown_type=Phrase("AF-VOCAB", "allfours.action.unknown_type",
                        {"value": "value", "known": "known"}),
    not_a_player=Phrase("AF-D1", "allfours.action.not_a_player", {"value": "value"})))
"""The nine actions of a hand: deal, begging (AF-B1–B3), play (AF-P1–P6), misdeal (AF-I2)."""
