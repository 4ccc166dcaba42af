"""A finished match's audit (``GET /v1/matches/{id}/audit``): seed, setup, the steps that
made the final state, the actions among them, the whole history, the final state.

:func:`audit_data` makes it as data (every history entry decoded, the line found by
:func:`~referee.matches.history.line_at`, then each item written again): the reference.
:func:`audit_texts` makes the same bytes for a tenth of the CPU (issue 21 item 1: the audit of
the 12,793-action match, 2.6 MB, cost ~60-75 ms, ~45 of them decoding entries that are then
written again; now ~6 ms): its long lists are texts cut from those the store keeps
(:meth:`~referee.store.MatchStore.history_texts`), each the very text the answer's writer
(``current_app.json``: compact, ``ensure_ascii``, keys in insertion order) writes for the
item, because

* an entry this version stored is :func:`referee.store.codec.compact`'s text of it, which is
  that writer's text of what it decodes to, unless it holds a non-finite number (``NaN``:
  ``json`` writes ``NaN``, the app's orjson writer ``null``; no schema admits one);
* an entry with an ``action`` is ``{"version", "action"}`` exactly (the service commits
  :func:`~referee.matches.history.action_entry`, nothing else with an ``action``), so its text
  is also its step's, and its action's text lies between ``,"action":`` and the last ``}``;
* versions go up by one per entry (one entry per commit, each commit the next version), so
  the line at any version follows from the few entries that change it (applied rollbacks):
  between two of them, the actions' texts are taken as they are, by C loops (``str.join``,
  ``re``, ``bisect``), not one Python step per entry and field.

Entries are decoded (and written again, as before) only when their text is not compact (as an
older version wrote it, with spaces) or tells of an applied rollback.  :func:`audit_texts`
falls back to :func:`audit_data` when the texts cannot be cut so exactly: the app writes JSON
otherwise, a text holds ``NaN`` or ``Infinity`` outside its strings, the versions do not go up
by one, or more than :data:`~referee.matches.pauses.CHUNK` entries would be decoded (an old
match: the audit as data reads with pauses).  The bytes are the same either way
(``tests/matches/test_audit_texts.py``).
"""
from __future__ import annotations

import bisect
import functools
import itertools
import json
import operator
import re
from typing import TYPE_CHECKING, Any

import orjson

from referee.matches import pauses
from referee.matches.history import actions_of, line_at
from referee.matches.loading import game_entry
from referee.matches.pauses import read_in_chunks
from referee.refusals import Forbidden

if TYPE_CHECKING:
    from referee.matches.service import MatchService

LONG = ("steps", "actions", "history")
"""The audit's fields that grow with the match: lists of plain objects, written in parts."""

_HEAD = '{"version":'
"""How the compact text of an entry starts (every entry's first key is its version)."""

_ODD = re.compile(r'\n(?!\{"version":[0-9]+,"action":)')
"""In the entries' texts joined by newlines (JSON text holds none), the start of one that is
not the compact text of an action entry."""
_COMPACT = re.compile(r'\{"version":[0-9]+,"')
"""How the compact text of an entry (not an action's) starts; ``json.dumps``' text with spaces,
as an older version wrote it, starts ``{"version": ``."""
_APPLIED = '"step":"applied"'
"""In the compact text of an applied rollback's entry (and seldom of another one: read)."""


class Texts(list):
    """The items of a JSON list, each as its JSON text (the writer's text of the item)."""


def audit_data(svc: MatchService, record: dict[str, Any]) -> dict[str, Any]:
    """Seed, setup body, the ``steps`` that made the final state (replay them: actions
    and rollbacks' reshuffles, :mod:`referee.matches.history`), the ``actions`` among them,
    the whole ``history`` (every commit: undone actions, rollbacks and who approved them) and
    the final state of a finished match, as data; 403 ``forbidden`` while it is played (the
    seed tells every future deal)."""
    _opened(record)
    history = svc.history(record)
    pauses.pause()
    steps = line_at(history)
    pauses.pause()
    return {**_head(record), "steps": steps,
            "actions": [s["action"] for s in actions_of(steps)], "history": history,
            "final_state": record["state"]}


