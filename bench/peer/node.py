"""boardgame.io's side of the peer comparison: its server and its load generator, in Node.

:func:`install` runs ``npm ci`` in ``bench/peer`` (the versions pinned by its
``package-lock.json``, into ``bench/peer/node_modules``, which git ignores) when that has not
been done for this lock file; Debian's ``nodejs`` and ``npm`` are installed with apt-get when
missing (as the bench does for ``redis-server``).  Only the bench calls it: ``./dev test``
never installs Node packages.
"""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from bench.peer.tables import Run
from bench.servers import ensure_program, free_port, process_cpu, stop_process

PEER = Path(__file__).resolve().parent
LOCK = PEER / "package-lock.json"
INSTALLED = PEER / "node_modules" / ".package-lock.json"
"""npm writes this copy of the lock file into ``node_modules`` as it installs."""


def install() -> str:
    """Node's path, with ``bench/peer``'s packages installed as its lock file pins them."""
    node = ensure_program("node", "nodejs")
    if not INSTALLED.is_file() or INSTALLED.stat().st_mtime < LOCK.stat().st_mtime:
        npm = ensure_program("npm", "npm")
        subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=PEER,
                       check=True, stdout=subprocess.DEVNULL)
    return node


class PeerServer:
    """``node server.cjs PORT``: boardgame.io's server (Koa, socket.io, in-memory storage) on
    127.0.0.1, ``NODE_ENV=production``; ``cpu()`` is its CPU seconds so far."""

    def __init__(self, node: str, log: Path) -> None:
        self.node = node
        self.port = free_port()
        self.log = open(log, "wb")
        self.proc = subprocess.Popen([node, "server.cjs", str(self.port)], cwd=PEER,
                                     env={**os.environ, "NODE_ENV": "production"},
                                     stdout=subprocess.PIPE, stderr=self.log)
        line = self.proc.stdout.readline()
        if b"listening" not in line:
            self.stop()
            raise RuntimeError(f"boardgame.io's server did not start (see {log})")

    def cpu(self) -> float:
        return process_cpu(self.proc.pid)

    def run(self, players: int, tables: int, warmup: float, seconds: float) -> Run:
        """``tables`` tables of ``players`` seats, each seat a boardgame.io client, one move
        in flight per table, for ``seconds`` after ``warmup`` seconds of moves."""
        config = {"port": self.port, "players": players, "tables": tables,
                  "warmup": warmup, "seconds": seconds}
        load = subprocess.Popen([self.node, "load.cjs", json.dumps(config)], cwd=PEER,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=self.log)
        try:
            if load.stdout.readline().strip() != b"ready":
                raise RuntimeError("boardgame.io's load generator did not start")
            before = self.cpu()
            load.stdin.write(b"go\n")
            load.stdin.flush()
            answer = json.loads(load.stdout.readline())
            spent = self.cpu() - before
            load.wait(30)
        finally:
            if load.poll() is None:
                load.kill()
                load.wait()
        return Run(moves=answer["moves"], seconds=answer["seconds"], cpu=spent,
                   latencies=[ms / 1000 for ms in answer["latencies_ms"]])

    def stop(self) -> None:
        stop_process(self.proc, 10)
        self.log.close()
