"""Shared by every game's tests: which rules an action breaks, and that apply agrees."""
from __future__ import annotations

import pytest

from referee.games.base import Engine, IllegalAction


def rules_broken(engine: Engine, state: dict, action: dict) -> set[str]:
    """The rule IDs ``action`` breaks in ``state``; when it breaks any, ``apply`` must refuse
    it too (with IllegalAction), so a verdict and the refusal never disagree."""
    found = {v.rule for v in engine.violations(state, action)}
    if found:
        with pytest.raises(IllegalAction):
            engine.apply(state, action)
    return found
