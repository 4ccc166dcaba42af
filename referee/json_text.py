"""Compact JSON text exactly as the standard library writes it, by orjson whenever the bytes
are sure to be the same (issue 11 for answers, issue 25 for match streams).

:func:`fast_compact` is orjson's compact text of ``obj`` when ``json.dumps(obj,
separators=(",", ":"))`` (with ``ensure_ascii`` and ``sort_keys`` as given) would write the
very same bytes: keys in insertion order (or sorted), no float (their text differs, e.g.
``1e-05``), and, with ``ensure_ascii``, printable ASCII only; ``None`` for anything else (a
float, non-ASCII text, a non-string key, an integer past 64 bits, a type orjson would write
differently such as a date), so the caller writes it with ``json.dumps``, errors included.
orjson writes NaN and infinities as ``null``: a caller whose data may hold them (a request
body's ``NaN``) must not ask (:mod:`referee.api.json_codec` notes such a request).
:func:`compact` is ``json.dumps(obj, separators=(",", ":"))``, fast when it can be.
"""
from __future__ import annotations

import json
from typing import Any

import orjson

from referee.json_digits import ZERO_DIGITS

_FLOAT_MARKS = (b"0.", b"0e", b"0E")
"""A float in compact JSON has a digit then a point or an exponent (the same text inside a
string only sends the answer to ``json.dumps``, which is slower, not different)."""
_PASSTHROUGH = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME


class _NotFast(Exception):
    """orjson met something it would write differently from ``json.dumps``."""


def _refuse(obj: Any) -> Any:
    raise _NotFast(type(obj).__name__)


def fast_compact(obj: Any, ensure_ascii: bool = True, sort_keys: bool = False
                 ) -> bytes | None:
    """``obj`` as compact JSON by orjson, or ``None`` when ``json.dumps`` would write other
    bytes (see the module docstring)."""
    option = _PASSTHROUGH | (orjson.OPT_SORT_KEYS if sort_keys else 0)
    try:
        out = orjson.dumps(obj, default=_refuse, option=option)
    except (_NotFast, TypeError, orjson.JSONEncodeError):
        return None
    if ensure_ascii and (not out.isascii() or b"\x7f" in out):
        return None
    zeroed = out.translate(ZERO_DIGITS)
    if any(mark in zeroed for mark in _FLOAT_MARKS):
        return None
    return out


def compact(obj: Any) -> str:
    """``json.dumps(obj, separators=(",", ":"))``, the same text, by orjson when it can."""
    out = fast_compact(obj)
    return out.decode() if out is not None else json.dumps(obj, separators=(",", ":"))
