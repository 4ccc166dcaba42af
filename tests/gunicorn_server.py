"""A real gunicorn serving ``referee.serving.wsgi:app`` with the shipped settings, on a loopback
port."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import requests

REPO = Path(__file__).resolve().parents[1]
START_WAIT_SECONDS = 60
"""A loaded 2-core machine (CI with two xdist workers) can take over 20 s to start a worker
that builds the OpenAPI document before serving."""


@contextmanager
def gunicorn(port: int, env: dict[str, str] | None = None, workers: int = 1,
             output: Path | None = None):
    """Run gunicorn (``--config python:referee.serving.gunicorn_conf``) on ``127.0.0.1:port`` with
    ``env`` added to the environment; yields the base URL once ``/readyz`` answers 200, and
    stops the server afterwards.  Its log lines go to the file ``output`` when given."""
    full = {**os.environ, "REFEREE_LOG_LEVEL": "WARNING", **(env or {})}
    # without ``output`` the log goes to a temporary file, so that a server that does not
    # start says why (its last lines are in the error)
    sink = output.open("wb") if output is not None else tempfile.TemporaryFile()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--config", "python:referee.serving.gunicorn_conf",
         "--workers", str(workers), "--bind", f"127.0.0.1:{port}", "referee.serving.wsgi:app"],
        cwd=REPO, env=full, stdout=sink, stderr=sink)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_WAIT_SECONDS
        while True:
            try:
                if requests.get(f"{base}/readyz", timeout=5).status_code == 200:
                    break
            except requests.RequestException:  # workers still starting
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError(f"gunicorn did not start on port {port} (exit code "
                                   f"{proc.poll()}): {_tail(sink)}")
            time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        sink.close()


def _tail(sink, size: int = 2000) -> str:
    """The last ``size`` bytes the server wrote to ``sink`` (a file open for writing)."""
    try:
        sink.flush()
        with open(sink.name if isinstance(sink.name, str) else f"/proc/self/fd/{sink.fileno()}",
                  "rb") as log:
            log.seek(0, os.SEEK_END)
            log.seek(max(0, log.tell() - size))
            return log.read().decode("utf-8", "replace")
    except OSError as error:
        return f"(its log could not be read: {error})"
