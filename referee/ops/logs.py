"""Structured logs (structlog): one JSON object a line on the process's standard output, or coloured text with
``REFEREE_LOG_FORMAT=console``.

Every line has ``timestamp`` (ISO 8601, UTC), ``level``, ``logger`` and ``event``; a line
written while a request is served also has its ``request_id`` and, for a match, ``match_id``
and ``version``.  The access line (``event: "request"``, :mod:`referee.ops.hooks`) adds
``method``, ``path``, ``endpoint``, ``status`` and ``duration_ms``.  Never logged: request or
response bodies (hidden cards), headers (tokens), query strings.

stdlib ``logging`` (the app's loggers, gunicorn's through :func:`gunicorn_logconfig`) goes
through the same renderer.

Under gunicorn (``referee.serving.gunicorn_conf.post_worker_init``, gevent workers) the access lines
are written in batches (:func:`batch_access_lines`): each line is made when its request ends
(its ``timestamp`` too) and reaches stdout at most :data:`ACCESS_FLUSH_SECONDS` later, with the
others of that interval in one ``write``: a ``write`` per request to the shared stdout cost
~40 µs of worker CPU per request under load (bench/ab.py, access line on vs off).  Any other
line the process writes first flushes the access lines waiting, so a process's lines keep
their order; a worker that is killed (SIGKILL, not SIGTERM) loses at most that interval's
access lines.
"""
from __future__ import annotations

import datetime
import logging
import select
import sys
from typing import Any

import orjson
import structlog

_configured: tuple | None = None
_UTC = datetime.timezone.utc

ACCESS_FLUSH_SECONDS = 0.05
"""Longest time an access line waits in a batch before it is written (batched mode only)."""
ACCESS_FLUSH_BYTES = select.PIPE_BUF
"""The most one batch's write holds (4096 bytes on Linux): a line that would take the batch
past it first writes the batch.  Every worker writes to one stdout, often a pipe (a container's
log, systemd): a write of at most ``PIPE_BUF`` bytes to a pipe is never interleaved with another
process's, so no two workers' lines are ever spliced into each other."""
_pending: list[bytes] = []
_pending_bytes = 0
_schedule = None  # batched mode: starts the timer that flushes the batch (gevent's hub)


def _encode(fields: dict[str, Any]) -> str:
    """One JSON object (orjson: a few times faster than the standard library's encoder; the
    same object, written compactly)."""
    return orjson.dumps(fields, default=str).decode()


def request_context(logger, method_name, event: dict[str, Any]) -> dict[str, Any]:
    """structlog processor: add the request id, match id and version of the request being
    served, if any (never a token or a card)."""
    from flask import g, has_request_context
    if has_request_context():
        event.setdefault("request_id", g.get("request_id"))
        match = g.get("referee_match")
        if match:
            event.setdefault("match_id", match[0])
            event.setdefault("version", match[2])
    return event


class _Stdout:
    """structlog's output: one line on the process's standard output, flushed (not on a
    ``sys.stdout`` some code redirected for a while)."""

    def msg(self, message: str) -> None:
        if _pending:
            flush_access_lines()
        out = sys.__stdout__
        out.write(message + "\n")
        out.flush()

    debug = info = warning = error = critical = exception = msg


def _renderer(fmt: str):
    if fmt == "console":
        return structlog.dev.ConsoleRenderer(colors=False)
    return structlog.processors.JSONRenderer()


def _shared(fmt: str) -> list:
    return [structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True)]


def formatter(fmt: str = "json") -> logging.Formatter:
    """A stdlib formatter rendering records like structlog's own lines."""
    return structlog.stdlib.ProcessorFormatter(
        processor=_renderer(fmt),
        foreign_pre_chain=[structlog.stdlib.add_logger_name, request_context, *_shared(fmt)])


def configure(level: str = "INFO", fmt: str = "json") -> None:
    """Set up structlog and the root logger for ``level`` and ``fmt`` (``json``/``console``);
    idempotent (the app factory calls it for each app)."""
    global _configured
    if _configured == (level, fmt):
        return
    _configured = (level, fmt)
    structlog.configure(
        processors=[*_shared(fmt), _renderer(fmt)],
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelName(level)),
        logger_factory=lambda *args: _Stdout(),
        cache_logger_on_first_use=True)
    handler = OrderedStreamHandler(sys.__stdout__)
    handler.setFormatter(formatter(fmt))
    handler.referee = True
    root = logging.getLogger()
    root.handlers[:] = [h for h in root.handlers if not getattr(h, "referee", False)] + [handler]
    root.setLevel(level)


