"""CPU and Redis commands per match action, in process (issue 11):
``.venv/bin/python -m bench.match_action [--redis URL] [-n N] [--profile]``.

The product's WSGI app with ``REDIS_URL`` (default ``redis://127.0.0.1:6379/15``: give your
own db; it is flushed) and the bench's budgets (``bench.servers.BUDGETS``: every limit is
checked, none is reached) plays the bench's tables' playouts (:mod:`bench.tables`), each move
``POST /v1/matches/{id}/actions`` with the seat's token and ``If-Match``.  Prints the least CPU
per action (``time.process_time``) of 3 rounds of ``N`` actions, and the Redis commands per
action (``INFO commandstats`` before and after one round; a Lua script's own calls included);
``--profile``: one more round under pyinstrument (``pip install pyinstrument``), its call tree.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import sys
import time

from bench.servers import BUDGETS

os.environ.update(BUDGETS)
_OUT = os.fdopen(os.dup(1), "w", buffering=1)
os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # the access log costs what it costs, unseen

import redis  # noqa: E402

from bench.payloads import setup_body  # noqa: E402
from bench.tables import SEED, moves  # noqa: E402
from referee.serving.app import create_app  # noqa: E402
from referee.registry import GAMES  # noqa: E402


def call(app, method: str, path: str, body: dict | None = None, **headers: str):
    """One request through ``app``'s WSGI callable: ``(status, JSON answer or None)``."""
    raw = b"" if body is None else json.dumps(body).encode()
    environ = {"REQUEST_METHOD": method, "PATH_INFO": path, "SERVER_NAME": "127.0.0.1",
               "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1",
               "wsgi.url_scheme": "http", "CONTENT_TYPE": "application/json",
               "CONTENT_LENGTH": str(len(raw)), "wsgi.input": io.BytesIO(raw),
               "wsgi.errors": sys.stderr, "QUERY_STRING": "", "REMOTE_ADDR": "127.0.0.1",
               "HTTP_HOST": "127.0.0.1:8000"}
    for name, value in headers.items():
        environ["HTTP_" + name.upper()] = value
    status: list = []
    answer = b"".join(app(environ, lambda s, h, e=None: status.append(s)))
    return int(status[0][:3]), (json.loads(answer) if answer else None)


def requests_for(app, n: int) -> list[tuple[str, dict, dict]]:
    """``n`` actions (path, body, headers) of fresh matches of every game in turn, each
    played from its start in order."""
    out: list = []
    plays = {game: moves(game, SEED) for game in sorted(GAMES)}
    while len(out) < n:
        for game, actions in plays.items():
            status, match = call(app, "POST", "/v1/matches",
                                 {"game": game, "seed": SEED, **setup_body(game)})
            assert status == 201, (status, match)
            for step, action in enumerate(actions):
                token = match["seats"].get(action["player"], match["host_token"])
                out.append((f"/v1/matches/{match['id']}/actions", {"action": action},
                            {"authorization": f"Bearer {token}",
                             "if_match": f'"{match["version"] + step}"'}))
    return out[:n]


def play(app, batch) -> None:
    """Send every action of ``batch``; each must answer 200."""
    for path, body, headers in batch:
        status, answer = call(app, "POST", path, body, **headers)
        assert status == 200, (status, answer)


def commands(client: redis.Redis) -> int:
    """Redis commands served so far (``INFO commandstats``), INFO itself left out."""
    stats = client.info("commandstats")
    return sum(v["calls"] for k, v in stats.items() if k != "cmdstat_info")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.match_action")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/15")
    parser.add_argument("-n", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--limits-off", action="store_true",
                        help="REFEREE_RATE_LIMITS=off: what the match budgets cost")
    args = parser.parse_args()
    client = redis.Redis.from_url(args.redis)
    client.flushdb()
    app = create_app({"REDIS_URL": args.redis, "RATE_LIMITS_ENABLED": not args.limits_off})
    play(app, requests_for(app, 200))  # warm up: scripts loaded, connections open
    best, per_action = float("inf"), None
    for _ in range(args.rounds):
        batch = requests_for(app, args.n)
        before = commands(client)
        start = time.process_time()
        play(app, batch)
        best = min(best, (time.process_time() - start) / len(batch))
        per_action = (commands(client) - before) / len(batch)
    print(f"match action (Redis): {best * 1e6:.0f} µs CPU per action (least of "
          f"{args.rounds} rounds of {args.n}); {per_action:.2f} Redis commands per action",
          file=_OUT)
    if args.profile:
        from pyinstrument import Profiler
        batch = requests_for(app, args.n)
        profiler = Profiler(interval=0.0002)
        with profiler:
            play(app, batch)
        print(profiler.output_text(unicode=True, color=False, show_all=False), file=_OUT)
    client.flushdb()


if __name__ == "__main__":
    main()
