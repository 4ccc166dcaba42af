"""The bodies :mod:`bench.worst_inputs` tries on an endpoint: a valid body, then every way of
making it as costly as the limits admit (issue 21 item 1).

Each family is built from the valid body alone (no knowledge of the game), so a new game or
field is searched too:

- **lists filled**: each list of the body filled, to the longest array a body may hold
  (``MAX_ITEMS``, 4096) and to the body limit (256 KiB: refused by the request guard, but
  parsed first), with copies of its first item, a copy whose strings are all wrong (most
  problems), empty lists, empty objects, ``0``, ``"zz"``, distinct 70-character strings (the
  answer's quote shortening looks for them) or lists nested to the deepest depth admitted;
- **objects widened**: each object given new keys up to the body limit, each holding a copy of
  its first value, a wrong copy, ``[]`` or ``{}`` (most players of a ``hands`` or ``layouts``);
- **players added**: the players list and every object keyed by the players grown together by
  copies of the first player (a consistent body that reaches the deepest check): just over the
  game's maximum, 100, 1,000 and as many as fit;
- **escaped**: any of the above with one character of its first string written as a ``\\u``
  escape, so the body takes the standard library's parser (the request guard's slow path).

Bodies are produced one at a time as ``(description, JSON bytes)``: a search holds only the
worst so far.
"""
from __future__ import annotations

import copy
from typing import Any, Iterator

import orjson

from referee.api.body_shape import MAX_CONTAINERS, MAX_ITEMS, MAX_MEMBERS
from referee.api.limits import MAX_DEPTH


def dumps(body: Any) -> bytes:
    """Compact JSON bytes (the most items per byte), as a client would send them."""
    return orjson.dumps(body)


def paths(node: Any, path: tuple = (), seated: frozenset = frozenset()
          ) -> Iterator[tuple[tuple, str]]:
    """``(path, "list" | "dict")`` of every list and object inside ``node``: of each list its
    first item only, of each object keyed by the ``seated`` players its first player's value
    only (the others are alike)."""
    if isinstance(node, list):
        if path:
            yield path, "list"
        for i, item in enumerate(node[:1]):
            yield from paths(item, path + (i,), seated)
    elif isinstance(node, dict):
        if path:
            yield path, "dict"
        items = list(node.items())
        if len(items) > 1 and set(node) <= seated:
            items = items[:1]
        for key, value in items:
            yield from paths(value, path + (key,), seated)


def seated(body: dict) -> frozenset:
    """The players of ``body`` (its ``players``, or its state's)."""
    holder = body["state"] if isinstance(body.get("state"), dict) else body
    players = holder.get("players")
    return frozenset(p for p in players if isinstance(p, str)) if isinstance(
        players, list) else frozenset()


def at(body: Any, path: tuple) -> Any:
    for step in path:
        body = body[step]
    return body


def replaced(body, path, value):
    """A deep copy of ``body`` with the node at ``path`` replaced by ``value``."""
    out = copy.deepcopy(body)
    node = out
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return out


def spoiled(value: Any) -> Any:
    """``value`` with every string replaced by ``"zz"`` (no card, no player, no type): the
    copy that makes the most problems."""
    if isinstance(value, str):
        return "zz"
    if isinstance(value, list):
        return [spoiled(v) for v in value]
    if isinstance(value, dict):
        return {k: spoiled(v) for k, v in value.items()}
    return value


def nested(depth: int) -> Any:
    """Lists nested ``depth`` deep: ``[[[...]]]``."""
    value: Any = []
    for _ in range(max(depth - 1, 0)):
        value = [value]
    return value


def fillers(node: list, depth: int) -> list[tuple[str, Any]]:
    """``(name, item)`` to fill a list found ``depth`` levels deep."""
    found = [("[]", []), ("{}", {}), ("0", 0), ('"zz"', "zz"),
             ("deepest lists", nested(MAX_DEPTH - depth - 1))]
    if node:
        found += [("copies", node[0]), ("wrong copies", spoiled(node[0]))]
    return found


def opened(value: Any) -> int:
    """How many arrays and objects ``value`` holds (itself included)."""
    if isinstance(value, list):
        return 1 + sum(map(opened, value))
    if isinstance(value, dict):
        return 1 + sum(map(opened, value.values()))
    return 0


