"""One run of every referee benchmark: ``./dev bench`` = ``.venv/bin/python -m bench`` (~4 min).

Starts a private redis-server and two gunicorns on 127.0.0.1 (the bare Flask echo, and the
product's app with its no-op echo route), both under the product's gunicorn settings with 2
workers, then measures, each from this separate process:

(a) the ceilings: bare Flask echo and the product's echo of the same JSON body;
(b) validate, apply and legal-actions on a mid-game snapshot of each game, the All Fours
    score of a 6-trick and a 12-trick sheet, the Gnoming score-round;
(c) match actions through Redis (If-Match compare-and-set), several tables in parallel;
    Each again with the memo of passed snapshots off ("(new snapshot)" rows): the main rows
    send one body again and again, so their snapshot is checked once per worker;
(d) for each: peak throughput (closed loop), then at a fixed offered load of half the
    product echo's peak: server CPU per request (workers' utime+stime / answers), p50, p99,
    and the ratio to the product's echo CPU per request;
(e) engine throughput in process (checked actions/s per core, trick sheets/s);
(f) Redis MEMORY USAGE of a match at mid-game: its state key, its logs per action;
(g) the peer comparison (:mod:`bench.peer`, ~3 min more): a table's move on referee (one
    worker, 0, 4 and 8 streams per match, every game) beside boardgame.io's, in alternate
    runs; its Node packages npm-installed into ``bench/peer/node_modules`` on first use.
(h) starvation (:mod:`bench.starvation`, servers of its own, ~50 s): another client's
    ``/livez`` and match reads while one address holds its 64 streams and sends the worst
    bodies;
(i) slow clients (:mod:`bench.slow_clients`, servers of its own, ~10 s): another client's
    answers while 400 one-byte connections and 100 that never read are held, beside none.

Writes the results between the bench markers of ``bench/RESULTS.md`` (other sections kept),
the peer's, (h)'s and (i)'s between their own.  Options: ``--smoke`` (a few requests each:
shows the bench runs, numbers mean nothing), ``--out PATH``, ``--peak S``, ``--fixed S``
(seconds per endpoint), ``--note TEXT``, ``--no-peer`` (skip (g)), ``--no-node`` ((g) without
boardgame.io), ``--peer-seconds S``, ``--peer-rounds N``.
"""
from __future__ import annotations

import argparse
import json
import shlex
import sys
import tempfile
import time
from pathlib import Path

from bench import engines, report, slow_clients, starvation
from bench.peer import __main__ as peer
from bench.load import Fixed, closed_loop, merged, open_loop
from bench.payloads import stateless_bodies
from bench.servers import Gunicorn, RedisServer
from bench.tables import Tables, memory

CONNECTIONS = 16
"""Client connections for the stateless endpoints (2 workers × 8 threads)."""
TABLES = 8
"""Tables playing matches at once (one connection each)."""
ROUNDS = 3
"""Alternate rounds of the two echoes at the fixed load."""


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true",
                        help="a few requests per endpoint: only shows that the bench runs")
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("RESULTS.md"))
    parser.add_argument("--peak", type=float, default=3.0, help="seconds of peak load each")
    parser.add_argument("--fixed", type=float, default=4.0, help="seconds of fixed load each")
    parser.add_argument("--note", default="", help="a line to add to the results")
    parser.add_argument("--no-peer", action="store_true",
                        help="skip the comparison with boardgame.io (bench.peer)")
    peer.options(parser)
    return parser.parse_args(argv)


def measure(server: Gunicorn, source, connections: int, rate: float | None,
            args) -> dict:
    """Warm up, measure the peak, then (with ``rate``) the fixed offered load."""
    cpu = server.cpu_seconds
    closed_loop(server.port, source, connections, args.warm, cpu)
    peak = closed_loop(server.port, source, connections, args.peak, cpu)
    out = {"peak": peak}
    if rate is not None:
        out["fixed"] = open_loop(server.port, source, connections, rate, args.fixed, cpu)
    return out


def ceilings(bare: Gunicorn, product: Gunicorn, body: bytes, rate: float, product_peak,
             args) -> dict:
    """The two echoes at the fixed load in alternate rounds (bare, product, bare, ...), so
    that both see the same share of a busy machine; each figure adds up its rounds."""
    bare_source, echo_source = Fixed("/echo", body), Fixed("/bench/echo", body)
    out = {"bare Flask echo": measure(bare, bare_source, CONNECTIONS, None, args),
           "product echo": {"peak": product_peak}}
    rounds: dict[str, list] = {"bare Flask echo": [], "product echo": []}
    for _ in range(ROUNDS):
        for label, server, source in (("bare Flask echo", bare, bare_source),
                                      ("product echo", product, echo_source)):
            rounds[label].append(open_loop(server.port, source, CONNECTIONS, rate,
                                           args.fixed / ROUNDS * 2, server.cpu_seconds))
    for label, results in rounds.items():
        out[label]["fixed"] = merged(results)
    return out


