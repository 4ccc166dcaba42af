"""Gnoming A Round's action vocabulary, declared once (``shared/rules/gnoming.md``,
Vocabulary): the API's ``ACTION_SCHEMAS`` (``referee/schemas/gnoming.py``) and the engine's
shape check and dispatch (``judge.py``) are derived from it.

Fields besides ``type`` and ``player``; each wrong value cites its own rule: a position or a
pile GN-S1, a draw's source GN-T1, a card GN-C1.  In table mode (GN-X1) a card turned up is
entered with ``card``; the rules say when it must be sent.
"""
from __future__ import annotations

from referee.games.common.vocabulary import (KINDS, ActionSpec, FieldSpec, Kind, Phrase,
                                             ShapeWords, Vocabulary)
from referee.games.gnoming.rules import CARDS_TEXT, is_card, is_position

_POSITION = FieldSpec("position", required=True, refusal=Phrase(
    "GN-S1", "gnoming.action.bad_position", {"position": "value"}))
_PILE = FieldSpec("pile", refusal=Phrase("GN-S1", "gnoming.action.bad_pile", {"pile": "value"}))
_CARD = FieldSpec("card", refusal=Phrase("GN-C1", "gnoming.action.not_a_card",
                                         {"entered": "value"}, {"cards_text": CARDS_TEXT}))
_SOURCE = FieldSpec("choice", required=True, choices=("draw_pile", "discard"), refusal=Phrase(
    "GN-T1", "gnoming.action.bad_source", {"source": "value"}))

ACTIONS = (
    ActionSpec("flip", "Turn up a face-down card of one's layout: the two before play (GN-S2), "
               "one for a Hazard (GN-D1), or (table mode) at the end of the round (GN-E2).  "
               "Table mode: with the card turned up.",
               {"position": _POSITION, "card": _CARD}),
    ActionSpec("draw", "Draw the top card of the draw pile or of discard pile 0/1 (GN-T1).  "
               "Table mode: a card from the draw pile is entered with card.",
               {"source": _SOURCE, "pile": _PILE, "card": _CARD}),
    ActionSpec("place", "Put the held card face up at position (GN-T2); a bounce is a further "
               "place (GN-B1).  Table mode: onto a face-down card, with the card it replaces.",
               {"position": _POSITION, "card": _CARD}),
    ActionSpec("discard", "Discard the held card onto pile 0/1 (GN-T3); a Hazard takes no pile "
               "(GN-D2).  Table mode: with card, the top of the draw pile turned up to start "
               "(GN-S1) or restart (GN-D4) an empty pile.",
               {"pile": _PILE, "card": _CARD}),
)

VOCABULARY = Vocabulary(ACTIONS, ShapeWords(
    not_object=Phrase("GN-T1", "gnoming.action.not_object"),
    unknown_type=Phrase("GN-T1", "gnoming.action.unknown_type", {"kind": "value"}),
    not_a_player=Phrase("GN-C2", "gnoming.action.not_a_player",
                        {"player": "value", "players": "players"}),
    unknown_field=Phrase("GN-T1", "gnoming.action.no_field", {"kind": "type", "key": "key"})),
    kinds={**KINDS, "card": Kind((str,), is_card), "position": Kind((list, tuple), is_position),
           "pile": Kind((int,), lambda pile: pile in (0, 1))})
"""The four actions; a position is ``[row, col]`` (0–2), a pile 0 or 1, a card of GN-C1."""
