"""Fixtures of the deploy stage (``./dev test-deploy``): every test here is marked
``deploy``, which plain ``./dev test`` leaves out."""
from __future__ import annotations

from pathlib import Path

import pytest


def pytest_collection_modifyitems(items):
    """Mark every test under tests/deploy ``deploy``."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.deploy)


