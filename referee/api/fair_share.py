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

Requests without a body go first: while one is under way in the process (from the app's first
step to its answer built, less a long-poll's wait: :class:`Light`), a body that gets its turn
waits before its work, at most :data:`LIGHT_FIRST_SECONDS`.  A match read waits on the store
two or three times; without this, a body's work (up to ~20 ms of the worker's one thread)
could start at each of those waits, so the read would wait for several bodies instead of at
most the one already under way when it arrived.  Everything that waits is bounded: a light
request's own work is small, and a body waits for light ones at most that long whatever
another client sends.

A stream's reads take the address's turn too, one part at a time
(:func:`address_turn`): a stream catching up from far behind reads and renders up to 1,000
events a part, and an address may hold 64 streams, all reconnecting from the start.

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
from typing import Callable, ContextManager, Iterator, Mapping

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


LIGHT_FIRST_SECONDS = 0.05
"""At most this long a body, once it has its turn, waits for the requests without a body under
way in the process to finish (app config ``LIGHT_FIRST_SECONDS``)."""


class Light:
    """How many requests without a body are under way in this process; a body's work waits
    (:meth:`clear`) until none is."""

    def __init__(self):
        self._done = threading.Condition()
        self.count = 0

    def enter(self) -> None:
        """A request without a body begins (or a long-poll's wait ends)."""
        with self._done:
            self.count += 1

    def leave(self) -> None:
        """A request counted by :meth:`enter` has built its answer (or begins to wait)."""
        with self._done:
            self.count -= 1
            if not self.count:
                self._done.notify_all()

    def clear(self, seconds: float) -> bool:
        """Wait until no request without a body is under way, at most ``seconds``;
        whether none is."""
        with self._done:
            return self._done.wait_for(lambda: not self.count, seconds)


def _environ_carries_body(environ: dict) -> bool:
    """:func:`carries_body` of a WSGI ``environ`` (before Flask makes its request)."""
    if (environ.get("CONTENT_LENGTH") or "0").strip() not in ("", "0"):
        return True
    return "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()


def counting_light(wsgi_app, light: Light):
    """Wrap ``wsgi_app`` (Flask's) so that each request without a body counts in ``light``
    from its first step (before the budgets' and token's hooks, which wait on the store) to
    its answer built."""
    def wrapped(environ, start_response):
        if _environ_carries_body(environ):
            return wsgi_app(environ, start_response)
        environ["referee.light"] = True
        light.enter()
        try:
            return wsgi_app(environ, start_response)
        finally:
            if environ.pop("referee.light", False):
                light.leave()
    return wrapped


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
    current_app.extensions["referee.light"].clear(
        current_app.config.get("LIGHT_FIRST_SECONDS", LIGHT_FIRST_SECONDS))


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


def address_turn() -> Callable[[], ContextManager]:
    """Within a request: a context manager factory, usable after the request (a stream's
    parts), that holds a turn of the request's address while its block runs and gives it back
    after (a stream never holds one while it writes or waits): so one address's streams
    catching up from far behind run their parts one at a time, like its bodies, and a
    request of another client waits for one part, not for one of each.  No turns configured:
    the block just runs."""
    turns = current_app.extensions.get("referee.turns")
    address = _address()

    @contextlib.contextmanager
    def turn() -> Iterator[None]:
        if turns is None:
            yield
            return
        turns.take(address)
        try:
            if turns.waiting(address) > 1:  # a busy address lets the rest go first
                let_others_first()
            yield
        finally:
            turns.give(address)
    return turn


@contextlib.contextmanager
def idle() -> Iterator[None]:
    """Within a request: give its turn back while the block runs (a long-poll's wait), and
    take one again after; a request without a body no longer counts as under way meanwhile
    (:class:`Light`: bodies would wait for it)."""
    light = request.environ.get("referee.light") and current_app.extensions.get("referee.light")
    if light:
        light.leave()
    address = g.get("turn_of")
    try:
        if address is None:
            yield
            return
        _give()
        try:
            yield
        finally:
            current_app.extensions["referee.turns"].take(address)
            g.turn_of = address
    finally:
        if light:
            light.enter()


def init_app(app: Flask) -> None:
    """Install the turns on ``app`` (call after the budgets' and the token's hooks, before
    the body guard's)."""
    size = app.config.get("REQUESTS_PER_ADDRESS", 0)
    if not app.config.get("RATE_LIMITS_ENABLED", True) or size <= 0:
        return
    app.extensions["referee.turns"] = Turns(size)
    app.extensions["referee.light"] = light = Light()
    app.wsgi_app = counting_light(app.wsgi_app, light)
    app.before_request(_take)
    app.teardown_request(_give)
