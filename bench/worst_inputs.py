"""Server CPU of the worst admitted input found per endpoint (issue 12 item 3, issue 21 item 1).

Every endpoint that reads a body or a match is searched: its valid bodies (a fresh game, a
snapshot halfway through and near the end of a random playout with one of its legal actions,
an entered deal, a trick sheet, a Gnoming round…) changed in every way
:mod:`bench.worst_bodies` knows (lists filled, objects widened, players added, the body
escaped so that it takes the slow parser), and the match endpoints on the longest match a
playout makes (:mod:`bench.worst_matches`).  Each body is sent through Flask's test client
(limits off, the in-process store) and its CPU time taken (``time.process_time``, this
process only); the heap is frozen first as the gunicorn worker freezes it
(``referee.gunicorn_conf.post_worker_init``), and collected before each request, so that a
request pays for its own garbage only.  The three worst of each endpoint are sent again
:data:`REPEATS` times: the table gives their median and maximum (the machine is shared:
figures are an upper bound), and the longest part of any of them: the CPU between two
pauses of the work (where a gevent worker serves others: :mod:`referee.matches.pauses`) or
two parts of a streamed answer (:data:`LONGEST_PART`).

Snapshot endpoints share one search: every body is tried on ``validate``; ``apply`` and
``legal-actions`` get the worst :data:`SHARED` of it, plus their own action's changes.

    .venv/bin/python -m bench.worst_inputs [--only SUBSTRING] [--quick] [--longest]

``--longest``: only the longest match's endpoints (its actions, reads, rollback, audit, stream
and rematch: about a minute), not the body search of every endpoint.
"""
from __future__ import annotations

import argparse
import gc
import heapq
import json
import os
import statistics
import sys
import time
from typing import Callable, Iterator

os.environ["REFEREE_RATE_LIMITS"] = "off"

from bench.payloads import SIX_TRICKS, ROUND, playout, setup_body, twelve_tricks  # noqa: E402
from bench.worst_bodies import bodies, dumps, escaped, replaced  # noqa: E402,F401
from referee.matches import pauses  # noqa: E402
from referee.serving.app import create_app  # noqa: E402
from referee.registry import GAMES  # noqa: E402

BUDGET_MS = 25.0
"""Issue 21's bound: no admitted request may cost more server CPU than this."""
REPEATS = 5
"""Times each of an endpoint's three worst bodies is sent again for the table."""
SHARED = 12
"""How many of ``validate``'s worst bodies ``apply`` and ``legal-actions`` are sent too."""
Candidate = tuple[str, bytes]
BURMESE = "in Burmese: "
LONGEST_PART = [0.0]
"""CPU seconds of the longest part of the last request sent: between two pauses
(:func:`referee.matches.pauses.pause`, where a gevent worker serves others) or two parts of a
streamed answer; the whole request when it makes neither."""
LIMIT = 256 * 1024
"""The body limit (``REFEREE_MAX_BODY_BYTES``' default): the largest body read."""


class Bench:
    """The app under test, its client, and one measured request."""

    lang: str | None = None
    """``Accept-Language`` of the requests sent now (Burmese answers render every text)."""

    def __init__(self):
        self.app = create_app({"TESTING": True, "REDIS_URL": None,
                               "RATE_LIMITS_ENABLED": False, "MAX_LIVE_MATCHES": None,
                               "MEMORY_STORE_MAX_BYTES": None})
        self.client = self.app.test_client()
        self.limit = self.app.config["MAX_CONTENT_LENGTH"]

    def freeze(self) -> None:
        """What the worker does once the app is loaded (``gc.freeze``)."""
        gc.collect()
        gc.freeze()

    def send(self, method: str, url: str, raw: bytes | None = None,
             headers: dict | None = None, collect: bool = True) -> tuple[float, int, bytes]:
        """``(CPU seconds, status, answer body)`` of one request (the garbage of earlier
        ones collected first, unless ``collect`` is false)."""
        if collect:
            gc.collect()
        kwargs = {} if raw is None else {"data": raw, "content_type": "application/json"}
        if self.lang:
            headers = {**(headers or {}), "Accept-Language": self.lang}
        marks = [time.process_time()]
        paused, pauses.pause = pauses.pause, lambda: marks.append(time.process_time())
        try:
            answer = self.client.open(url, method=method, headers=headers or {}, **kwargs)
            chunks = []
            for chunk in answer.iter_encoded():  # a streamed answer is made here
                chunks.append(chunk)
                marks.append(time.process_time())
        finally:
            pauses.pause = paused
        marks.append(time.process_time())
        LONGEST_PART[0] = max(b - a for a, b in zip(marks, marks[1:]))
        return marks[-1] - marks[0], answer.status_code, b"".join(chunks)


