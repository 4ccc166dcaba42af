"""Change notices: how the readers of a match (streams, long-polls) learn that it moved.

One :class:`Feed` per store per process.  A reader opens a :meth:`Feed.watch` on a match,
reads the store, and waits on the watch; every commit or delete of the match sets it
(:meth:`Feed.notify`), so the reader wakes and reads again.  A notice says only *which* match
changed, never what changed: each reader reads the store itself and sees only what it may see.

Waiting costs one :class:`threading.Event` per reader and no thread of its own: under
gunicorn's gevent worker (``threading`` monkey-patched) a watch is a greenlet's event, so one
worker holds thousands of open streams.  :class:`RedisFeed` adds one pub/sub subscription per
process (a single listener on one channel, shared by every watch of the process), fed by the
commit script's ``PUBLISH``; a lost subscription is re-made and every watch woken to resync, so
a lost notice costs delay, never an event.
"""
from __future__ import annotations

import itertools
import logging
import threading
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator

log = logging.getLogger("referee.store")

RESUBSCRIBE_SECONDS = 1.0
"""Pause before re-making a lost Redis subscription."""


_TICKS = itertools.count(1)
"""Orders notices and reads within the process (see :class:`SharedReads`): a tick taken later
is larger."""


class Watch:
    """One reader's wait on one match: :meth:`wait` returns ``True`` once the match changed
    since the last :meth:`clear` (or the feed resynced), ``False`` after ``timeout`` seconds.

    It keeps the tick of the newest notice it was given (at first, the tick of its opening):
    every change made before that tick is in any store read begun after it."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self.noticed = 0  # set by Feed.watch once the watch is registered

    def clear(self) -> int:
        """Forget earlier notices: call before reading the store.  Returns the tick of the
        newest notice (or of the watch's opening), to pass to :meth:`SharedReads.read`: a read
        begun after it shows every change notified so far."""
        self._event.clear()
        return self.noticed

    def wait(self, timeout: float) -> bool:
        """Block this thread (greenlet) up to ``timeout`` seconds for a notice."""
        return self._event.wait(timeout)

    def set(self) -> None:
        """Wake the reader (:meth:`Feed.notify` first records its notice's tick)."""
        self._event.set()


class _Flight:
    """One read of ``key``, begun at tick ``started``; ``done`` once it has its result."""

    def __init__(self, key: tuple) -> None:
        self.key = key
        self.started = next(_TICKS)
        self.done = threading.Event()
        self.result: Any = None
        self.error: BaseException | None = None


class SharedReads:
    """Single-flight reads: the readers of one match woken by one notice share one store read
    (one round trip and one decode of the record per change and process, however many readers
    wait on the match).

    A notice carries the tick at which it arrived (:meth:`Feed.notify`), after its change was
    written, and a reader passes the tick of the newest notice it got (:meth:`Watch.clear`).
    It then takes the result of any read of the same key *begun after that tick* — one still
    in flight (it waits for it) or the match's last finished one — and reads itself only when
    there is none.  So what it gets is never older than the notice that woke it, and every
    reader woken by one notice, whenever it runs, shares the read of the first (under gevent
    the others run while that read waits for Redis, or after it finished).  ``key[0]`` names
    the match: the last finished read of each match is kept until :meth:`forget`."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._flights: dict[tuple, _Flight] = {}
        self._done: dict[Any, _Flight] = {}

    def read(self, read: Callable[..., Any], key: tuple, since: int) -> Any:
        """``read(*key)``, or the result of the same read begun after tick ``since``."""
        with self._lock:
            flight = self._flights.get(key)
            if flight is None or flight.started <= since:
                last = self._done.get(key[0])
                flight = last if last is not None and last.key == key else None
            mine = flight is None or flight.started <= since
            if mine:
                flight = self._flights[key] = _Flight(key)
        if not mine:
            flight.done.wait()
        else:
            try:
                flight.result = read(*key)
            except BaseException as exc:  # handed to every reader of this flight
                flight.error = exc
            finally:
                with self._lock:
                    if self._flights.get(key) is flight:
                        del self._flights[key]
                    last = self._done.get(key[0])
                    if flight.error is None and (last is None or last.started < flight.started):
                        self._done[key[0]] = flight
                flight.done.set()
        if flight.error is not None:
            raise flight.error
        return flight.result

    def forget(self, match: Any) -> None:
        """Drop the last finished read of ``match`` (its last reader has gone)."""
        with self._lock:
            self._done.pop(match, None)


class Feed:
    """Notices within one process (the in-process store's, and the base of the Redis one)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._watches: dict[str, set[Watch]] = {}
        self.reads = SharedReads()

    @contextmanager
    def watch(self, match_id: str) -> Iterator[Watch]:
        """Register a :class:`Watch` on ``match_id`` for the ``with`` block."""
        watch = Watch()
        self._started()
        with self._lock:
            self._watches.setdefault(match_id, set()).add(watch)
            watch.noticed = next(_TICKS)  # after registering: no later notice is missed
        try:
            yield watch
        finally:
            with self._lock:
                watches = self._watches.get(match_id)
                if watches is not None:
                    watches.discard(watch)
                    if not watches:
                        del self._watches[match_id]
                        self.reads.forget(match_id)

    def watching(self) -> int:
        """How many watches are open in this process."""
        with self._lock:
            return sum(len(watches) for watches in self._watches.values())

    def notify(self, match_id: str) -> None:
        """Wake every watch of ``match_id`` in this process, with one notice tick taken now
        (call it once the change is written: every read begun after the tick shows it)."""
        with self._lock:
            tick = next(_TICKS)
            watches = list(self._watches.get(match_id, ()))
            for watch in watches:
                watch.noticed = tick
        for watch in watches:
            watch.set()

    def notify_all(self) -> None:
        """Wake every watch (after a notice may have been lost)."""
        with self._lock:
            tick = next(_TICKS)
            watches = [w for group in self._watches.values() for w in group]
            for watch in watches:
                watch.noticed = tick
        for watch in watches:
            watch.set()

    def _started(self) -> None:
        """Hook: start whatever delivers notices from elsewhere (nothing in process)."""


class RedisFeed(Feed):
    """Notices from every process: one subscription to ``channel`` per process, started with
    the first watch; each message is a match id (published by the commit script and by
    deletes, see :mod:`referee.store.redis_store`)."""

    def __init__(self, client_of, channel: str) -> None:
        super().__init__()
        self._client_of = client_of  # the store's client, made on first use
        self.channel = channel
        self._listener: threading.Thread | None = None
        self._start_lock = threading.Lock()

    def _started(self) -> None:
        with self._start_lock:
            if self._listener is None or not self._listener.is_alive():
                self._listener = threading.Thread(target=self._listen, daemon=True,
                                                  name="referee-feed")
                self._listener.start()

    def _listen(self) -> None:
        """Forever: subscribe, wake every watch (anything may have been missed), relay each
        message to the watches of its match; on a failure wait and subscribe again."""
        while True:
            pubsub = self._client_of().pubsub(ignore_subscribe_messages=True)
            try:
                pubsub.subscribe(self.channel)
                self.notify_all()
                while True:
                    message = pubsub.get_message(timeout=RESUBSCRIBE_SECONDS)
                    if message is not None and message.get("type") == "message":
                        self.notify(message["data"])
            except Exception as exc:  # noqa: BLE001 - any failure: resubscribe, never die
                log.warning("match feed subscription lost (%s); resubscribing",
                            type(exc).__name__)
            finally:
                try:
                    pubsub.close()
                except Exception:  # noqa: BLE001 - the connection is already gone
                    pass
            self.notify_all()
            time.sleep(RESUBSCRIBE_SECONDS)
