"""The ``referee`` command: ``referee serve [--host H] [--port P] [--workers N] [--threads T]``
and ``referee contract [--check]`` (regenerate or check ``openapi.yaml`` and ``schemas/``).

Runs the API under gunicorn with the settings module ``referee.serving.gunicorn_conf`` (shipped in
the package, so an installed wheel serves from any directory).  Without ``REDIS_URL`` matches live
in the process, so only one worker process is allowed (threads are fine); with Redis any number of
workers share the store.
"""
from __future__ import annotations

import argparse
import os
import sys

CONF = "python:referee.serving.gunicorn_conf"
"""gunicorn's ``--config`` for the settings module inside the package."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``referee`` command."""
    parser = argparse.ArgumentParser(prog="referee", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve the API under gunicorn")
    serve.add_argument("--host", default=os.environ.get("REFEREE_HOST", "127.0.0.1"))
    serve.add_argument("--port", type=int, default=int(os.environ.get("REFEREE_PORT", 8000)))
    serve.add_argument("--workers", type=int, default=None,
                       help="worker processes (default 1 without REDIS_URL, else 2×CPU+1)")
    serve.add_argument("--threads", type=int, default=8, help="threads per worker")
    sub.add_parser("contract", add_help=False,
                   help="regenerate openapi.yaml and schemas/ from the code (--check: compare)")
    return parser


def serve_argv(args: argparse.Namespace) -> list[str]:
    """The gunicorn command line for ``args``; raises ``SystemExit`` for several workers on
    the in-process store."""
    workers = args.workers
    if workers is None:
        workers = 1 if not os.environ.get("REDIS_URL") else 2 * (os.cpu_count() or 1) + 1
    if workers < 1:
        raise SystemExit("referee serve: --workers must be at least 1")
    if workers > 1 and not os.environ.get("REDIS_URL"):
        raise SystemExit("referee serve: without REDIS_URL matches live in the process, so "
                         "only --workers 1 is safe (use --threads for concurrency, or set "
                         "REDIS_URL)")
    argv = [sys.executable, "-m", "gunicorn", "--bind", f"{args.host}:{args.port}",
            "--workers", str(workers), "--threads", str(args.threads)]
    argv += ["--config", CONF]
    return argv + ["referee.serving.wsgi:app"]


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``referee`` console script."""
    args, rest = build_parser().parse_known_args(argv)
    if args.command == "contract":
        from referee.contract.files import main as contract
        raise SystemExit(contract(rest))
    if rest:
        build_parser().parse_args(argv)  # reports the unknown arguments and exits
    if args.command == "serve":
        command = serve_argv(args)
        os.execv(command[0], command)


if __name__ == "__main__":  # pragma: no cover
    main()