class Endpoint:
    """One endpoint's search: ``request(description, raw)`` sends a body (or ``None``)."""

    def __init__(self, label: str, request: Callable[[bytes | None], tuple[float, int, bytes]]):
        self.label = label
        self.request = request
        self.found: list[tuple[float, str, bytes | None]] = []  # a min-heap of the worst
        self.fixed: dict | None = None  # a row measured on the way (requests not repeatable)

    def send(self, name: str, raw: bytes | None):
        """The request, in Burmese when ``name`` says so."""
        Bench.lang = "my" if BURMESE in name else None
        try:
            return self.request(raw)
        finally:
            Bench.lang = None

    def try_(self, name: str, raw: bytes | None) -> float:
        seconds, status, _ = self.send(name, raw)
        heapq.heappush(self.found, (seconds, name, raw))
        if len(self.found) > SHARED:
            heapq.heappop(self.found)
        return seconds

    def worst(self, count: int) -> list[tuple[str, bytes | None]]:
        return [(name, raw) for _, name, raw in sorted(self.found, reverse=True)[:count]]

    def row(self) -> dict:
        """Each of the three worst sent :data:`REPEATS` times; the worst median wins."""
        if self.fixed is not None:
            return self.fixed
        rows = []
        for name, raw in self.worst(3):
            runs, parts = [], []
            for _ in range(REPEATS):
                runs.append(self.send(name, raw))
                parts.append(LONGEST_PART[0] * 1000)
            cpu = [r[0] * 1000 for r in runs]
            rows.append({"endpoint": self.label, "input": name, "median": statistics.median(cpu),
                         "max": max(cpu), "status": runs[-1][1], "bytes": len(runs[-1][2]),
                         "size": len(raw or b""), "part": max(parts)})
        return max(rows, key=lambda r: r["median"])


def post(bench: Bench, url: str, headers: dict | None = None):
    return lambda raw: bench.send("POST", url, raw, headers)


def search(endpoint: Endpoint, candidates: Iterator[Candidate], top: int = 3) -> None:
    """Try every candidate, then the worst few again escaped (the standard library's parser)
    and asked for in Burmese (every text of the answer translated)."""
    for name, raw in candidates:
        if raw is None or len(raw) <= LIMIT:  # a larger one is 413 before it is read
            endpoint.try_(name, raw)
    for name, raw in endpoint.worst(top):
        if raw and "escaped" not in name and BURMESE not in name and len(raw) + 5 <= LIMIT:
            endpoint.try_(f"escaped {name}", escaped(raw))
    for name, raw in endpoint.worst(top):
        if BURMESE not in name:
            endpoint.try_(f"{BURMESE}{name}", raw)


