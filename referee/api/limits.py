"""Request guards that run before any parsing: JSON bodies only, and a nesting limit.

A body nested thousands of levels deep would exhaust Python's recursion in the JSON decoder;
it is refused with 400 ``malformed-json`` before it is parsed.
"""
from __future__ import annotations

import json
import re

from flask import g, request
from werkzeug.exceptions import RequestEntityTooLarge

from referee.api.errors import Problem
from referee.api.json_codec import fast_loads

MAX_DEPTH = 64
JSON_TYPES = ("application/json",)
_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(rb"[\[\]{}]")


def json_depth(raw: bytes) -> int:
    """Deepest nesting of arrays/objects in ``raw`` JSON text (strings ignored)."""
    depth = deepest = 0
    for match in _BRACKETS.finditer(_STRINGS.sub(b'""', raw)):
        if match.group() in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def guard_request() -> None:
    """Check a POST/PUT/PATCH body before any view parses it: larger than the limit (413, also
    for chunked bodies), not JSON by its Content-Type (415), nested deeper than ``MAX_DEPTH``
    or not parseable (400 ``malformed-json``), a number too long to convert (422)."""
    if request.method not in ("POST", "PUT", "PATCH"):
        return
    raw = request.get_data(cache=True)  # raises 413 past MAX_CONTENT_LENGTH when it is known
    if not raw:
        return
    limit = request.max_content_length
    if limit is not None and len(raw) >= limit and request.content_length is None:
        # a chunked body has no Content-Length: werkzeug stops reading at the limit, so
        # reading one byte more tells whether the body went past it (that read raises 413)
        if request.stream.read(1):
            raise RequestEntityTooLarge()
    mimetype = request.mimetype or ""
    if mimetype not in JSON_TYPES and not mimetype.endswith("+json"):
        raise Problem("unsupported-media-type", f"Send the body as application/json, not "
                      f"{mimetype or 'an untyped body'}.",
                      errors=[{"field": "Content-Type", "message": "must be application/json"}])
    data = fast_loads(raw, MAX_DEPTH)  # orjson, when it is sure to pass every check below
    if data is None:
        data = checked_loads(raw)
    g.json_body = data  # parsed once here; views read it back (loading.json_object)


def checked_loads(raw: bytes):
    """Parse ``raw`` with the standard library after checking its depth, and check its
    strings: 400 ``malformed-json`` (too deep, not JSON), 422 ``invalid-input`` (a number
    too long to convert, a lone surrogate)."""
    if json_depth(raw) > MAX_DEPTH:
        raise Problem("malformed-json", f"The JSON body is nested deeper than {MAX_DEPTH} levels.",
                      errors=[{"field": "body", "message": "nested too deeply"}])
    try:
        data = json.loads(raw, parse_float=_float, parse_constant=_float)
    except ValueError as exc:
        if "integer string conversion" in str(exc) or "Exceeds the limit" in str(exc):
            raise Problem("invalid-input", "A number in the body has more than 4300 digits.",
                          errors=[{"field": "body", "message": "a number with more than 4300 "
                                   "digits"}]) from None
        raise Problem("malformed-json", "The request body is not valid JSON.",
                      errors=[{"field": "body", "message": f"Invalid JSON body: {exc}"}]) from None
    where = unencodable(data)
    if where is not None:
        raise Problem("invalid-input", "A string holds a lone UTF-16 surrogate (\\ud800-\\udfff "
                      "unpaired), which is not text.",
                      errors=[{"field": where or "body", "message": "not valid Unicode text"}])
    return data


def _float(text: str) -> float:
    """``float(text)`` as ``json.loads`` makes it, noting a NaN or infinity in ``g`` so that
    answers echoing it are written by ``json.dumps`` as before (``json_codec``)."""
    value = float(text)
    if value - value != 0:  # NaN or ±infinity
        g.json_nonfinite = True
    return value


def unencodable(value, path: str = "") -> str | None:
    """Path of the first string (key or value) in ``value`` that is not valid Unicode text
    (a lone surrogate that JSON's ``\\u`` escapes allow), or ``None``."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return path
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            inner = f"{path}.{key}" if path else str(key)
            if unencodable(key) is not None:
                return inner
            found = unencodable(item, inner)
            if found is not None:
                return found
    if isinstance(value, list):
        for i, item in enumerate(value):
            found = unencodable(item, f"{path}[{i}]")
            if found is not None:
                return found
    return None
