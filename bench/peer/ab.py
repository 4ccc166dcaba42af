"""Side by side, a table's move on two checkouts: ``.venv/bin/python -m bench.peer.ab --a PATH
[--b PATH] [--game coup] [--streams 4] [--rounds 6]``.

Serves referee from checkout A (``--a``, e.g. ``git archive main`` unpacked) and checkout B
(``--b``, default this one), each one gunicorn worker on one private Redis, and plays the same
table moves (:mod:`bench.peer.tables`: legal-actions read, POST with ``If-Match``, delivery to
``--streams`` streams per match) on each in alternate rounds (A, B, then B, A…), so both see
the same share of a busy machine.  Prints each round's server CPU per move and, over all
rounds, each side's CPU per move (worker; worker + Redis) and B ÷ A.  Numbers only: nothing is
written to ``bench/RESULTS.md``.
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

from bench.ab import alternate
from bench.peer import tables
from bench.peer.tables import merged
from bench.servers import ROOT, Gunicorn, RedisServer, process_cpu


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.peer.ab",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--a", type=Path, required=True, help="checkout A (e.g. main)")
    parser.add_argument("--b", type=Path, default=ROOT, help="checkout B (default this one)")
    parser.add_argument("--game", default="coup")
    parser.add_argument("--streams", type=int, default=4)
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--moves", type=int, default=400, help="moves per round and side")
    parser.add_argument("--seconds", type=float, default=5.0, help="at most, per round")
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    logs = Path(tempfile.mkdtemp(prefix="referee-peer-ab-"))
    redis = RedisServer()
    redis_cpu = lambda: process_cpu(redis.proc.pid)  # noqa: E731
    servers = {}
    try:
        for name, root in (("A", args.a), ("B", args.b)):
            servers[name] = Gunicorn("referee.serving.wsgi:app", redis.url,
                                     logs / f"{name}.log", root=root.resolve(), workers=1)
        for server in servers.values():  # warm up
            tables.run(server.port, args.game, args.streams, args.tables, args.moves // 2,
                       args.seconds, server.cpu_seconds, redis_cpu)
        rounds = alternate(servers, args.rounds, lambda server: tables.run(
            server.port, args.game, args.streams, args.tables, args.moves, args.seconds,
            server.cpu_seconds, redis_cpu), lambda run: run.cpu / run.moves, "move")
        total = {name: merged(runs) for name, runs in rounds.items()}
        for name, run in total.items():
            print(f"{name}: {run.cpu / run.moves * 1e6:.0f} µs/move (with Redis "
                  f"{(run.cpu + run.redis_cpu) / run.moves * 1e6:.0f}) over {run.moves} moves, "
                  f"{run.moves / run.seconds:.0f} moves/s")
        a, b = total["A"], total["B"]
        print(f"B ÷ A: {(b.cpu / b.moves) / (a.cpu / a.moves):.3f}; median of the rounds' "
              "B ÷ A: " + f"{statistics.median((y.cpu / y.moves) / (x.cpu / x.moves) for x, y in zip(rounds['A'], rounds['B'])):.3f}")
    finally:
        for server in servers.values():
            server.stop()
        redis.stop()


if __name__ == "__main__":
    main()
