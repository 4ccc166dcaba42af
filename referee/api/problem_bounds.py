"""Every problem answer is small, whatever the request held: user values quoted in it are
shortened and the whole body has a hard size bound.

- :func:`clip`: a text cut to :data:`QUOTE_CHARS` characters plus "…"
  (:mod:`referee.games.common.quoting`, which the engines and the Flask-free loaders share);
- an engine message's parameters are bounded before they are rendered
  (:func:`referee.i18n.answers.bounded_params`): each string clipped, a comma-separated list
  (``places``) cut to ``LISTED_ITEMS`` items plus "… and N more" (``verdicts`` code
  ``term.list_more``);
- :func:`bound_problem`: a problem body (English or translated) with every long string of the
  request (body keys and values, query, headers, path) that it quotes shortened by
  :func:`clip`, each text cut to :data:`TEXT_CHARS`, and entries dropped from the end of
  ``errors`` / ``violations`` until the body is at most :data:`MAX_PROBLEM_BYTES` (the
  ``*_count`` members still say how many there are).
"""
from __future__ import annotations

import json
from typing import Any, Iterable

from flask import g, has_request_context, request

from referee.games.common.quoting import QUOTE_CHARS, clip  # noqa: F401  (re-exported: one copy)
from referee.i18n.answers import TEXT_CHARS
from referee.json_digits import ZERO_DIGITS

MAX_PROBLEM_BYTES = 16 * 1024
"""The largest problem body (bytes of JSON, Burmese escaped as Flask writes it)."""
_LONG_CHECKED = 200
"""At most this many distinct long request strings are looked for in a problem's texts."""


_LONG_INT = 10 ** QUOTE_CHARS
"""An integer at least this large has more than :data:`QUOTE_CHARS` digits."""
_CONTAINERS = frozenset({dict, list, tuple})


def _long_strings(value: Any) -> Iterable[str]:
    """Every string in ``value`` (keys too) longer than :data:`QUOTE_CHARS`, and the decimal
    text of every integer of more digits than that (a message may quote a number as it was
    sent).  One pass per container: its scalars are sifted by a comprehension (a request body
    holds up to 65,000 of them), only its containers go on the stack."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            yield from (key for key in item if type(key) is str and len(key) > QUOTE_CHARS)
            item = item.values()
        elif not isinstance(item, (list, tuple)):
            item = (item,)
        yield from (x if type(x) is str else str(x) for x in item if (
            type(x) is str and len(x) > QUOTE_CHARS
            or type(x) is int and not -_LONG_INT < x < _LONG_INT))
        if not _CONTAINERS.isdisjoint(map(type, item)):
            stack += [x for x in item if isinstance(x, (dict, list, tuple))]


_LONG_DIGITS = b"0" * (QUOTE_CHARS + 1)


def _may_hold_long(raw: bytes) -> bool:
    """Whether the JSON text ``raw`` may hold a string (key or value) longer than
    :data:`QUOTE_CHARS` or an integer of more digits, in C loops: a string's bytes are at
    least its characters, also once each escaped backslash or quote is one byte."""
    if _LONG_DIGITS in raw.translate(ZERO_DIGITS):
        return True
    if b"\\" in raw:
        raw = raw.replace(b"\\\\", b"\0").replace(b'\\"', b"\0")
    return max(map(len, raw.split(b'"')[1::2]), default=0) > QUOTE_CHARS


def request_long_strings() -> list[str]:
    """The distinct strings of the request longer than :data:`QUOTE_CHARS` (body keys and
    values, integers of more digits than that, query names and values, header values, the
    path and each of its segments — Flask's ``view_args``, e.g. a 5000-character match id or
    game name), longest first."""
    if not has_request_context():
        return []
    body = g.get("json_body")  # set once the guard has read and parsed the body
    if body is not None:
        raw = request.get_data(cache=True)  # read already: never a second read (a 413)
        if raw and not _may_hold_long(raw):
            body = None  # no string or number of it is that long
    sources = [body, request.path, *(request.view_args or {}).values(),
               *request.path.split("/"), *request.headers.values(),
               *(x for pair in request.args.items(multi=True) for x in pair)]
    found = set(_long_strings(sources))
    return sorted(found, key=len, reverse=True)[:_LONG_CHECKED]


def _shorten(text: str, longs: list[str], member: str) -> str:
    if longs and len(text) >= len(longs[-1]):  # longs: longest first
        for long in longs:
            if len(long) <= len(text) and long in text:
                text = text.replace(long, clip(long))
    return clip(text, TEXT_CHARS.get(member, TEXT_CHARS["message"]))


_QUOTING = frozenset({"field", "message"})
"""The members of an ``errors``/``violations`` entry that may quote the request (a rule's
``title``, a ``code`` or a ``rule`` ID never do: they are cut, not searched)."""


def _entry(entry: Any, longs: list[str]) -> Any:
    if not isinstance(entry, dict):
        return entry
    return {k: (_shorten(v, longs, k) if k in _QUOTING else clip(v, TEXT_CHARS.get(
        k, TEXT_CHARS["message"]))) if isinstance(v, str) else v for k, v in entry.items()}


def _size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":")))


def bound_problem(body: dict[str, Any]) -> dict[str, Any]:
    """``body`` with quoted request values shortened, texts cut and the whole at most
    :data:`MAX_PROBLEM_BYTES` (see the module docstring); the same dict, changed in place."""
    longs = request_long_strings()
    for member in ("title", "detail", "instance"):
        if isinstance(body.get(member), str):
            body[member] = _shorten(body[member], longs, member)
    for member in ("errors", "violations"):
        if isinstance(body.get(member), list):
            body[member] = [_entry(e, longs) for e in body[member]]
    total = _size(body)
    while total > MAX_PROBLEM_BYTES:
        lists = [m for m in ("errors", "violations") if len(body.get(m) or []) > 1]
        if not lists:
            break
        longest = max(lists, key=lambda m: len(body[m]))
        total -= _size(body[longest].pop()) + 1
    return body
