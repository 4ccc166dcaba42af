"""Slow and idle clients cannot starve the others (issue 12): gunicorn's gevent worker
(:mod:`referee.serving.worker`) holds 500 of them while every request of another client is
answered, and closes every one of them after its time limit.

No latency is asserted here (the suite has no timed tests): how long the other client waits
beside the 500, and beside none, is measured by ``python -m bench.slow_clients``
(bench/RESULTS.md, "Slow clients"), whose helpers open the 500 and read the server's side of
each connection from ``/proc/net/tcp``.  What is checked is counted:

- each of :data:`PROBES` requests of another client, made while the worker holds all 500
  (accepted before the first, none closed after the last), answers 200 with the very body it
  answered before they came;
- the server closes each of the 500 (EOF or a reset on the client's socket): one byte and
  nothing more within its header limit, unanswered; answers left unread past its socket
  limit;
- a match made before them is still there after them (one worker, the in-process store:
  the worker was not restarted, nothing it held was lost).

The server runs with 10 s for a request's headers (default 5 s) and 10 s per socket
operation (default 30 s): long enough for the probes to be made while the 500 are held even
on a loaded machine, short enough for a quick test.  The waits are deadlines far past those
limits (:data:`bench.slow_clients.WAIT_SECONDS`), not speed claims.  Traffic goes to
127.0.0.1 only.
"""
from __future__ import annotations

import selectors
import socket
import time
from pathlib import Path

import pytest
import requests

from bench.slow_clients import (NON_READERS, SLOW, WAIT_SECONDS, held_by_server, open_500, probe,
                                 wait_until)
from tests.gunicorn_server import gunicorn

PROBES = 50
"""Requests of a well-behaved client, each on a new connection, while the 500 are held."""

HEADER_SECONDS = IO_SECONDS = 10
LIMITS = {"REFEREE_HEADER_TIMEOUT_SECONDS": str(HEADER_SECONDS),
          "REFEREE_IO_TIMEOUT_SECONDS": str(IO_SECONDS), "REDIS_URL": ""}

pytestmark = pytest.mark.skipif(not Path("/proc/net/tcp").is_file(),
                                reason="reads the server's sockets from /proc/net/tcp (Linux)")


@pytest.fixture
def server(free_port):
    """One gevent worker (the in-process store), short limits."""
    port = free_port()
    with gunicorn(port, LIMITS):
        yield port


def read_until_closed(socks: list[socket.socket]) -> list[bytes | None]:
    """Read every one of ``socks`` at once until the server closes it (EOF or a reset): what
    each one read; ``None`` for one still open after :data:`WAIT_SECONDS`.  (All at once: one
    after the other, a connection closed with answers still unsent takes a while to drain
    through its 4 KiB window.)"""
    deadline = time.monotonic() + WAIT_SECONDS
    received: dict[socket.socket, list[bytes]] = {sock: [] for sock in socks}
    done: dict[socket.socket, bytes] = {}
    with selectors.DefaultSelector() as selector:
        for sock in socks:
            sock.setblocking(False)
            selector.register(sock, selectors.EVENT_READ)
        while len(done) < len(socks) and (left := deadline - time.monotonic()) > 0:
            for key, _ in selector.select(left):
                try:
                    chunk = key.fileobj.recv(65536)
                except BlockingIOError:
                    continue
                except ConnectionResetError:
                    chunk = b""
                if chunk:
                    received[key.fileobj].append(chunk)
                else:
                    done[key.fileobj] = b"".join(received[key.fileobj])
                    selector.unregister(key.fileobj)
    return [done.get(sock) for sock in socks]


def test_500_slow_clients_are_held_while_others_are_answered_then_closed(server):
    port = server
    base = f"http://127.0.0.1:{port}"
    status, before, _ = probe(port)
    assert status == 200, before[:200]
    created = requests.post(f"{base}/v1/matches", timeout=WAIT_SECONDS, json={
        "game": "all-fours", "players": ["ana", "ben"], "dealer": "ana", "seed": 42})
    assert created.status_code == 201, created.text[:300]
    match = created.json()
    # 400 one-byte connections and 100 non-readers, all accepted by the worker, and each
    # non-reader's first answer begun (else RuntimeError after WAIT_SECONDS)
    everyone = open_500(port)
    assert (SLOW, NON_READERS, len(everyone)) == (400, 100, 500)
    ends = [sock.getsockname() for sock in everyone]
    try:
        answers = [probe(port)[:2] for _ in range(PROBES)]
        # every probe was made while the worker held all 500: it closed none of them
        held = held_by_server(port, ends)
        assert held == 500, (
            f"the worker held {held} of the 500 once the {PROBES} probes were answered: the "
            f"probes outlasted the {HEADER_SECONDS} s limits, so they prove nothing")
        wrong = [(status, body[:200]) for status, body in answers
                 if (status, body) != (200, before)]
        assert not wrong, f"{len(wrong)} of {PROBES} probes answered otherwise: {wrong[:3]}"
        # the server closes them: one byte and nothing more for 10 s, answers unread for 10 s
        # (the non-readers are not read before the server's side is closed: reading them
        # would let their answers go out and their connections live on)
        wait_until(lambda: held_by_server(port, ends) == 0, "the server did not close all 500")
        read = read_until_closed(everyone)
        assert read.count(None) == 0, f"{read.count(None)} of the 500 still open"
        assert set(read[:SLOW]) == {b""}, "a one-byte connection was answered"
        assert all(answer.startswith(b"HTTP/1.1 200 OK\r\n") for answer in read[SLOW:])
    finally:
        for sock in everyone:
            sock.close()
    # the same worker still serves, and still has what it held before them
    assert probe(port)[:2] == (200, before)
    token = match["seats"]["ana"]
    read_back = requests.get(f"{base}/v1/matches/{match['id']}", timeout=WAIT_SECONDS,
                             headers={"Authorization": f"Bearer {token}"})
    assert read_back.status_code == 200, read_back.text[:300]
    assert read_back.json()["id"] == match["id"]
