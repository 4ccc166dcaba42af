"""What gunicorn answers and logs itself, on a real server (127.0.0.1): its own errors (a
request line or header it cannot parse, 400; too long, 414/431) are plain text, as README
says; OPTIONS is 204 with ``Allow``; a client whose socket times out is one warning line
without a traceback (issue 12, F9 and the slow-client log)."""
from __future__ import annotations

import json
import socket
import time

import pytest
import requests

from tests.gunicorn_server import gunicorn
from tests.serving.test_connection_close import exchange

LOG_WAIT_SECONDS = 30
"""How long the log is polled for the timeout's line (a bound, not an assertion)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    log = tmp_path_factory.mktemp("gunicorn") / "log.jsonl"
    with gunicorn(port, {"REFEREE_IO_TIMEOUT_SECONDS": "1", "REDIS_URL": ""}, output=log):
        yield port, log


@pytest.mark.parametrize("request_bytes, status", [
    (b"GET /v1/games HTTP/9.1\r\nHost: x\r\n\r\n", 400),            # unknown HTTP version
    (b"GET /v1/games HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n", 400),  # no colon
    (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),   # request line
    (b"GET /v1/games HTTP/1.1\r\nHost: x\r\nX: " + b"a" * 9000 + b"\r\n\r\n", 431),
], ids=["version", "header", "uri-too-long", "header-too-large"])
def test_gunicorn_s_own_errors_are_plain_text(server, request_bytes, status):
    port, _ = server
    try:
        raw, _ = exchange(port, request_bytes, b"")
    except ConnectionResetError:
        pytest.fail("reset before the answer")
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    assert lines[0].startswith(f"HTTP/1.1 {status} "), lines[0]
    assert headers["content-type"] == "text/plain; charset=utf-8"
    assert headers["connection"] == "close"
    assert body.startswith(f"{status} ".encode()) and b"<html" not in body
    assert len(body) == int(headers["content-length"])


def test_options_is_204_with_allow(server):
    port, _ = server
    answer = requests.options(f"http://127.0.0.1:{port}/v1/games", timeout=10)
    assert answer.status_code == 204
    assert {m.strip() for m in answer.headers["Allow"].split(",")} == {"GET", "HEAD",
                                                                       "OPTIONS"}
    assert "Content-Type" not in answer.headers and answer.content == b""


def test_a_client_that_stops_reading_is_one_warning_line_without_a_traceback(server):
    port, log = server
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # the answers cannot fit
    sock.settimeout(5)
    sock.connect(("127.0.0.1", port))
    sock.sendall(b"GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n" * 20)  # never read
    deadline = time.monotonic() + LOG_WAIT_SECONDS
    lines: list[dict] = []
    while time.monotonic() < deadline:
        lines = [json.loads(line) for line in log.read_text().splitlines()
                 if line.startswith("{")]
        if any(line.get("logger") == "gunicorn.error" and "timed out" in line["event"]
               for line in lines):
            break
        time.sleep(0.2)
    sock.close()
    timeouts = [line for line in lines if "timed out" in line.get("event", "")]
    assert len(timeouts) == 1, lines
    assert timeouts[0]["level"] == "warning" and "exc_info" not in timeouts[0]
    assert not [line for line in lines if line.get("level") == "error"], lines
    assert not [line for line in lines if "Traceback" in json.dumps(line)], lines


def test_a_body_whose_socket_read_times_out_is_408_with_close(server):
    # REFEREE_IO_TIMEOUT_SECONDS (1 s here) below the body deadline (10 s): the socket read
    # gives up first and the body ends short of its Content-Length — 408 request-timeout and
    # the connection closed, not a 400 on a kept connection.
    port, _ = server
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(b"POST /v1/games/all-fours/setup HTTP/1.1\r\nHost: x\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n"
                     b'{"players"')
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408"), head
    assert b"connection: close" in head.lower()
    assert json.loads(body)["type"] == "/problems/request-timeout"