def counts(room: int, size: int, inner: int, base: int, most: int) -> list[int]:
    """How many items (``size`` bytes and ``inner`` containers each) to try: the most the
    guard admits (``most`` of them, within ``MAX_CONTAINERS`` with the ``base`` body's), and
    as many as fit in ``room`` bytes (refused past those limits, but read first)."""
    fit = room // size
    admitted = min(most, fit)
    if inner:
        admitted = min(admitted, (MAX_CONTAINERS - base) // inner)
    return sorted({n for n in (admitted, fit) if n > 0})


def filled_lists(body: dict, limit: int) -> Iterator[tuple[str, bytes]]:
    """Each list of ``body`` filled to the most items the guard admits and to ``limit``
    bytes; the scalar fillers also escaped (the standard library's parser)."""
    room = limit - len(dumps(body))
    base = opened(body)
    for path, kind in paths(body, seated=seated(body)):
        if kind != "list":
            continue
        node = at(body, path)
        where = ".".join(map(str, path))
        items = fillers(node, len(path) + 1)
        items.append(("distinct 70-char strings", None))
        for name, item in items:
            size = len(dumps(item)) + 1 if item is not None else 74
            for count in counts(room, size, opened(item), base, MAX_ITEMS):
                filled = [item] * count if item is not None else [
                    f"{i:070d}" for i in range(count)]  # distinct long strings
                raw = dumps(replaced(body, path, filled))
                yield f"{where} × {count} {name}", raw
                if name == "copies":  # all good but the last: a check cannot stop early
                    filled[-1] = spoiled(item)
                    yield (f"{where} × {count} copies, the last one wrong",
                           dumps(replaced(body, path, filled)))
                if not opened(item):
                    yield f"escaped {where} × {count} {name}", escaped(raw)


def widened(body: dict, limit: int) -> Iterator[tuple[str, bytes]]:
    """Each object of ``body`` given new keys (``k0``, ``k1``…): the most members the guard
    admits, and up to ``limit`` bytes."""
    room = limit - len(dumps(body))
    base = opened(body)
    for path, kind in paths(body, seated=seated(body)):
        node = at(body, path)
        if kind != "dict" or not node:
            continue
        where = ".".join(map(str, path))
        first = next(iter(node.values()))
        for name, value in (("copies", first), ("wrong copies", spoiled(first)),
                            ("[]", []), ("{}", {}), ("0", 0)):
            size = len(dumps(value)) + 10
            for count in counts(room, size, opened(value), base, MAX_MEMBERS - len(node)):
                grown = {**node, **{f"k{i}": value for i in range(count)}}
                yield f"{where} + {count} keys of {name}", dumps(replaced(body, path, grown))


def with_players(body: dict, count: int) -> dict | None:
    """``body`` with ``count`` players in all: its ``players`` list (at the top or in
    ``state``) grown by ``p0``, ``p1``…, every object keyed by exactly the old players given
    the new ones (a copy of the first player's value), every list equal to the old players
    list grown alike; ``None`` when the body has no players list."""
    holder = body["state"] if isinstance(body.get("state"), dict) else body
    players = holder.get("players")
    if not isinstance(players, list) or not players or not all(
            isinstance(p, str) for p in players):
        return None
    extra = [f"p{i}" for i in range(max(count - len(players), 0))]

    def grow(node):
        if isinstance(node, dict):
            out = {k: grow(v) for k, v in node.items()}
            if set(node) == set(players):
                first = out[players[0]]
                out.update({p: copy.deepcopy(first) for p in extra})
            return out
        if isinstance(node, list):
            return node + extra if node == players else [grow(v) for v in node]
        return node

    return grow(body)


def more_players(body: dict, limit: int, most: int) -> Iterator[tuple[str, bytes]]:
    """The body with ``most + 1``, 100, 1000 players, then as many as fit in ``limit``."""
    base = len(seated(body))
    if not base:
        return
    per = (len(dumps(with_players(body, base + 10))) - len(dumps(body))) / 10
    fit = int((limit - len(dumps(body))) / max(per, 1)) + base
    for count in sorted({most + 1, 100, 1000, fit}):
        if count <= fit:
            raw = dumps(with_players(body, count))
            if len(raw) <= limit:
                yield f"{count} players", raw


def escaped(raw: bytes) -> bytes:
    """``raw`` with the first letter of its first string written ``\\u00XX`` (the same JSON
    value; the body then takes the standard library's parser)."""
    i = raw.find(b'"') + 1
    return raw[:i] + b"\\u%04x" % raw[i] + raw[i + 1:]


def bodies(body: dict, limit: int, most_players: int) -> Iterator[tuple[str, bytes]]:
    """Every body searched for ``body`` (the valid one first)."""
    yield "(the valid body)", dumps(body)
    yield from filled_lists(body, limit)
    yield from widened(body, limit)
    yield from more_players(body, limit, most_players)
