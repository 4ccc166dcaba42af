"""A match's line at a version (referee.matches.history.line_at) in one pass (issue 21 item 1:
the old walk copied the whole line at every action, 80 million copies for a 12,800-action
match), the same line as the copying walk for every history and version."""
from __future__ import annotations

import random

import pytest

from referee.matches.history import line_at


def copying_line_at(history, version=None):
    """The walk as it was: each version's line a new list."""
    lines = {1: []}
    line = []
    for entry in history:
        if version is not None and entry["version"] > version:
            break
        if "action" in entry:
            line = line + [{"version": entry["version"], "action": entry["action"]}]
        elif entry.get("rollback", {}).get("step") == "applied":
            applied = entry["rollback"]
            line = lines[applied["to_version"]]
            if applied.get("reshuffle") is not None:
                line = line + [{"version": entry["version"], "reshuffle": applied["reshuffle"]}]
        lines[entry["version"]] = line
    return line


def history_of(seed: int, length: int) -> list[dict]:
    """Actions, rollback steps (some applied, to any earlier version, with a reshuffle or
    without) and seat steps."""
    rng = random.Random(seed)
    out = []
    for version in range(2, length + 2):
        roll = rng.random()
        if roll < 0.1 and version > 2:
            applied = {"step": "applied", "to_version": rng.randrange(1, version)}
            if rng.random() < 0.5:
                applied["reshuffle"] = f"seed-{version}"
            out.append({"version": version, "rollback": applied})
        elif roll < 0.15:
            out.append({"version": version, "rollback": {"step": "vote"}})
        elif roll < 0.18:
            out.append({"version": version, "seat": {"step": "claim", "player": "ana"}})
        else:
            out.append({"version": version, "action": {"type": "play", "n": version}})
    return out


@pytest.mark.parametrize("seed", range(40))
def test_the_line_at_every_version_is_the_copying_walks(seed):
    history = history_of(seed, 120)
    for version in [None, *range(1, 125)]:
        assert line_at(history, version) == copying_line_at(history, version)


def test_a_rollback_then_new_actions_leave_the_earlier_lines_as_they_were():
    history = [{"version": 2, "action": "a"}, {"version": 3, "action": "b"},
               {"version": 4, "rollback": {"step": "applied", "to_version": 2,
                                           "reshuffle": "r4"}},
               {"version": 5, "action": "c"},
               {"version": 6, "rollback": {"step": "applied", "to_version": 3}}]
    a, b, c = ({"version": v, "action": x} for v, x in ((2, "a"), (3, "b"), (5, "c")))
    assert line_at(history) == [a, b]
    assert line_at(history, 5) == [a, {"version": 4, "reshuffle": "r4"}, c]
    assert line_at(history, 4) == [a, {"version": 4, "reshuffle": "r4"}]
