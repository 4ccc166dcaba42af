"""The peer comparison's runs: referee's table moves and boardgame.io's, in alternate turns.

referee runs as ``referee serve`` would (the shipped gunicorn settings and gevent worker) with
**one** worker, as boardgame.io's server is one Node process, on a private Redis; the
rate-limit budgets past reach (:data:`bench.servers.BUDGETS`: their checks still run).
boardgame.io runs its own server (:mod:`bench.peer.node`, in-memory storage).

For each number of streams (0, 4, 8): boardgame.io's move with as many seats connected
(:data:`SEATS`: its smallest game, 3 seats, beside no stream, since its move needs its seats'
connections), then each referee game's; each config twice: :data:`TABLES` tables at once (moves/s
and server CPU per move) and one table (one move in flight: p50, p99).  The next round goes
through the same configs in the reverse order, so both servers see the same share of a busy
machine; each figure adds up its rounds.
"""
from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

from bench.peer import tables
from bench.peer.tables import Run, merged
from bench.servers import Gunicorn, RedisServer, process_cpu
from referee.registry import GAMES

STREAMS = (0, 4, 8)
"""Open streams per match on referee."""
SEATS = {0: 3, 4: 4, 8: 8}
"""boardgame.io's seats (each a connected client that gets every push) beside ``STREAMS``."""
PEER = "boardgame.io"


@dataclass
class Settings:
    """How much each run does: ``seconds`` at most per run, ``moves`` at most per run of
    ``tables`` tables (``latency_moves`` with one table); ``rounds`` alternate rounds."""

    seconds: float = 2.0
    moves: int = 800
    latency_moves: int = 300
    tables: int = 8
    rounds: int = 2
    warmup: float = 0.5


SMOKE = Settings(seconds=0.3, moves=16, latency_moves=8, tables=2, rounds=1, warmup=0.1)


def configs(games: list[str], streams: int, reverse: bool) -> list[tuple[str, int]]:
    """``(PEER, seats)`` then ``(game, streams)`` for each game (reversed for odd rounds)."""
    out = [(PEER, SEATS[streams])] + [(game, streams) for game in games]
    return out[::-1] if reverse else out


def measure(redis: RedisServer, logs: Path, settings: Settings, node: bool = True,
            say=print) -> dict[tuple[str, int], dict[str, Run]]:
    """``{(game or PEER, streams or seats): {"throughput": Run, "latency": Run}}``; with
    ``node`` false, or when Node or its packages cannot be installed or started (said with
    ``say``), referee's rows only."""
    games = sorted(GAMES)
    referee = Gunicorn("referee.serving.wsgi:app", redis.url, logs / "peer-referee.log",
                       workers=1)
    peer = None
    runs: dict[tuple[str, int], dict[str, list[Run]]] = {}
    try:
        if node:
            from bench.peer.node import PeerServer, install
            try:
                peer = PeerServer(install(), logs / "peer-node.log")
            except (OSError, RuntimeError, subprocess.CalledProcessError) as exc:
                say(f"peer: boardgame.io not run ({exc}): referee's rows only")
        if peer is not None:
            peer.run(SEATS[4], settings.tables, settings.warmup, settings.seconds)  # JIT warm
        redis_cpu = lambda: process_cpu(redis.proc.pid)  # noqa: E731
        for game in games:  # warm-up: scripts loaded, connections open, code paths taken
            tables.run(referee.port, game, 1, 2, 2 * settings.latency_moves // 3 or 4,
                       settings.warmup * 2, referee.cpu_seconds, redis_cpu)
        for round_ in range(settings.rounds):
            for streams in (STREAMS if round_ % 2 == 0 else STREAMS[::-1]):
                for who, count in configs(games, streams, reverse=round_ % 2 == 1):
                    if who == PEER and peer is None:
                        continue
                    key = (who, count)
                    if who == PEER:
                        busy = peer.run(count, settings.tables, settings.warmup,
                                        settings.seconds)
                        one = peer.run(count, 1, settings.warmup, settings.seconds)
                    else:
                        busy = tables.run(referee.port, who, count, settings.tables,
                                          settings.moves, settings.seconds,
                                          referee.cpu_seconds, redis_cpu)
                        one = tables.run(referee.port, who, count, 1, settings.latency_moves,
                                         settings.seconds, referee.cpu_seconds, redis_cpu)
                    runs.setdefault(key, {"throughput": [], "latency": []})
                    runs[key]["throughput"].append(busy)
                    runs[key]["latency"].append(one)
                    say(f"peer: {who} {count}: {busy.moves / busy.seconds:.0f} moves/s, "
                        f"{busy.cpu / max(busy.moves, 1) * 1e6:.0f} µs CPU per move")
    finally:
        referee.stop()
        if peer is not None:
            peer.stop()
    return {key: {kind: merged(parts) for kind, parts in found.items()}
            for key, found in runs.items()}
