"""CORS (flask-cors): which web origins may call the API from a browser.

``REFEREE_CORS_ORIGINS``: a comma-separated list of origins (``https://table.example``), or
``*`` for any; unset or empty (the default) allows no other origin.  Allowed origins may send
``Authorization``, ``Content-Type``, ``If-Match`` and ``Idempotency-Key`` and read ``ETag``,
``Location``, ``Retry-After``, ``Idempotent-Replayed``, ``Content-Language`` and the
``RateLimit-*`` headers;
preflights are cached for ``REFEREE_CORS_MAX_AGE`` seconds (600).  No cookies are used, so
credentials are never allowed.

With a list of origins, every answer depends on the request's ``Origin`` (an allowed one gets
``Access-Control-Allow-Origin``, any other, or none, does not), so every answer carries
``Vary: Origin`` and a shared cache never hands one origin's answer to another; a preflight
also varies on ``Access-Control-Request-Method`` and ``Access-Control-Request-Headers`` (the
allowed headers echo them).  With ``*`` every origin gets ``Access-Control-Allow-Origin: *``,
the same answer.
"""
from __future__ import annotations

import os
from typing import Any, Mapping

from flask import Flask, request
from flask_cors import CORS

ALLOW_HEADERS = ["Authorization", "Content-Type", "If-Match", "Idempotency-Key"]
EXPOSE_HEADERS = ["ETag", "Location", "Retry-After", "Idempotent-Replayed", "Content-Language",
                  "RateLimit-Limit",
                  "RateLimit-Remaining", "RateLimit-Reset", "RateLimit-Policy"]


def settings(env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Flask config of CORS from ``env`` (default ``os.environ``)."""
    env = os.environ if env is None else env
    origins = [o.strip() for o in env.get("REFEREE_CORS_ORIGINS", "").split(",") if o.strip()]
    return {"CORS_ALLOWED_ORIGINS": origins,
            "CORS_PREFLIGHT_MAX_AGE": int(env.get("REFEREE_CORS_MAX_AGE", 600))}


def init_app(app: Flask) -> None:
    """Answer CORS (and preflights) for ``CORS_ALLOWED_ORIGINS``; nothing when it is empty."""
    origins = app.config.get("CORS_ALLOWED_ORIGINS") or []
    if not origins:
        return
    if origins != ["*"]:
        app.after_request(vary_on_origin)  # registered first: runs after flask-cors's hook
    CORS(app, origins="*" if origins == ["*"] else origins, allow_headers=ALLOW_HEADERS,
         expose_headers=EXPOSE_HEADERS, methods=["GET", "POST", "DELETE", "OPTIONS"],
         max_age=app.config.get("CORS_PREFLIGHT_MAX_AGE", 600), supports_credentials=False,
         send_wildcard=origins == ["*"], vary_header=True)


PREFLIGHT_VARY = ("Origin", "Access-Control-Request-Method", "Access-Control-Request-Headers")


def vary_on_origin(response):
    """after_request (with a list of allowed origins): ``Vary: Origin`` on every answer, plus
    the preflight request headers on a preflight; the ``Vary`` lines flask-cors or others
    wrote are merged into one."""
    names = [n.strip() for line in response.headers.getlist("Vary") for n in line.split(",")]
    preflight = (request.method == "OPTIONS"
                 and "Access-Control-Request-Method" in request.headers)
    for name in PREFLIGHT_VARY if preflight else PREFLIGHT_VARY[:1]:
        names.append(name)
    seen: dict[str, str] = {}
    for name in names:
        if name:
            seen.setdefault(name.lower(), name)
    response.headers["Vary"] = ", ".join(seen.values())
    return response
