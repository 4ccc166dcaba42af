"""Live servers for the client's tests: gunicorn serving the referee app from this checkout,
started with the **server's** ``referee serve`` command (``REFEREE_COMMAND``, which ``./dev``
sets to ``.venv/bin/referee``), so the tests themselves run in a venv holding only
``referee_client`` and pytest.  Run from the server's venv, that venv's command serves.

Stores: ``memory`` (one worker, matches in the process) always; ``redis`` (two workers on
``REFEREE_TEST_REDIS_URL``, the private Redis ``./dev test`` starts) when that is set.
"""
from __future__ import annotations

import importlib.util
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

REPO = Path(__file__).resolve().parents[3]
START_WAIT_SECONDS = 60
"""A loaded 2-core machine can take over 20 s to start a worker that builds the OpenAPI."""


def server_command() -> str | None:
    """The server's ``referee`` command: ``REFEREE_COMMAND``, or the one beside this Python if
    this Python can import ``referee``; ``None`` when neither."""
    given = os.environ.get("REFEREE_COMMAND")
    if given:
        return given
    beside = Path(sys.executable).parent / "referee"
    return str(beside) if importlib.util.find_spec("referee") and beside.exists() else None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """One ``referee serve`` (gunicorn with the shipped settings) on ``127.0.0.1:port``;
    :meth:`start` and :meth:`stop` may be called again (a restart keeps the port)."""

    def __init__(self, command: str, env: dict[str, str], workers: int = 1):
        self.command, self.workers, self.port = command, workers, free_port()
        self.env = {**os.environ, "REFEREE_RATE_LIMITS": "off", "REFEREE_LOG_LEVEL": "WARNING",
                    "REFEREE_STREAM_HEARTBEAT_SECONDS": "1", **env}
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        self.log = tempfile.TemporaryFile()  # its stderr, shown if it does not start

    def start(self) -> "Server":
        self.proc = subprocess.Popen(  # referee serve execs gunicorn: the same process
            [self.command, "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--workers", str(self.workers)], cwd=REPO, env=self.env,
            stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.monotonic() + START_WAIT_SECONDS
        while True:
            try:
                if requests.get(f"{self.url}/readyz", timeout=5).status_code == 200:
                    return self
            except requests.RequestException:  # workers still starting
                pass
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.stop()
                self.log.seek(0)
                raise RuntimeError(f"the server on {self.url} did not start:\n"
                                   f"{self.log.read()[-4000:].decode(errors='replace')}")
            time.sleep(0.1)

    def stop(self) -> None:
        """Stop at once (gunicorn's SIGQUIT: open streams are cut, as in a crash)."""
        if self.proc is None:
            return
        self.proc.send_signal(signal.SIGQUIT)
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None
