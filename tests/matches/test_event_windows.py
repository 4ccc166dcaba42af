"""``GET …/events`` and the long-poll read a window of the log, not the whole of it (issue 21
item 1: ``GET …/events?after=0`` of a 12,793-action match read and rendered 19,000 events,
77 ms, to answer 100): the windowed page must be byte for byte the page of the whole log, for
every reader, every ``after`` and every ``limit``, on the in-process store and on Redis.

The one hard case is a window's edge between a public event and its private twin
(:func:`referee.matches.reading.for_reader` keeps one of the two, by the next event): Coup's
exchanges (COUP-A7) log ``exchange_drawn`` and ``cards_returned`` twice, public then private,
and an 8-seat match of stalling moves holds many of them."""
from __future__ import annotations

import random

from referee.matches.callers import Caller
from referee.matches.reading import for_reader, page, visible_window
from referee.matches.service import MatchService
from tests.matches.test_event_pages import long_coup
from tests.matches.test_rollback_idempotency import store, two_apps  # noqa: F401 - fixture

READERS = [Caller(host=True), Caller(seat="ana"), Caller(seat="ben"), Caller()]


def test_a_page_read_by_windows_is_the_page_of_the_whole_log(store, table):
    client, _ = two_apps(store)
    game = long_coup(client, table, 120)
    kept = client.application.extensions["referee.store"]
    svc = MatchService(kept, 3600)
    record = svc.load(game.id)
    logged = kept.events(game.id)
    twins = [ev["seq"] for ev in logged if "visible_to" in ev]
    assert len(twins) >= 10, "too few private twins to try a window's edge on"
    afters = range(len(logged) + 1)
    for caller in READERS:
        for limit in (1, 2, 3, 100, 200):
            for after in afters if limit < 100 else afters[::5]:
                whole = page(for_reader(logged[after:], caller.viewer), limit)
                windowed = svc.events(record, caller, after, limit)
                assert (windowed["events"], windowed["next"]) == whole, (
                    caller.viewer, limit, after)
                assert windowed["version"] == record["version"]


def synthetic_log(rng: random.Random, length: int) -> list[dict]:
    """A log of public events, public events followed by their private twin (to ana or to
    ben) and events only ben may see, in random order: a reader (ana, the public) may see
    few of a window, or all of it."""
    logged: list[dict] = []
    while len(logged) < length:
        kind = rng.choice(["public", "twin", "twin", "ben", "ben", "ben"])
        public = {"type": "drew", "n": len(logged)}
        if kind == "public":
            logged.append(public)
        elif kind == "twin":
            logged += [public, {**public, "card": "x", "visible_to": [rng.choice(["ana",
                                                                                 "ben"])]}]
        else:
            logged.append({"type": "secret", "visible_to": ["ben"]})
    return [{**ev, "seq": seq} for seq, ev in enumerate(logged[:length], start=1)]


def test_visible_window_pages_as_the_whole_log_for_readers_who_see_few_events():
    rng = random.Random(21)
    for _ in range(40):
        logged = synthetic_log(rng, rng.randrange(0, 60))
        for viewer in ("ana", "ben", None, "__referee__"):
            for limit in (1, 2, 3, 5):
                for after in range(len(logged) + 1):
                    def read(start, count):
                        return logged[start:start + count]
                    whole = page(for_reader(logged[after:], viewer), limit)
                    assert page(visible_window(read, viewer, after, limit), limit) == whole, (
                        viewer, limit, after, logged)
