"""CPU of writing and reading a match through the Redis store's codec, per game at mid-game:
``.venv/bin/python -m bench.codec_cost``.  Per action the store writes the record and the
new events and reads the record; compared with plain ``json.dumps``/``json.loads`` (what the
store did before ``referee.store.codec``).  Best of 5 rounds, CPU time."""
from __future__ import annotations

import json
import time

from bench.payloads import playout
from referee.registry import GAMES
from referee.store import codec


def per_call(fn, value, n=400) -> float:
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        for _ in range(n):
            fn(value)
        best = min(best, (time.process_time() - start) / n)
    return best * 1e6


def main() -> None:
    for game in sorted(GAMES):
        _, steps = playout(game, 11)
        state, action = steps[len(steps) // 2]
        _, events = GAMES[game].engine.apply(state, action)
        record = {"version": 40, "state": state, "event_count": 80}
        events = [{**ev, "seq": 81 + i, "version": 41} for i, ev in enumerate(events)]
        old = (per_call(json.dumps, record) + per_call(json.loads, json.dumps(record))
               + sum(per_call(json.dumps, ev) for ev in events))
        new = (per_call(codec.encode_record, record)
               + per_call(codec.decode, codec.encode_record(record))
               + sum(per_call(codec.encode_event, ev) for ev in events))
        print(f"{game:10s} json {old:5.0f} µs   codec {new:5.0f} µs per action "
              f"({len(events)} events)")


if __name__ == "__main__":
    main()
