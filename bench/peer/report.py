"""The peer comparison's section of ``bench/RESULTS.md`` (between :data:`BEGIN` and
:data:`END`, written by :func:`bench.report.write`, the rest of the file kept) and its
targets (issue 25 item 3)."""
from __future__ import annotations

import math
import time

from bench.peer.measure import PEER, SEATS, Settings
from bench.peer.tables import Run, percentile

BEGIN = "<!-- peer:begin (written by python -m bench.peer or python -m bench) -->"
END = "<!-- peer:end -->"

TARGETS = {4: 2.0, 0: 1.5}
"""Most referee CPU per move ÷ boardgame.io's, by streams (seats connected on its side)."""
P99_MS = 5.0
"""One move in flight, no stream: its p99 at most this."""


def per_move(run: Run, cpu: float) -> float:
    """CPU µs per move (NaN when no move was made)."""
    return cpu / run.moves * 1e6 if run.moves else math.nan


def _ms(seconds: float) -> str:
    return "∞" if math.isinf(seconds) else f"{seconds * 1000:.1f}"


def _met(ok: bool) -> str:
    return "met" if ok else "**not met**"


def render(results: dict, settings: Settings, seconds: float, smoke: bool) -> str:
    """The markdown of one comparison (see :mod:`bench.peer.measure` for what is run)."""
    node = any(who == PEER for who, _ in results)
    lines = [BEGIN, "## The table's move beside boardgame.io (issue 25): one run", ""]
    if smoke:
        lines += ["**Smoke run: a few moves each; the numbers mean nothing.**", ""]
    lines += [
        f"- Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; whole comparison "
        f"{seconds:.0f} s; command `.venv/bin/python -m bench.peer` (also run by `./dev bench`).",
        "- referee: one gunicorn worker as `referee serve` runs it (the gevent worker), Redis "
        "(private redis-server), budgets past reach. A move = `GET …/legal-actions` with the "
        "acting seat's token, `POST …/actions` with `If-Match`, and its delivery: each of the "
        "match's 0, 4 or 8 open streams (`GET …/stream`, readers cycling through the seats, "
        "the host and the public) has read the `view` of the new version. Moves are the "
        "bench's random legal playouts of each game, match after match.",
        "- boardgame.io 0.50.2 (Koa + socket.io, in-memory storage, `NODE_ENV=production`, "
        "one Node process): `bench/peer/income.cjs`, 3 to 8 seats, `income` adds a coin and "
        "ends the turn, `playerView` per seat; each seat a boardgame.io client "
        "(`boardgame.io/client` over socket.io); a move is done once every seat's client has "
        "the server's push. Its row beside referee's with 0 streams is its smallest game, "
        "3 seats (it cannot move with no seat connected).",
        f"- Each config: {settings.tables} tables at once, one move in flight each, at most "
        f"{settings.moves} moves or {settings.seconds:g} s (moves/s, server CPU per move = "
        "the server processes' utime+stime from `/proc` ÷ moves), then one table (p50, p99 of "
        f"one move in flight, at most {settings.latency_moves} moves or {settings.seconds:g} "
        f"s); {settings.rounds} round(s), boardgame.io's and referee's configs in alternate "
        "order, each figure adding its rounds up. Redis's CPU is shown apart: the ratio is "
        "the server's (gunicorn's worker) ÷ boardgame.io's, and with Redis added after it.",
    ]
    if not node:
        lines.append("- boardgame.io was not run (`--no-node`, or Node could not be installed "
                     "or started): referee's rows only.")
    lines += ["", "| move | streams (seats) | moves/s | server CPU µs/move | Redis CPU µs/move "
              "| p50 ms | p99 ms | ratio to boardgame.io (with Redis) |",
              "|---|---|---|---|---|---|---|---|"]
    ratios: dict[tuple[str, int], float] = {}
    for (who, count), found in sorted(results.items(), key=lambda kv: (
            kv[0][1] if kv[0][0] != PEER else _streams_of(kv[0][1]), kv[0][0] != PEER,
            kv[0][0])):
        busy, one = found["throughput"], found["latency"]
        cpu = per_move(busy, busy.cpu)
        ratio = ""
        if who != PEER:
            peer = results.get((PEER, SEATS[count]))
            if peer is not None:
                base = per_move(peer["throughput"], peer["throughput"].cpu)
                ratios[(who, count)] = cpu / base
                ratio = (f"{cpu / base:.2f} ({per_move(busy, busy.cpu + busy.redis_cpu) / base:.2f})")
        label = f"{PEER} income" if who == PEER else f"referee {who}"
        shown = f"({count} seats)" if who == PEER else str(count)
        redis = "–" if who == PEER else f"{per_move(busy, busy.redis_cpu):.0f}"
        lines.append(f"| {label} | {shown} | {busy.moves / busy.seconds:.0f} | {cpu:.0f} | "
                     f"{redis} | {_ms(percentile(one.latencies, 50))} | "
                     f"{_ms(percentile(one.latencies, 99))} | {ratio} |")
    late = sum(found["throughput"].created_late + found["latency"].created_late
               for found in results.values())
    if late:
        lines += ["", f"({late} matches were created during the runs, their cost counted.)"]
    lines += ["", "### Targets of the peer comparison", "", "| target | measured | |",
              "|---|---|---|"]
    for streams, most in TARGETS.items():
        found = {who: r for (who, n), r in ratios.items() if n == streams}
        if found:
            worst = max(found, key=found.get)
            lines.append(f"| a move delivered to {streams} streams ≤ {most:g}× boardgame.io's "
                         f"with {SEATS[streams]} seats (server CPU per move), every game | "
                         f"worst {worst}: {found[worst]:.2f}× | {_met(found[worst] <= most)} |")
    quiet = {who: percentile(found["latency"].latencies, 99)
             for (who, n), found in results.items() if who != PEER and n == 0}
    if quiet:
        worst = max(quiet, key=quiet.get)
        lines.append(f"| one move in flight (no stream) p99 ≤ {P99_MS:g} ms, every game | "
                     f"worst {worst}: {_ms(quiet[worst])} ms | "
                     f"{_met(quiet[worst] * 1000 <= P99_MS)} |")
    lines += ["", END]
    return "\n".join(lines)


def _streams_of(seats: int) -> int:
    return next(streams for streams, n in SEATS.items() if n == seats)
