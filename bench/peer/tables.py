"""referee's side of the peer comparison: tables playing matches with phones following them.

A table plays the bench's random legal playout of its game (:func:`bench.tables.moves`), match
after match, one move at a time.  A move is what a table's phone does: ``GET …/legal-actions``
with the acting seat's token (the host's for a host-only action), ``POST …/actions`` with
``If-Match``, and the move counts as done once each of the match's ``streams`` open streams
(``GET …/stream``, readers cycling through the seats, the host and the public) has read the
``view`` of the new version.  Every match a run will need is created, and its streams opened
and read up to their first view, before the run (a table that still runs out makes one more,
counted in ``created_late``), so the server CPU measured is the moves'.
"""
from __future__ import annotations

import asyncio
import json
import math
import time
from dataclasses import dataclass, field

from bench.load import Connection, request_bytes
from bench.payloads import setup_body
from bench.tables import SEED, moves


@dataclass
class Run:
    """What one run measured: ``moves`` in ``seconds``, each move's latency (seconds), the
    server's CPU seconds (``cpu``, and Redis's ``redis_cpu``), matches made during the run."""

    moves: int = 0
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    cpu: float = 0.0
    redis_cpu: float = 0.0
    created_late: int = 0


def percentile(latencies: list[float], p: float) -> float:
    """The ``p``-th percentile (nearest rank) of ``latencies``; ``inf`` when empty."""
    if not latencies:
        return math.inf
    ordered = sorted(latencies)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(p / 100 * len(ordered)) - 1))]


def merged(runs: list[Run]) -> Run:
    """One run of several (moves, times, latencies and CPU added up)."""
    out = Run()
    for run in runs:
        out.moves += run.moves
        out.seconds += run.seconds
        out.latencies += run.latencies
        out.cpu += run.cpu
        out.redis_cpu += run.redis_cpu
        out.created_late += run.created_late
    return out


class Phone:
    """One open stream: ``version`` is the newest view it has read."""

    def __init__(self) -> None:
        self.version = 0
        self.changed = asyncio.Event()
        self.task: asyncio.Task | None = None

    async def read(self, port: int, path: str, token: str | None) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        auth = f"Authorization: Bearer {token}\r\n" if token else ""
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}"
                     "Accept: text/event-stream\r\n\r\n".encode())
        event = None
        try:
            while True:
                line = await reader.readline()
                if not line:
                    return
                if line.startswith(b"event: "):
                    event = line[7:].strip()
                elif line.startswith(b"data: ") and event == b"view":
                    self.version = json.loads(line[6:])["version"]
                    self.changed.set()
        finally:
            writer.close()

    async def until(self, version: int, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while self.version < version:
            self.changed.clear()
            if self.version >= version:
                return
            await asyncio.wait_for(self.changed.wait(), deadline - time.monotonic())


class Table:
    """One table of ``game`` on the server at ``port`` whose matches have ``streams`` phones
    each; ``matches`` of them made ahead by :meth:`prepare`."""

    def __init__(self, port: int, game: str, streams: int, actions: list[dict]):
        self.port, self.game, self.streams, self.actions = port, game, streams, actions
        self.conn = Connection(port)
        self.pool: list[tuple[dict, list[Phone]]] = []
        self.step = 0
        self.created_late = 0

    async def _call(self, method: str, path: str, body: dict | None = None,
                    **headers: str) -> dict:
        raw = request_bytes(method, path, b"" if body is None else json.dumps(body).encode(),
                            headers)
        try:
            status, answer = await self.conn.send(raw)
        except (asyncio.IncompleteReadError, ConnectionError):
            # the server closed the idle keep-alive connection (after its keepalive seconds)
            # before reading the request: send it again on a new one
            self.conn.close()
            status, answer = await self.conn.send(raw)
        if status not in (200, 201):
            raise RuntimeError(f"{method} {path}: {status} {answer[:300]!r}")
        return json.loads(answer)

    async def _new(self) -> tuple[dict, list[Phone]]:
        match = await self._call("POST", "/v1/matches",
                                 {"game": self.game, "seed": SEED, **setup_body(self.game)})
        readers = [*match["seats"].values(), match["host_token"], None]
        phones = []
        for n in range(self.streams):
            phone = Phone()
            phone.task = asyncio.ensure_future(phone.read(
                self.port, f"/v1/matches/{match['id']}/stream", readers[n % len(readers)]))
            phones.append(phone)
        for phone in phones:
            await phone.until(1)
        return match, phones

    async def prepare(self, count: int) -> None:
        """Make ``count`` matches, their streams open and read up to their first view."""
        for _ in range(count):
            self.pool.append(await self._new())

    async def move(self) -> None:
        """One move: its legal-actions read, its POST, its deliveries to every phone."""
        while self.step >= len(self.actions) or not self.pool:
            if self.pool:
                for phone in self.pool.pop(0)[1]:
                    phone.task.cancel()
            self.step = 0
            if not self.pool:
                self.created_late += 1
                self.pool.append(await self._new())
        match, phones = self.pool[0]
        action = self.actions[self.step]
        version = match["version"] + self.step
        token = match["seats"].get(action["player"], match["host_token"])
        auth = {"Authorization": f"Bearer {token}"}
        path = f"/v1/matches/{match['id']}"
        legal = await self._call("GET", path + "/legal-actions", **auth)
        if legal["version"] != version:
            raise RuntimeError(f"{path} is at version {legal['version']}, not {version}")
        await self._call("POST", path + "/actions", {"action": action},
                         **auth, **{"If-Match": f'"{version}"'})
        self.step += 1
        for phone in phones:
            await phone.until(version + 1)

    def close(self) -> None:
        for _, phones in self.pool:
            for phone in phones:
                phone.task.cancel()
        self.conn.close()


def run(port: int, game: str, streams: int, tables: int, count: int, seconds: float,
        cpu, redis_cpu) -> Run:
    """``tables`` tables of ``game`` with ``streams`` phones per match make ``count`` moves
    in all (or stop after ``seconds``), one move in flight per table."""
    return asyncio.run(_run(port, game, streams, tables, count, seconds, cpu, redis_cpu))


async def _run(port, game, streams, tables, count, seconds, cpu, redis_cpu) -> Run:
    actions = moves(game)
    per_table = math.ceil(count / tables)
    made = [Table(port, game, streams, actions) for _ in range(tables)]
    for table in made:
        await table.prepare(math.ceil(per_table / len(actions)) + 1)
    for table in made:
        table.conn.close()  # idle while the others prepared: reopened by its first move
    result = Run()
    left = [count]
    start_cpu, start_redis, start = cpu(), redis_cpu(), time.perf_counter()
    deadline = start + seconds

    async def play(table: Table) -> None:
        while left[0] > 0 and time.perf_counter() < deadline:
            left[0] -= 1
            began = time.perf_counter()
            await table.move()
            result.latencies.append(time.perf_counter() - began)
            result.moves += 1

    try:
        await asyncio.gather(*(play(table) for table in made))
        result.seconds = time.perf_counter() - start
        result.cpu, result.redis_cpu = cpu() - start_cpu, redis_cpu() - start_redis
        result.created_late = sum(table.created_late for table in made)
    finally:
        for table in made:
            table.close()
        await asyncio.sleep(0)
    return result
