"""Request guards that run before any parsing: JSON bodies only, and a nesting limit.

A body nested thousands of levels deep would exhaust Python's recursion in the JSON decoder;
it is refused with 400 ``malformed-json`` before it is parsed.
"""
from __future__ import annotations

import re

from flask import request

from referee.api.errors import Problem

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
    """Refuse non-JSON bodies (415) and JSON nested deeper than ``MAX_DEPTH`` (400)."""
    if request.method not in ("POST", "PUT", "PATCH") or not request.content_length:
        return
    mimetype = request.mimetype or ""
    if mimetype not in JSON_TYPES and not mimetype.endswith("+json"):
        raise Problem("unsupported-media-type", f"Send the body as application/json, not "
                      f"{mimetype or 'an untyped body'}.",
                      errors=[{"field": "Content-Type", "message": "must be application/json"}])
    if json_depth(request.get_data(cache=True)) > MAX_DEPTH:
        raise Problem("malformed-json", f"The JSON body is nested deeper than {MAX_DEPTH} levels.",
                      errors=[{"field": "body", "message": "nested too deeply"}])
