"""Copying JSON-like snapshots: what ``apply`` copies once per action."""
from __future__ import annotations

from typing import Any

import orjson

_SCALARS = frozenset({str, int, float, bool, type(None)})


def json_copy(data: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars), several times faster than
    ``copy.deepcopy``: new dicts and lists, equal scalars.  A dict subclass (a checked
    snapshot) comes back as a plain ``dict``.

    A container is written and read back by orjson (C, about twice as fast as a Python walk)
    and the copy kept only when it equals the original, so only what JSON holds exactly takes
    that path; anything else (a tuple, which would come back a list; NaN, never equal to
    itself; an integer past 64 bits or a key that is not a string, which orjson refuses) is
    copied by :func:`walk_copy`."""
    if type(data) in _SCALARS:
        return data
    try:
        copied = orjson.loads(orjson.dumps(data))
    except (orjson.JSONEncodeError, TypeError):
        return walk_copy(data)
    return copied if copied == data else walk_copy(data)


def walk_copy(data: Any) -> Any:
    """:func:`json_copy` by a Python walk: new dicts and lists, shared scalars (a scalar
    item is taken as it is, without a call), a tuple as a new tuple of copies (a list inside
    it must not be shared with the original either), anything else as it is."""
    if isinstance(data, dict):
        return {key: value if type(value) in _SCALARS else walk_copy(value)
                for key, value in data.items()}
    if isinstance(data, list):
        return [value if type(value) in _SCALARS else walk_copy(value) for value in data]
    if isinstance(data, tuple):
        return tuple(value if type(value) in _SCALARS else walk_copy(value) for value in data)
    return data
