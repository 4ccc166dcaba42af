"""Rendering an engine's verdict message — a code with parameters — in a language, at the edge.

Engines stay free of text: a message is ``(code, params)``, e.g.
``("allfours.play.must_follow", {"player": "ana", "suit": "C", "card": "2D"})``.  The ``verdicts``
gettext domain maps each code to its sentence, one catalog per language
(``locales/<lang>/LC_MESSAGES/verdicts.po``; English is a catalog here too, since the msgids
are codes).  Parameters that are game terms are rendered in the same language before they go in
(:data:`TERM_PARAMS`): cards (``"2C"`` -> "the 2 of clubs" / "ကလပ် 2"), suits, Coup
characters, action types; ``cards`` may be a list.  Other parameters (player names, numbers)
go in as they are.  Term texts are codes of the same catalogs (``term.suit.C``,
``term.card.allfours``, ``term.rank.J``, ``term.character.duchess``, ``term.spy.safe_1``,
``term.gnoming.M``, ``term.action.income``…).
"""
from __future__ import annotations

import json
from typing import Any, Mapping

from referee.i18n.catalogs import _format, catalog, translations

DOMAIN = "verdicts"

TERM_PARAMS = {"card": "card", "cards": "card", "kick": "card", "suit": "suit",
               "trump": "suit", "led": "suit", "character": "character",
               "characters": "character", "claimed": "character", "action": "action",
               "doing": "doing", "target_points": "points", "counts": "count"}
"""Parameter name -> the kind of game term it holds (a list value renders item by item).
``points`` is a count of points with its plural: 1 -> "1 point", 14 -> "14 points"
(``term.points.one`` / ``term.points.other``, ``{count}``); ``count`` a bare number, whose
list reads as alternatives: ``[3, 4]`` -> "3 or 4"."""

GAME_OF_PREFIX = {"allfours": "all-fours", "coup": "coup", "spy": "spy", "gnoming": "gnoming"}


class UnknownMessage(KeyError):
    """A message code (or term) with no text in the catalog of that language."""


def text(code: str, lang: str) -> str:
    """The catalog text of ``code`` in ``lang``; :class:`UnknownMessage` if it has none."""
    message = catalog(lang, DOMAIN).get(code)
    if message is None or not message.string:
        raise UnknownMessage(f"{code} has no {lang} text")
    return translations(lang, DOMAIN).gettext(code)


def card_name(game: str, card: str, lang: str) -> str:
    """A card of ``game`` named in ``lang``: All Fours ``"10H"`` -> "the 10 of hearts";
    Spy ``"top_secret_2"`` -> "Top Secret 2"; Gnoming ``"M"`` -> "a Mulligan", ``"-2"`` ->
    "a −2"; Coup cards are characters; ``"unknown"`` -> "an unknown card"."""
    if card == "unknown":
        return text("term.unknown", lang)
    if game == "all-fours":
        rank, suit = card[:-1], card[-1]
        rank_text = text(f"term.rank.{rank}", lang) if rank in "JQKA" else rank
        return _format(text("term.card.allfours", lang),
                       {"rank": rank_text, "suit": text(f"term.suit.{suit}", lang)})
    if game == "coup":
        return text(f"term.character.{card}", lang)
    if game == "spy":
        return text(f"term.spy.{card}", lang)
    if card in ("M", "H"):
        return text(f"term.gnoming.{card}", lang)
    return _format(text("term.card.gnoming", lang), {"value": card})


def term(kind: str, game: str, value: Any, lang: str) -> str:
    """One parameter of kind ``kind`` (:data:`TERM_PARAMS`) in ``lang``; a list becomes a
    comma-separated list; a list of alternatives (Coup characters, the claims that would do;
    counts) ends with "or": "the Captain or the Ambassador", "3 or 4"."""
    if isinstance(value, (list, tuple)):
        items = [term(kind, game, v, lang) for v in value]
        if kind in ("character", "count") and len(items) > 1:
            items[-2:] = [items[-2] + text("term.list_or", lang) + items[-1]]
        return text("term.list_separator", lang).join(items)
    if kind == "points":
        form = "one" if value == 1 else "other"
        return _format(text(f"term.points.{form}", lang), {"count": str(value)})
    value = str(value)
    if kind == "count":
        return value
    if kind == "card":
        return card_name(game, value, lang)
    if kind == "suit":
        return text(f"term.suit_name.{value}", lang)
    return text(f"term.{kind}.{value}", lang)


def render(code: str, params: Mapping[str, Any], lang: str) -> str:
    """The sentence of message ``code`` in ``lang`` with ``params`` filled in (game terms
    translated: :data:`TERM_PARAMS`; a ``{"code", "params"}`` value is a nested message,
    rendered the same way; any other object or list is written as JSON).  The game is the code's first part (``coup.…``).
    :class:`UnknownMessage` when the code or a term has no text in ``lang``."""
    game = GAME_OF_PREFIX.get(code.split(".", 1)[0], "")
    values = {name: _value(name, value, game, lang) for name, value in params.items()}
    sentence = text(code, lang)
    out = _format(sentence, values)
    if starts_with_term(sentence):  # "{action} costs…": "An assassination costs…"
        out = out[:1].upper() + out[1:]
    return out


def _value(name: str, value: Any, game: str, lang: str) -> str:
    """One parameter's text: a nested message rendered, a game term translated, another
    object or list as compact JSON (``{"ana": 2, "ben": 0}``, never a Python repr), the rest
    as it is."""
    if isinstance(value, dict) and "code" in value and "params" in value:
        return render(value["code"], value["params"], lang)
    if name in TERM_PARAMS:
        return term(TERM_PARAMS[name], game, value, lang)
    if isinstance(value, (dict, list, tuple)):
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return str(value)


def starts_with_term(sentence: str) -> bool:
    """True when ``sentence`` opens with a game-term placeholder (``{action}``, ``{card}``…,
    :data:`TERM_PARAMS`), whose text ("an assassination", "the Captain") the sentence must
    capitalise; a player name or a quoted value (``{player}``, ``{given}``) goes in as it is."""
    head = sentence.partition("}")[0]
    return sentence.startswith("{") and head[1:] in TERM_PARAMS
