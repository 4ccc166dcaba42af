"""Slow and idle clients cannot starve the others (issue 12): gunicorn's gevent worker
(:mod:`referee.serving.worker`) holds 500 of them while other clients are answered quickly, and
closes every one of them after its time limit.

The server runs with 8 s for a request's headers (default 5 s: longer here so the probes fit
inside it on a loaded machine) and 5 s per socket operation (default 30 s) so the test is
quick.  Traffic goes to 127.0.0.1 only.
"""
from __future__ import annotations

import http.client
import socket
import statistics
import time

import pytest

from tests.gunicorn_server import gunicorn

SLOW = 400
"""Connections that send one byte of a request and stop."""

NON_READERS = 100
"""Connections that send whole requests for a large answer and never read it."""

PROBES = 200
"""Requests of a well-behaved client while the slow ones hold their connections (at most)."""

SETTLE_SECONDS = 1.0
"""Time for the worker to accept the 500 and answer each non-reader's first request (a burst
of 500 arriving at once costs ~0.3 s of the worker's CPU; the test is about them being held)."""

MIN_PROBES = 50
"""Fewer probes before the header limit closes the slow connections would prove little."""

HEADER_SECONDS = 8
LIMITS = {"REFEREE_HEADER_TIMEOUT_SECONDS": str(HEADER_SECONDS), "REFEREE_IO_TIMEOUT_SECONDS": "5",
          "REDIS_URL": ""}


@pytest.fixture
def server(free_port):
    """One gevent worker (the in-process store), short limits."""
    port = free_port()
    with gunicorn(port, LIMITS) as base:
        yield port


def open_slow(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(b"G")
    return sock


def open_non_reader(port: int) -> socket.socket:
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # the answer cannot fit
    sock.settimeout(5)
    sock.connect(("127.0.0.1", port))
    request = b"GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n"
    sock.sendall(request * 20)  # ~3.5 MB of answers pipelined, none of them read
    return sock


def closed_by_server(sock: socket.socket, within: float) -> bool:
    """Read (and drop) until the server closes; ``False`` if it is still open after
    ``within`` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        sock.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            if not sock.recv(65536):
                return True
        except ConnectionResetError:
            return True
        except TimeoutError:
            return False
    return False


def probe(port: int) -> float:
    """Seconds for one well-behaved request on a new connection (asserts 200)."""
    start = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", "/v1/games/all-fours")
    response = conn.getresponse()
    body = response.read()
    conn.close()
    assert response.status == 200, body[:200]
    return time.perf_counter() - start


def test_500_slow_clients_do_not_delay_others_and_are_closed(server):
    port = server
    first = time.monotonic()
    slow = [open_slow(port) for _ in range(SLOW)]
    non_readers = [open_non_reader(port) for _ in range(NON_READERS)]
    try:
        time.sleep(SETTLE_SECONDS)  # the worker takes in the 500 (their first answers included)
        # probe only while every slow connection is still held (else the test is vacuous)
        times = []
        while len(times) < PROBES and time.monotonic() < first + HEADER_SECONDS - 1:
            times.append(probe(port))
        assert len(times) >= MIN_PROBES, f"only {len(times)} probes inside the header limit"
        times.sort()
        held = time.monotonic() - first
        p99 = times[max(0, int(len(times) * 0.99) - 1)]
        print(f"held {held:.2f} s; p50 {statistics.median(times)*1000:.1f} ms, p99 {p99*1000:.1f} ms")
        assert p99 < 0.100, f"p99 {p99 * 1000:.1f} ms, median {statistics.median(times)*1000:.1f}"
        # the server closes them: one byte and nothing more for 5 s, answers unread for 5 s
        left_open = [s for s in slow if not closed_by_server(s, within=15)]
        assert not left_open, f"{len(left_open)} of {SLOW} one-byte connections still open"
        left_open = [s for s in non_readers if not closed_by_server(s, within=15)]
        assert not left_open, f"{len(left_open)} of {NON_READERS} non-readers still open"
    finally:
        for sock in slow + non_readers:
            sock.close()
