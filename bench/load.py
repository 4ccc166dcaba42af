"""A small HTTP/1.1 load generator (asyncio, keep-alive connections to 127.0.0.1).

Two ways to send load, both measuring each response's status and latency:

* :func:`closed_loop` — ``connections`` clients each send the next request as soon as the last
  answer came: the peak throughput.
* :func:`open_loop` — requests are *scheduled* at a fixed rate and handed to a free
  connection; latency counts from the scheduled time, so a server that falls behind shows it
  (no coordinated omission).  Requests not answered by the end of the drain time count as
  infinitely late.

A :class:`Source` makes each connection's next request (bytes), so a connection can stand for
one table of a match, playing its moves in order.  The server's CPU is read by ``cpu()``
(seconds) around the measured window.
"""
from __future__ import annotations

import asyncio
import math
import time
from dataclasses import dataclass, field
from typing import Callable


class Source:
    """Requests to send: ``next(conn)`` is the raw request of connection ``conn`` (``None``:
    this connection has nothing more to send); ``answered(conn, status, body)`` is told of
    each response."""

    def next(self, conn: int) -> bytes | None:
        raise NotImplementedError

    def answered(self, conn: int, status: int, body: bytes) -> None:
        """Called with every response (default: nothing to do)."""


class Fixed(Source):
    """The same request on every connection: ``POST path`` with a JSON ``body`` (bytes)."""

    def __init__(self, path: str, body: bytes, headers: dict[str, str] | None = None):
        self.raw = request_bytes("POST", path, body, headers)

    def next(self, conn: int) -> bytes:
        return self.raw


def request_bytes(method: str, path: str, body: bytes, headers: dict[str, str] | None = None
                  ) -> bytes:
    """An HTTP/1.1 keep-alive request with a JSON body."""
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1",
             "Content-Type: application/json", f"Content-Length: {len(body)}"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


@dataclass
class Result:
    """What one load run measured; latencies in seconds (``inf``: never answered)."""

    seconds: float
    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    cpu: float = 0.0
    offered: float | None = None

    @property
    def answered(self) -> int:
        return sum(self.statuses.values())

    @property
    def throughput(self) -> float:
        """Answers per second."""
        return self.answered / self.seconds if self.seconds else 0.0

    @property
    def cpu_per_request(self) -> float:
        """Server CPU seconds per answered request."""
        return self.cpu / self.answered if self.answered else math.inf

    def percentile(self, p: float) -> float:
        """The ``p``-th percentile latency in seconds (nearest rank)."""
        if not self.latencies:
            return math.inf
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, max(0, math.ceil(p / 100 * len(ordered)) - 1))]

    @property
    def errors(self) -> int:
        """Answers other than 2xx."""
        return sum(n for status, n in self.statuses.items() if not 200 <= status < 300)


def merged(results: list[Result]) -> Result:
    """One result of several runs of the same load (times, answers and CPU added up)."""
    out = Result(sum(r.seconds for r in results), offered=results[0].offered)
    for r in results:
        out.latencies += r.latencies
        out.cpu += r.cpu
        for status, n in r.statuses.items():
            out.statuses[status] = out.statuses.get(status, 0) + n
    return out


class Connection:
    """One keep-alive connection, from the loopback address ``source`` (default: the
    kernel's choice, 127.0.0.1)."""

    def __init__(self, port: int, source: str | None = None):
        self.port, self.source = port, source
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def send(self, raw: bytes) -> tuple[int, bytes]:
        """Send ``raw`` and read the response: ``(status, body)``."""
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(
                "127.0.0.1", self.port,
                local_addr=(self.source, 0) if self.source is not None else None)
        self.writer.write(raw)
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head[9:12])
        length, close = 0, False
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"connection" and value.strip().lower() == b"close":
                close = True
        body = await self.reader.readexactly(length) if length else b""
        if close:
            self.close()
        return status, body

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def _closed(port, source, connections, seconds, cpu) -> Result:
    conns = [Connection(port) for _ in range(connections)]
    result = Result(seconds)
    start_cpu, start = cpu(), time.perf_counter()
    deadline = start + seconds

    async def client(i: int) -> None:
        while time.perf_counter() < deadline:
            raw = source.next(i)
            if raw is None:
                return
            sent = time.perf_counter()
            status, body = await conns[i].send(raw)
            result.latencies.append(time.perf_counter() - sent)
            result.statuses[status] = result.statuses.get(status, 0) + 1
            source.answered(i, status, body)

    await asyncio.gather(*(client(i) for i in range(connections)))
    result.seconds, result.cpu = time.perf_counter() - start, cpu() - start_cpu
    for c in conns:
        c.close()
    return result


async def _open(port, source, connections, rate, seconds, cpu, drain) -> Result:
    conns = [Connection(port) for _ in range(connections)]
    result = Result(seconds, offered=rate)
    queue: asyncio.Queue[float] = asyncio.Queue()
    total = max(1, int(rate * seconds))
    start_cpu, start = cpu(), time.perf_counter()

    async def scheduler() -> None:
        for n in range(total):
            due = start + n / rate
            wait = due - time.perf_counter()
            if wait > 0:
                await asyncio.sleep(wait)
            queue.put_nowait(due)

    async def client(i: int) -> None:
        while True:
            due = await queue.get()
            raw = source.next(i)
            if raw is None:
                queue.put_nowait(due)  # another connection takes it
                return
            status, body = await conns[i].send(raw)
            result.latencies.append(time.perf_counter() - due)
            result.statuses[status] = result.statuses.get(status, 0) + 1
            source.answered(i, status, body)
            queue.task_done()

    clients = [asyncio.ensure_future(client(i)) for i in range(connections)]
    await scheduler()
    try:
        await asyncio.wait_for(_until_done(result, total), start + seconds + drain
                               - time.perf_counter())
    except asyncio.TimeoutError:
        pass
    result.seconds, result.cpu = time.perf_counter() - start, cpu() - start_cpu
    for task in clients:
        task.cancel()
    await asyncio.gather(*clients, return_exceptions=True)
    result.latencies += [math.inf] * (total - result.answered)
    for c in conns:
        c.close()
    return result


async def _until_done(result: Result, total: int) -> None:
    while result.answered < total:
        await asyncio.sleep(0.005)


def closed_loop(port: int, source: Source, connections: int, seconds: float,
                cpu: Callable[[], float]) -> Result:
    """Peak: ``connections`` clients sending back to back for ``seconds``."""
    return asyncio.run(_closed(port, source, connections, seconds, cpu))


def open_loop(port: int, source: Source, connections: int, rate: float, seconds: float,
              cpu: Callable[[], float], drain: float = 2.0) -> Result:
    """A fixed offered load of ``rate`` requests/s for ``seconds`` over ``connections``."""
    return asyncio.run(_open(port, source, connections, rate, seconds, cpu, drain))
