"""One client cannot starve the others (issue 21 item 2): while one address holds its maximum of
open streams and sends the worst admitted requests, another client's ``/livez`` and match reads
keep their p99 within :data:`TARGET_MS`.

The real server as ``referee serve`` runs it (:class:`bench.servers.Gunicorn`: 2 gevent
workers, its own redis-server), with the **default** abuse limits (the budgets, the caps on open
streams, each address's share of connections and its turns).  Everything goes to 127.0.0.1;
the two clients speak from two loopback addresses (all of 127/8 is loopback on Linux), so the
per-address limits tell them apart:

- the **attacker** (:data:`ATTACKER`) creates an 8-seat Coup match and opens 8 streams per seat
  token (64: its address's cap; a 65th is tried and must answer 429), then sends the worst
  bodies found among those :mod:`bench.worst_inputs` searches (:func:`bench.starvation_bodies.worst_bodies`, the
  issue's 4,000-player Gnoming round among them) back to back on :data:`SENDERS` keep-alive
  connections, reconnecting when refused;
- the **victim** (:data:`VICTIM`) creates a match of its own and, for ``--seconds``, asks
  ``/livez`` 20 times a second and reads its match 10 times a second (each seat token in
  turn: within its budgets), on :data:`PINNED` keep-alive connections held by each worker
  (so both workers, each serving the attacker, are measured: :func:`bench.servers.
  connections_by_worker`); a request's latency counts from when it was due (waiting for a
  free connection included: no coordinated omission).

The bench measures the server, not how this machine shares its CPU among the clients: the
attacker's process runs at the lowest priority (``nice 19``, :func:`attacker`), so its own
load generator — a client that in life runs on another machine — does not take the CPU the
workers and the other client need.  The server's workers and the other client keep their
usual priority; the workers still do every request the attacker sends.

``--streams-from-start`` runs the harder attack a black-box run found
(:mod:`bench.starvation_from_start`): the attacker's 64 streams, on a long match made
beforehand, each open from event 0 again and again, so that every one keeps catching up; the
bodies are sent as well.

Prints one JSON line and writes the section between :data:`BEGIN` and :data:`END` of
``bench/RESULTS.md`` (``--streams-from-start``: between its own markers,
:data:`bench.starvation_from_start.BEGIN` and ``END``).  ``--senders 0`` is the control: the
same run without bodies (the attacker holds its streams, or reopens them, and sends no body),
to tell what the shared machine itself costs the other client.  ``python -m bench.starvation
[--seconds 30] [--smoke] [--streams-from-start] [--senders N] [--note TEXT]`` (about 50 s;
from the start about 1 minute more, to build the match); the default attack is also the last
step of ``python -m bench``.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import shlex
import sys
import tempfile
import time
from pathlib import Path

from bench import report as bench_report, starvation_from_start as from_start
from bench.load import Connection, Result, request_bytes
from bench.servers import OUT_OF_REACH, Gunicorn, RedisServer, connections_by_worker, \
    pinned_by_worker
from bench.starvation_bodies import worst_bodies

ATTACKER, VICTIM = "127.0.0.1", "127.0.0.2"
SEATS = ["ana", "ben", "cy", "dee", "eve", "fay", "gus", "hal"]
STREAMS_PER_SEAT = 8
"""8 seats × 8 = 64: the attacker's address's cap (``REFEREE_STREAMS_PER_ADDRESS``)."""
SENDERS = 32
"""Attacker connections sending the worst bodies: with its 64 streams, within its share of 100
connections per worker even when one worker takes two thirds of them; more would only wait
for the address's turns (1 per worker for requests with a body)."""
TARGET_MS = 100.0
WARM_SECONDS = 3.0
LIVEZ_PER_S, READS_PER_S = 20, 10
DEFAULT_LIMITS = {"REFEREE_RATE_LIMITS": "on", "REFEREE_LIMIT_CREATE": "20/minute;200/hour",
                  "REFEREE_LIMIT_MATCH_PER_TOKEN": "240/minute",
                  "REFEREE_LIMIT_MATCH_PER_IP": "1200/minute",
                  "REFEREE_LIMIT_STATELESS_PER_IP": "3000/minute",
                  **{name: "" for name in OUT_OF_REACH}}
"""The shipped budgets (``referee.api.ratelimits.DEFAULTS``) and caps (empty: their defaults),
which :data:`bench.servers.BUDGETS` lifts for the speed benches: the attacker stays within
them."""

BEGIN = "<!-- starvation:begin (written by python -m bench.starvation) -->"
END = "<!-- starvation:end -->"


