"""Live servers for the client's tests: gunicorn serving the referee app from this checkout,
started with the **server's** Python (``REFEREE_SERVER_PYTHON``, which ``./dev`` sets to
``.venv/bin/python``), so the tests themselves run in a venv holding only ``referee_client``
and pytest.  Run from the server's venv, that venv's Python serves.

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
import time
from pathlib import Path

import requests

REPO = Path(__file__).resolve().parents[3]
START_WAIT_SECONDS = 60
"""A loaded 2-core machine can take over 20 s to start a worker that builds the OpenAPI."""


def server_python() -> str | None:
    """The Python that has the server installed: ``REFEREE_SERVER_PYTHON``, or this one if it
    can import ``referee``; ``None`` when neither."""
    given = os.environ.get("REFEREE_SERVER_PYTHON")
    if given:
        return given
    return sys.executable if importlib.util.find_spec("referee") else None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """One gunicorn (``referee.gunicorn_conf``) on ``127.0.0.1:port``; :meth:`start` and
    :meth:`stop` may be called again (a restart keeps the port)."""

    def __init__(self, python: str, env: dict[str, str], workers: int = 1):
        self.python, self.workers, self.port = python, workers, free_port()
        self.env = {**os.environ, "REFEREE_RATE_LIMITS": "off", "REFEREE_LOG_LEVEL": "WARNING",
                    "REFEREE_STREAM_HEARTBEAT_SECONDS": "1", **env}
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None

    def start(self) -> "Server":
        self.proc = subprocess.Popen(
            [self.python, "-m", "gunicorn", "--config", "python:referee.gunicorn_conf",
             "--workers", str(self.workers), "--bind", f"127.0.0.1:{self.port}",
             "referee.wsgi:app"], cwd=REPO, env=self.env, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + START_WAIT_SECONDS
        while True:
            try:
                if requests.get(f"{self.url}/readyz", timeout=5).status_code == 200:
                    return self
            except requests.RequestException:  # workers still starting
                pass
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.stop()
                raise RuntimeError(f"the server on {self.url} did not start")
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
