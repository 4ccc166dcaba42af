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
  :data:`LINGER_SECONDS`), so the client reads the answer rather than a connection reset;
- a chunked body is refused at once, not after the body deadline, when a chunk-size line
  declares more than the body limit in all (:class:`ChunkedBodyTooLarge`: 413) or a chunk
  line ends with a bare LF instead of CRLF (gunicorn's ``InvalidChunkSize``: 400), see
  :class:`BoundedChunkedReader`;
- the answers gunicorn writes itself, before the app sees a request (400 bad request line or
  header, 414, 431, 501…), are ``text/plain`` (:func:`plain_error`), not HTML;
- a client socket that times out (a client that never reads its answer) is one warning line
  without a traceback (:func:`quiet_timeouts`), not an error;
- each client address holds at most its share of the worker's connections
  (``REFEREE_CONNECTIONS_PER_ADDRESS``, default a tenth of ``REFEREE_WORKER_CONNECTIONS``,
  :class:`AddressShares`): a connection past it is answered 429 ``too-many-connections`` at
  once, before a byte of its request is read, and closed (:func:`refuse`), so one address
  trickling header bytes into thousands of sockets holds only its share and the rest of the
  worker's connections stay free for everyone else.

gunicorn has no hook for the last three: its chunk reader class, its error writer and its
"Socket error" log line are replaced or filtered in the worker process only.
"""
from __future__ import annotations

import json
import logging
import os
import socket
import time

import gunicorn.http.message
import gunicorn.util
from gunicorn.http.body import ChunkedReader
from gunicorn.http.errors import InvalidChunkSize
from gunicorn.workers.base_async import AsyncWorker
from gunicorn.workers.ggevent import GeventWorker

from referee.ops.logs import as_warning
from referee.refusals import Refusal

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


class ChunkedBodyTooLarge(Exception):
    """A chunked body whose chunk sizes add up to more than the body limit (the app answers
    413 ``payload-too-large``, :func:`referee.api.limits.read_body`)."""


class BoundedChunkedReader(ChunkedReader):
    """gunicorn's chunked-body reader, which also refuses at once what it would otherwise wait
    for: chunk sizes that add up past :attr:`max_body` (``ffffffffffffffffffff``), and a chunk
    line ended by a bare LF (gunicorn looks for CRLF and would read on until the deadline)."""

    max_body: int | None = None
    """The app's ``MAX_CONTENT_LENGTH`` (set when the worker loads the app)."""
    _declared = 0

    def parse_chunk_size(self, unreader, data=None):
        """The next chunk's size and the bytes after its line; :class:`ChunkedBodyTooLarge`
        once the sizes declared so far pass :attr:`max_body`."""
        size, rest = super().parse_chunk_size(unreader, data)
        self._declared += size
        if self.max_body is not None and self._declared > self.max_body:
            raise ChunkedBodyTooLarge(self._declared)
        return size, rest

    def read_into(self, unreader, buf):
        """gunicorn reads more while a chunk line has no CRLF yet: a LF already in it ends the
        line without CR, which RFC 9112 section 7.1 does not allow (``InvalidChunkSize``)."""
        if b"\n" in buf and buf.count(b"\n") != buf.count(b"\r\n"):
            raise InvalidChunkSize(b"bare LF")
        super().read_into(unreader, buf)


ERROR_TEXT_CHARS = 200
"""gunicorn's own error answers quote at most this much of what it refused."""


def plain_error(sock, status_int, reason, mesg):
    """Write gunicorn's own error answer (``gunicorn.util.write_error``'s signature) as
    ``text/plain``: ``400 Bad Request: Invalid HTTP Version …``, one line, then close
    gracefully (:func:`linger`: the rest of an over-long request line is read and dropped, so
    the client reads the answer, not a reset)."""
    text = f"{status_int} {reason}" + (f": {mesg[:ERROR_TEXT_CHARS]}" if mesg else "")
    body = (text.replace("\r", " ").replace("\n", " ") + "\n").encode("utf-8", "replace")
    head = (f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\nContent-Type: "
            f"text/plain; charset=utf-8\r\nContent-Length: {len(body)}\r\n\r\n")
    gunicorn.util.write_nonblock(sock, head.encode("latin-1") + body)
    linger(sock)


class AddressShares:
    """How many connections each client address holds in this worker, each at most
    ``share``.  One greenlet runs at a time (gevent), so the counts need no lock."""

    def __init__(self, share: int):
        self.share = share
        self.open: dict[str, int] = {}

    def enter(self, address: str) -> bool:
        """Count a new connection of ``address``; ``False`` (not counted) when the address
        already holds its share."""
        held = self.open.get(address, 0)
        if held >= self.share:
            return False
        self.open[address] = held + 1
        return True

    def leave(self, address: str) -> None:
        """A connection of ``address`` counted by :meth:`enter` closed."""
        held = self.open[address] - 1
        if held:
            self.open[address] = held
        else:
            del self.open[address]


def connection_share(worker_connections: int, env=None) -> int:
    """Connections one client address may hold in one worker: ``REFEREE_CONNECTIONS_PER_
    ADDRESS``, default a tenth of ``worker_connections`` (at least 1); ``0`` when there is no
    share: set to 0, ``REFEREE_RATE_LIMITS=off``, or behind trusted proxies
    (``REFEREE_TRUSTED_PROXY_HOPS`` > 0: every connection then comes from a proxy, which must
    share out its clients itself)."""
    env = os.environ if env is None else env
    if env.get("REFEREE_RATE_LIMITS", "on").lower() in ("off", "0", "false", "no"):
        return 0
    if int(env.get("REFEREE_TRUSTED_PROXY_HOPS") or 0) > 0:
        return 0
    return int(env.get("REFEREE_CONNECTIONS_PER_ADDRESS") or max(1, worker_connections // 10))


REFUSE_LINGER_SECONDS = 0.5
"""How long a refused connection keeps reading (and dropping) what its client sends, so the
client reads the 429 rather than a reset."""


def refusal_bytes(share: int) -> bytes:
    """The whole answer to a connection past its address's share: 429 problem+json
    ``too-many-connections`` (English: the request's ``Accept-Language`` is never read) with
    ``Retry-After: 1`` and ``Connection: close``."""
    refusal = Refusal("too-many-connections", f"This address already holds its {share} "
                      "connections to this server process: reuse one (keep-alive), or retry "
                      "in a second.")
    from referee.api.errors import PROBLEMS  # here: the master imports this module, not the app
    status, title = PROBLEMS[refusal.slug]
    body = json.dumps({"type": f"/problems/{refusal.slug}", "title": title, "status": status,
                       "detail": refusal.detail, "errors": [{"field": "client", "message":
                                                             refusal.detail}],
                       "error_count": 1, "limit": share}).encode()
    head = (f"HTTP/1.1 {status} Too Many Requests\r\nConnection: close\r\nContent-Type: "
            f"application/problem+json\r\nContent-Language: en\r\nRetry-After: 1\r\n"
            f"Content-Length: {len(body)}\r\n\r\n")
    return head.encode("latin-1") + body


def refuse(sock, answer: bytes) -> None:
    """Send ``answer`` on a fresh connection without reading its request, then close it
    gracefully within :data:`REFUSE_LINGER_SECONDS`."""
    try:
        sock.settimeout(REFUSE_LINGER_SECONDS)
        sock.sendall(answer)
    except OSError:
        return
    deadline = time.monotonic() + REFUSE_LINGER_SECONDS
    try:
        sock.shutdown(socket.SHUT_WR)
        while (left := deadline - time.monotonic()) > 0:
            sock.settimeout(left)
            if not sock.recv(65536):
                return
    except OSError:
        return


def quiet_timeouts(record: logging.LogRecord) -> bool:
    """A ``gunicorn.error`` log filter: gunicorn logs a client socket's timeout (a client
    that stopped reading its answer or sending its request, after ``REFEREE_IO_TIMEOUT_
    SECONDS``) as an error with a traceback; it is the client's doing, so it becomes one
    warning line without the traceback.  Every other record passes unchanged."""
    exc = record.exc_info[1] if record.exc_info else None
    if isinstance(exc, TimeoutError):
        as_warning(record, "client socket timed out; connection closed")
    return True


class RefereeGeventWorker(GeventWorker):
    """gunicorn's ``gevent`` worker with a per-operation timeout on each client socket,
    ``Connection: close`` honoured and each address's share of connections."""

    shares: AddressShares | None = None
    refusal: bytes = b""

    def load_wsgi(self):
        """Load the app, wrapped by :func:`honour_connection_close`; bound chunked bodies by
        its ``MAX_CONTENT_LENGTH``, write gunicorn's own errors as plain text and log client
        timeouts quietly (this process only)."""
        super().load_wsgi()
        config = getattr(self.wsgi, "config", None) or {}
        BoundedChunkedReader.max_body = config.get("MAX_CONTENT_LENGTH")
        gunicorn.http.message.ChunkedReader = BoundedChunkedReader
        gunicorn.util.write_error = plain_error
        logging.getLogger("gunicorn.error").addFilter(quiet_timeouts)
        self.wsgi = honour_connection_close(self.wsgi)
        share = connection_share(self.worker_connections)
        if share > 0:
            self.shares, self.refusal = AddressShares(share), refusal_bytes(share)

    def handle(self, listener, client, addr):
        """Serve one connection (gunicorn's loop), every socket operation bounded in time;
        refuse it at once when its address holds its share (:func:`refuse`)."""
        address = addr[0] if isinstance(addr, tuple) and addr else ""
        shares = self.shares if address else None  # a Unix socket's peer has no address
        if shares is not None and not shares.enter(address):
            try:
                refuse(client, self.refusal)
            finally:
                gunicorn.util.close(client)
            return
        try:
            client.settimeout(io_timeout())  # GeventWorker would make it fully blocking
            client.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER_BYTES)
            AsyncWorker.handle(self, listener, client, addr)
        finally:
            if shares is not None:
                shares.leave(address)