async def _json(conn: Connection, method: str, path: str, body=None, token=None):
    headers = {"Authorization": f"Bearer {token}"} if token else None
    raw = request_bytes(method, path, json.dumps(body).encode() if body is not None else b"",
                        headers)
    status, answer = await conn.send(raw)
    return status, json.loads(answer) if answer else None


async def _create(source: str, port: int) -> dict:
    conn = Connection(port, source)
    status, created = await _json(conn, "POST", "/v1/matches",
                                  {"game": "coup", "players": SEATS, "seed": 7})
    conn.close()
    if status != 201:
        raise SystemExit(f"starvation: creating a match answered {status}: {created}")
    return created


async def _open_stream(port: int, path: str, token: str, stop: float) -> tuple[int, object]:
    """Open a stream from :data:`ATTACKER`: ``(status, task reading it until stop)``."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                   local_addr=(ATTACKER, 0))
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}"
                 "\r\n\r\n".encode())
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head[9:12])

    async def drain() -> None:
        try:
            while time.monotonic() < stop and await asyncio.wait_for(reader.read(65536),
                                                                     stop - time.monotonic()):
                pass
        except (asyncio.TimeoutError, OSError):
            pass
        finally:
            writer.close()
    return status, asyncio.ensure_future(drain())


async def _attack(port: int, bodies, ready, seconds: float, report, senders: int,
                  long: dict | None) -> None:
    stop = time.monotonic() + seconds
    opens: list = []
    if long is None:  # the default attack: 64 streams held open on a match of its own
        created = await _create(ATTACKER, port)
        path = f"/v1/matches/{created['id']}/stream"
        opened = [await _open_stream(port, path, created["seats"][seat], stop)
                  for seat in SEATS for _ in range(STREAMS_PER_SEAT)]
        over, _ = await _open_stream(port, path, created["host_token"], time.monotonic())
    else:  # each stream reads the long match from its start, again and again
        path = f"/v1/matches/{long['id']}/stream?after=0"
        opened = [(None, asyncio.ensure_future(from_start.reopen(
            port, ATTACKER, path, token, stop, opens)))
            for token in long["tokens"] for _ in range(STREAMS_PER_SEAT)]
        over = None
    statuses: dict[int, int] = {}
    refused = 0
    ready.set()

    async def sender(i: int) -> None:
        nonlocal refused
        conn = Connection(port, ATTACKER)
        n = i
        while time.monotonic() < stop:
            _, url, body = bodies[n % len(bodies)]
            n += 1
            try:
                status, _ = await conn.send(request_bytes("POST", url, body))
            except (OSError, asyncio.IncompleteReadError):
                conn.close()
                refused += 1
                await asyncio.sleep(0.2)
                continue
            statuses[status] = statuses.get(status, 0) + 1
            if status == 429:
                await asyncio.sleep(0.2)
        conn.close()

    await asyncio.gather(*(sender(i) for i in range(senders)))
    for _, task in opened:
        await task
    report.put({"streams_open": sum(1 for status, _ in opened if status == 200),
                "streams": len(opened), "stream_65th": over, "opens": opens,
                "answers": statuses, "broken_connections": refused})


def attacker(port: int, bodies, ready, seconds: float, report, senders: int = SENDERS,
             long: dict | None = None) -> None:
    """The attacker's process (see the module docstring), at ``nice 19``; ``long``: the
    match of :func:`bench.starvation_from_start.build`, whose streams it reads from event 0
    again and again, instead of holding 64 open on a match of its own."""
    os.nice(19)
    asyncio.run(_attack(port, bodies, ready, seconds, report, senders, long))


UNANSWERED_SECONDS = 10.0
"""A request of the other client unanswered this long counts as status 0 (its latency then at
least this) and its connection is opened again, so one lost answer cannot hold the run."""
PINNED = 3
"""Keep-alive connections the other client holds in each worker for each kind of request: a
request due while all are busy waits for one (and that wait counts in its latency)."""


async def _measure(port: int, pids: list[int], seconds: float, report) -> None:
    created = await _create(VICTIM, port)
    tokens = [created["seats"][seat] for seat in SEATS]
    read_path = f"/v1/matches/{created['id']}"
    livez = request_bytes("GET", "/livez", b"")
    both = await pinned_by_worker(port, pids, 2 * PINNED, VICTIM)
    # a worker short of its share (it accepted too late) splits what it holds between the
    # two kinds; a kind left with none reads through a new connection (to either worker)
    # rather than wait for ever for a free one
    pinned = {"livez": {pid: conns[:len(conns) // 2] or [Connection(port, VICTIM)]
                        for pid, conns in both.items()},
              "match read": {pid: conns[len(conns) // 2:] for pid, conns in both.items()}}
    results: dict[tuple[str, int], Result] = {}
    start = time.monotonic()

    async def loop(kind: str, pid: int, conns: list[Connection], rate: float) -> None:
        result = results[(kind, pid)] = Result(seconds)
        free: asyncio.Queue = asyncio.Queue()
        for conn in conns:
            free.put_nowait(conn)

        async def one(n: int, due: float) -> None:
            conn = await free.get()
            raw = livez if kind == "livez" else request_bytes(
                "GET", read_path, b"", {"Authorization": f"Bearer {tokens[n % len(tokens)]}"})
            try:
                status, _ = await asyncio.wait_for(conn.send(raw), UNANSWERED_SECONDS)
            except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError):
                status = 0  # broke or unanswered: counted, and opened again (anywhere)
                conn.close()
            result.latencies.append(time.monotonic() - due)
            result.statuses[status] = result.statuses.get(status, 0) + 1
            free.put_nowait(conn)

        sent = []
        for n in range(int(rate * seconds)):
            due = start + n / rate
            if (wait := due - time.monotonic()) > 0:
                await asyncio.sleep(wait)
            sent.append(asyncio.ensure_future(one(n, due)))
        await asyncio.gather(*sent)
        for conn in conns:
            conn.close()

    rates = {"livez": LIVEZ_PER_S, "match read": READS_PER_S}
    await asyncio.gather(*(loop(kind, pid, conns, rates[kind] / len(by_worker))
                           for kind, by_worker in pinned.items()
                           for pid, conns in by_worker.items()))
    out = {}
    for kind in rates:
        ours = [r for (k, _), r in results.items() if k == kind]
        whole = Result(seconds, latencies=[x for r in ours for x in r.latencies])
        for r in ours:
            for status, n in r.statuses.items():
                whole.statuses[status] = whole.statuses.get(status, 0) + n
        out[kind] = {"answers": whole.statuses, "p50_ms": whole.percentile(50) * 1000,
                     "p99_ms": whole.percentile(99) * 1000,
                     "max_ms": max(whole.latencies) * 1000, "requests": len(whole.latencies),
                     "p99_ms_per_worker": {str(pid): r.percentile(99) * 1000
                                           for (k, pid), r in results.items() if k == kind}}
    out["pinned_per_worker"] = {str(pid): len(conns) for pid, conns in both.items()}
    report.put(out)


def victim(port: int, pids: list[int], seconds: float, report) -> None:
    """The victim's process (see the module docstring)."""
    asyncio.run(_measure(port, pids, seconds, report))


