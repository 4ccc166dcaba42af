"""Another client beside 500 slow ones (issue 12): its p50 and p99 while the server holds
:data:`SLOW` connections that sent one byte of a request and stopped and :data:`NON_READERS`
that pipelined requests for ``/openapi.json`` and read no answer, beside the same figures with
none held (the ceiling: what this machine gives that client anyway).
``tests/serving/test_slow_clients.py`` checks the behaviour (every request of the other client
answered while the 500 are held, the 500 closed after their limits) and asserts no time; the
figure is here.

The real server as ``referee serve`` runs it (:class:`bench.servers.Gunicorn`: 2 gevent
workers, its own redis-server; budgets and caps past reach, so that one address stands for 500
clients), with :data:`LIMIT_SECONDS` for a request's headers and per socket operation, so that
the 500 are held through a whole round.  Rounds alternate, none then 500, ``--rounds`` times,
so that both see the same share of a busy machine.  A round of the 500 opens them, waits until
the workers have accepted every one (``/proc/net/tcp``: none left in the listening socket's
queue) and begun to answer each non-reader, probes, checks that the server still holds all
500 (a round in which it does not is an error, not a figure; a round stops probing
:data:`MARGIN_SECONDS` before their limit), then closes them and waits until the server has
let them go.  A probe is ``GET /v1/games/all-fours`` on a new connection, one at a time from
this process; its latency runs from opening the connection to the whole answer read, and its
status is counted (the table's "answers").  Everything goes to 127.0.0.1.

Prints one JSON line and writes the section between :data:`BEGIN` and :data:`END` of
``bench/RESULTS.md``.  ``python -m bench.slow_clients [--probes 300] [--rounds 5] [--smoke]
[--note TEXT] [--out PATH]`` (about 10 s on a quiet machine); also the last step of
``python -m bench``.
"""
from __future__ import annotations

import argparse
import http.client
import json
import math
import shlex
import socket
import sys
import tempfile
import time
from collections.abc import Collection
from pathlib import Path

from bench import report
from bench.load import Result, merged
from bench.servers import (ESTABLISHED, LISTENING, Gunicorn, RedisServer,
                           connections_by_worker, server_sockets)

SLOW = 400
"""Connections that send one byte of a request and stop."""
NON_READERS = 100
"""Connections that send whole requests for a large answer and never read it."""
PROBES, ROUNDS = 300, 5
"""Requests of the other client per round, and rounds of each kind (none, 500)."""
WARM_PROBES = 20
"""Probes before the first round, not counted (each worker's first answers)."""
LIMIT_SECONDS = 60
"""``REFEREE_HEADER_TIMEOUT_SECONDS`` and ``REFEREE_IO_TIMEOUT_SECONDS`` of the server: the
500 are held this long at least (the defaults, 5 and 30 s, would close the one-byte ones
within a round on a busy machine)."""
MARGIN_SECONDS = 5
"""A round of the 500 stops probing this long before their limit."""
WAIT_SECONDS = 60
"""How long a probe, the workers' taking in of the 500 or their letting go may take before
the run stops with an error."""
PROBE_PATH = "/v1/games/all-fours"
TARGET_MS = 100.0
"""p99 beside the 500: the bound tests/serving/test_slow_clients.py asserted until a busy
machine gave 153 ms (a figure for this bench now, not a test)."""

BEGIN = "<!-- slow-clients:begin (written by python -m bench.slow_clients) -->"
END = "<!-- slow-clients:end -->"


def open_slow(port: int, timeout: float = WAIT_SECONDS) -> socket.socket:
    """A connection to 127.0.0.1:``port`` that sends one byte of a request and stops."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    sock.sendall(b"G")
    return sock


def open_non_reader(port: int, timeout: float = WAIT_SECONDS) -> socket.socket:
    """A connection to 127.0.0.1:``port`` that pipelines 20 requests for ``/openapi.json``
    (~3.5 MB of answers) with a 4 KiB receive buffer, for the caller never to read."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # the answer cannot fit
    sock.settimeout(timeout)
    sock.connect(("127.0.0.1", port))
    sock.sendall(b"GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n" * 20)
    return sock


