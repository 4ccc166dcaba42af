"""Rendering an engine's verdict message — a code with parameters — in a language, at the edge.

Engines stay free of text: a message is ``(code, params)``, e.g.
``("allfours.play.must_follow", {"player": "ana", "suit": "C", "card": "2D"})``.  The ``verdicts``
gettext domain maps each code to its sentence, one catalog per language
(``locales/<lang>/LC_MESSAGES/verdicts.po``; English is a catalog here too, since the msgids
are codes).  Every parameter that holds a game term is rendered through the glossary
(:mod:`referee.i18n.glossary`) in the same language before it goes in — cards (``"2C"`` ->
"the 2 of clubs" / "ကလပ် 2"), suits, Coup characters and actions, stages, phases, answers,
facings…, a list item by item — so no Burmese answer shows a raw identifier;
:mod:`referee.i18n.term_params` says which parameter holds which kind.  Other parameters
(player names, numbers, values the request sent) go in as they are.  The catalogs keep the
grammar of term phrases (``term.card.allfours`` "the {rank} of {suit}", ``term.suit_name``,
``term.list_or``…), the glossary their words.
"""
from __future__ import annotations

import json
import re
from typing import Any, Mapping

from referee.i18n.catalogs import _format, catalog, translations
from referee.i18n.glossary import Term, find_any, lookup
from referee.i18n.term_params import ALTERNATIVES, TERM_PARAMS, kind_of

DOMAIN = "verdicts"

GAME_OF_PREFIX = {"allfours": "all-fours", "coup": "coup", "spy": "spy", "gnoming": "gnoming"}
ALIASES = {"doing": "action"}
"""Kinds that name another kind's terms in another form (Gnoming's ``doing``: the action as
the verb of "cannot … now", English ``en_text`` "turn up a card")."""
_GNOMING_VALUE = re.compile(r"-?\d+")


class UnknownMessage(KeyError):
    """A message code (or term) with no text in the catalog of that language."""


def text(code: str, lang: str) -> str:
    """The catalog text of ``code`` in ``lang``; :class:`UnknownMessage` if it has none."""
    message = catalog(lang, DOMAIN).get(code)
    if message is None or not message.string:
        raise UnknownMessage(f"{code} has no {lang} text")
    return translations(lang, DOMAIN).gettext(code)


def _named(term: Term | None, lang: str, fallback: str) -> str:
    said = term.in_sentence(lang) if term is not None else None
    return fallback if said is None else said


def card_name(game: str, card: str, lang: str) -> str:
    """A card of ``game`` named in ``lang`` (glossary words in the catalog's card phrase):
    All Fours ``"10H"`` -> "the 10 of hearts" / "ဟတ် 10"; Spy ``"top_secret_2"`` -> "Top
    Secret 2"; Gnoming ``"M"`` -> "a Mulligan", ``"-2"`` -> "a -2"; Coup cards are characters;
    ``"unknown"`` -> "an unknown card".  A value that is no card of ``game`` is returned as
    it is."""
    if card == "unknown":
        return _named(lookup(game, "card", card), lang, card)
    if game == "all-fours" and len(card) >= 2:
        rank, suit = card[:-1], lookup(game, "suit", card[-1])
        if suit is None or not (rank in "JQKA" or rank.isdigit()):
            return card
        return _format(text("term.card.allfours", lang), {
            "rank": _named(lookup(game, "rank", rank), lang, rank),
            "suit": suit.in_sentence(lang)})
    if game == "coup":
        return _named(lookup(game, "character", card), lang, card)
    if game == "gnoming" and _GNOMING_VALUE.fullmatch(card):
        return _format(text("term.card.gnoming", lang), {"value": card})
    return _named(lookup(game, "card", card), lang, card)