def snapshots(game: str) -> list[tuple[str, dict, dict]]:
    """``(where, state, action)``: a fresh deal, halfway and near the end of a playout."""
    first, steps = playout(game, 11)
    fresh = steps[0]
    return [("fresh", *fresh), ("halfway", *steps[len(steps) // 2]),
            ("near the end", *steps[-1])]


def deal_of(game: str, state: dict) -> dict | None:
    """The entered deal (``setup``'s ``deal`` or Spy's ``bases``) that deals ``state``."""
    if game == "coup":
        return {"deal": {"hands": state["hands"], "court": state["court"]}}
    if game == "all-fours":
        return {"dealer": state["dealer"],
                "deal": {"hands": state["dealt"], "stock": state["kicks"] + state["stock"]}}
    if game == "gnoming":
        return {"deal": {"layouts": {p: [[c["card"] for c in row] for row in grid]
                                     for p, grid in state["layouts"].items()},
                         "discard_piles": state["discard_piles"],
                         "draw_pile": state["draw_pile"], "removed": state["removed"]}}
    if game == "spy":
        return {"bases": {p: {k: b[k] for k in ("cards", "spy_gap", "facing")}
                          for p, b in state["bases"].items()}}
    return None


def stateless(bench: Bench, quick: bool, only: str = "") -> Iterator[Endpoint]:
    """The searched stateless endpoints, one at a time (those whose label holds ``only``)."""
    for game in sorted(GAMES):
        most = GAMES[game].engine.describe()["players"]["max"]
        base = f"/v1/games/{game}"
        setup = {**setup_body(game), "seed": 7}
        states = snapshots(game)
        if not any(only in f"POST {base}/{op}" for op in ("setup", "validate", "apply",
                                                           "legal-actions")):
            continue
        found = Endpoint(f"POST {base}/setup", post(bench, f"{base}/setup"))
        sources = [bodies(setup, bench.limit, most)]
        deal = deal_of(game, states[0][1])
        if deal and not quick:
            entered = {k: v for k, v in setup.items() if k != "seed"} | deal
            sources.append(bodies(entered, bench.limit, most))
        if only in found.label:
            for source in sources:
                search(found, source)
            yield found
        validate = Endpoint(f"POST {base}/validate", post(bench, f"{base}/validate"))
        for where, state, action in states[1:] if quick else states:
            search(validate, ((f"{where}: {name}", raw) for name, raw in
                              bodies({"state": state, "action": action}, bench.limit, most)))
        yield validate
        shared = validate.worst(SHARED)
        for op in ("apply", "legal-actions"):
            found = Endpoint(f"POST {base}/{op}", post(bench, f"{base}/{op}"))
            for name, raw in shared:
                if op == "legal-actions":
                    body = json.loads(raw)
                    body.pop("action", None)
                    raw = dumps(body)
                found.try_(name, raw)
            where, state, action = states[1]
            body = {"state": state, "action": action} if op == "apply" else {
                "state": state, "player": action["player"]}
            search(found, ((f"{where}: {name}", raw) for name, raw in
                           bodies(body, bench.limit, most) if "state" not in name.split()[0]))
            yield found
    if only not in "POST /v1/games/all-fours/score /v1/games/gnoming/score-round score-game":
        return
    sheets = Endpoint("POST /v1/games/all-fours/score", post(bench, "/v1/games/all-fours/score"))
    for sheet in (SIX_TRICKS, twelve_tricks()):
        search(sheets, bodies({"sheet": sheet}, bench.limit, 4))
    yield sheets
    rounds = Endpoint("POST /v1/games/gnoming/score-round",
                      post(bench, "/v1/games/gnoming/score-round"))
    search(rounds, bodies({"round": ROUND}, bench.limit, 7))
    yield rounds
    game = Endpoint("POST /v1/games/gnoming/score-game",
                    post(bench, "/v1/games/gnoming/score-game"))
    for count in (3, 50):
        search(game, bodies({"rounds": [ROUND] * count, "options": {"rounds": count}},
                            bench.limit, 7))
    yield game


def table(rows: list[dict]) -> str:
    lines = ["| endpoint | worst input found | body bytes | CPU ms (median of 5) | max | "
             "longest part ms | status | answer bytes |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        flag = " **over**" if r["median"] > BUDGET_MS else ""
        part = r.get("part", r["max"])
        part_flag = " **over**" if part > BUDGET_MS else ""
        lines.append(f"| {r['endpoint']} | {r['input']} | {r['size']} | "
                     f"{r['median']:.1f}{flag} | {r['max']:.1f} | {part:.1f}{part_flag} | "
                     f"{r['status']} | {r['bytes']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="endpoints whose label holds this text")
    parser.add_argument("--quick", action="store_true",
                        help="fewer base bodies (one snapshot per game, no entered deals)")
    parser.add_argument("--longest", action="store_true",
                        help="only the longest match's endpoints (no body search elsewhere)")
    args = parser.parse_args(argv)
    out = os.fdopen(os.dup(sys.stdout.fileno()), "w")  # the table; access lines go nowhere
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    from bench.worst_matches import longest, matches
    bench = Bench()
    bench.freeze()
    began = time.monotonic()
    rows = []
    sources = (lambda b, q, o: longest(b, q),) if args.longest else (stateless, matches)
    for source in sources:
        for endpoint in source(bench, args.quick, args.only):
            if args.only in endpoint.label:
                rows.append(endpoint.row())
                r = rows[-1]
                print(f"{r['endpoint']}: {r['median']:.1f} ms ({r['input']})", file=sys.stderr,
                      flush=True)
    print(table(rows), file=out)
    print(f"\n{len(rows)} endpoints, {time.monotonic() - began:.0f} s", file=out, flush=True)


if __name__ == "__main__":
    # run as bench.worst_inputs, the module bench.worst_matches imports (one LONGEST_PART)
    from bench import worst_inputs
    worst_inputs.main()
