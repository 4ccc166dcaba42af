"""The bench's part of ``bench/RESULTS.md``: tables of one run and every target of issue 11.

:func:`write` replaces only the text between :data:`BEGIN` and :data:`END` (adding them at
the top if missing), so other sections of the file (e.g. "## Live streams") are kept.
"""
from __future__ import annotations

import math
import os
import platform
import time
from pathlib import Path

BEGIN = "<!-- bench:begin (written by python -m bench) -->"
END = "<!-- bench:end -->"

RATIO_TARGETS = {"validate": 0.8, "apply": 0.7, "legal-actions": 0.7,
                 "all-fours score 6 tricks": 0.7, "match action (Redis)": 0.7}
"""Least ratio (product echo CPU per request ÷ the endpoint's) per kind of endpoint (the match
action's 0.7 is issue 25's, up from issue 11's 0.6)."""
ECHO_OVERHEAD = 1.15
P99_MS = 10.0
ACTIONS_PER_S = 20_000
SHEETS_PER_S = 5_000
STATE_BYTES = 4096
LOG_BYTES_PER_ACTION = 200


def _ms(seconds: float) -> str:
    return "∞" if math.isinf(seconds) else f"{seconds * 1000:.1f}"


def _kind(label: str) -> str | None:
    label = label.removesuffix(" (new snapshot)")
    if label in RATIO_TARGETS:
        return label
    last = label.rsplit(" ", 1)[-1]
    return last if last in RATIO_TARGETS else None


def _met(ok: bool) -> str:
    return "met" if ok else "**not met**"


