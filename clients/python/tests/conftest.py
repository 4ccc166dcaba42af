"""Fixtures of the client's tests: live servers of each store (tests/servers.py)."""
from __future__ import annotations

import os

import pytest

from servers import Server, server_command


def _server(env: dict[str, str], workers: int = 1):
    command = server_command()
    if command is None:
        pytest.skip("no server to test against: set REFEREE_COMMAND to the referee server's "
                    "`referee` command (./dev test-clients does)")
    server = Server(command, env, workers).start()
    return server


@pytest.fixture(scope="session")
def memory_server():
    """A server keeping matches in its one process."""
    server = _server({"REDIS_URL": ""})
    yield server
    server.stop()


@pytest.fixture(scope="session")
def redis_url() -> str:
    url = os.environ.get("REFEREE_TEST_REDIS_URL")
    if not url:
        pytest.skip("REFEREE_TEST_REDIS_URL is unset: ./dev test-clients starts a private Redis")
    return url


@pytest.fixture(scope="session")
def redis_server(redis_url):
    """A server of two workers keeping matches in the test Redis."""
    server = _server({"REDIS_URL": redis_url}, workers=2)
    yield server
    server.stop()


@pytest.fixture
def base_url(memory_server) -> str:
    return memory_server.url


@pytest.fixture(params=["memory", "redis"])
def store_url(request) -> str:
    """The base URL of a server of each store in turn."""
    return request.getfixturevalue(f"{request.param}_server").url
