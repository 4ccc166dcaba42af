"""Fast JSON in and out (orjson) with exactly the output and checks of the standard library.

* :class:`FastJSONProvider` — Flask's JSON provider.  Responses are written by orjson when
  that gives the very bytes Flask's default provider (``json.dumps``) would
  (:func:`referee.json_text.fast_compact`: compact separators, keys in insertion order or
  sorted, no float, with ``ensure_ascii`` printable ASCII only); anything else goes to
  ``json.dumps`` as before, errors included.  orjson writes NaN and infinities as ``null``:
  the only source of those is a request body (``NaN``, ``1e400``: engines count in
  integers, stored matches hold what typed schemas accepted), and ``limits`` notes them
  (``g.json_nonfinite``), so that request's answers are written by ``json.dumps``.
* :func:`fast_loads` — a request body parsed by orjson when that is sure to give what
  ``json.loads`` gives and to pass the request guards (:mod:`referee.api.limits`): brackets
  balanced and at most ``max_depth`` deep outside strings (escapes read as JSON reads them,
  :func:`referee.api.body_shape.outside_strings`), no run of 19 digits (orjson turns
  integers past 64 bits into floats).  orjson refuses lone
  surrogates, NaN and infinite numbers, so what it accepts needs no Unicode check.  ``None``
  means "use the standard library", which then says precisely what is wrong, if anything.
"""
from __future__ import annotations

from typing import Any

import orjson
from flask import g, has_app_context
from flask.json.provider import DefaultJSONProvider

from referee.api.body_shape import outside_strings
from referee.json_digits import has_long_digit_run
from referee.json_text import fast_compact

_NOT_BRACKET = bytes(set(range(256)) - set(b"[]{}"))
_NOT_QUOTE_OR_BRACKET = bytes(set(range(256)) - set(b'[]{}"'))
_TO_SQUARE = bytes.maketrans(b"{}", b"[]")


class FastJSONProvider(DefaultJSONProvider):
    """Flask's default JSON provider, writing with orjson whenever the bytes are the same."""

    def fast_dumps(self, obj: Any) -> bytes | None:
        """Compact JSON of ``obj`` by orjson, or ``None`` when ``json.dumps`` would write
        something else (then call :meth:`dumps`)."""
        if has_app_context() and g.get("json_nonfinite"):
            return None  # orjson would write NaN and infinities as null
        return fast_compact(obj, self.ensure_ascii, self.sort_keys)

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        """As Flask's ``dumps``; orjson writes it when only compact separators are asked."""
        if kwargs == {"separators": (",", ":")}:
            out = self.fast_dumps(obj)
            if out is not None:
                return out.decode()
        return super().dumps(obj, **kwargs)

    def response(self, *args: Any, **kwargs: Any):
        """As Flask's ``response`` (a JSON body and a newline); compact output by orjson."""
        if (self.compact is None and self._app.debug) or self.compact is False:
            return super().response(*args, **kwargs)
        obj = self._prepare_response_obj(args, kwargs)
        out = self.fast_dumps(obj)
        if out is None:
            return super().response(obj)
        return self._app.response_class(out + b"\n", mimetype=self.mimetype)


def fast_loads(raw: bytes, max_depth: int) -> Any:
    """``raw`` parsed by orjson, or ``None`` when the standard library must parse and check
    it (see the module docstring).  Never raises."""
    if b"\\" in raw:  # escapes: the strings' text taken out exactly, in C loops
        outside = outside_strings(raw)
        if has_long_digit_run(outside):
            return None
        brackets = outside.translate(_TO_SQUARE, _NOT_BRACKET)
    else:
        brackets = _quick_brackets(raw)
        if brackets is None or has_long_digit_run(raw):  # the exact walk decides
            parts = raw.split(b'"')
            if len(parts) % 2 == 0:  # an odd number of quotes: a string is not closed
                return None
            outside = b"".join(parts[::2])
            if has_long_digit_run(outside):
                return None
            brackets = outside.translate(_TO_SQUARE, _NOT_BRACKET)
    if not _shallow(brackets, max_depth):
        return None
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None


def _quick_brackets(raw: bytes) -> bytes | None:
    """The brackets of ``raw`` (JSON text without backslashes) outside its strings, as
    ``[``/``]``, when no string holds a bracket (the usual body); ``None`` otherwise (then
    split on the quotes instead: ~3× the time for a 1.7 KB game body).

    Only quotes and brackets are kept (C loops); with no bracket inside a string each
    string is then ``""``, and one left-to-right pass removing ``""`` removes every quote
    exactly when every string's two quotes were side by side: the first quote left over
    (a string holding a bracket, or an odd count) stays, and the answer is ``None``."""
    kept = raw.translate(_TO_SQUARE, _NOT_QUOTE_OR_BRACKET).replace(b'""', b"")
    return None if b'"' in kept else kept


def _shallow(brackets: bytes, max_depth: int) -> bool:
    """Whether ``brackets`` (JSON text's brackets outside its strings, each as ``[`` or
    ``]``) balance and nest at most ``max_depth`` deep: each pass removes the innermost
    pairs, so passes = depth."""
    for _ in range(max_depth):
        if not brackets:
            return True
        fewer = brackets.replace(b"[]", b"")
        if fewer == brackets:
            return False  # unbalanced
        brackets = fewer
    return not brackets
