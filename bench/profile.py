"""Profile the HTTP layer in process: ``.venv/bin/python -m bench.profile [label] [-n N]``.

Calls the product's WSGI app (``bench.echo:app``, no server, no network) ``N`` times with the
bench's request for ``label`` (a row of the results table, e.g. ``"spy apply"``; default
every stateless endpoint in turn) under pyinstrument (``pip install pyinstrument``; not a
dependency of referee) and prints the time per request and the call tree; ``--time-only``:
no profiler, the least CPU per request of 3 rounds (steadier than a server on a busy machine).  The in-process
store is used, so match actions are not profiled here.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import sys
import time

os.environ.pop("REDIS_URL", None)
from bench.servers import BUDGETS  # noqa: E402

os.environ.update(BUDGETS)  # the limits' checks run, no budget is reached
# The access log still gets written (it costs what it costs) but to /dev/null; results go to
# the original standard output.
_OUT = os.fdopen(os.dup(1), "w", buffering=1)
_SINK = os.open(os.devnull, os.O_WRONLY)
os.dup2(_SINK, 1)

from bench.echo import app  # noqa: E402
from bench.payloads import stateless_bodies  # noqa: E402


def environ(path: str, body: bytes) -> dict:
    """A WSGI environ of ``POST path`` with a JSON ``body``."""
    return {"REQUEST_METHOD": "POST", "PATH_INFO": path, "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1", "wsgi.url_scheme": "http",
            "CONTENT_TYPE": "application/json", "CONTENT_LENGTH": str(len(body)),
            "wsgi.input": io.BytesIO(body), "wsgi.errors": sys.stderr, "QUERY_STRING": "",
            "REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": "127.0.0.1:8000"}


def call(path: str, body: bytes) -> int:
    """One request through the app; returns the status code."""
    status = []
    chunks = app(environ(path, body), lambda s, h, e=None: status.append(s))
    b"".join(chunks)
    return int(status[0][:3])


def best_cpu(path: str, body: bytes, n: int, rounds: int = 3) -> float:
    """The least CPU seconds per request over ``rounds`` rounds of ``n`` calls."""
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for _ in range(n):
            call(path, body)
        best = min(best, (time.process_time() - start) / n)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.profile")
    parser.add_argument("label", nargs="?")
    parser.add_argument("-n", type=int, default=500)
    parser.add_argument("--time-only", action="store_true",
                        help="no profiler: only the CPU per request, best of 3 rounds")
    args = parser.parse_args()
    bodies = {k: (p, json.dumps(b).encode()) for k, (p, b) in stateless_bodies().items()}
    bodies["product echo"] = ("/bench/echo", bodies["all-fours apply"][1])
    labels = [args.label] if args.label else list(bodies)
    for label in labels:
        path, body = bodies[label]
        assert call(path, body) == 200, label
        if args.time_only:
            print(f"{label}: {best_cpu(path, body, args.n) * 1e6:.0f} µs CPU per request", file=_OUT)
            continue
        from pyinstrument import Profiler
        profiler = Profiler(interval=0.0002)
        start = time.process_time()
        with profiler:
            for _ in range(args.n):
                call(path, body)
        cpu = (time.process_time() - start) / args.n
        print(f"== {label}: {cpu * 1e6:.0f} µs CPU per request (profiled)", file=_OUT)
        if args.label:
            print(profiler.output_text(unicode=True, color=False, show_all=False), file=_OUT)


if __name__ == "__main__":
    main()
