"""The worker writes an answer's head with its first body bytes (issue 25:
:class:`referee.serving.worker.OneWriteResponse`): the bytes on the wire are exactly gunicorn's,
in one ``send`` for a usual answer instead of two; a chunked answer (a match stream) has its
head in the first chunk's write; an answer without a body still sends its head."""
from __future__ import annotations

import gunicorn.http.wsgi
import gunicorn.util
import pytest

from referee.serving.worker import OneWriteResponse


class Sock:
    def __init__(self):
        self.writes: list[bytes] = []

    def sendall(self, data: bytes) -> None:
        self.writes.append(bytes(data))


class Req:
    version = (1, 1)

    def __init__(self, method: str):
        self.method = method

    def should_close(self) -> bool:
        return False


class Cfg:
    protocol = "http"
    sendfile = False
    is_ssl = False


def _answer(cls, method, status, headers, chunks):
    sock = Sock()
    response = cls(Req(method), sock, Cfg())
    response.start_response(status, headers)
    for chunk in chunks:
        response.write(chunk)
    response.close()
    return sock.writes


CASES = {
    "json": ("POST", "200 OK", [("Content-Type", "application/json"), ("Content-Length", "13")],
             [b'{"version":7}']),
    "stream": ("GET", "200 OK", [("Content-Type", "text/event-stream")],
               [b"retry: 2000\n\n", b"event: view\ndata: {}\n\n", b": heartbeat\n\n"]),
    "no content": ("DELETE", "204 NO CONTENT", [], []),
    "head": ("HEAD", "200 OK", [("Content-Length", "13")], [b'{"version":7}']),
    "empty chunk first": ("GET", "200 OK", [], [b"", b"late"]),
}


@pytest.mark.parametrize("case", CASES)
def test_the_same_bytes_as_gunicorn_and_the_head_with_the_first_body_bytes(case, monkeypatch):
    monkeypatch.setattr(gunicorn.util, "http_date", lambda *a: "Fri, 04 Dec 2026 18:00:00 GMT")
    plain = _answer(gunicorn.http.wsgi.Response, *CASES[case])
    ours = _answer(OneWriteResponse, *CASES[case])
    assert b"".join(ours) == b"".join(plain)
    assert ours[0].startswith(b"HTTP/1.1 ")
    if case == "json":
        assert len(plain) == 2 and len(ours) == 1  # head and body: one write
    if case == "stream":
        assert len(ours) == len(plain) - 1 and ours[0].endswith(b"retry: 2000\n\n\r\n")
