"""Legal actions for pickers (issue 22): the flat list of legal actions grouped by action type,
with the choices for each field and the combinations of them that are not legal, so an app
builds its picker (a card picker, a target picker) without guessing.

One group (:func:`group`) per action type, player and set of fields, in the order the flat list
first names them::

    {"type": "play", "player": "ana", "choices": {"card": ["2C", "3C", …]}, "illegal": []}

Expanding a group (:func:`expand`) gives every combination of its choices (one value per field,
in the order of ``choices``) but those listed in ``illegal`` — exactly the flat list's actions
of that group.  A group never lists more illegal combinations than legal actions: when the
product of its choices would, it is split by the values of its first field that has several
(:data:`MAX_ILLEGAL_SHARE`), so a group stays as small as the list it stands for.

Values are compared as JSON (a list value, such as Coup's ``cards`` or Gnoming's
``position``, is one choice).  Pure and the same for every game (it reads only the actions
an engine listed): both the stateless and the match ``legal-actions`` use it
(``?form=grouped``).
"""
from __future__ import annotations

import itertools
import json
import math
from typing import Any, Iterable

FORMS = ("flat", "grouped")
"""The forms of a legal-actions answer: ``flat`` (the default, one entry per action) or
``grouped``."""

MAX_ILLEGAL_SHARE = 1
"""A group lists at most this many illegal combinations per legal action it stands for."""

_FIXED = ("type", "player")


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def group(actions: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The groups of ``actions`` (module docstring), in first-appearance order."""
    buckets: dict[tuple, list[dict[str, Any]]] = {}
    for action in actions:
        fields = tuple(k for k in action if k not in _FIXED)
        buckets.setdefault((action["type"], action.get("player"), frozenset(fields)),
                           []).append(action)
    out: list[dict[str, Any]] = []
    for members in buckets.values():
        fields = [k for k in members[0] if k not in _FIXED]
        out += _split(members, fields)
    return out


def _split(members: list[dict[str, Any]], fields: list[str]) -> list[dict[str, Any]]:
    """One group of ``members`` (actions of one type, player and fields), or several split by
    a field's values when one would list too many illegal combinations."""
    choices = {field: _distinct(a[field] for a in members) for field in fields}
    legal = {tuple(_key(a[f]) for f in fields) for a in members}
    product = math.prod(len(values) for values in choices.values())
    if product - len(legal) > MAX_ILLEGAL_SHARE * len(legal):
        field = next(f for f in fields if len(choices[f]) > 1)
        out = []
        for value in choices[field]:
            out += _split([a for a in members if _key(a[field]) == _key(value)], fields)
        return out
    illegal = [dict(zip(fields, combo)) for combo in itertools.product(*choices.values())
               if tuple(_key(v) for v in combo) not in legal]
    first = members[0]
    return [{"type": first["type"], "player": first.get("player"), "choices": choices,
             "illegal": illegal}]


def _distinct(values: Iterable[Any]) -> list[Any]:
    seen: dict[str, Any] = {}
    for value in values:
        seen.setdefault(_key(value), value)
    return list(seen.values())


def expand(groups: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The flat actions ``groups`` stand for: each group's combinations of choices but its
    illegal ones (``{"type", "player", field: value, …}``)."""
    out = []
    for entry in groups:
        fields = list(entry["choices"])
        illegal = {tuple(_key(c[f]) for f in fields) for c in entry["illegal"]}
        for combo in itertools.product(*entry["choices"].values()):
            if tuple(_key(v) for v in combo) not in illegal:
                out.append({"type": entry["type"], "player": entry["player"],
                            **dict(zip(fields, combo))})
    return out


def in_form(answer: dict[str, Any], form: str) -> dict[str, Any]:
    """A legal-actions answer (``{…, "actions", …}``) in ``form``: as it is (``flat``), or with
    ``groups`` after ``actions`` (``grouped``; ``actions`` stays, the same flat list, so a
    client that reads it, typed against the flat answer, is not broken)."""
    if form == "flat":
        return answer
    out: dict[str, Any] = {}
    for key, value in answer.items():
        out[key] = value
        if key == "actions":
            out["groups"] = group(value)
    return out
