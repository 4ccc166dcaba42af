"""The answer's language: ``Accept-Language`` negotiated against :data:`LANGUAGES`.

Cheap by design: nothing runs before a view; :func:`language` parses the header only when a text
is rendered (or when the answer leaves, for ``Content-Language``), once per request, and a
parsed header is cached by its exact text (clients send the same few headers over and over).
Standard rules (RFC 9110 section 12.5.4 with RFC 4647 filtering; the header parsed by
werkzeug): quality values, ``q=0`` refused, ``*``, a region counts for its language with its
own quality (``my-MM;q=0.5, en;q=0.1`` -> ``my``); nothing acceptable -> English.
"""
from __future__ import annotations

import contextlib
import contextvars
from functools import lru_cache
from typing import Iterator

from flask import Flask, Response, g, has_request_context, request
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from referee.i18n import DEFAULT, LANGUAGES


@lru_cache(maxsize=512)
def best_language(header: str) -> str:
    """The language of :data:`LANGUAGES` an ``Accept-Language`` header value prefers most
    (``"fr;q=0.9, my;q=0.5"`` -> ``"my"``; ``"my-MM;q=0.5, en;q=0.1"`` -> ``"my"``); ``"en"``
    when none is acceptable.

    Each language's quality is that of the ranges naming it (RFC 4647 section 3.3.1
    filtering: ``my`` or a region of it, ``my-MM``, take the highest), else of ``*``; ``q=0``
    on the language itself refuses it.  The highest quality wins; a tie goes to the range
    listed first.  (werkzeug's ``LanguageAccept.best_match`` tries exact tags before
    regions, so ``en;q=0.1`` would beat ``my-MM;q=0.5``.)"""
    ranges = [(tag.lower().replace("_", "-"), q, i)
              for i, (tag, q) in enumerate(parse_accept_header(header, LanguageAccept))]
    best, best_key = DEFAULT, None
    for lang in LANGUAGES:
        named = [(q, -i) for tag, q, i in ranges
                 if tag == lang or tag.startswith(lang + "-")]
        if any(q == 0 for tag, q, _ in ranges if tag == lang):
            continue
        if not named:
            named = [(q, -i) for tag, q, i in ranges if tag == "*"]
        if not named:
            continue
        key = max(named)
        if key[0] > 0 and (best_key is None or key > best_key):
            best, best_key = lang, key
    return best


_SPEAKING: contextvars.ContextVar[str | None] = contextvars.ContextVar("referee_speaking",
                                                                       default=None)


@contextlib.contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Render in ``lang`` inside the block, request or not: for answers made after their
    request has returned, e.g. a match stream's messages (:func:`referee.matches.live.follow`).
    Do not yield inside the block."""
    token = _SPEAKING.set(lang)
    try:
        yield
    finally:
        _SPEAKING.reset(token)


def language() -> str:
    """The language to render in: the one :func:`speaking` sets, else the current request's
    negotiated language (``"en"`` outside a request)."""
    spoken = _SPEAKING.get()
    if spoken is not None:
        return spoken
    if not has_request_context():  # scripts, the contract generator, pure-function tests
        return DEFAULT
    lang = g.get("referee_language")
    if lang is None:
        header = request.headers.get("Accept-Language")
        lang = best_language(header) if header else DEFAULT
        g.referee_language = lang
    return lang


def _content_language(response: Response) -> Response:
    headers = response.headers
    headers["Content-Language"] = language()
    vary = headers.get("Vary")  # werkzeug's response.vary parses and rebuilds the header set
    if not vary:
        headers["Vary"] = "Accept-Language"
    elif "accept-language" not in vary.lower():
        headers["Vary"] = f"{vary}, Accept-Language"
    return response


def init_app(app: Flask) -> None:
    """Every answer says its language (``Content-Language``) and that it varies with
    ``Accept-Language``."""
    app.after_request(_content_language)
