"""CPU per request added by the abuse limits and CORS (issue 12): the same requests through
Flask's test client with limits off and on (and CORS on), best of five runs of N requests.

    .venv/bin/python bench/limits_overhead.py [-n 3000]
"""
from __future__ import annotations

import argparse
import time

from referee.serving.app import create_app

PATHS = ("/livez", "/v1/games/spy")


def cpu_per_request(config: dict, path: str, n: int) -> float:
    """Best microseconds of CPU per ``GET path`` over five runs of ``n``."""
    client = create_app({"TESTING": True, "REDIS_URL": None, **config}).test_client()
    for _ in range(200):
        client.get(path)
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        for _ in range(n):
            client.get(path)
        best = min(best, (time.process_time() - start) / n)
    return best * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=3000)
    n = parser.parse_args().n
    configs = {"limits off": {"RATE_LIMITS_ENABLED": False},
               "limits on": {"RATE_LIMITS_ENABLED": True},
               "limits on + CORS": {"RATE_LIMITS_ENABLED": True,
                                    "CORS_ALLOWED_ORIGINS": ["https://table.example"]}}
    print("| path | " + " | ".join(configs) + " |")
    print("| --- |" + " ---: |" * len(configs))
    for path in PATHS:
        cells = [f"{cpu_per_request(config, path, n):.0f} µs" for config in configs.values()]
        print(f"| GET {path} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
