"""Fixtures of the deploy stage (``./dev test-deploy``): every test here is marked
``deploy``, which plain ``./dev test`` leaves out."""
from __future__ import annotations

import socket
from pathlib import Path

import pytest


def pytest_collection_modifyitems(items):
    """Mark every test under tests/deploy ``deploy``."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.deploy)


@pytest.fixture
def free_port():
    """A function returning a TCP port free on the loopback now."""
    def pick() -> int:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            return sock.getsockname()[1]
    return pick
