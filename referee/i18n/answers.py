"""Texts of an answer rendered in the negotiated language, at the edge.

- :func:`localize_problem`: a problem body's ``title``, ``detail`` and field ``message``s;
- :func:`localize_view`: a game view's ``awaiting`` message (``{"code", "params"}``, Coup)
  as its sentence, the message kept as ``awaiting_message``;
- :func:`localize_summary`: a match view envelope's messages (issue 22): ``awaiting`` as its
  sentence (the message kept as ``awaiting_message``), the outcome's ``reason`` with its
  ``message``;
- :func:`localize_event`: an event's messages (a field holding ``{"code", "params"}``, e.g.
  All Fours' ``game_over`` ``reason``) as sentences, each message kept as ``<field>_message``;
- :func:`localize_game`: a game's description (``GET /v1/games``): its title from the
  rulebook, each option's ``description`` from the catalog (``game.<game>.option.<key>``);
- :func:`violation_answer`: one engine :class:`~referee.games.base.Violation` as the API shows
  it, ``{"rule", "title", "code", "message", "field"?}`` — ``title`` is the rule's title from
  the rulebook, ``message`` the sentence of ``code`` rendered in the reader's language by
  :func:`referee.i18n.verdicts.render`, its parameters bounded first (a quoted value to 64
  characters, a list of places to 10: :func:`bounded_params`).
  This is the one place a violation becomes JSON;
- :func:`bounded_params`, :data:`TEXT_CHARS`, :data:`LISTED_ITEMS`: the bounds of an answer's
  texts, shared with the problem bounds of the HTTP layer (:mod:`referee.api.problem_bounds`).
"""
from __future__ import annotations

from typing import Any, Callable

from referee.games.common.quoting import QUOTE_CHARS, clip
from referee.i18n import DEFAULT
from referee.i18n.catalogs import translate
from referee.i18n.negotiation import language
from referee.i18n.verdicts import UnknownMessage, render, text
from referee.rulebook import book, find

LISTED_ITEMS = 10
"""A list inside a sentence names at most this many items."""
TEXT_CHARS = {"detail": 1024, "message": 512, "field": 256, "title": 256, "instance": 256}
"""The longest each text member of a problem may be (characters)."""


def bounded_params(params: dict[str, Any], more: Callable[[int], str]) -> dict[str, Any]:
    """``params`` of a verdict message with each string clipped (:func:`clip`); a string that
    is a comma-separated list of more than :data:`LISTED_ITEMS` items keeps the first ones
    and ends with ``more(n)`` ("… and 3990 more"); lists and tuples likewise."""
    out = {}
    for name, value in params.items():
        if isinstance(value, str):
            parts = value.split(", ")
            if len(parts) > LISTED_ITEMS:
                value = ", ".join([clip(p) for p in parts[:LISTED_ITEMS]]
                                  + [more(len(parts) - LISTED_ITEMS)])
            else:
                value = ", ".join(clip(p) for p in parts) if len(value) > QUOTE_CHARS else value
        elif isinstance(value, (list, tuple)) and len(value) > LISTED_ITEMS:
            value = [*value[:LISTED_ITEMS]]  # term lists: cards, characters (few by nature)
        out[name] = value
    return out


def localize_problem(body: dict[str, Any]) -> dict[str, Any]:
    """``body`` with its texts in the request's language (English bodies are returned as they
    are; the caller's ``errors`` dicts are never modified)."""
    lang = language()
    if lang == DEFAULT:
        return body
    body["title"] = translate(body["title"], lang)
    if isinstance(body.get("detail"), str):
        body["detail"] = translate(body["detail"], lang)
    if body.get("errors"):
        body["errors"] = [{**e, "message": translate(e["message"], lang)}
                          if isinstance(e.get("message"), str) else e for e in body["errors"]]
    return body


def violation_answer(violation, lang: str | None = None) -> dict[str, Any]:
    """``{"rule", "title"?, "code"?, "message", "field"?}`` of one violation; ``title`` (in ``lang``,
    default the request's) whenever the rulebook has the rule (pseudo-rules such as
    ``OPTIONS`` have none)."""
    lang = lang or language()
    data: dict[str, Any] = {"rule": violation.rule}
    rule = find(violation.rule)
    if rule is not None:
        data["title"] = rule.title[lang]
    if violation.code is not None:
        data["code"] = violation.code
        params = bounded_params(violation.params, lambda n: render(
            "term.list_more", {"count": n}, lang))
        data["message"] = render(violation.code, params, lang)
    else:
        data["message"] = clip(violation.text, TEXT_CHARS["message"])
    if violation.field is not None:
        data["field"] = violation.field
    return data


def localize_view(view: dict[str, Any], lang: str | None = None) -> dict[str, Any]:
    """``view`` as served: an ``awaiting`` message ``{"code", "params"}`` becomes its sentence
    in ``lang`` (default the request's language), the message itself kept as
    ``awaiting_message`` for clients that render their own.  Other views are returned as
    they are (the input is never modified)."""
    now = view.get("awaiting")
    if not (isinstance(now, dict) and "code" in now):
        return view
    return {**view, "awaiting": render(now["code"], now["params"], lang or language()),
            "awaiting_message": now}


def localize_summary(summary: dict[str, Any], lang: str | None = None) -> dict[str, Any]:
    """An engine's summary (:meth:`referee.games.base.Engine.summary`) as a match view shows it,
    in ``lang`` (default the request's language): ``{"phase", "awaiting": sentence,
    "awaiting_message": {"code", "params"}, "score", "outcome": None | {"winners", "sides",
    "reason": {"code", "params", "message"}}}`` (the input is never modified)."""
    lang = lang or language()
    now, ended = summary["awaiting"], summary["outcome"]
    if ended is not None:
        reason = ended["reason"]
        ended = {**ended, "reason": {**reason, "message": render(reason["code"],
                                                                 reason["params"], lang)}}
    return {"phase": summary["phase"], "awaiting": render(now["code"], now["params"], lang),
            "awaiting_message": now, "score": summary["score"], "outcome": ended}


def localize_event(ev: dict[str, Any], lang: str | None = None) -> dict[str, Any]:
    """``ev`` as served: each field holding a message ``{"code", "params"}`` (All Fours'
    ``game_over`` and ``redeal`` ``reason``) becomes its sentence in ``lang`` (default the
    request's language), the message itself kept as ``<field>_message``.  An event without a
    message is returned as it is (the input is never modified)."""
    messages = {key: value for key, value in ev.items()
                if isinstance(value, dict) and "code" in value and "params" in value}
    if not messages:
        return ev
    lang = lang or language()
    out = dict(ev)
    for key, message in messages.items():
        out[key] = render(message["code"], message["params"], lang)
        out[f"{key}_message"] = message
    return out


def localize_game(described: dict[str, Any], lang: str | None = None) -> dict[str, Any]:
    """A game's description (``Engine.describe()``) in ``lang`` (default the request's
    language): ``title`` from the game's rulebook, each option's ``description`` from the
    verdicts catalog (``game.<name>.option.<key>``; English is the engine's own text, which
    the catalog repeats).  A game without a rulebook or a catalog text keeps its English
    (the input is never modified)."""
    lang = lang or language()
    if lang == DEFAULT:
        return described
    out = dict(described)
    try:
        out["title"] = book(described["name"]).title[lang]
    except (KeyError, FileNotFoundError):
        pass
    options = {}
    for key, spec in described.get("options", {}).items():
        try:
            spec = {**spec, "description": text(f"game.{described['name']}.option.{key}", lang)}
        except UnknownMessage:
            pass
        options[key] = spec
    out["options"] = options
    return out
