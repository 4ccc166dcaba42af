"""The processes a bench run starts and stops: a private redis-server and gunicorn.

Both listen on 127.0.0.1 on a free port.  gunicorn runs exactly as ``referee serve`` would
(:func:`referee.serving.cli.serve_argv`: the product's settings module
``referee.serving.gunicorn_conf``, whatever worker class it names) with 2 workers; only the WSGI app
differs between the bare Flask ceiling, the product's echo and the product itself.  Server CPU is
read from ``/proc/<pid>/stat`` (utime + stime of every worker process, all its threads included).
"""
from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

import redis

from bench.load import Connection
from referee.serving.cli import serve_argv

ROOT = Path(__file__).resolve().parents[1]
WORKERS = 2
TICKS = os.sysconf("SC_CLK_TCK")
OUT_OF_REACH = {"REFEREE_STREAMS_PER_TOKEN": "100000", "REFEREE_STREAMS_PER_ADDRESS": "100000",
                "REFEREE_CONNECTIONS_PER_ADDRESS": "100000",
                "REFEREE_REQUESTS_PER_ADDRESS": "100000"}
"""The caps on open streams, each address's connections and its turns, likewise out of reach:
a speed bench's one address stands for many clients."""
BUDGETS = {**{name: "100000000/minute" for name in (
    "REFEREE_LIMIT_CREATE", "REFEREE_LIMIT_MATCH_PER_TOKEN", "REFEREE_LIMIT_MATCH_PER_IP",
    "REFEREE_LIMIT_STATELESS_PER_IP")}, **OUT_OF_REACH}
"""Rate-limit budgets and caps no bench reaches: all load comes from one IP, yet the limits'
own checks still run (and cost what they cost), unlike ``REFEREE_RATE_LIMITS=off``."""


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def ensure_program(name: str, package: str) -> str:
    """The path of ``name``, installing Debian's ``package`` with apt-get if it is missing."""
    found = shutil.which(name)
    if found:
        return found
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", package], check=True,
                   env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
                   stdout=subprocess.DEVNULL)
    return shutil.which(name) or name


class RedisServer:
    """A private, non-persistent redis-server on a free loopback port (``url``)."""

    def __init__(self) -> None:
        binary = ensure_program("redis-server", "redis-server")
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="referee-bench-redis-")
        self.proc = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", self.dir], stdout=subprocess.DEVNULL)
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.client = redis.Redis.from_url(self.url)
        wait_until(lambda: self.client.ping(), f"redis-server on port {self.port}")

    def stop(self) -> None:
        """Stop the server and remove its directory."""
        self.proc.terminate()
        self.proc.wait(10)
        shutil.rmtree(self.dir, ignore_errors=True)


class Gunicorn:
    """gunicorn serving ``app`` (``module:variable``) as ``referee serve`` would, ``workers``
    workers (2 by default); the code is imported from ``root`` (default this checkout; another
    worktree for a side-by-side run, :mod:`bench.ab`)."""

    def __init__(self, app: str, redis_url: str, log: Path,
                 env: dict[str, str] | None = None, root: Path = ROOT,
                 workers: int = WORKERS) -> None:
        self.port = free_port()
        self.count = workers
        args = argparse.Namespace(host="127.0.0.1", port=self.port, workers=workers,
                                  threads=8)
        argv = serve_argv_for(args, redis_url)
        argv[-1] = app
        self.log = open(log, "wb")
        env = {**os.environ, **BUDGETS, "REDIS_URL": redis_url, "PYTHONPATH": str(root),
               **(env or {})}
        self.proc = subprocess.Popen(argv, cwd=root, env=env, stdout=self.log,
                                     stderr=subprocess.STDOUT)
        self.url = f"http://127.0.0.1:{self.port}"
        wait_until(lambda: len(self.workers()) == workers and _connects(self.port),
                   f"gunicorn {app} on port {self.port}", 30)
        self.worker_class = _worker_class(log)

    def workers(self) -> list[int]:
        """The pids of the worker processes (children of the gunicorn master)."""
        path = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
        try:
            return [int(p) for p in path.read_text().split()]
        except OSError:
            return []

    def cpu_seconds(self) -> float:
        """utime + stime of every worker process so far, in seconds."""
        return sum(process_cpu(pid) for pid in self.workers())

    def stop(self) -> None:
        """Stop gunicorn (SIGTERM to the master, which stops its workers)."""
        stop_process(self.proc, 15)
        self.log.close()


