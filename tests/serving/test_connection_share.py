"""Each client address holds at most its share of a worker's connections (issue 21 item 2,
:class:`referee.serving.worker.AddressShares`): a connection past it is answered 429
``too-many-connections`` at once, before any of its request is read, and closed, so sockets
trickling header bytes from one address cannot fill the worker's connections.

The finding: 2,100 sockets trickling header bytes (more than the two workers' 2,000
connections) delayed other clients' calls by 1.6-4.9 s: a full worker accepts no one until a
trickler's header time runs out.  Here, in small: a worker of 50 connections (a share of 5 per
address), 60 tricklers from 127.0.0.1 and a header limit of 30 s; another address (127.0.0.2:
all of 127/8 is loopback on Linux) is still served while every admitted trickler is held.
"""
from __future__ import annotations

import http.client
import json
import socket

import pytest

from tests.gunicorn_server import gunicorn

TRICKLERS = 60
SETTINGS = {"REFEREE_RATE_LIMITS": "on", "REFEREE_WORKER_CONNECTIONS": "50",
            "REFEREE_HEADER_TIMEOUT_SECONDS": "30", "REDIS_URL": ""}


@pytest.fixture
def port(free_port):
    port = free_port()
    with gunicorn(port, SETTINGS):
        yield port


def trickle(port: int) -> socket.socket:
    """A connection from 127.0.0.1 that sends the start of a request's headers and stops."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(b"GET /livez HTTP/1.1\r\nHo")
    return sock


def answer_unasked(sock: socket.socket) -> bytes:
    """Everything the server sends on ``sock`` before it closes (nothing more is sent)."""
    sock.settimeout(10)
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


def test_sockets_trickling_headers_from_one_address_hold_only_its_share(port):
    tricklers = [trickle(port) for _ in range(TRICKLERS)]
    try:
        # another address is served at once, though 60 sockets (more than the worker's 50)
        # are trickling: only 5 were let in, the rest refused
        other = http.client.HTTPConnection("127.0.0.1", port, timeout=10,
                                           source_address=("127.0.0.2", 0))
        other.request("GET", "/livez")
        assert other.getresponse().status == 200
        other.close()
        # a fresh connection from the trickling address is told why, without asking
        fresh = socket.create_connection(("127.0.0.1", port), timeout=10)
        head, _, body = answer_unasked(fresh).partition(b"\r\n\r\n")
        fresh.close()
        lines = head.decode().split("\r\n")
        assert lines[0] == "HTTP/1.1 429 Too Many Requests"
        assert {"Content-Type: application/problem+json", "Retry-After: 1",
                "Connection: close", "Content-Language: en"} <= set(lines[1:])
        problem = json.loads(body)
        assert (problem["type"], problem["status"], problem["limit"]) == (
            "/problems/too-many-connections", 429, 5)
        assert problem["errors"] == [{"field": "client", "message": problem["detail"]}]
        # the refused tricklers were closed, the 5 admitted ones are still held (30 s limit)
        refused = [s for s in tricklers if answer_unasked_or_none(s) is not None]
        assert len(refused) == TRICKLERS - 5
    finally:
        for sock in tricklers:
            sock.close()


def answer_unasked_or_none(sock: socket.socket) -> bytes | None:
    """What the server sent before closing ``sock``, or ``None`` if it is still open (held)
    after a second."""
    sock.settimeout(1)
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except TimeoutError:
        return None
    except ConnectionResetError:
        pass
    return data