def as_warning(record: logging.LogRecord, message: str, *args: Any) -> None:
    """Rewrite ``record`` in place (for a log filter) as one ``WARNING`` line, ``message`` %
    ``args``, without its traceback: for an error a library logs with a traceback that is an
    expected condition here (a client's socket timeout, a limit storage down)."""
    record.levelno, record.levelname = logging.WARNING, "WARNING"
    record.msg, record.args = message, args
    record.exc_info, record.exc_text = None, None


def write(logger: str, event: str, **fields: Any) -> None:
    """Write one info line fast (the access line of every request: about 5 µs, a third of
    structlog's full chain): the same JSON object structlog writes, or structlog's console
    line when ``REFEREE_LOG_FORMAT=console``; in batched mode (:func:`batch_access_lines`)
    the line joins the batch written within :data:`ACCESS_FLUSH_SECONDS`."""
    global _pending_bytes
    if _configured and _configured[1] == "console":
        structlog.get_logger(logger).info(event, logger=logger, **fields)
        return
    fields["event"], fields["level"], fields["logger"] = event, "info", logger
    fields["timestamp"] = datetime.datetime.now(_UTC).isoformat().replace("+00:00", "Z")
    if _schedule is None:
        out = sys.__stdout__
        out.write(_encode(fields) + "\n")
        out.flush()
        return
    line = orjson.dumps(fields, default=str, option=orjson.OPT_APPEND_NEWLINE)
    if _pending and _pending_bytes + len(line) > ACCESS_FLUSH_BYTES:
        flush_access_lines()  # a write past PIPE_BUF could be spliced with another worker's
    if not _pending:
        _schedule()
    _pending.append(line)
    _pending_bytes += len(line)
    if _pending_bytes >= ACCESS_FLUSH_BYTES:
        flush_access_lines()


def flush_access_lines() -> None:
    """Write the access lines waiting in the batch, in order, in one write (nothing waits
    outside batched mode)."""
    global _pending_bytes
    if not _pending:
        return
    data = b"".join(_pending)
    _pending.clear()
    _pending_bytes = 0
    out = sys.__stdout__
    out.flush()  # whatever was written to it before comes first
    out.buffer.write(data)
    out.buffer.flush()


def batch_access_lines(seconds: float = ACCESS_FLUSH_SECONDS) -> bool:
    """Batched mode for this process (a gevent worker's, once it has loaded the app): access
    lines are written within ``seconds`` of their request, several in one write.  Only under
    gevent (the timer is the hub's; a batch is never shared between threads); returns whether
    batching is on."""
    global _schedule
    monkey = sys.modules.get("gevent.monkey")
    if monkey is None or not monkey.is_module_patched("socket"):
        return False
    import atexit

    import gevent

    def schedule() -> None:
        timer = gevent.get_hub().loop.timer(seconds)
        timer.start(lambda: (timer.close(), flush_access_lines()))

    _schedule = schedule
    atexit.register(flush_access_lines)
    return True


class OrderedStreamHandler(logging.StreamHandler):
    """A stdlib stream handler that first writes the access lines waiting in the batch, so
    the process's lines reach stdout in the order they were made."""

    def emit(self, record: logging.LogRecord) -> None:
        if _pending:
            flush_access_lines()
        super().emit(record)


def gunicorn_logconfig(fmt: str = "json") -> dict[str, Any]:
    """gunicorn's ``logconfig_dict``: its error log as JSON lines on stdout (its access log
    is off: the app writes the access line)."""
    return {
        "version": 1, "disable_existing_loggers": False,
        "formatters": {"structured": {"()": "referee.ops.logs.formatter", "fmt": fmt}},
        "handlers": {"stdout": {"class": "referee.ops.logs.OrderedStreamHandler",
                                "formatter": "structured",
                                "stream": "ext://sys.stdout"}},
        "loggers": {"gunicorn.error": {"handlers": ["stdout"], "level": "INFO",
                                       "propagate": False}},
        "root": {"level": "INFO", "handlers": []},
    }