def audit_texts(svc: MatchService, record: dict[str, Any], ensure_ascii: bool = True,
                sort_keys: bool = False) -> dict[str, Any]:
    """:func:`audit_data`'s answer with its long lists (:data:`LONG`) as :class:`Texts`, each
    item the text a JSON writer with ``ensure_ascii`` and ``sort_keys`` as given writes for
    :func:`audit_data`'s item (see the module docstring); :func:`audit_data` itself when
    they cannot be cut so, or the writer is not compact with ``ensure_ascii`` and unsorted
    keys.  403 ``forbidden`` while the match is played; 404 if it is gone."""
    _opened(record)
    if not ensure_ascii or sort_keys:
        return audit_data(svc, record)
    texts = svc._or_gone(record["id"], lambda match_id: read_in_chunks(
        functools.partial(svc.store.history_texts, match_id)))
    pauses.pause()
    lists = audit_lists(texts, record["version"])
    pauses.pause()
    if lists is None:
        return audit_data(svc, record)
    return {**_head(record), **lists, "final_state": record["state"]}


def _opened(record: dict[str, Any]) -> None:
    if not game_entry(record["game"]).engine.is_over(record["state"]):
        raise Forbidden("The audit opens when the match is over: until then "
                        "the seed stays secret.")


def _head(record: dict[str, Any]) -> dict[str, Any]:
    return {"id": record["id"], "game": record["game"],
            "setup": {**record["setup"], "seed": record["seed"]}, "seed": record["seed"],
            "commitment": record["commitment"], "version": record["version"]}


def _write(value: Any) -> str:
    """``value``'s compact JSON as the answer's writer writes it (no non-finite number:
    ``ValueError``)."""
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


class _Unusable(Exception):
    """The texts cannot be cut into the answer exactly: make it as data instead."""


def audit_lists(texts: list[str], version: int) -> dict[str, Texts] | None:
    """``{"history", "steps", "actions"}`` of the match whose history entries the store keeps
    as ``texts`` (:meth:`~referee.store.MatchStore.history_texts`), at ``version``: the
    entries up to it, the line at it (:func:`~referee.matches.history.line_at`) and its
    actions, each item as its compact JSON text (``ensure_ascii``, keys in insertion order);
    ``None`` when they cannot be cut from the texts exactly (see the module docstring)."""
    try:
        return _Cut(texts, version).lists()
    except (_Unusable, ValueError, KeyError, TypeError, AttributeError):
        return None


