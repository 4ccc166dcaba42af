"""Count the store reads of a match's open streams under gevent, as the shipped worker runs
them: ``python -m tests.matches.gevent_reads --streams N --moves K [--redis-url URL
--prefix P]`` (run by ``tests/matches/test_shared_reads.py`` in a process of its own, since
gevent's monkey-patching must come before every other import).

One app (the in-process store, or Redis with ``--redis-url``), one Coup match of 3 seats; N
streams (``GET …/stream`` through the Flask test client, one greenlet each, readers cycling
through the seats, the host and the public) read until each has its first view; then K moves
are made one at a time, each waited for until every stream has read the view after it.
Prints one JSON line: ``{"reads", "lrange", "moves", "views"}``: the calls of
``store.read`` made during the moves, Redis's own count of ``LRANGE`` (the read script's
command; ``null`` without Redis), the moves made, and the views each stream read after its
first.
"""
from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import sys  # noqa: E402

import gevent  # noqa: E402

from referee.client import parse_sse  # noqa: E402
from referee.serving.app import create_app  # noqa: E402
from referee.store.connect import redis_client  # noqa: E402

PLAYERS = ["ana", "ben", "cy"]
READERS = PLAYERS + ["host", None]


def lrange_calls(url: str | None) -> int | None:
    """``LRANGE`` calls Redis has served (``INFO commandstats``), ``None`` without Redis."""
    if url is None:
        return None
    return redis_client(url).info("commandstats").get("cmdstat_lrange", {}).get("calls", 0)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--streams", type=int, required=True)
    parser.add_argument("--moves", type=int, default=6)
    parser.add_argument("--redis-url")
    parser.add_argument("--prefix", default="referee")
    args = parser.parse_args()
    app = create_app({"TESTING": True, "REDIS_URL": args.redis_url,
                      "REDIS_KEY_PREFIX": args.prefix, "RATE_LIMITS_ENABLED": False,
                      "STREAM_HEARTBEAT_SECONDS": 30})
    client = app.test_client()
    created = client.post("/v1/matches", json={"game": "coup", "players": PLAYERS,
                                               "seed": 7}).get_json()
    url = f"/v1/matches/{created['id']}"
    tokens = {**created["seats"], "host": created["host_token"], None: None}
    store = app.extensions["referee.store"]
    reads = [0]
    plain_read = store.read

    def counted_read(*key):
        reads[0] += 1
        return plain_read(*key)
    store.read = counted_read

    seen: list[list[int]] = [[] for _ in range(args.streams)]

    def follow(n: int) -> None:
        token = tokens[READERS[n % len(READERS)]]
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = client.get(url + "/stream", headers=headers, buffered=False)

        def lines():
            pending = ""
            for chunk in response.iter_encoded():
                pending += chunk.decode()
                *done, pending = pending.split("\n")
                yield from done
        for message in parse_sse(lines()):
            if message["event"] == "view":
                seen[n].append(message["data"]["version"])

    def until(version: int) -> None:
        deadline = gevent.get_hub().loop.now() + 20
        while not all(versions and versions[-1] >= version for versions in seen):
            if gevent.get_hub().loop.now() > deadline:
                raise SystemExit(f"not every stream read version {version}: {seen}")
            gevent.sleep(0.005)

    readers = [gevent.spawn(follow, n) for n in range(args.streams)]
    until(1)
    first = [len(versions) for versions in seen]
    reads[0], redis_before = 0, lrange_calls(args.redis_url)
    rng = random.Random(7)
    for _ in range(args.moves):
        legal = client.get(url + "/legal-actions",
                           headers={"Authorization": f"Bearer {tokens['host']}"}).get_json()
        action = rng.choice([a for a in legal["actions"] if a["player"] in PLAYERS])
        moved = client.post(url + "/actions", json={"action": action}, headers={
            "Authorization": f"Bearer {tokens[action['player']]}",
            "If-Match": f'"{legal["version"]}"'})
        assert moved.status_code == 200, moved.get_json()
        until(legal["version"] + 1)
    moves_reads = reads[0]
    redis_after = lrange_calls(args.redis_url)
    print(json.dumps({"reads": moves_reads, "moves": args.moves,
                      "lrange": None if redis_before is None else redis_after - redis_before,
                      "views": [len(v) - f for v, f in zip(seen, first)]}), flush=True)
    gevent.killall(readers, timeout=2)
    sys.exit(0)


if __name__ == "__main__":
    main()
