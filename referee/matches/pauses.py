"""Pauses in the long work of one request, so that one client cannot hold a worker.

A gevent worker runs one greenlet's Python at a time: a request that walks a whole long match
(a rollback's replay of thousands of actions, the audit of a 12,800-action match, a stream
catching up from its start) would keep every other request of the worker waiting until it is
done, 100-400 ms on the longest match.  Such work calls :func:`pause` every so often
(:data:`REPLAY_STEPS` actions replayed, :data:`CHUNK` events or history entries read or
written): under gevent the worker then looks at its sockets and runs whatever became ready
meanwhile before the work goes on, so another client's request waits for about one chunk
(~10 ms), not for the whole.  The total work is not smaller: it is spread.

Outside gevent (the development server's threads, the test client) :func:`pause` does
nothing: threads are preempted anyway.  Engines never pause (they stay pure): the loop that
drives them does (:func:`referee.matches.history.replay`).  Callers look :func:`pause`,
:data:`CHUNK` and :data:`REPLAY_STEPS` up here when they run (``pauses.pause()``), so a test
may change them in one place (``tests/matches/gevent_pauses.py`` turns the pauses off to show
what they change).
"""
from __future__ import annotations

import sys
import time
from typing import Any, Callable

REPLAY_STEPS = 400
"""Actions replayed between two pauses (~30 µs each on the longest Gnoming match: ~12 ms)."""

CHUNK = 1000
"""Events or history entries read, rendered or written between two pauses (a few µs each)."""

PAUSE_SECONDS = 0.0005
"""How long a pause waits: one turn of the worker's loop, in which it polls its sockets (a zero
sleep would not do: gevent runs the callbacks it resumes before polling again; see
:func:`referee.api.fair_share.let_others_first`)."""


def pause() -> None:
    """Let the worker serve others for a moment (a short ``time.sleep``, gevent's once its
    ``time`` module is patched); nothing outside gevent."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is not None and monkey.is_module_patched("time"):
        time.sleep(PAUSE_SECONDS)


def read_in_chunks(read: Callable[[int, int], list[Any]],
                   rest: Callable[[], None] | None = None) -> list[Any]:
    """Every element of a store list, :data:`CHUNK` at a time: ``read(start, count)`` gives
    the ``count`` from index ``start`` (fewer at the end); ``rest()`` (default :func:`pause`)
    between two reads."""
    items: list[Any] = []
    while True:
        got = read(len(items), CHUNK)
        items += got
        if len(got) < CHUNK:
            return items
        (rest or pause)()
