"""The client's tests run from a venv holding only the client (``./dev test-clients`` makes
``.venv-client`` with ``pip install ./clients/python[test]``): nothing of the server is
importable there, and ``referee_client`` is the installed distribution, not the source tree."""
from __future__ import annotations

import importlib.metadata
import importlib.util
import os
from pathlib import Path

import pytest

import referee_client

pytestmark = pytest.mark.skipif(os.environ.get("REFEREE_CLIENT_VENV") != "1",
                                reason="only in the client's own venv (./dev test-clients)")

REQUESTS_AND_PYTEST = {"requests", "charset-normalizer", "idna", "urllib3", "certifi",
                       "pytest", "iniconfig", "packaging", "pluggy", "pygments"}


def test_only_the_client_requests_and_pytest_are_installed():
    names = {d.metadata["Name"].lower().replace("_", "-")
             for d in importlib.metadata.distributions()}
    assert "referee-client" in names
    assert names - {"referee-client", "pip", "setuptools"} <= REQUESTS_AND_PYTEST, names
    for module in ("referee", "flask", "redis", "gunicorn"):
        assert importlib.util.find_spec(module) is None, module


def test_the_installed_package_is_used_not_the_source_tree():
    assert "site-packages" in Path(referee_client.__file__).parts
    assert importlib.metadata.requires("referee-client") == ["requests<3,>=2.31"] or \
        importlib.metadata.requires("referee-client")[0].startswith("requests")