def held_by_server(port: int, ends: Collection[tuple[str, int]]) -> int:
    """How many of the connections whose client ends are ``ends`` (``sock.getsockname()``) the
    server's side still holds open: established, not closed by the server (one no worker has
    accepted yet counts too: see :func:`not_accepted`)."""
    established = {s.peer for s in server_sockets(port) if s.state == ESTABLISHED}
    return sum(1 for end in ends if end in established)


def not_accepted(port: int) -> int:
    """Connections waiting in the server's listening socket for a worker to accept them."""
    return sum(s.queue for s in server_sockets(port) if s.state == LISTENING)


def wait_until(check, what: str, seconds: float = WAIT_SECONDS) -> None:
    """Poll ``check()`` every 0.1 s until it is true; ``RuntimeError`` naming ``what`` after
    ``seconds``."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} (waited {seconds} s)")
        time.sleep(0.1)


def open_500(port: int) -> list[socket.socket]:
    """Open :data:`SLOW` one-byte connections and :data:`NON_READERS` non-readers; return once
    the workers have accepted every one and begun to answer each non-reader (its first bytes
    are there to read: peeked, not read)."""
    socks = [open_slow(port) for _ in range(SLOW)]
    socks += [open_non_reader(port) for _ in range(NON_READERS)]
    ends = [sock.getsockname() for sock in socks]
    wait_until(lambda: not not_accepted(port) and held_by_server(port, ends) == len(socks),
               f"the workers did not take the {len(socks)} in")
    if not all(sock.recv(1, socket.MSG_PEEK) for sock in socks[SLOW:]):
        raise RuntimeError("a non-reader was closed before its first answer")
    return socks


def probe(port: int) -> tuple[int, bytes, float]:
    """``GET`` :data:`PROBE_PATH` on a new connection: ``(status, body, seconds)`` from
    opening the connection to the whole answer read."""
    start = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT_SECONDS)
    try:
        conn.request("GET", PROBE_PATH)
        response = conn.getresponse()
        body = response.read()
    finally:
        conn.close()
    return response.status, body, time.perf_counter() - start


def probes(port: int, count: int, until: float) -> Result:
    """``count`` probes one after the other, or fewer if ``time.monotonic()`` passes
    ``until``; each status counted, each latency in seconds."""
    result = Result(0.0)
    start = time.monotonic()
    while len(result.latencies) < count and time.monotonic() < until:
        status, _, seconds = probe(port)
        result.latencies.append(seconds)
        result.statuses[status] = result.statuses.get(status, 0) + 1
    result.seconds = time.monotonic() - start
    return result


def beside_500(port: int, count: int, pids: list[int]) -> tuple[Result, list[int]]:
    """One round of the 500: open them, probe, check the server held all 500 throughout,
    close them and wait until the server has let them go.  The probes, and how many of the
    500 each worker of ``pids`` held."""
    opened = time.monotonic()
    socks = open_500(port)
    ends = [sock.getsockname() for sock in socks]
    try:
        result = probes(port, count, opened + LIMIT_SECONDS - MARGIN_SECONDS)
        held = held_by_server(port, ends)
        if held != len(socks):
            raise RuntimeError(f"the server held {held} of {len(socks)} after the probes")
        mine = set(ends)
        spread = [sum(1 for peer in peers if peer in mine)
                  for peers in connections_by_worker(port, pids).values()]
    finally:
        for sock in socks:
            sock.close()
    wait_until(lambda: held_by_server(port, ends) == 0, "the server did not let the 500 go")
    return result, spread


def run(count: int = PROBES, rounds: int = ROUNDS, smoke: bool = False) -> dict:
    """Start the servers, measure ``rounds`` rounds of each kind (``count`` probes each), stop
    everything; the figures as a dict (milliseconds).  ``smoke``: 10 probes, 1 round."""
    if smoke:
        count, rounds = 10, 1
    if count < 1 or rounds < 1:
        raise ValueError(f"at least 1 probe and 1 round (count {count}, rounds {rounds})")
    logs = Path(tempfile.mkdtemp(prefix="referee-slow-clients-"))
    limits = {"REFEREE_HEADER_TIMEOUT_SECONDS": str(LIMIT_SECONDS),
              "REFEREE_IO_TIMEOUT_SECONDS": str(LIMIT_SECONDS)}
    redis_server = RedisServer()
    try:
        server = Gunicorn("referee.serving.wsgi:app", redis_server.url, logs / "server.log",
                          env=limits)
        try:
            status, body, _ = probe(server.port)
            if status != 200:
                raise RuntimeError(f"{PROBE_PATH} answered {status}: {body[:300]!r}")
            probes(server.port, WARM_PROBES, math.inf)
            pids = server.workers()
            kinds: dict[str, list[Result]] = {"none": [], "500 slow clients": []}
            spread: list[int] = []
            for _ in range(rounds):
                kinds["none"].append(probes(server.port, count, math.inf))
                result, spread = beside_500(server.port, count, pids)
                kinds["500 slow clients"].append(result)
        finally:
            server.stop()
    finally:
        redis_server.stop()
    out = {"probes_per_round": count, "rounds": rounds, "held_per_worker": spread,
           "worker_class": server.worker_class}
    for kind, results in kinds.items():
        whole = merged(results)
        out[kind] = {"probes": len(whole.latencies), "answers": whole.statuses,
                     "p50_ms": whole.percentile(50) * 1000,
                     "p99_ms": whole.percentile(99) * 1000,
                     "max_ms": max(whole.latencies) * 1000}
    return out


def render(result: dict, command: str, note: str = "") -> str:
    """The RESULTS.md section of ``result``."""
    rows = "\n".join(
        f"| {label} | {result[kind]['probes']} | "
        + ", ".join(f"{n} × {status}" for status, n in sorted(result[kind]["answers"].items()))
        + f" | {result[kind]['p50_ms']:.1f} | **{result[kind]['p99_ms']:.1f}** | "
          f"{result[kind]['max_ms']:.1f} |"
        for kind, label in (("none", "none (the ceiling)"),
                            ("500 slow clients", f"{SLOW} one-byte + {NON_READERS} non-readers")))
    met = result["500 slow clients"]["p99_ms"] <= TARGET_MS
    noted = f"{note}\n" if note else ""
    return f"""{BEGIN}
