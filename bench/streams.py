"""Measure live streams: one gunicorn gevent worker holding TABLES x PHONES open match streams
while moves are made on MOVING of the tables; report how long each move takes to reach every
phone of its table (from sending the move's POST to the phone reading the view after it).

Run (needs a Redis; the worker's readers share one pub/sub subscription):

    .venv/bin/python -m bench.streams --redis-url redis://127.0.0.1:6379/0 [--seconds 30]

Everything goes to 127.0.0.1 and stops after ``--seconds`` of moves.  Streams are read by
``--reader-processes`` processes, each one asyncio loop (no thread per stream); moves are made
by ``MOVING`` threads in a process of their own, one per table, each a move at a time about
every ``--interval`` seconds.  Readers and movers are separate processes so that neither's
interpreter lock delays the other's clock: a move's POST and its arrival at a phone are both
stamped with ``time.monotonic()`` (``CLOCK_MONOTONIC``, one clock for every process of the
machine).  Prints one JSON line.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import requests

from bench.servers import BUDGETS

REPO = Path(__file__).resolve().parents[1]
PHONES = ["ana", "ben", "cy", "dee"]


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds used so far by process ``pid`` (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def worker_pid(master: int) -> int:
    """The pid of the one gunicorn worker of ``master``."""
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return int(children[0])


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(redis_url: str, port: int) -> subprocess.Popen:
    """``gunicorn -w 1`` with the shipped settings (referee.serving.worker's gevent worker) and room
    for 4000 connections, on ``port``; waits for /readyz."""
    env = {**os.environ, **BUDGETS, "REDIS_URL": redis_url, "REFEREE_LOG_LEVEL": "WARNING"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--config", "python:referee.serving.gunicorn_conf",
         "--worker-connections", "4000", "--workers", "1",
         "--access-logfile", "/dev/null", "--bind", f"127.0.0.1:{port}", "referee.serving.wsgi:app"],
        cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if requests.get(f"http://127.0.0.1:{port}/readyz", timeout=2).ok:
                return proc
        except requests.RequestException:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("gunicorn did not start")


class Readers:
    """Every phone's stream; ``arrived[(match, phone)]``: ``(version, time)`` of each view."""

    def __init__(self) -> None:
        self.arrived: dict[tuple[str, str], list[tuple[int, float]]] = {}
        self.open = 0

    async def phone(self, port: int, match_id: str, name: str, token: str,
                    stop: asyncio.Event) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write((f"GET /v1/matches/{match_id}/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      f"Authorization: Bearer {token}\r\nAccept: text/event-stream\r\n\r\n"
                      ).encode())
        await writer.drain()
        self.open += 1
        event = None
        try:
            while True:
                line = await reader.readline()
                if not line:
                    if not stop.is_set():
                        print(f"stream of {match_id}/{name} closed", file=sys.stderr)
                    break
                text = line.decode().rstrip("\r\n")
                if text.startswith("event: "):
                    event = text[7:]
                elif text.startswith("data: ") and event == "end":
                    print(f"end {text}", file=sys.stderr)
                elif text.startswith("data: ") and event == "view":
                    now = time.monotonic()
                    version = json.loads(text[6:])["version"]
                    self.arrived.setdefault((match_id, name), []).append((version, now))
        except asyncio.CancelledError:
            pass
        finally:
            self.open -= 1
            writer.close()


def mover(base: str, table: dict, sent: dict, answered: list, stop: threading.Event,
          interval: float, rng: random.Random, lock: threading.Lock) -> None:
    """Make legal moves on ``table`` until ``stop``: read the legal actions (host token), post
    one with its seat's token; ``sent[(match, version)]`` = when its POST was sent."""
    session = requests.Session()
    host = {"Authorization": f"Bearer {table['host_token']}"}
    stop.wait(interval * rng.random())  # tables do not move in step: first moves spread out
    while not stop.is_set():
        legal = session.get(f"{base}/v1/matches/{table['id']}/legal-actions",
                            headers=host, timeout=10).json()
        if not legal["to_move"]:
            return
        choices = [a for a in legal["actions"] if a["player"] in table["seats"]]
        action = rng.choice(choices)
        version = legal["version"]
        headers = {"Authorization": f"Bearer {table['seats'][action['player']]}",
                   "If-Match": f'"{version}"'}
        began = time.monotonic()
        answer = session.post(f"{base}/v1/matches/{table['id']}/actions",
                              json={"action": action}, headers=headers, timeout=10)
        if answer.status_code == 200:
            with lock:
                sent[(table["id"], version + 1)] = began
                answered.append((time.monotonic() - began) * 1000)
            if answer.json()["over"]:
                return
        stop.wait(interval * rng.uniform(0.5, 1.5))


def read_streams(port: int, tables: list[dict], join_gap: float, opened, stop, out) -> None:
    """A reader process: open every phone's stream of ``tables``, set ``opened`` once all are
    open, read until ``stop``, then put ``(arrived, still open)`` on ``out``."""
    async def go():
        readers = Readers()
        halt = asyncio.Event()
        phones = []
        for t in tables:  # phones join a few tables at a time, as tables sit down
            phones += [asyncio.create_task(readers.phone(port, t["id"], p, t["seats"][p], halt))
                       for p in PHONES]
            await asyncio.sleep(join_gap)
        while readers.open < len(phones):
            await asyncio.sleep(0.1)
        opened.set()
        while not stop.is_set():
            await asyncio.sleep(0.1)
        still_open = readers.open
        halt.set()
        for task in phones:
            task.cancel()
        failed = [r for r in await asyncio.gather(*phones, return_exceptions=True)
                  if isinstance(r, BaseException) and not isinstance(r, asyncio.CancelledError)]
        if failed:
            print(f"{len(failed)} phones failed, e.g. {failed[0]!r}", file=sys.stderr)
        out.put((readers.arrived, still_open))
    asyncio.run(go())


def make_moves(base: str, tables: list[dict], seconds: float, interval: float, out) -> None:
    """The mover process: one thread per table for ``seconds``; puts ``(sent, answered)``."""
    sent: dict = {}
    answered: list = []
    lock = threading.Lock()
    stop = threading.Event()
    movers = [threading.Thread(target=mover, args=(base, t, sent, answered, stop, interval,
                                                   random.Random(i), lock))
              for i, t in enumerate(tables)]
    for thread in movers:
        thread.start()
    stop.wait(seconds)
    stop.set()
    for thread in movers:
        thread.join()
    out.put((sent, answered))


def run(args) -> dict:
    port = free_port()
    server = start_server(args.redis_url, port)
    base = f"http://127.0.0.1:{port}"
    context = multiprocessing.get_context("spawn")
    try:
        session = requests.Session()
        tables = [session.post(f"{base}/v1/matches", json={
            "game": "all-fours", "players": PHONES, "dealer": "ana",
            "sides": {"X": ["ana", "cy"], "Y": ["ben", "dee"]}, "seed": n}).json()
            for n in range(args.tables)]
        stop_reading = context.Event()
        groups = [tables[i::args.reader_processes] for i in range(args.reader_processes)]
        opened = [context.Event() for _ in groups]
        arrivals = context.Queue()
        reading = [context.Process(target=read_streams, args=(
            port, group, args.join_gap * args.reader_processes, flag, stop_reading, arrivals))
            for group, flag in zip(groups, opened)]
        for process in reading:
            process.start()
        for flag in opened:
            flag.wait(120)
        time.sleep(2)  # every stream has sent its first view
        moves = context.Queue()
        moving = context.Process(target=make_moves, args=(
            base, tables[:args.moving], args.seconds, args.interval, moves))
        worker = worker_pid(server.pid)
        cpu_before = cpu_seconds(worker)
        moving.start()
        sent, answered = moves.get(timeout=args.seconds + 120)
        moving.join()
        worker_cpu = cpu_seconds(worker) - cpu_before
        time.sleep(1.5)  # the last moves reach their phones
        stop_reading.set()
        arrived: dict = {}
        still_open = 0
        for _ in reading:
            part, open_now = arrivals.get(timeout=60)
            arrived.update(part)
            still_open += open_now
        for process in reading:
            process.join()
        latencies, missing = [], 0
        for (match_id, version), began in sent.items():
            for name in PHONES:
                seen = [t for v, t in arrived.get((match_id, name), []) if v >= version]
                if seen:
                    latencies.append((seen[0] - began) * 1000)
                else:
                    missing += 1
        if args.dump:  # [[POST sent, [[arrival] or [] per phone]], ...] (monotonic seconds)
            Path(args.dump).write_text(json.dumps(
                [[began, [[t for v, t in arrived.get((m, n), []) if v >= version][:1]
                          for n in PHONES]] for (m, version), began in sent.items()]))
        latencies.sort()
        pick = lambda q: round(latencies[min(int(q * len(latencies)), len(latencies) - 1)], 1)
        return {"streams": len(tables) * len(PHONES), "open_at_end": still_open,
                "moving_tables": args.moving, "moves": len(sent),
                "deliveries": len(latencies), "missing": missing,
                "p50_ms": pick(0.50), "p99_ms": pick(0.99), "max_ms": round(latencies[-1], 1),
                "post_answer_p50_ms": round(sorted(answered)[len(answered) // 2], 1),
                "post_answer_p99_ms": round(sorted(answered)[int(len(answered) * .99)], 1),
                "worker_cpu_ms_per_move": round(worker_cpu * 1000 / max(len(sent), 1), 1),
                "load_average": os.getloadavg()[0]}
    finally:
        server.terminate()
        server.wait(timeout=15)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--redis-url", default=os.environ.get("REDIS_URL"), required=False)
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--moving", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--join-gap", type=float, default=0.02,
                        help="seconds between two tables' phones opening their streams")
    parser.add_argument("--dump", help="write each move's send and arrival times (JSON) here")
    parser.add_argument("--reader-processes", type=int, default=1,
                        help="processes reading the streams (each one asyncio loop)")
    parser.add_argument("--interval", type=float, default=1.0,
                        help="mean seconds between two moves on one moving table")
    args = parser.parse_args()
    if not args.redis_url:
        parser.error("--redis-url (or REDIS_URL) is required")
    print(json.dumps(run(args)))


if __name__ == "__main__":
    main()
