"""Redis memory of a match at mid-game, alone (the figure ``python -m bench`` reports):
``.venv/bin/python -m bench.store_memory``.  Starts a private redis-server and the product
under gunicorn (as the bench does), plays half of each game's playout through the API and
prints ``MEMORY USAGE`` of the state key and of the event/action logs per action."""
from __future__ import annotations

import tempfile
from pathlib import Path

from bench.servers import Gunicorn, RedisServer
from bench.tables import memory


def main() -> None:
    redis_server = RedisServer()
    try:
        product = Gunicorn("bench.echo:app", redis_server.url,
                           Path(tempfile.mkdtemp(prefix="referee-mem-")) / "product.log")
        try:
            for game, found in memory(product.url, redis_server.url).items():
                print(f"{game:10s} state {found['state']:5d} B   events "
                      f"{found['events_per_action']:5.0f} B/action ({found['events']} events)"
                      f"   actions {found['actions_per_action']:4.0f} B/action")
        finally:
            product.stop()
    finally:
        redis_server.stop()


if __name__ == "__main__":
    main()