## Slow clients (issue 12): another client's answers while 500 slow ones are held

`{command}` ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; 2 gevent workers
(`{result['worker_class']}`), Redis; {result['rounds']} rounds of each kind, alternating,
{result['probes_per_round']} probes a round, each `GET {PROBE_PATH}` on a new connection,
latency from opening it to the whole answer read; the 500 held through every round of theirs,
per worker at the end of the last: {' and '.join(map(str, result['held_per_worker']))}).
{noted}
| beside | probes | answers | p50 ms | p99 ms | max ms |
| --- | ---: | --- | ---: | ---: | ---: |
{rows}

p99 beside the 500 ≤ {TARGET_MS:.0f} ms (the bound tests/serving/test_slow_clients.py asserted
until a busy machine gave 153 ms): **{'met' if met else 'NOT met'}**.
{END}"""


def main(argv: list[str] | None = None) -> None:
    """The command line (see the module docstring): run, print the JSON, write the section."""
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(prog="python -m bench.slow_clients",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--probes", type=int, default=PROBES, help="probes per round")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="rounds of each kind")
    parser.add_argument("--smoke", action="store_true", help="10 probes, 1 round")
    parser.add_argument("--note", default="")
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("RESULTS.md"))
    args = parser.parse_args(argv)
    result = run(args.probes, args.rounds, args.smoke)
    print(json.dumps(result))
    shown = [arg for arg in argv if arg != args.note]  # the note follows in the text
    report.write(args.out, render(result, shlex.join(["python", "-m", "bench.slow_clients",
                                                      *shown]), args.note), BEGIN, END)


if __name__ == "__main__":
    main()