def check(server: Gunicorn, path: str, body: bytes) -> None:
    """Every measured request must succeed: one is sent first and must answer 200."""
    import requests
    answer = requests.post(server.url + path, data=body, timeout=10,
                           headers={"Content-Type": "application/json"})
    if answer.status_code != 200:
        raise SystemExit(f"bench: {path} answered {answer.status_code}: {answer.text[:300]}")


NEW = " (new snapshot)"
"""Label suffix of the rows served with the snapshot memo off (``REFEREE_SNAPSHOT_MEMO=0``)."""


def new_snapshots(bodies: dict, redis_url: str, logs: Path, rate: float, args) -> dict:
    """validate, apply and legal-actions again, on a server that checks every snapshot as if
    it had never seen it (the memo of passed snapshots off, ``referee.matches.checked_memo``): the
    cost of a snapshot's first request.  The main rows send one body again and again, as the
    phones of a table do between two moves, so their snapshot is checked once per worker."""
    out = {}
    server = Gunicorn("bench.echo:app", redis_url, logs / "new-snapshots.log",
                      env={"REFEREE_SNAPSHOT_MEMO": "0"})
    try:
        for label, (path, body) in bodies.items():
            if label.rsplit(" ", 1)[-1] in ("validate", "apply", "legal-actions"):
                check(server, path, body)
                out[label + NEW] = measure(server, Fixed(path, body), CONNECTIONS, rate, args)
    finally:
        server.stop()
    return out


def main(argv: list[str] | None = None) -> None:
    args = parse(sys.argv[1:] if argv is None else argv)
    if args.smoke:
        args.peak, args.fixed, args.warm, engine_seconds = 0.1, 0.1, 0.02, 0.05
    else:
        args.warm, engine_seconds = 1.0, 2.0
    began = time.time()
    bodies = {label: (path, json.dumps(body).encode())
              for label, (path, body) in stateless_bodies().items()}
    echo_body = bodies["all-fours apply"][1]  # the same body for both ceilings
    logs = Path(tempfile.mkdtemp(prefix="referee-bench-"))
    redis_server = RedisServer()
    runs: dict[str, dict] = {}
    try:
        product = Gunicorn("bench.echo:app", redis_server.url, logs / "product.log")
        try:
            check(product, "/bench/echo", echo_body)
            peak = measure(product, Fixed("/bench/echo", echo_body), CONNECTIONS, None, args)
            rate = peak["peak"].throughput / 2
            bare = Gunicorn("bench.bare:app", redis_server.url, logs / "bare.log")
            try:
                check(bare, "/echo", echo_body)
                runs.update(ceilings(bare, product, echo_body, rate, peak["peak"], args))
            finally:
                bare.stop()
            for label, (path, body) in bodies.items():
                check(product, path, body)
                runs[label] = measure(product, Fixed(path, body), CONNECTIONS, rate, args)
            needed = int(peak["peak"].throughput * (args.warm + args.peak) * 1.5
                         + rate * args.fixed * 1.2) + 50
            tables = Tables(product.url, TABLES, needed)
            runs["match action (Redis)"] = measure(product, tables, TABLES, rate, args)
            if tables.failures:
                raise SystemExit(f"bench: match actions failed: {tables.failures}")
            mem = memory(product.url, redis_server.url)
            worker_class = product.worker_class
        finally:
            product.stop()
        runs.update(new_snapshots(bodies, redis_server.url, logs, rate, args))
    finally:
        redis_server.stop()
    engine_rates = engines.measure(engine_seconds)
    command = shlex.join(["python", "-m", "bench", *(sys.argv[1:] if argv is None else argv)])
    text = report.render(runs=runs, rate=rate, engines=engine_rates, memory=mem,
                         command=command.strip(), worker_class=worker_class,
                         seconds=time.time() - began, smoke=args.smoke, note=args.note,
                         durations=(args.warm, args.peak, args.fixed))
    report.write(args.out, text)
    print(text)
    if not args.no_peer:
        redis_server = RedisServer()
        try:
            print(peer.run(args, redis_server, logs, args.out))
        finally:
            redis_server.stop()
    starved = starvation.run(smoke=args.smoke)
    section = starvation.render(starved, command.strip(), args.note)
    starvation.write(args.out, section)
    print(section)
    section = slow_clients.render(slow_clients.run(smoke=args.smoke), command.strip(),
                                  args.note)
    report.write(args.out, section, slow_clients.BEGIN, slow_clients.END)
    print(section)


if __name__ == "__main__":
    main()
