"""Answers after which the connection closes say ``Connection: close`` and close cleanly (the
client reads the whole answer, then end of file, not a reset), on a real gunicorn: 413 for a
body over the limit, 408 for a body that does not arrive in time (issue 12 item 7)."""
from __future__ import annotations

import json
import socket
import time

import pytest
import requests

from tests.gunicorn_server import gunicorn

BODY_SECONDS = 1


@pytest.fixture(scope="module")
def port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        free = sock.getsockname()[1]
    with gunicorn(free, {"REFEREE_BODY_TIMEOUT_SECONDS": str(BODY_SECONDS), "REDIS_URL": ""}):
        yield free


def exchange(port: int, head: bytes, body: bytes) -> tuple[bytes, float]:
    """Send ``head`` and ``body``, then read until the server closes; the bytes read and the
    seconds it took.  A reset instead of a clean close fails the test."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    start = time.monotonic()
    sock.sendall(head + body)
    received = b""
    while True:
        chunk = sock.recv(65536)  # ConnectionResetError here would be an unclean close
        if not chunk:
            break
        received += chunk
    sock.close()
    return received, time.monotonic() - start


def parse(raw: bytes) -> tuple[str, dict[str, str], dict]:
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return lines[0], headers, json.loads(body)


def test_a_body_over_the_limit_is_413_with_connection_close_and_a_clean_close(port):
    head = (b"POST /v1/games/all-fours/score HTTP/1.1\r\nHost: x\r\nContent-Type: "
            b"application/json\r\nContent-Length: 10000000\r\n\r\n")
    raw, _ = exchange(port, head, b"[" * 200_000)  # the client keeps sending for a while
    status, headers, body = parse(raw)
    assert status.startswith("HTTP/1.1 413 "), status
    assert headers["connection"] == "close"
    assert body["type"] == "/problems/payload-too-large"


def test_a_body_that_stops_arriving_is_408_after_the_body_deadline(port):
    head = (b"POST /v1/games/spy/setup HTTP/1.1\r\nHost: x\r\nContent-Type: "
            b"application/json\r\nContent-Length: 100\r\n\r\n")
    raw, seconds = exchange(port, head, b'{"players": ')
    status, headers, body = parse(raw)
    assert status.startswith("HTTP/1.1 408"), status
    assert headers["connection"] == "close"
    assert body["type"] == "/problems/request-timeout"
    assert BODY_SECONDS <= seconds < BODY_SECONDS + 3


@pytest.mark.parametrize("body", [b'{"players": ["ana", "ben"]}', b"{}"])
def test_a_body_cut_short_by_the_client_closing_is_408_not_read_as_whole(port, body):
    """A client that declares more bytes than it sends and then closes its side: what came
    may be valid JSON, but it is not the body declared (never applied as if it were)."""
    head = (b"POST /v1/games/all-fours/setup HTTP/1.1\r\nHost: x\r\nContent-Type: "
            b"application/json\r\nContent-Length: %d\r\n\r\n" % (len(body) + 100))
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(head + body)
    sock.shutdown(socket.SHUT_WR)
    received = b""
    while chunk := sock.recv(65536):
        received += chunk
    sock.close()
    status, headers, answer = parse(received)
    assert status.startswith("HTTP/1.1 408"), status
    assert headers["connection"] == "close"
    assert answer["type"] == "/problems/request-timeout"
    assert answer["errors"] == [{"field": "body",
                                 "message": f"{len(body)} of {len(body) + 100} bytes"}]


def test_a_normal_answer_keeps_the_connection_alive(port):
    with requests.Session() as session:
        first = session.get(f"http://127.0.0.1:{port}/v1/games")
        assert first.headers["Connection"] == "keep-alive"


def test_405_names_the_allowed_methods(port):
    answer = requests.delete(f"http://127.0.0.1:{port}/v1/games/spy/setup")
    assert answer.status_code == 405
    assert {m.strip() for m in answer.headers["Allow"].split(",")} == {"OPTIONS", "POST"}
    assert answer.json()["type"] == "/problems/method-not-allowed"


@pytest.mark.parametrize("chunks", [
    b"zz\r\n{}\r\n0\r\n\r\n",      # size not hexadecimal
    b"-2\r\n{}\r\n0\r\n\r\n",      # negative size
    b"5\r\n{}\r\n0\r\n\r\n",       # size larger than the data that follows
    b"2\r\n{}0\r\n\r\n",           # chunk data not ended by CRLF
    b"2\n{}\n0\n\n",                # every chunk line ended by a bare LF (RFC 9112 7.1)
    b"2\r\n{}\r\n0\n\n",            # the last chunk's line ended by a bare LF
], ids=["not-hex", "negative", "size-mismatch", "missing-crlf", "bare-lf", "bare-lf-last"])
def test_a_broken_chunked_body_is_400_invalid_body_with_connection_close(port, chunks):
    """gunicorn's chunk parser refuses the framing while the app reads the body: a 400
    problem naming the body, and the connection closes (the stream cannot be framed further),
    never 500 with keep-alive, nor a wait for a CRLF that never comes (that would be a 408
    after the body deadline)."""
    head = (b"POST /v1/games/all-fours/setup HTTP/1.1\r\nHost: x\r\nContent-Type: "
            b"application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
    raw, _ = exchange(port, head, chunks)
    status, headers, body = parse(raw)
    assert status.startswith("HTTP/1.1 400 "), status
    assert headers["connection"] == "close"
    assert headers["content-type"] == "application/problem+json"
    assert body["type"] == "/problems/bad-request"
    assert body["errors"] == [{"field": "body", "message": "broken chunked framing"}]


@pytest.mark.parametrize("size", [b"ffffffffffffffffffff", b"40001", b"7fffffffffffffff"])
def test_a_chunk_size_past_the_body_limit_is_413_at_once_with_connection_close(port, size):
    """A chunk-size line that declares more than REFEREE_MAX_BODY_BYTES (256 KiB: 0x40001 is
    one byte more) is refused when it is read, not waited for until the body deadline (a
    408), and the connection closes."""
    head = (b"POST /v1/games/all-fours/setup HTTP/1.1\r\nHost: x\r\nContent-Type: "
            b"application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
    raw, _ = exchange(port, head, size + b"\r\n{}\r\n0\r\n\r\n")
    status, headers, body = parse(raw)
    assert status.startswith("HTTP/1.1 413 "), status
    assert headers["connection"] == "close"
    assert body["type"] == "/problems/payload-too-large"
    assert body["errors"][0]["field"] == "body"


def test_chunks_within_the_limit_are_read_as_before(port):
    head = (b"POST /v1/games/spy/setup HTTP/1.1\r\nHost: x\r\nContent-Type: "
            b"application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
    data = b'{"players": ["ana", "ben"], "seed": 1}'
    half = len(data) // 2
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in (data[:half], data[half:]))
    raw, _ = exchange(port, head, chunks + b"0\r\n\r\n")
    status, _, body = parse(raw)
    assert status.startswith("HTTP/1.1 200 "), (status, body)
    assert body["state"]["players"] == ["ana", "ben"]
