"""Each client address's share of a worker's time: at most ``REFEREE_REQUESTS_PER_ADDRESS``
(default 1) of one address's requests that carry a body do their work at once in one worker
process; the address's other such requests wait for a turn, so one client sending many costly
bodies (each bounded, but many at once) delays itself, never the others.

Only a request that carries a body (:func:`carries_body`: ``Content-Length`` above 0, or
chunked) takes a turn: the costly work is reading, parsing and checking a body, up to the
body limit.  A request without one (``/livez``, a match read, its events, a stream opening)
has small work, bounded whatever the client sends, and never waits for a turn — not behind
another request of its own address, nor behind a body of the same client's that holds the
turn (its budgets and the caps on streams and connections bound how many it sends).

A gevent worker runs one greenlet's Python at a time, in the order they became ready: without
turns, a client with a hundred connections each sending a costly body puts a hundred requests
ahead of anyone else's ``/livez``.  With turns, at most ``REFEREE_REQUESTS_PER_ADDRESS`` of them
are ever ready at once; and a request whose address has more waiting for a turn, once it gets
its own, lets the worker look at its sockets first (:func:`let_others_first`), so a light
client's request waits for about one of a heavy client's, never for its queue.

A turn is taken after the body has arrived (:func:`referee.api.limits.read_body`: a slow sender
holds no turn while it sends) and before it is parsed; it is given back when the answer is
built, before it is written (a slow reader holds none either).  A long-poll or a stream carries
no body, so it holds none; one sent with a body gives its turn back while it waits
(:func:`idle`).  Calls refused before (budgets, tokens, 413) take none.  ``0`` or ``REFEREE_RATE_LIMITS=off``: no turns.
"""
from __future__ import annotations

import contextlib
import os
import threading
import time
from typing import Iterator, Mapping

from flask import Flask, current_app, g, request

from referee.api.limits import read_body


def settings(env: Mapping[str, str] | None = None) -> dict[str, int]:
    """Flask config of the turns from ``env`` (default ``os.environ``)."""
    env = os.environ if env is None else env
    return {"REQUESTS_PER_ADDRESS": int(env.get("REFEREE_REQUESTS_PER_ADDRESS") or 1)}


class Turns:
    """``size`` turns per address (a semaphore each, made while the address has requests in
    the process and dropped after)."""

    def __init__(self, size: int):
        self.size = size
        self._lock = threading.Lock()
        self._gates: dict[str, list] = {}  # address -> [semaphore, requests using it]

    def take(self, address: str) -> None:
        """Wait for a turn of ``address``."""
        with self._lock:
            gate = self._gates.get(address)
            if gate is None:
                gate = self._gates[address] = [threading.Semaphore(self.size), 0]
            gate[1] += 1
        gate[0].acquire()

    def give(self, address: str) -> None:
        """Give back a turn of ``address`` taken by :meth:`take`."""
        with self._lock:
            gate = self._gates[address]
            gate[1] -= 1
            if gate[1] == 0:
                del self._gates[address]
        gate[0].release()

    def waiting(self, address: str) -> int:
        """How many requests of ``address`` hold or wait for a turn (tests)."""
        with self._lock:
            gate = self._gates.get(address)
            return gate[1] if gate else 0


def _address() -> str:
    return request.remote_addr or "-"


def carries_body() -> bool:
    """Whether the request carries a body: a ``Content-Length`` above 0 or a chunked
    ``Transfer-Encoding`` (whatever its method)."""
    if request.content_length:
        return True
    return "chunked" in request.headers.get("Transfer-Encoding", "").lower()


def _take() -> None:
    turns = current_app.extensions.get("referee.turns")
    if turns is None or g.get("turn_of") is not None or not carries_body():
        return
    if request.method in ("POST", "PUT", "PATCH"):
        read_body()  # the whole body first, with no turn held (cached for the guard)
    address = _address()
    turns.take(address)
    g.turn_of = address
    if turns.waiting(address) > 1:  # a busy address lets the rest of the worker go first
        let_others_first()


YIELD_SECONDS = 0.0005
"""How long a busy address's request waits, once it has its turn, before its work: one turn of
the worker's loop, in which it looks at its sockets."""


def let_others_first() -> None:
    """Let the worker look at its sockets before this request's work, so a request that
    arrived meanwhile (another client's) runs first: a short timer (:data:`YIELD_SECONDS`).
    ``sleep(0)`` would not do under gevent: a turn handed over by a semaphore and a zero
    sleep both resume through the loop's callbacks, which it runs, these included, before it
    polls the sockets again — so one address's requests would run back to back, the others'
    sockets unread; ``gevent.idle`` would wait for a worker with nothing else to do, which a
    busy one never is."""
    time.sleep(YIELD_SECONDS)


def _give(_exc=None) -> None:
    address = g.pop("turn_of", None)
    if address is not None:
        current_app.extensions["referee.turns"].give(address)


@contextlib.contextmanager
def idle() -> Iterator[None]:
    """Within a request: give its turn back while the block runs (a long-poll's wait), and
    take one again after."""
    address = g.get("turn_of")
    if address is None:
        yield
        return
    _give()
    try:
        yield
    finally:
        current_app.extensions["referee.turns"].take(address)
        g.turn_of = address


def init_app(app: Flask) -> None:
    """Install the turns on ``app`` (call after the budgets' and the token's hooks, before
    the body guard's)."""
    size = app.config.get("REQUESTS_PER_ADDRESS", 0)
    if not app.config.get("RATE_LIMITS_ENABLED", True) or size <= 0:
        return
    app.extensions["referee.turns"] = Turns(size)
    app.before_request(_take)
    app.teardown_request(_give)
