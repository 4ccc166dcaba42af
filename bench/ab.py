"""Side by side under gunicorn: ``.venv/bin/python -m bench.ab --a PATH [--b PATH]``.

Serves the product's echo (``bench.echo:app``) from two checkouts at once — A (``--a``, e.g. a
``git worktree`` of main) and B (``--b``, default this one) — plus the bare Flask echo, each
under the product's gunicorn settings with 2 workers, and sends them the same fixed offered
load in alternate rounds (bare, A, B, then B, A, bare…), so all three see the same share of a busy
machine.  Prints the workers' CPU per answered request (utime+stime from ``/proc``, as
``python -m bench`` measures it) of each over all rounds, and B ÷ bare, A ÷ bare.  Numbers
only: nothing is written to ``bench/RESULTS.md``.
"""
from __future__ import annotations

import argparse
import json
import statistics
import tempfile
from pathlib import Path

from bench.load import Fixed, closed_loop, merged, open_loop
from bench.payloads import stateless_bodies
from bench.servers import ROOT, Gunicorn, RedisServer

CONNECTIONS = 16


def alternate(servers: dict, rounds: int, measure, per_unit, unit: str) -> dict[str, list]:
    """``measure(server)`` of each of ``servers`` (``{name: server}``) in ``rounds`` rounds,
    in alternate order (A, B, then B, A…) so that all see the same share of a busy machine;
    prints each round's ``per_unit(result)`` (seconds, shown in µs per ``unit``).  Returns
    ``{name: [result of each round]}``."""
    out: dict[str, list] = {name: [] for name in servers}
    for n in range(rounds):
        order = list(servers.items())
        line = []
        for name, server in (order if n % 2 == 0 else order[::-1]):
            result = measure(server)
            out[name].append(result)
            line.append(f"{name} {per_unit(result) * 1e6:.0f}")
        print(f"round {n + 1}: " + ", ".join(line) + f" µs/{unit}", flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.ab", description=__doc__.split("\n")[0])
    parser.add_argument("--a", type=Path, required=True, help="checkout A (e.g. main)")
    parser.add_argument("--b", type=Path, default=ROOT, help="checkout B (default this one)")
    parser.add_argument("--rate", type=float, default=800.0, help="offered requests/s")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per round")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--no-bare", action="store_true", help="only A and B")
    parser.add_argument("--env-b", action="append", default=[], metavar="NAME=VALUE",
                        help="an environment variable for B's server only (repeatable)")
    args = parser.parse_args()
    body = json.dumps(stateless_bodies()["all-fours apply"][1]).encode()
    logs = Path(tempfile.mkdtemp(prefix="referee-ab-"))
    redis_server = RedisServer()
    servers = {}
    try:
        if not args.no_bare:
            servers["bare"] = (Gunicorn("bench.bare:app", redis_server.url, logs / "bare.log",
                                        root=args.b), Fixed("/echo", body))
        env_b = dict(item.split("=", 1) for item in args.env_b)
        for name, root, env in (("A", args.a, {}), ("B", args.b, env_b)):
            servers[name] = (Gunicorn("bench.echo:app", redis_server.url,
                                      logs / f"{name}.log", env=env, root=root.resolve()),
                             Fixed("/bench/echo", body))
        for server, source in servers.values():  # warm up
            closed_loop(server.port, source, CONNECTIONS, 1.0, server.cpu_seconds)
        rounds = alternate(servers, args.rounds, lambda served: open_loop(
            served[0].port, served[1], CONNECTIONS, args.rate, args.seconds,
            served[0].cpu_seconds), lambda result: result.cpu_per_request, "req")
        total = {name: merged(results) for name, results in rounds.items()}
        for name, result in total.items():
            print(f"{name}: {result.cpu_per_request * 1e6:.0f} µs/req over {result.answered} "
                  f"answers, p50 {result.percentile(50) * 1e3:.1f} ms, "
                  f"p99 {result.percentile(99) * 1e3:.1f} ms, non-2xx {result.errors}")
        if "bare" in total:
            bare = total["bare"].cpu_per_request
            for name in ("A", "B"):
                print(f"{name} ÷ bare: {total[name].cpu_per_request / bare:.3f}")
        print(f"B ÷ A: {total['B'].cpu_per_request / total['A'].cpu_per_request:.3f}; median "
              "of the rounds' B ÷ A: " + f"{statistics.median(b.cpu_per_request / a.cpu_per_request for a, b in zip(rounds['A'], rounds['B'])):.3f}")
    finally:
        for server, _ in servers.values():
            server.stop()
        redis_server.stop()


if __name__ == "__main__":
    main()
