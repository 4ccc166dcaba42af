"""Settings, read from the environment (``REFEREE_*``, ``REDIS_URL``) with sensible defaults.

| variable | default | meaning |
| --- | --- | --- |
| ``REDIS_URL`` | unset | Redis for matches; unset = the in-process store (one process) |
| ``REFEREE_MAX_BODY_BYTES`` | 262144 | larger request bodies get 413 |
| ``REFEREE_MATCH_TTL_SECONDS`` | 86400 | an idle match expires after this |
| ``REDIS_WAIT_REPLICAS`` | 0 | replicas that must acknowledge each match update (``WAIT``) before it is accepted; 1 with Sentinel |
| ``REFEREE_LOG_LEVEL`` | INFO | logging level |
| ``REFEREE_LOG_FORMAT`` | json | ``json`` (one JSON object a line) or ``console`` |
| ``REFEREE_STREAM_HEARTBEAT_SECONDS`` | 15 | a match stream's heartbeat while nothing happens |
| ``REFEREE_STREAM_MAX_SECONDS`` | 3600 | a stream then ends (``reconnect``); the client resumes |
| ``REFEREE_INVITE_SECONDS`` | 3600 | an invite code claims its seat for this long, in seconds |
| ``REFEREE_CREATE_REPLAY_SECONDS`` | 600 | a match created (or a seat claimed) with an ``Idempotency-Key`` keeps its sealed answer this long for a retry |
| ``REFEREE_SNAPSHOT_MEMO`` | 4096 | snapshots (digests) each worker remembers as already checked and passed, so the same snapshot sent again is not checked twice; 0 = off (:mod:`referee.matches.checked_memo`) |
"""
from __future__ import annotations

import os
from typing import Any


def from_env(env: dict[str, str] | None = None) -> dict[str, Any]:
    """Flask config values from ``env`` (default ``os.environ``)."""
    env = dict(os.environ if env is None else env)
    return {
        "REDIS_URL": env.get("REDIS_URL") or None,
        "MAX_CONTENT_LENGTH": int(env.get("REFEREE_MAX_BODY_BYTES", 256 * 1024)),
        "MATCH_TTL_SECONDS": int(env.get("REFEREE_MATCH_TTL_SECONDS", 24 * 3600)),
        "REDIS_WAIT_REPLICAS": int(env.get("REDIS_WAIT_REPLICAS", 0)),
        "LOG_LEVEL": env.get("REFEREE_LOG_LEVEL", "INFO"),
        "LOG_FORMAT": env.get("REFEREE_LOG_FORMAT", "json"),
        "STREAM_HEARTBEAT_SECONDS": float(env.get("REFEREE_STREAM_HEARTBEAT_SECONDS", 15)),
        "STREAM_MAX_SECONDS": float(env.get("REFEREE_STREAM_MAX_SECONDS", 3600)),
        "INVITE_SECONDS": int(env.get("REFEREE_INVITE_SECONDS", 3600)),
        "CREATE_REPLAY_SECONDS": int(env.get("REFEREE_CREATE_REPLAY_SECONDS", 600)),
        "API_TITLE": "referee",
        "API_VERSION": "1.0.0",
        "OPENAPI_VERSION": "3.1.0",
        "JSON_SORT_KEYS": False,
    }
