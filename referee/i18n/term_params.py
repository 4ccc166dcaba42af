"""Which message parameters hold game terms, and of which kind (data for
:func:`referee.i18n.verdicts.render`, the one place parameters are rendered).

A parameter name means one kind in every message (:data:`TERM_PARAMS`: ``card`` is a card,
``stage`` a Coup stage) unless :data:`CODE_TERM_PARAMS` says otherwise for one code (``kind``
is an action type in ``spy.turn.order`` but a value the request sent in
``coup.action.unknown_type``).  A parameter of no kind (a player name, a number, a quoted
value the request sent, a field path) goes into the sentence as it is.

Kinds are those of the glossary (``referee/rulebook/glossary/*.yaml``) plus: ``card`` (a card
named as a card: "the 10 of hearts", "ဟတ် 10"), ``points`` (a count of points with its
plural), ``count`` (a bare number, alternatives in a list), ``suit`` (a suit standing alone:
"ဟတ် ဝတ်စုံ"), ``doing`` (a Gnoming action as the verb of "cannot … now").  A kind ending in
``_id`` is printed as the identifier itself in English (the English texts quote the API's
word there: "no turn_round after move") and as the glossary's word in every other language.
"""
from __future__ import annotations

TERM_PARAMS = {
    "card": "card", "cards": "card", "kick": "card", "suit": "suit", "trump": "suit",
    "led": "suit", "character": "character", "characters": "character",
    "claimed": "character", "action": "action", "doing": "doing", "target_points": "points",
    "total_points": "points",
    "counts": "count", "card_name": "card_id", "names": "card_id", "holding": "card_id",
    "stage": "stage_id", "stages": "stage_id", "phase": "phase_id", "phases": "phase_id",
    "facing": "facing_id", "source": "source_id", "modes": "mode_id", "beg": "beg_id",
    "types": "json_id",
}
"""Parameter name -> the kind of term it holds in every message (a list value, or a text
of identifiers joined by ", " or " or ", renders item by item)."""

CODE_TERM_PARAMS = {
    "options.unknown": {"game": "game_id"},
    "options.not_a_choice": {"choices": "option_value_id"},
    "allfours.action.unknown_type": {"known": "action_id"},
    "allfours.snapshot.game": {"game": "game_id"},
    "allfours.snapshot.beg_vs_phase": {"value": "beg_id"},
    "allfours.snapshot.one_kick": {"value": "beg_id"},
    "coup.action.unknown_type": {"known": "action_id"},
    "coup.setup.copies": {"name": "card_id"},
    "coup.snapshot.copies": {"name": "card_id"},
    "coup.snapshot.known_copies": {"name": "card_id"},
    "coup.snapshot.bad_block_claim": {"name": "card_id"},
    "coup.snapshot.record_not_named": {"name": "card_id"},
    "coup.proof.not_a_character": {"name": "card_id"},
    "coup.snapshot.records_too_many": {"place": "place_id"},
    "coup.snapshot.bad_seat_table": {"kind": "seat_value_id"},
    "gnoming.action.no_field": {"kind": "action_id"},
    "spy.action.extra_field": {"kind": "action_id"},
    "spy.action.unknown_type": {"choices": "action_id"},
    "spy.turn.second": {"kind": "action_id"},
    "spy.turn.order": {"kind": "action_id", "last": "action_id"},
    "spy.snapshot.log_turn_order": {"kind": "event_id"},
    "spy.snapshot.log_fields": {"kind": "event_id"},
    "spy.snapshot.log_value": {"kind": "event_id"},
    "spy.snapshot.log_type": {"choices": "event_id", "given": "event_id"},
    "spy.snapshot.replay_done": {"done": "action_id"},
    "spy.answer.unknown": {"choices": "answer_id", "given": "answer_id"},
    "spy.answer.card_missing": {"choices": "card_id", "answer": "answer_id"},
    "spy.answer.card_extra": {"answer": "answer_id"},
    "spy.answer.contradicts_entered": {"answer": "answer_id"},
    "spy.answer.contradicts_public": {"answer": "answer_id"},
    "spy.answer.no_arrangement": {"answer": "answer_id"},
    "spy.snapshot.log_answer_truth": {"given": "answer_id", "expected": "answer_id"},
    "spy.base.facing": {"given": "facing_id"},
    "spy.base.not_a_card": {"choices": "card_id"},
    "spy.options.card_moves_unknown_card": {"choices": "card_id"},
    "spy.setup.colour_not_allowed": {"choices": "colour_id", "given": "colour_id"},
    "spy.setup.colour_two_players": {"choices": "colour_id", "given": "colour_id"},
    "spy.setup.mode": {"given": "mode_id"},
    "spy.snapshot.game": {"given": "game_id"},
}
"""Code -> the parameters whose kind differs from :data:`TERM_PARAMS` there (a value the
request sent is looked up too: a known identifier is named, anything else is quoted as sent)."""

HTTP_TERM_FIELDS = {
    "Must be one of: {choices}.": ("choices", None),
    "Unknown action type {0} for {1}; one of: {2}.": ("2", "1"),
}
"""HTTP-layer texts (the ``messages`` domain, by English template) -> ``(field, game field)``:
the field lists the identifiers a client may send — a marshmallow ``OneOf``'s choices, a game's action types: in
another language they are named by their glossary words when the glossary knows every one
(:func:`referee.i18n.glossary.name_all`), so a Burmese problem says "ဒစ်ဂျစ်တယ်မုဒ်" where the
English lists ``digital``."""

ALTERNATIVES = ("character", "count", "json")
"""Kinds whose list reads as alternatives, ending in "or": "the Captain or the Ambassador"."""


def kind_of(code: str, name: str) -> str | None:
    """The kind of term parameter ``name`` holds in message ``code``, or ``None``."""
    special = CODE_TERM_PARAMS.get(code, {})
    return special[name] if name in special else TERM_PARAMS.get(name)