def stop_process(proc: subprocess.Popen, seconds: float) -> None:
    """SIGTERM ``proc``, wait up to ``seconds`` for it to end, else SIGKILL it; reaped
    either way."""
    proc.terminate()
    try:
        proc.wait(seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def process_cpu(pid: int) -> float:
    """utime + stime of process ``pid`` so far (all its threads), in seconds; 0 if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime (fields 14, 15)


def serve_argv_for(args: argparse.Namespace, redis_url: str) -> list[str]:
    """``referee serve``'s gunicorn command line with ``REDIS_URL`` set (several workers)."""
    saved = os.environ.get("REDIS_URL")
    os.environ["REDIS_URL"] = redis_url
    try:
        return serve_argv(args)
    finally:
        if saved is None:
            os.environ.pop("REDIS_URL", None)
        else:
            os.environ["REDIS_URL"] = saved


def _worker_class(log: Path) -> str:
    """The worker class gunicorn reports using ("Using worker: gthread") in its log (a JSON
    line: the name ends at the message's closing quote)."""
    for line in log.read_text(errors="replace").splitlines()[::-1]:
        if "Using worker:" in line:
            return line.split("Using worker:", 1)[1].split('"', 1)[0].strip()
    return "unknown"


def _connects(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), 0.5).close()
        return True
    except OSError:
        return False


def wait_until(check, what: str, seconds: float = 10) -> None:
    """Poll ``check()`` until it is true; ``RuntimeError`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except Exception:  # noqa: BLE001 - not up yet
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not start within {seconds} s")


def _hex_address(ip: str, port: int) -> str:
    """``/proc/net/tcp``'s spelling of an IPv4 address and port (little-endian hex)."""
    return "".join(f"{int(part):02X}" for part in reversed(ip.split("."))) + f":{port:04X}"


ESTABLISHED, LISTENING = "01", "0A"
"""``/proc/net/tcp``'s codes of the two socket states read here."""


class ServerSocket(NamedTuple):
    """One socket on the server's side of its port (:func:`server_sockets`)."""

    state: str
    """The kernel's hex code of the TCP state (:data:`ESTABLISHED`, :data:`LISTENING`, …)."""
    peer: tuple[str, int]
    """The client's end ``(ip, port)`` (``("0.0.0.0", 0)`` for the listening socket)."""
    queue: int
    """Bytes received and not yet read; for the listening socket, the connections the kernel
    has completed and no worker has accepted yet."""
    inode: str
    """The socket's inode (``/proc/<pid>/fd/*`` links to ``socket:[inode]``)."""


def server_sockets(port: int) -> list[ServerSocket]:
    """Every TCP socket of this machine whose own end is 127.0.0.1:``port``: the server's
    listening socket and its side of each connection (a connection the server has closed is
    no longer :data:`ESTABLISHED`), read from ``/proc/net/tcp`` (Linux)."""
    local = _hex_address("127.0.0.1", port)
    found = []
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[1] == local:
            ip_hex, port_hex = fields[2].split(":")
            ip = ".".join(str(int(ip_hex[i:i + 2], 16)) for i in (6, 4, 2, 0))
            queue = int(fields[4].split(":")[1], 16)  # tx_queue:rx_queue
            found.append(ServerSocket(fields[3], (ip, int(port_hex, 16)), queue, fields[9]))
    return found


def connections_by_worker(port: int, pids: list[int]) -> dict[int, list[tuple[str, int]]]:
    """The client end ``(ip, port)`` of every TCP connection each worker of ``pids`` holds on
    the server's ``port`` (read from ``/proc/net/tcp`` and each worker's open files)."""
    peers = {f"socket:[{sock.inode}]": sock.peer for sock in server_sockets(port)
             if sock.state == ESTABLISHED}
    out: dict[int, list[tuple[str, int]]] = {pid: [] for pid in pids}
    for pid in pids:
        try:
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                try:
                    target = os.readlink(fd)
                except OSError:
                    continue
                if target in peers:
                    out[pid].append(peers[target])
        except OSError:
            continue
    return out


async def pinned_by_worker(port: int, pids: list[int], each: int, source: str
                           ) -> dict[int, list[Connection]]:
    """``each`` keep-alive connections from ``source`` held by each worker of ``pids``:
    new connections go to whichever worker accepts first, so batches are opened (no request
    yet: a worker accepts before it reads) and sorted by the worker that accepted them (one
    look at ``/proc`` per batch, so all are opened within a moment and none idles past the
    keep-alive limit) until each worker holds its share; the rest are closed."""
    held: dict[int, list[Connection]] = {pid: [] for pid in pids}
    for _ in range(8):
        batch = []
        for _ in range(4 * each * len(pids)):
            conn = Connection(port, source)
            conn.reader, conn.writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(source, 0))
            batch.append(conn)
        mine = {(source, conn.writer.get_extra_info("sockname")[1]) for conn in batch}
        for _ in range(50):  # until the workers have accepted them all (a busy one is slow)
            await asyncio.sleep(0.1)
            owners = {peer: pid for pid, peers in connections_by_worker(port, pids).items()
                      for peer in peers}
            if mine <= owners.keys():
                break
        for conn in batch:
            owner = owners.get((source, conn.writer.get_extra_info("sockname")[1]))
            if owner is not None and len(held[owner]) < each:
                held[owner].append(conn)
            else:
                conn.close()
        if all(len(conns) == each for conns in held.values()):
            break
    return {pid: conns for pid, conns in held.items() if conns}
