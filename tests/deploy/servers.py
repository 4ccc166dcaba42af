"""gunicorn masters for the deploy tests: each started with the packaged settings
(``--config python:referee.serving.gunicorn_conf``) on a loopback port, its stdout kept."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import requests

REPO = Path(__file__).resolve().parents[2]
START_WAIT_SECONDS = 30


class Gunicorn:
    """One gunicorn master serving ``app`` on ``port`` (``extra``: more gunicorn arguments,
    which override the settings module; ``env``: more environment)."""

    def __init__(self, port: int, log: Path, app: str = "referee.serving.wsgi:app",
                 extra: list[str] = (), env: dict[str, str] | None = None):
        self.base = f"http://127.0.0.1:{port}"
        self.log = log
        environment = {**os.environ, "PYTHONPATH": str(REPO), **(env or {})}
        environment.pop("PROMETHEUS_MULTIPROC_DIR", None)
        with open(log, "wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "--config", "python:referee.serving.gunicorn_conf",
                 "--bind", f"127.0.0.1:{port}", *extra, app], cwd=REPO, env=environment,
                stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_WAIT_SECONDS
        while True:
            try:
                if requests.get(f"{self.base}/livez", timeout=2).status_code == 200:
                    return
            except requests.RequestException:
                pass
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.stop()
                raise RuntimeError(f"gunicorn did not start:\n{self.output()}")
            time.sleep(0.1)

    def output(self) -> str:
        """Everything the master and its workers wrote so far."""
        return self.log.read_text(errors="replace")

    def stop(self) -> int:
        """SIGTERM, wait (SIGKILL after 20 s); the exit code."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode
