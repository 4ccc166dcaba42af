"""The shape of a request body's JSON, measured cheaply so that a body too big in any way is
refused before any schema walks it (issue 12 item 3, issue 21 item 1): its nesting depth and
how many arrays and objects it opens (both on the raw text, before parsing), its longest array,
widest object and key/value pairs (one walk over the parsed containers), a key an object names
twice, a string that is no Unicode text.  The request guard (:mod:`referee.api.limits`)
decides with these."""
from __future__ import annotations

import json
from itertools import accumulate

MAX_ITEMS = 4096
"""The longest array a body may hold (far above any game's longest list: a Coup log of a long
8-seat game has a few hundred entries); a longer one is 422 before any schema walks it, so
each item's validation cannot add up to seconds of CPU (bench/RESULTS.md, "Worst inputs")."""
MAX_MEMBERS = 1024
"""The most members one object of a body may hold (a snapshot has about 30, an object keyed
by players at most 8); a wider one is 422 before any schema walks it (issue 21: 20,000
unknown options cost 0.3-0.6 s)."""
MAX_CONTAINERS = 4096
"""The most arrays and objects a body may hold in all (the largest body a game makes, a
7-player, 50-round Gnoming snapshot, holds about 1,600); more is 422 before the body is
parsed: each one costs the parser, the guards and the schemas a few microseconds, and 65,000
empty arrays in 256 KiB cost ~25 ms before any check could refuse them (issue 21)."""


def _least_object_bytes(members: int) -> int:
    """The fewest bytes of JSON text without escapes holding an object of ``members``
    distinct members: the empty key, then the 94 one-byte keys (printable ASCII and DEL
    but ``"`` and ``\\``), then two-byte keys, each with a one-digit value, commas between."""
    one = min(max(members - 1, 0), 94)
    two = max(members - 1 - one, 0)
    return 2 + 4 * min(members, 1) + 5 * one + 6 * two + max(members - 1, 0)


SMALL = min(2 * MAX_ITEMS, _least_object_bytes(MAX_MEMBERS + 1) - 1)
"""A body orjson parsed of at most this many bytes needs no walk: it cannot hold an array of
more than :data:`MAX_ITEMS` items (two bytes an item) nor an object of more than
:data:`MAX_MEMBERS` members."""
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_STEP = [0] * 256
_STEP[ord("[")] = _STEP[ord("{")] = 1
_STEP[ord("]")] = _STEP[ord("}")] = -1


def json_depth(raw: bytes) -> int:
    """Deepest nesting of arrays/objects in ``raw`` JSON text (strings ignored).  Runs in C
    loops (``bytes.replace``, ``split``, ``translate``, ``accumulate``)."""
    brackets = outside_strings(raw).translate(None, _NOT_BRACKETS)
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def outside_strings(raw: bytes) -> bytes:
    """``raw`` (JSON text) without the text of its strings, in C loops: every escaped
    backslash, then every escaped quote taken out (a run of backslashes pairs from the left,
    as JSON reads it), each quote left opens or closes a string.  Exact for valid JSON; for
    text that is not, exact up to its first error, which is all the parser reads (so the depth
    it finds is the depth the parser would reach before refusing the text)."""
    if b"\\" in raw:
        raw = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    return b"".join(raw.split(b'"')[::2])


_CONTAINERS = frozenset({dict, list})


def tally(value) -> tuple[int, int, int]:
    """``(pairs, longest, widest)``: how many key/value pairs the objects in ``value`` hold,
    the length of its longest array and the size of its widest object (one walk over the
    containers only; the scalars of a long container are passed over by one C loop).  The walk
    stops at the first array longer than :data:`MAX_ITEMS` or object wider than
    :data:`MAX_MEMBERS` (the body is refused: its pairs no longer matter)."""
    pairs = longest = widest = 0
    stack = [value]
    while stack:
        item = stack.pop()
        if type(item) is dict:
            pairs += len(item)
            if len(item) > widest:
                widest = len(item)
            children = item.values()
        elif type(item) is list:
            if len(item) > longest:
                longest = len(item)
            children = item
        else:
            continue
        if longest > MAX_ITEMS or widest > MAX_MEMBERS:
            break
        if len(children) < 32 or not _CONTAINERS.isdisjoint(map(type, children)):
            stack += [child for child in children if type(child) in _CONTAINERS]
    return pairs, longest, widest