def run(seconds: float = 30.0, smoke: bool = False, senders: int = SENDERS,
        streams_from_start: bool = False) -> dict:
    """Start the servers, run both clients, stop everything; the figures as a dict.
    ``senders=0`` is the control: the attacker holds its streams but sends no body, so the
    other client's figures show what this machine gives it without the attack.
    ``streams_from_start``: the long match is built first (by a setup server, stopped before
    the measured one starts) and the attacker's streams read it from event 0 again and
    again."""
    warm = 0.5 if smoke else WARM_SECONDS
    if smoke:
        seconds = 2.0
    bodies = worst_bodies() if senders else []
    logs = Path(tempfile.mkdtemp(prefix="referee-starvation-"))
    redis_server = RedisServer()
    try:
        long = from_start.build(redis_server.url, logs / "setup.log", smoke) \
            if streams_from_start else None
        server = Gunicorn("referee.serving.wsgi:app", redis_server.url, logs / "server.log",
                          env=DEFAULT_LIMITS)
        try:
            ctx = multiprocessing.get_context("spawn")
            ready, attack_report, victim_report = ctx.Event(), ctx.Queue(), ctx.Queue()
            attack = ctx.Process(target=attacker, args=(
                server.port, bodies, ready, seconds + warm + 5, attack_report, senders, long))
            attack.start()
            if not ready.wait(60):
                raise SystemExit("starvation: the attacker did not get ready")
            time.sleep(warm)
            pids = server.workers()
            spread = {str(pid): sum(1 for ip, _ in peers if ip == ATTACKER)
                      for pid, peers in connections_by_worker(server.port, pids).items()}
            cpu, began = server.cpu_seconds(), time.monotonic()
            measure = ctx.Process(target=victim, args=(server.port, pids, seconds,
                                                       victim_report))
            measure.start()
            victims = victim_report.get(timeout=seconds + 60)
            busy = (server.cpu_seconds() - cpu) / (time.monotonic() - began)
            measure.join(10)
            attacks = attack_report.get(timeout=60)
            attack.join(10)
        finally:
            server.stop()
    finally:
        redis_server.stop()
    opens = attacks.pop("opens")
    if long is not None:
        whole = from_start.opens_in(opens, 0.0, float("inf"))
        attacks.update(source=ATTACKER, measured=from_start.opens_in(opens, began, seconds),
                       opens_total=whole["opens"], answers_total=whole["answers"])
    return {"seconds": seconds, "senders": senders, "bodies": [label for label, _, _ in bodies],
            "attack": "streams from start" if long else "streams held",
            "long_match": long and {**long, "tokens": len(long["tokens"])},
            "attacker": {**attacks, "connections_per_worker": spread}, "victim": victims,
            "worker_cpu_busy": busy}


