"""Copying JSON-like snapshots: what ``apply`` copies once per action."""
from __future__ import annotations

from typing import Any

_SCALARS = frozenset({str, int, float, bool, type(None)})


def json_copy(data: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars), several times faster than
    ``copy.deepcopy`` (no memo, no dispatch): new dicts and lists, shared scalars (a scalar
    item is taken as it is, without a call).  A dict subclass (a checked snapshot) comes back
    as a plain ``dict``."""
    if isinstance(data, dict):
        return {key: value if type(value) in _SCALARS else json_copy(value)
                for key, value in data.items()}
    if isinstance(data, list):
        return [value if type(value) in _SCALARS else json_copy(value) for value in data]
    return data
