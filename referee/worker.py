"""The gunicorn worker referee serves with: gevent (one greenlet per connection), so slow or idle
clients cost a greenlet and a socket each, not a thread, and cannot starve the others.

gunicorn's gevent worker already bounds the time to receive a request's line and headers by
``keepalive`` seconds (a ``gevent.Timeout`` around its parser: a client that sends one byte and
stops is closed after it).  This worker adds:

- a timeout on every socket operation (``REFEREE_IO_TIMEOUT_SECONDS``, default 30), so a client
  that never reads its answer, or stops sending a body, is closed instead of holding the
  connection for ever (the whole body's deadline is :func:`referee.api.limits.read_body`'s);
- a send buffer of :data:`SEND_BUFFER_BYTES` per connection: a greenlet yields once the
  buffer is full, so a client that pipelines requests for large answers and reads none gets
  its share of the worker, not all of it (with the kernel's autotuned megabytes per socket,
  one greenlet could write hundreds of answers before the next client is served);
- an answer the app marks ``Connection: close`` (413, 408) really closes, and says so: gunicorn
  ignores that header from an app, so the worker forces the close, and closes gracefully (its
  FIN after the answer, then what the client still sends is read and dropped for at most
  :data:`LINGER_SECONDS`), so the client reads the answer rather than a connection reset.
"""
from __future__ import annotations

import os
import socket
import time

from gunicorn.workers.base_async import AsyncWorker
from gunicorn.workers.ggevent import GeventWorker

SEND_BUFFER_BYTES = 128 * 1024
"""``SO_SNDBUF`` of every client socket (answers larger than this are sent in turns)."""

LINGER_SECONDS = 2.0
"""How long a closing connection keeps reading (and dropping) what the client still sends."""

LINGER_BYTES = 4 * 1024 * 1024
"""At most this much is read and dropped while lingering."""


def io_timeout() -> float:
    """Seconds one send or receive on a client socket may wait (``REFEREE_IO_TIMEOUT_SECONDS``)."""
    return float(os.environ.get("REFEREE_IO_TIMEOUT_SECONDS", 30))


def closes(headers) -> bool:
    """Whether response ``headers`` (WSGI pairs) say ``Connection: close``."""
    return any(k.lower() == "connection" and v.lower() == "close" for k, v in headers)


def linger(sock) -> None:
    """Half-close ``sock`` (our FIN goes after the answer) and drop what the client still sends
    until it closes, :data:`LINGER_SECONDS` pass or :data:`LINGER_BYTES` are read."""
    try:
        sock.shutdown(socket.SHUT_WR)
        deadline = time.monotonic() + LINGER_SECONDS
        dropped = 0
        while dropped < LINGER_BYTES:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            sock.settimeout(left)
            chunk = sock.recv(65536)
            if not chunk:
                return
            dropped += len(chunk)
    except OSError:
        return


class _Closing:
    """A response iterable whose ``close`` lingers on the socket after the answer is sent."""

    def __init__(self, body, sock):
        self.body, self.sock = body, sock

    def __iter__(self):
        return iter(self.body)

    def close(self):
        try:
            if hasattr(self.body, "close"):
                self.body.close()
        finally:
            linger(self.sock)


def honour_connection_close(app):
    """Wrap WSGI ``app`` so that an answer with ``Connection: close`` closes the connection
    (gunicorn's response object is ``start_response.__self__``) after a graceful linger."""
    def wrapped(environ, start_response):
        closing = []

        def start(status, headers, exc_info=None):
            if closes(headers):
                closing.append(True)
                start_response.__self__.force_close()
            return start_response(status, headers, exc_info)

        body = app(environ, start)
        sock = environ.get("gunicorn.socket")
        return _Closing(body, sock) if closing and sock is not None else body
    return wrapped


class RefereeGeventWorker(GeventWorker):
    """gunicorn's ``gevent`` worker with a per-operation timeout on each client socket and
    ``Connection: close`` honoured."""

    def load_wsgi(self):
        """Load the app, wrapped by :func:`honour_connection_close`."""
        super().load_wsgi()
        self.wsgi = honour_connection_close(self.wsgi)

    def handle(self, listener, client, addr):
        """Serve one connection (gunicorn's loop), every socket operation bounded in time."""
        client.settimeout(io_timeout())  # GeventWorker would make it fully blocking
        client.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER_BYTES)
        AsyncWorker.handle(self, listener, client, addr)
