"""Mutating every field of a snapshot (issue 12 item 8): the mutations of
``test_snapshot_fields.py``.

:func:`mutations` yields, for every leaf path of a state (a scalar, or an empty list or
object) a value of the wrong type, values out of any domain and another value of the same
type found elsewhere in the state; for every object, each key removed and one key added;
for every non-empty list, its first item doubled.  Each mutation carries its path and a
``kind`` (``type``, ``domain``, ``other``, ``removed``, ``extra``, ``doubled``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from referee.games.common.jsoncopy import json_copy

Path = tuple


@dataclass(frozen=True)
class Mutation:
    """One changed field: ``path`` from the state's root, ``kind``, the new ``value``."""

    path: Path
    kind: str
    value: Any = None

    def where(self) -> str:
        """The dotted field name the refusal must name (``state.hands.ana[2]``)."""
        return "state" + "".join(f"[{k}]" if isinstance(k, int) else f".{k}"
                                 for k in self.path)

    def applied(self, state: dict) -> dict:
        """A copy of ``state`` with the mutation made."""
        out = json_copy(state)
        holder = out
        for key in self.path[:-1]:
            holder = holder[key]
        last = self.path[-1] if self.path else None
        if self.kind == "removed":
            del holder[last]
        elif self.kind == "extra":
            (holder[last] if self.path else out)["zz_extra"] = 1
        elif self.kind == "doubled":
            target = holder[last] if self.path else out
            target.append(json_copy(target[0]))
        else:
            holder[last] = self.value
        return out


def walk(value: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    """Every ``(path, value)`` inside ``value``, itself first."""
    yield path, value
    items = value.items() if isinstance(value, dict) else (
        enumerate(value) if isinstance(value, list) else ())
    for key, item in items:
        yield from walk(item, path + (key,))


WRONG_TYPE = {str: 7, bool: "yes", int: "7", float: "7", type(None): ["x"], list: "x",
              dict: ["x"]}
OUT_OF_DOMAIN = {str: ("zz-nothing", ""), bool: (), int: (-1, 10 ** 6), type(None): ("zz",)}


def mutations(state: dict) -> Iterator[Mutation]:
    """Every mutation of ``state`` (see the module docstring)."""
    by_type: dict[type, list] = {}
    for _, value in walk(state):
        if not isinstance(value, (dict, list)):
            by_type.setdefault(type(value), []).append(value)
    for path, value in walk(state):
        if isinstance(value, dict):
            yield Mutation(path, "extra")
            for key in value:
                yield Mutation(path + (key,), "removed")
        if isinstance(value, list) and value:
            yield Mutation(path, "doubled")
        if not path or (isinstance(value, (dict, list)) and value):
            continue
        yield Mutation(path, "type", WRONG_TYPE[type(value)])
        for bad in OUT_OF_DOMAIN.get(type(value), ()):
            yield Mutation(path, "domain", bad)
        others = sorted({v for v in by_type.get(type(value), []) if v != value}, key=str)
        for other in others[:3]:
            yield Mutation(path, "other", other)