class _Cut:
    """The work of :func:`audit_lists` on ``texts`` up to ``version``.

    ``decoded``: the entries read as data (by position): those not written as compact text
    (``spaced``: written again) and applied rollbacks (which change the line).  ``skipped``:
    the positions of entries that are not actions (a rollback step, a seat change, a
    rematch), in order; every other is one."""

    def __init__(self, texts: list[str], version: int):
        end = len(texts)
        while end and json.loads(texts[end - 1])["version"] > version:
            end -= 1  # committed after the record was read (versions go up along the list)
        self.texts = texts[:end]
        joined = "\n" + "\n".join(self.texts)
        if ("NaN" in joined or "Infinity" in joined) and not _finite(self.texts):
            raise _Unusable("a NaN or an infinity")
        odd = self._odd_positions(joined) if self.texts else []
        self.spaced = [k for k in odd if not _COMPACT.match(self.texts[k])]
        read = sorted({*self.spaced, *(k for k in odd if _APPLIED in self.texts[k])})
        if len(read) > pauses.CHUNK:
            raise _Unusable("more entries to decode than the audit as data reads at once")
        self.decoded = {k: json.loads(self.texts[k]) for k in read}
        self.skipped = [k for k in odd if "action" not in self.decoded.get(k, ())]
        self.first = self._version(0) if self.texts else 2
        if self.texts and self._version(end - 1) != self.first + end - 1 or any(
                entry["version"] != self.first + k for k, entry in self.decoded.items()):
            raise _Unusable("versions that do not go up by one per entry")

    def _odd_positions(self, joined: str) -> list[int]:
        """Positions of the entries that are not an action's compact text, in order."""
        found = [m.start() for m in _ODD.finditer(joined)]
        if not found:
            return []
        # the newline before entry k is at k + the length of the k texts before it
        newlines = list(map(operator.add, range(len(self.texts)),
                            itertools.accumulate(map(len, self.texts), initial=0)))
        return [bisect.bisect_left(newlines, at) for at in found]

    def _version(self, k: int) -> int:
        if k in self.decoded:
            return self.decoded[k]["version"]
        text = self.texts[k]
        return int(text[len(_HEAD):text.index(",", len(_HEAD))])

    def lists(self) -> dict[str, Texts]:
        history = Texts(self.texts)
        pool = list(self.texts)  # each action entry's text is its step's
        for k in self.spaced:
            history[k] = _write(self.decoded[k])
        for k, entry in self.decoded.items():
            if "action" in entry:
                pool[k] = _write({"version": entry["version"], "action": entry["action"]})
        line, reshuffles = self._line(pool)
        steps = Texts(map(pool.__getitem__, line))
        chosen = steps if not reshuffles else [pool[s] for s in line if s not in reshuffles]
        # each a {"version":V,"action":A} text: A follows the first ',"action":'
        actions = Texts([text[text.index(",", len(_HEAD)) + 10:-1] for text in chosen])
        return {"steps": steps, "actions": actions, "history": history}

    def _line(self, pool: list[str]) -> tuple[list[int], set[int]]:
        """``(line, reshuffles)``: the line at the last entry
        (:func:`~referee.matches.history.line_at`) as positions in ``pool`` (an action
        entry's, or a reshuffle step's text added to it), and which of them are reshuffles.

        Found from the end back: the line at entry ``k`` is that at the last applied rollback
        up to ``k`` (the line at its ``to_version``, then its reshuffle), followed by the
        actions after it up to ``k`` (all of them up to ``k`` when there is none); each step
        jumps to an earlier entry, and each item of the line is taken once."""
        acts: list[int] = []  # the positions of the actions, in order
        done = 0
        for k in self.skipped:
            acts.extend(range(done, k))
            done = k + 1
        acts.extend(range(done, len(self.texts)))
        applied = sorted(k for k, entry in self.decoded.items() if "action" not in entry
                         and entry.get("rollback", {}).get("step") == "applied")
        for k in applied:  # line_at knows the lines of version 1 and of the entries before
            to_version = self.decoded[k]["rollback"]["to_version"]
            if to_version != 1 and not 0 <= to_version - self.first < k:
                raise _Unusable(f"no line at version {to_version}")
        pieces: list[list[int]] = []  # the line's parts, last first
        reshuffles: set[int] = set()
        k = len(self.texts) - 1
        while k >= 0:
            index = bisect.bisect_right(applied, k) - 1
            since = applied[index] if index >= 0 else -1
            pieces.append(acts[bisect.bisect_right(acts, since):bisect.bisect_right(acts, k)])
            if index < 0:
                break
            entry = self.decoded[since]
            if entry["rollback"].get("reshuffle") is not None:
                reshuffles.add(len(pool))
                pieces.append([len(pool)])
                pool.append(_write({"version": entry["version"],
                                    "reshuffle": entry["rollback"]["reshuffle"]}))
            to_version = entry["rollback"]["to_version"]
            if to_version == 1:
                break
            k = to_version - self.first
        return list(itertools.chain.from_iterable(reversed(pieces))), reshuffles


def _finite(texts: list[str]) -> bool:
    """Whether ``texts`` hold no ``NaN`` or infinity outside their strings: those holding
    either word are read by orjson, which reads no such number (a text it refuses for another
    reason counts as not finite too: the answer is then made as data)."""
    suspects = [text for text in texts if "NaN" in text or "Infinity" in text]
    try:
        orjson.loads("[" + ",".join(suspects) + "]")
    except orjson.JSONDecodeError:
        return False
    return True
