"""Fixtures of the contract tests: one real HTTP server on a loopback port per module."""
from __future__ import annotations

import pytest

from referee.serving.app import create_app
from tests.contract.helpers import live_server


@pytest.fixture(scope="module")
def base_url():
    """Base URL of a real server (werkzeug, threaded) running the app on 127.0.0.1."""
    with live_server(create_app({"TESTING": True, "REDIS_URL": None})) as url:
        yield url