def term(kind: str, game: str, value: Any, lang: str) -> str:
    """One parameter of kind ``kind`` (:mod:`referee.i18n.term_params`) in ``lang``; a list
    (or a text of identifiers joined by ", " or " or ") becomes a list in ``lang``; a list of
    alternatives ends with "or": "the Captain or the Ambassador", "3 or 4".  A value the
    glossary does not know (a player, what a request sent) is returned as it is."""
    if isinstance(value, (list, tuple)):
        items = [term(kind, game, v, lang) for v in value]
        if kind.removesuffix("_id") in ALTERNATIVES and len(items) > 1:
            items[-2:] = [items[-2] + text("term.list_or", lang) + items[-1]]
        return text("term.list_separator", lang).join(items)
    if kind == "points":
        form = "one" if value == 1 else "other"
        return _format(text(f"term.points.{form}", lang), {"count": str(value)})
    value = str(value)
    if kind == "count" or (kind.endswith("_id") and lang == "en"):
        return value
    for sep, joiner in ((", ", "term.list_separator"), (" or ", "term.list_or")):
        parts = value.split(sep)
        if len(parts) > 1 and all(_known(kind, game, part) for part in parts):
            return text(joiner, lang).join(_one(kind, game, part, lang) for part in parts)
    return _one(kind, game, value, lang)


def _known(kind: str, game: str, value: str) -> bool:
    """True when ``value`` names a term of ``kind`` (so a text of several is a list of them,
    not one value the request sent that happens to hold a comma)."""
    return _one(kind, game, value, "my") != value


def _one(kind: str, game: str, value: str, lang: str) -> str:
    """One identifier (possibly quoted as the request sent it, or a JSON list of them)."""
    if kind.endswith("_id") and lang == "en":
        return value
    kind = ALIASES.get(kind.removesuffix("_id"), kind.removesuffix("_id"))
    ident = _unquoted(value)
    if isinstance(ident, list):
        return term(kind, game, ident, lang)
    if kind == "card":
        return card_name(game, ident, lang)
    if kind == "suit":
        found = lookup(game, "suit", ident)
        return value if found is None else _format(text("term.suit_name", lang), {
            "suit": found.in_sentence(lang)})
    found = lookup(game, kind, ident) if game else find_any(kind, ident)
    return _named(found, lang, value)


def _unquoted(value: str) -> str | list:
    """``'tsss'`` -> ``tsss``, ``["move", "spy"]`` -> a list: how engines quote an identifier
    the request sent (:func:`referee.quoting.quoted`); anything else as it is."""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    if value.startswith("["):
        try:
            items = json.loads(value)
        except ValueError:
            return value
        if isinstance(items, list) and all(isinstance(i, str) for i in items):
            return items
    return value


def render(code: str, params: Mapping[str, Any], lang: str) -> str:
    """The sentence of message ``code`` in ``lang`` with ``params`` filled in (game terms
    through the glossary, :func:`term`; a ``{"code", "params"}`` value is a nested message,
    rendered the same way; any other object or list is written as JSON).  The game is the
    code's first part (``coup.…``).  :class:`UnknownMessage` when the code has no text in
    ``lang``."""
    game = GAME_OF_PREFIX.get(code.split(".", 1)[0], "")
    values = {name: _value(code, name, value, game, lang) for name, value in params.items()}
    sentence = text(code, lang)
    out = _format(sentence, values)
    if starts_with_term(sentence):  # "{action} costs…": "An assassination costs…"
        out = out[:1].upper() + out[1:]
    return out


def _value(code: str, name: str, value: Any, game: str, lang: str) -> str:
    """One parameter's text: a nested message rendered, a game term through the glossary,
    another object or list as compact JSON (``{"ana": 2, "ben": 0}``, never a Python repr),
    the rest as it is."""
    if isinstance(value, dict) and "code" in value and "params" in value:
        return render(value["code"], value["params"], lang)
    kind = kind_of(code, name)
    if kind is not None and not isinstance(value, dict) and not (
            lang == "en" and kind.endswith("_id")):  # English prints the identifier
        return term(kind, game, value, lang)
    if isinstance(value, (dict, list, tuple)):
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return str(value)


def starts_with_term(sentence: str) -> bool:
    """True when ``sentence`` opens with a game-term placeholder (``{action}``, ``{card}``…,
    :data:`~referee.i18n.term_params.TERM_PARAMS`), whose text ("an assassination", "the
    Captain") the sentence must capitalise; a player name or a quoted value (``{player}``,
    ``{given}``) goes in as it is."""
    head = sentence.partition("}")[0][1:]
    return sentence.startswith("{") and not TERM_PARAMS.get(head, "_id").endswith("_id")
