"""``.venv/bin/python -m bench.peer [--smoke] [--no-node] [--out PATH]``: referee's table move
beside boardgame.io's (see :mod:`bench.peer.measure`), written between the peer markers of
``bench/RESULTS.md`` (the rest kept).  ``python -m bench`` runs it too, after its own rows.
A full run takes about 3 minutes (npm's first install about 20 s more); ``--smoke``, a few
moves each, under a minute.  ``--no-node``: referee's rows only (no Node needed)."""
from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
import time
from pathlib import Path

from bench import report as bench_report
from bench.peer import measure, report
from bench.servers import RedisServer


def options(parser: argparse.ArgumentParser) -> None:
    """The peer's options (shared with ``python -m bench``)."""
    parser.add_argument("--peer-seconds", type=float, default=measure.Settings.seconds,
                        help="seconds at most per peer-comparison run")
    parser.add_argument("--peer-rounds", type=int, default=measure.Settings.rounds)
    parser.add_argument("--no-node", action="store_true",
                        help="referee's rows of the peer comparison only (no Node)")


def settings(args: argparse.Namespace) -> measure.Settings:
    """The run's :class:`~bench.peer.measure.Settings` from the parsed options."""
    if args.smoke:
        return measure.SMOKE
    return dataclasses.replace(measure.Settings(), seconds=args.peer_seconds,
                               rounds=args.peer_rounds)


def run(args: argparse.Namespace, redis: RedisServer, logs: Path, out: Path) -> str:
    """Measure and write the peer section into ``out``; return its text."""
    began = time.time()
    chosen = settings(args)
    results = measure.measure(redis, logs, chosen, node=not args.no_node,
                              say=lambda text: print(text, file=sys.stderr, flush=True))
    text = report.render(results, chosen, time.time() - began, args.smoke)
    bench_report.write(out, text, report.BEGIN, report.END, after=bench_report.END)
    return text


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.peer",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("--out", type=Path, default=Path(__file__).parents[1] / "RESULTS.md")
    options(parser)
    args = parser.parse_args(argv)
    redis = RedisServer()
    try:
        text = run(args, redis, Path(tempfile.mkdtemp(prefix="referee-peer-")), args.out)
    finally:
        redis.stop()
    print(text)


if __name__ == "__main__":
    main()
