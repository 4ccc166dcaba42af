"""The answer's language: ``Accept-Language`` negotiated against :data:`LANGUAGES`.

Cheap by design: nothing runs before a view; :func:`language` parses the header only when a text
is rendered (or when the answer leaves, for ``Content-Language``), once per request, and a
parsed header is cached by its exact text (clients send the same few headers over and over).
Standard rules (werkzeug's ``LanguageAccept``): quality values, ``q=0`` refused, ``*``, a
region falls back to its language (``my-MM`` -> ``my``); nothing acceptable -> English.
"""
from __future__ import annotations

from functools import lru_cache

from flask import Flask, Response, g, has_request_context, request
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from referee.i18n import DEFAULT, LANGUAGES


@lru_cache(maxsize=512)
def best_language(header: str) -> str:
    """The language of :data:`LANGUAGES` an ``Accept-Language`` header value prefers most
    (``"fr;q=0.9, my;q=0.5"`` -> ``"my"``); ``"en"`` when none is acceptable."""
    accept = parse_accept_header(header, LanguageAccept)
    return accept.best_match(LANGUAGES, default=DEFAULT) or DEFAULT


def language() -> str:
    """The negotiated language of the current request (``"en"`` outside a request)."""
    if not has_request_context():  # scripts, the contract generator, pure-function tests
        return DEFAULT
    lang = g.get("referee_language")
    if lang is None:
        header = request.headers.get("Accept-Language")
        lang = best_language(header) if header else DEFAULT
        g.referee_language = lang
    return lang


def _content_language(response: Response) -> Response:
    response.headers["Content-Language"] = language()
    response.vary.add("Accept-Language")
    return response


def init_app(app: Flask) -> None:
    """Every answer says its language (``Content-Language``) and that it varies with
    ``Accept-Language``."""
    app.after_request(_content_language)
