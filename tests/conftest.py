"""Shared fixtures: the Flask ``app`` and its test ``client`` (in-process match store)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from referee.app import create_app

REPO = Path(__file__).resolve().parent.parent
CASES_DIR = Path(os.environ.get("REFEREE_CASES_DIR", REPO / "tests" / "cases"))
"""The hand-checked case files: the repository's own copy, unless REFEREE_CASES_DIR says."""


@pytest.fixture
def app():
    """A fresh app with the in-process store, whatever REDIS_URL says."""
    return create_app({"TESTING": True, "REDIS_URL": None})


@pytest.fixture
def client(app):
    """Flask test client of ``app``."""
    return app.test_client()
