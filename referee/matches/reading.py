"""What one reader receives of a match's event log: each event once, with the fields it may see.

Engines tell a secret to some seats by emitting a public event followed by its *private twin*:
the same ``type`` and fields plus the secret, with ``visible_to`` (e.g. Coup's
``replacement_drawn``, ``exchange_drawn``, ``cards_returned``, Gnoming's ``drew``;
:func:`referee.games.base.event`).  A reader allowed to see the twin would otherwise get the
same happening twice; :func:`for_reader` keeps only the twin for them and only the public event
for everyone else.  Every answer built from the log (action answers, ``GET …/events``, the
long-poll and the stream) goes through it, so the rule lives in one place.
"""
from __future__ import annotations

import json
from typing import Any, Callable, Iterable

from referee.games.base import event_visible
from referee.schemas.matches import PAGE_EVENTS
from referee.i18n.answers import localize_event

PAGE_BYTES = 60_000
"""A page stops before its events, written as the answer writes them (compact JSON, non-ASCII
escaped), pass this many bytes: with ``version`` and ``next`` the answer stays under 64 KB
whatever the events (each a few hundred bytes: the longest seen, a 7-player Gnoming
``round_ended``, about 600)."""

_NUMBERING = ("seq", "version", "visible_to")
"""Fields the log adds (or the twin carries) that do not say what happened."""


def is_private_twin(public: dict[str, Any], private: dict[str, Any]) -> bool:
    """True when ``private`` (with ``visible_to``) repeats ``public`` (without it) with more
    fields: same ``type``, and every field of ``public`` but the numbering equal in both."""
    if "visible_to" in public or "visible_to" not in private:
        return False
    return all(private.get(key) == value for key, value in public.items()
               if key not in _NUMBERING)


def for_reader(events: Iterable[dict[str, Any]], viewer: str | None) -> list[dict[str, Any]]:
    """The events ``viewer`` (a player, ``PUBLIC`` or ``REFEREE``) may see, in order, a public
    event dropped when the next one is its private twin that ``viewer`` sees too; messages in
    events rendered in the request's language (:func:`~referee.i18n.answers.localize_event`)."""
    logged = list(events)
    kept = []
    for index, ev in enumerate(logged):
        if not event_visible(ev, viewer):
            continue
        following = logged[index + 1] if index + 1 < len(logged) else None
        if (following is not None and is_private_twin(ev, following)
                and event_visible(following, viewer)):
            continue
        kept.append(localize_event(ev))
    return kept


def page(events: list[dict[str, Any]], limit: int = PAGE_EVENTS
         ) -> tuple[list[dict[str, Any]], int | None]:
    """The first page of ``events`` (a reader's, in order): at most ``limit`` of them and
    under :data:`PAGE_BYTES` (at least one), and ``next``: the ``seq`` to ask for events
    after, when some are left out, else ``None``."""
    size, cut = 0, min(limit, len(events))
    for index, ev in enumerate(events[:cut]):
        size += len(json.dumps(ev, separators=(",", ":"))) + 1
        if size > PAGE_BYTES and index > 0:
            cut = index
            break
    if cut >= len(events):
        return events, None
    return events[:cut], events[cut - 1]["seq"]


def visible_window(read: Callable[[int, int], list[dict[str, Any]]], viewer: str | None,
                   after: int, limit: int) -> list[dict[str, Any]]:
    """What :func:`page` needs of the events ``viewer`` may see after ``seq`` ``after``:
    the same first page and ``next`` as ``for_reader`` of the whole rest of the log gives, from
    a bounded part of it.  ``read(after, count)``: the next ``count`` logged events after
    ``seq`` ``after`` (fewer at the log's end).

    Reads windows of ``2 * limit + 2`` events (doubling while the reader sees too few of
    them) until the log ends (then every visible event after ``after``: the page's ``next``
    may be ``None``) or the reader sees more than ``limit`` of them (then the page stops at
    ``limit`` or before, with the same ``next``).  The last event read may be kept wrongly
    (its private twin, unread, would replace it: :func:`for_reader`), but it is past the
    page: it is the last of more than ``limit``."""
    logged: list[dict[str, Any]] = []
    count = 2 * limit + 2
    while True:
        got = read(after + len(logged), count)
        logged += got
        visible = for_reader(logged, viewer)
        if len(got) < count or len(visible) > limit:
            return visible
        count *= 2
