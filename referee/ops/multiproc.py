"""prometheus_client's multiprocess mode under gunicorn, set up by the master before any worker
imports prometheus_client (so this module must not import it at module level).

Each worker writes its samples to memory-mapped files in ``PROMETHEUS_MULTIPROC_DIR``;
``/metrics`` in any worker adds up every worker's files.  Works the same with gthread and
gevent workers (one process each; greenlets share the process's files)."""
from __future__ import annotations

import os
import shutil
import tempfile

ENV = "PROMETHEUS_MULTIPROC_DIR"


def prepare() -> str:
    """Make ``PROMETHEUS_MULTIPROC_DIR`` an empty directory (a fresh temporary one when the
    variable is unset; an existing one emptied of an earlier run's ``*.db`` files) and return
    its path.  Called once by the gunicorn master, at start-up."""
    where = os.environ.get(ENV)
    if not where:
        where = os.environ[ENV] = tempfile.mkdtemp(prefix="referee-metrics-")
    os.makedirs(where, exist_ok=True)
    for name in os.listdir(where):
        if name.endswith(".db"):
            os.unlink(os.path.join(where, name))
    return where


def worker_exited(pid: int) -> None:
    """Forget the live-gauge samples of worker ``pid`` (gunicorn's ``child_exit`` hook)."""
    if os.environ.get(ENV):
        from prometheus_client import multiprocess
        multiprocess.mark_process_dead(pid)


def cleanup(where: str) -> None:
    """Remove a directory :func:`prepare` created (gunicorn's ``on_exit``)."""
    if os.path.basename(where).startswith("referee-metrics-"):
        shutil.rmtree(where, ignore_errors=True)
