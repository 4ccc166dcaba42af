"""gunicorn settings for referee (``referee serve`` passes --bind and --workers).

Workers are gevent workers (:mod:`referee.serving.worker`): each connection is a greenlet, so
hundreds of slow or idle clients cannot take the service down.  Time limits, all from the
environment:

| variable | default | meaning |
| --- | --- | --- |
| ``REFEREE_HEADER_TIMEOUT_SECONDS`` | 5 | a request's line and headers must arrive within this (also the keep-alive idle time) |
| ``REFEREE_IO_TIMEOUT_SECONDS`` | 30 | one send or receive on a client socket |
| ``REFEREE_BODY_TIMEOUT_SECONDS`` | 10 | the whole request body (read in the app) |
| ``REFEREE_WORKER_CONNECTIONS`` | 1000 | open connections per worker |
| ``REFEREE_WORKER_TIMEOUT`` | 30 | a worker that does not check in for this long is restarted |

Logs go to stdout as JSON lines (referee.ops.logs; the app writes the access line); request
bodies and match state are never logged (hidden cards stay hidden).  Metrics of every worker
are added up through PROMETHEUS_MULTIPROC_DIR (referee.ops.multiproc; no preload_app).
"""
import gc
import os

from gunicorn.glogging import Logger

from referee.ops import logs, multiproc

worker_class = "referee.serving.worker.RefereeGeventWorker"
worker_connections = int(os.environ.get("REFEREE_WORKER_CONNECTIONS", 1000))
timeout = int(os.environ.get("REFEREE_WORKER_TIMEOUT", 30))
graceful_timeout = 10
# gunicorn's gevent worker reads each request's line and headers under a gevent.Timeout of
# ``keepalive`` seconds (a slowloris is closed after it); it must stay above 0.
keepalive = max(1, int(os.environ.get("REFEREE_HEADER_TIMEOUT_SECONDS", 5)))
accesslog = None  # the app logs each request (JSON, with its request id; no query, no body)
errorlog = "-"
logconfig_dict = logs.gunicorn_logconfig(os.environ.get("REFEREE_LOG_FORMAT", "json"))
# Keep one process when matches live in memory (no REDIS_URL): state must not split.
if not os.environ.get("REDIS_URL"):
    workers = 1
# gunicorn's control socket lives at one path per user ($HOME/.gunicorn/gunicorn.ctl), so two
# servers on one machine would share it; referee does not use it.
control_socket_disable = True


class AppAccessLogger(Logger):
    """gunicorn's logger without its access line: the app writes one (``referee.ops.hooks``).
    gunicorn builds its access line whenever a ``logconfig_dict`` is set, even with no
    access log to write it to: a dict of atoms, a time stamp and a log record per request,
    for no handler (a few per cent of an echo's worker CPU in py-spy samples; within the
    noise of a side-by-side run)."""

    def _compute_access_log_enabled(self) -> bool:
        return False


logger_class = AppAccessLogger


def on_starting(server):
    """Before any worker starts: an empty PROMETHEUS_MULTIPROC_DIR for the workers' metrics."""
    server.referee_metrics_dir = multiproc.prepare()


def child_exit(server, worker):
    """A worker exited: drop its live samples from the metrics."""
    multiproc.worker_exited(worker.pid)


def on_exit(server):
    """The master stops: remove the temporary metrics directory it made."""
    multiproc.cleanup(getattr(server, "referee_metrics_dir", ""))


def post_worker_init(worker):
    """The worker has loaded the app: move every object alive now (modules, the app, schemas,
    the rulebook, catalogs) to the collector's permanent generation (``gc.freeze``).  A full
    collection then walks only what requests and open streams made since, not the whole
    app: with 1,000 open streams its pause fell from 60–125 ms to under 20 ms, the p99 of
    a move reaching every phone from ~200 ms to ~60 ms (bench/streams.py).  Then access lines
    are written in batches, each within ``referee.ops.logs.ACCESS_FLUSH_SECONDS`` of its
    request (:func:`referee.ops.logs.batch_access_lines`)."""
    gc.freeze()
    logs.batch_access_lines()


def worker_exit(server, worker):
    """The worker is exiting: write the access lines still waiting in its batch."""
    logs.flush_access_lines()