def containers(raw: bytes) -> int:
    """How many arrays and objects the JSON text ``raw`` opens (brackets outside strings);
    counted anywhere first, outside strings only when that passes :data:`MAX_CONTAINERS`."""
    found = raw.count(b"[") + raw.count(b"{")
    if found <= MAX_CONTAINERS:
        return found
    outside = outside_strings(raw)
    return outside.count(b"[") + outside.count(b"{")


class _Repeated(dict):
    """An object of the body that named ``key`` twice (:func:`repeated_key`)."""

    key = ""


def _pairs_hook(pairs: list) -> dict:
    found = dict(pairs)
    if len(found) == len(pairs):
        return found
    seen: set = set()
    marked = _Repeated(found)
    marked.key = next(k for k, _ in pairs if k in seen or seen.add(k))
    return marked


def repeated_key(raw: bytes) -> str | None:
    """Path of the first key an object of ``raw`` (valid JSON) repeats (``action.player``),
    or ``None``: ``raw`` parsed again with a pairs hook that marks such objects."""
    try:
        data = json.loads(raw, object_pairs_hook=_pairs_hook, parse_constant=float)
    except ValueError:
        return None
    for item, path in _shallowest_first(data):
        if isinstance(item, _Repeated):
            return f"{path}.{item.key}" if path else item.key
    return None


class _Long:
    """An integer of the body with too many digits to convert (:func:`long_number`)."""


def long_number(raw: bytes, digits: int) -> str | None:
    """Path of the first integer of ``raw`` (valid JSON) with more than ``digits`` digits
    (``seed``; ``""`` for the body itself), or ``None``: ``raw`` parsed again with no
    number converted (a long one is marked, the others are 0)."""
    long = _Long()
    try:
        data = json.loads(raw, parse_int=lambda text: long if len(text.lstrip("-")) > digits
                          else 0, parse_float=lambda text: 0.0, parse_constant=float)
    except ValueError:
        return None
    return next((path for item, path in _shallowest_first(data) if item is long), None)


def _shallowest_first(data):
    """``(value, path)`` of ``data`` and of every value inside it, the shallowest first
    (``""``, ``action``, ``action.player``, ``cards[0]``…)."""
    queue = [(data, "")]
    while queue:
        item, path = queue.pop(0)
        yield item, path
        if isinstance(item, dict):
            queue += [(v, f"{path}.{k}" if path else k) for k, v in item.items()]
        elif isinstance(item, list):
            queue += [(v, f"{path}[{i}]") for i, v in enumerate(item)]


def oversized(value, path: str = "") -> tuple[str | None, bool]:
    """``(path, True)`` of the first array in ``value`` longer than :data:`MAX_ITEMS`, or
    ``(path, False)`` of the first object wider than :data:`MAX_MEMBERS`, in document order;
    ``(None, False)`` when there is neither."""
    if isinstance(value, list):
        if len(value) > MAX_ITEMS:
            return path, True
        items = enumerate(value)
    elif isinstance(value, dict):
        if len(value) > MAX_MEMBERS:
            return path, False
        items = value.items()
    else:
        return None, False
    if _CONTAINERS.isdisjoint(map(type, value.values() if isinstance(value, dict) else value)):
        return None, False
    for key, item in items:
        if type(item) in _CONTAINERS:
            inner = f"{path}[{key}]" if isinstance(value, list) else (
                f"{path}.{key}" if path else str(key))
            found = oversized(item, inner)
            if found[0] is not None:
                return found
    return None, False


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
