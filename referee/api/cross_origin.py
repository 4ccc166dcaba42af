"""CORS (flask-cors): which web origins may call the API from a browser.

``REFEREE_CORS_ORIGINS``: a comma-separated list of origins (``https://table.example``), or
``*`` for any; unset or empty (the default) allows no other origin.  Allowed origins may send
``Authorization``, ``Content-Type``, ``If-Match`` and ``Idempotency-Key`` and read ``ETag``,
``Location``, ``Retry-After``, ``Idempotent-Replayed``, ``Content-Language`` and the
``RateLimit-*`` headers;
preflights are cached for ``REFEREE_CORS_MAX_AGE`` seconds (600).  No cookies are used, so
credentials are never allowed.
"""
from __future__ import annotations

import os
from typing import Any, Mapping

from flask import Flask
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
    CORS(app, origins="*" if origins == ["*"] else origins, allow_headers=ALLOW_HEADERS,
         expose_headers=EXPOSE_HEADERS, methods=["GET", "POST", "DELETE", "OPTIONS"],
         max_age=app.config.get("CORS_PREFLIGHT_MAX_AGE", 600), supports_credentials=False,
         vary_header=True)
