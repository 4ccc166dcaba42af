"""Shared fixtures: the Flask ``app`` and its test ``client`` (in-process match store)."""
from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

# The suite drives matches far faster than any table plays: abuse limits are off for every
# test (and for the gunicorn servers tests start, which inherit the environment) unless a test
# turns them on explicitly (tests/test_limits.py).
os.environ["REFEREE_RATE_LIMITS"] = "off"

from referee.serving.app import create_app  # noqa: E402
from referee.matches.checked_memo import MEMO  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
CASES_DIR = Path(os.environ.get("REFEREE_CASES_DIR", REPO / "tests" / "cases"))
"""The hand-checked case files: the repository's own copy, unless REFEREE_CASES_DIR says."""


@pytest.fixture(autouse=True)
def _fresh_snapshot_memo():
    """Each test starts with no snapshot remembered as checked (referee.matches.checked_memo), so
    what one test sent cannot spare another test's check."""
    MEMO.clear()


@pytest.fixture
def app():
    """A fresh app with the in-process store, whatever REDIS_URL says."""
    return create_app({"TESTING": True, "REDIS_URL": None})


@pytest.fixture
def client(app):
    """Flask test client of ``app``."""
    return app.test_client()


@pytest.fixture
def free_port():
    """A function returning a TCP port free on the loopback now."""
    def pick() -> int:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            return sock.getsockname()[1]
    return pick
