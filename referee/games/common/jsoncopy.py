"""Copying JSON-like snapshots: what ``apply`` copies once per action."""
from __future__ import annotations

from typing import Any


def json_copy(data: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars), several times faster than
    ``copy.deepcopy`` (no memo, no dispatch): new dicts and lists, shared scalars.  A dict
    subclass (a checked snapshot) comes back as a plain ``dict``."""
    if isinstance(data, dict):
        return {key: json_copy(value) for key, value in data.items()}
    if isinstance(data, list):
        return [json_copy(value) for value in data]
    return data
