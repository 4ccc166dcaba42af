"""Structured logs (structlog): one JSON object a line on the process's standard output, or coloured text with
``REFEREE_LOG_FORMAT=console``.

Every line has ``timestamp`` (ISO 8601, UTC), ``level``, ``logger`` and ``event``; a line
written while a request is served also has its ``request_id`` and, for a match, ``match_id``
and ``version``.  The access line (``event: "request"``, :mod:`referee.ops.hooks`) adds
``method``, ``path``, ``endpoint``, ``status`` and ``duration_ms``.  Never logged: request or
response bodies (hidden cards), headers (tokens), query strings.

stdlib ``logging`` (the app's loggers, gunicorn's through :func:`gunicorn_logconfig`) goes
through the same renderer.
"""
from __future__ import annotations

import datetime
import logging
import sys
from typing import Any

import orjson
import structlog

_configured: tuple | None = None
_UTC = datetime.timezone.utc
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
    handler = logging.StreamHandler(sys.__stdout__)
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
    line when ``REFEREE_LOG_FORMAT=console``."""
    if _configured and _configured[1] == "console":
        structlog.get_logger(logger).info(event, logger=logger, **fields)
        return
    fields["event"], fields["level"], fields["logger"] = event, "info", logger
    fields["timestamp"] = datetime.datetime.now(_UTC).isoformat().replace("+00:00", "Z")
    out = sys.__stdout__
    out.write(_encode(fields) + "\n")
    out.flush()


def gunicorn_logconfig(fmt: str = "json") -> dict[str, Any]:
    """gunicorn's ``logconfig_dict``: its error log as JSON lines on stdout (its access log
    is off: the app writes the access line)."""
    return {
        "version": 1, "disable_existing_loggers": False,
        "formatters": {"structured": {"()": "referee.ops.logs.formatter", "fmt": fmt}},
        "handlers": {"stdout": {"class": "logging.StreamHandler", "formatter": "structured",
                                "stream": "ext://sys.stdout"}},
        "loggers": {"gunicorn.error": {"handlers": ["stdout"], "level": "INFO",
                                       "propagate": False}},
        "root": {"level": "INFO", "handlers": []},
    }