def render(result: dict, command: str, note: str = "") -> str:
    """The RESULTS.md section of ``result`` (between the markers of its attack)."""
    v, a = result["victim"], result["attacker"]
    held = result.get("attack", "streams held") == "streams held"
    pinned = v.pop("pinned_per_worker", {})
    met = all(v[kind]["p99_ms"] <= TARGET_MS for kind in v)
    rows = "\n".join(
        f"| {kind} | {v[kind]['requests']} | {_statuses(v[kind]['answers'])} | "
        f"{v[kind]['p50_ms']:.1f} | **{v[kind]['p99_ms']:.1f}** | {v[kind]['max_ms']:.1f} |"
        for kind in v)
    bodies = "; ".join(result["bodies"])
    spread = a["connections_per_worker"]
    per_worker = "; ".join(
        f"{kind} " + ", ".join(f"{p99:.0f} ms (attacker connections: {spread.get(pid, '?')})"
                               for pid, p99 in v[kind]["p99_ms_per_worker"].items())
        for kind in v)
    attack = f"""The attacker ({ATTACKER}) held {a['streams_open']} streams \
(its 65th: {a['stream_65th']}) and
sent the worst bodies on {result.get('senders', SENDERS)} connections: {_statuses(a['answers'])}
({a['broken_connections']} connections refused or broken, reopened);""" if held else \
        from_start.paragraph(result, _statuses, DEFAULT_LIMITS)
    begin, end = (BEGIN, END) if held else (from_start.BEGIN, from_start.END)
    title = "" if held else ", streams from the start of a long match"
    return f"""{begin}
## Starvation (issue 21 item 2){title}: one address cannot delay another's answers

`{command}` ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; 2 gevent workers, Redis,
the default limits; {result['seconds']:.0f} s measured).{(' ' + note) if note else ''}

{attack} its connections per
worker when the measure began: {' and '.join(map(str, a['connections_per_worker'].values()))};
the other client read through each worker ({PINNED} keep-alive connections per worker and
kind; held per worker: {', '.join(map(str, pinned.values())) or '?'} of {2 * PINNED}):
p99 per worker {per_worker}; the two workers used
{result['worker_cpu_busy']:.2f} CPU seconds per second (2.00: both busy all the time).
Bodies: {bodies or 'none'}.

The other client ({VICTIM}), latency from when each request was due:

| request | sent | answers | p50 ms | p99 ms | max ms |
| --- | ---: | --- | ---: | ---: | ---: |
{rows}

Target p99 ≤ {TARGET_MS:.0f} ms: **{'met' if met else 'NOT met'}**.
{end}"""


def _statuses(counts: dict) -> str:
    return ", ".join(f"{n} × {status}" for status, n in sorted(counts.items(), key=str))


def write(path: Path, section: str, begin: str = BEGIN, end: str = END) -> None:
    """Put ``section`` between ``begin`` and ``end`` of ``path`` (:func:`bench.report.write`;
    the first time, after the default attack's section if there is one, else at the end),
    keeping the rest of the file; the markers default to the default attack's."""
    old = path.read_text() if path.is_file() else "# Benchmark results\n"
    if not (begin in old and end in old) and END not in old:
        path.write_text(old.rstrip("\n") + "\n\n" + section + "\n")
    else:
        bench_report.write(path, section, begin, end, after=END)


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(prog="python -m bench.starvation",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--smoke", action="store_true", help="2 s: shows that it runs")
    parser.add_argument("--note", default="")
    parser.add_argument("--senders", type=int, default=SENDERS,
                        help="attacker connections sending bodies (0: the control, no attack)")
    parser.add_argument("--streams-from-start", action="store_true",
                        help="the attacker's streams read a long match from event 0, again "
                             "and again (bench.starvation_from_start)")
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("RESULTS.md"))
    args = parser.parse_args(argv)
    result = run(args.seconds, args.smoke, args.senders, args.streams_from_start)
    print(json.dumps(result))
    shown = [arg for arg in argv if arg != args.note]  # the note follows in the text
    markers = (from_start.BEGIN, from_start.END) if args.streams_from_start else (BEGIN, END)
    write(args.out, render(result, shlex.join(["python", "-m", "bench.starvation", *shown]),
                           args.note), *markers)


if __name__ == "__main__":
    main()