def render(*, runs, rate, engines, memory, command, worker_class, seconds, smoke, note,
           durations) -> str:
    """The markdown of one run (see ``bench/__main__.py`` for what each figure is)."""
    echo = runs["product echo"]["fixed"].cpu_per_request
    bare = runs["bare Flask echo"]["fixed"].cpu_per_request
    lines = [BEGIN, "## Speed (issue 11): one run of the bench", ""]
    if smoke:
        lines += ["**Smoke run: a few requests each; the numbers mean nothing.**", ""]
    lines += [f"- Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; machine: "
              f"{os.cpu_count()} cores ({platform.machine()}, {platform.python_implementation()}"
              f" {platform.python_version()}); whole run {seconds:.0f} s.",
              f"- Command: `.venv/bin/{command}` (or `./dev bench`)",
              f"- Server: gunicorn as `referee serve` runs it (`--config python:referee."
              f"gunicorn_conf`), worker class **{worker_class}**, 2 workers, 8 threads; "
              "Redis store (private redis-server); rate-limit budgets set past reach (the checks "
              "still run); load from the bench process over 16 keep-alive connections (8 tables "
              "for matches).",
              f"- Each endpoint: {durations[0]:g} s warm-up, {durations[1]:g} s peak (closed "
              f"loop), {durations[2]:g} s at a fixed offered load of **{rate:.0f} req/s** (half "
              "the product echo's peak). CPU per request = workers' utime+stime over that fixed "
              "load ÷ answers; ratio = product echo's CPU per request ÷ the endpoint's. The two "
              "echoes run their fixed load in 3 alternate rounds (twice as long in all), so "
              "both see the same share of a busy machine.",
              "- A stateless row sends one body again and again, as a table's phones do "
              "between two moves: each worker checks that snapshot once and remembers it "
              "passed (`referee.matches.checked_memo`). A *(new snapshot)* row is served with that "
              "memo off (`REFEREE_SNAPSHOT_MEMO=0`): every request's snapshot checked, the "
              "cost of a snapshot sent for the first time.",
              ]
    if note:
        lines.append(f"- {note}")
    lines += ["", "| endpoint | peak req/s | answered at fixed load req/s | server CPU µs/req "
              "| ratio to echo | p50 ms | p99 ms | non-2xx |", "|---|---|---|---|---|---|---|---|"]
    for label, run in runs.items():
        fixed = run["fixed"]
        lines.append(f"| {label} | {run['peak'].throughput:.0f} | {fixed.throughput:.0f} | "
                     f"{fixed.cpu_per_request * 1e6:.0f} | "
                     f"{_ratio(echo, fixed.cpu_per_request):.2f} "
                     f"| {_ms(fixed.percentile(50))} | {_ms(fixed.percentile(99))} | "
                     f"{fixed.errors + run['peak'].errors} |")
    lines += ["", "Engines in process (one core): checked actions/s = actions through "
              "`engine.apply` (checked against the rules, then applied) per second of apply.", "",
              "| game | checked actions/s | legal-actions/s |", "|---|---|---|"]
    sheets = engines["sheets"]
    games = {g: r for g, r in engines.items() if g != "sheets"}
    for game, r in games.items():
        lines.append(f"| {game} | {r['actions']:.0f} | {r['legal']:.0f} |")
    lines += ["", "| All Fours trick sheets scored/s | " + " | ".join(
        f"{label}: {value:.0f}" for label, value in sheets.items()) + " |", "|---|---|---|", "",
              "Redis `MEMORY USAGE` of a match halfway through a random playout (bytes):", "",
              "| game | actions applied | state key | event log per action | action log per "
              "action |", "|---|---|---|---|---|"]
    for game, m in memory.items():
        lines.append(f"| {game} | {m['actions']} | {m['state']} | "
                     f"{m['events_per_action']:.0f} ({m['events']} events) | "
                     f"{m['actions_per_action']:.0f} |")
    lines += ["", "### Targets", "", "| target | measured | |", "|---|---|---|"]
    lines.append(f"| product echo ≤ {ECHO_OVERHEAD}× bare Flask echo (CPU/request) | "
                 f"{_ratio(echo, bare):.2f}× ({echo * 1e6:.0f} vs {bare * 1e6:.0f} µs) | "
                 f"{_met(_ratio(echo, bare) <= ECHO_OVERHEAD)} |")
    for label, run in runs.items():
        kind = _kind(label)
        if kind is None:
            continue
        ratio = _ratio(echo, run["fixed"].cpu_per_request)
        lines.append(f"| {label} ≥ {RATIO_TARGETS[kind]} of echo | {ratio:.2f} | "
                     f"{_met(ratio >= RATIO_TARGETS[kind])} |")
    worst = max(runs, key=lambda k: runs[k]["fixed"].percentile(99))
    p99 = runs[worst]["fixed"].percentile(99) * 1000
    lines.append(f"| p99 ≤ {P99_MS:g} ms at {rate:.0f} req/s, every endpoint | worst {worst}: "
                 f"{_ms(p99 / 1000)} ms | {_met(p99 <= P99_MS)} |")
    slowest = min(games, key=lambda g: games[g]["actions"])
    lines.append(f"| engines ≥ {ACTIONS_PER_S:,} checked actions/s per core, every game | "
                 f"slowest {slowest}: {games[slowest]['actions']:.0f} | "
                 f"{_met(games[slowest]['actions'] >= ACTIONS_PER_S)} |")
    lines.append(f"| ≥ {SHEETS_PER_S:,} trick sheets/s (6 tricks) | {sheets['6 tricks']:.0f} | "
                 f"{_met(sheets['6 tricks'] >= SHEETS_PER_S)} |")
    big = max(memory, key=lambda g: memory[g]["state"])
    lines.append(f"| ≤ {STATE_BYTES} B of Redis for a match's state | largest {big}: "
                 f"{memory[big]['state']} | {_met(memory[big]['state'] <= STATE_BYTES)} |")
    big = max(memory, key=lambda g: memory[g]["events_per_action"])
    lines.append(f"| ≤ {LOG_BYTES_PER_ACTION} B per logged action (event log) | largest {big}: "
                 f"{memory[big]['events_per_action']:.0f} | "
                 f"{_met(memory[big]['events_per_action'] <= LOG_BYTES_PER_ACTION)} |")
    lines += ["", END]
    return "\n".join(lines)


def write(path: Path, text: str, begin: str = BEGIN, end: str = END,
          after: str | None = None) -> None:
    """Put ``text`` (which starts with ``begin`` and ends with ``end``) into ``path`` in place
    of the text between those markers, keeping the rest of the file; if they are missing, after
    the marker ``after`` when the file has it (e.g. :data:`END`), else after the title."""
    old = path.read_text() if path.is_file() else "# Benchmark results\n"
    if begin in old and end in old:
        head, rest = old.split(begin, 1)
        new = head + text + rest.split(end, 1)[1]
    elif after is not None and after in old:
        head, rest = old.split(after, 1)
        new = f"{head}{after}\n\n{text}{rest}"
    else:
        first, _, rest = old.partition("\n")
        new = f"{first}\n\n{text}\n{rest}"
    path.write_text(new)


def _ratio(a: float, b: float) -> float:
    """``a / b``, or NaN ("nan" in the table, never met) when ``b`` is 0: a run too short
    for the CPU clock's ticks (``--smoke``) can measure no CPU at all."""
    return a / b if b else float("nan")
