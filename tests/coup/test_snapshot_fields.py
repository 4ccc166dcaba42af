"""Snapshot checks complete (issue 12): every leaf of mid-game Coup snapshots, in both modes
and at every stage reached, is mutated (junk of another type, a neighbouring number, another
player, character, stage or card name).  Each mutation is either refused as
``ImpossibleState`` with every violation citing a COUP rule and naming a field, one of them
the mutated field or a field it is checked against; or it is a state some game reaches:
the path is one whose values the state leaves free (:data:`FREE`, each with its reason) and a
random continuation from it is accepted at every step.  The fuzzer fails on a check that
lets a mutation through (``test_the_field_fuzzer_can_fail``)."""
from __future__ import annotations

import fnmatch
import random

import pytest

from referee.games.base import ImpossibleState
from referee.games.common.jsoncopy import json_copy
from referee.games.coup import snapshot
from referee.games.coup.apply import STAGES
from referee.games.coup.engine import ENGINE
from referee.games.coup.rules import CHARACTERS

FREE = {
    "seed": "drives only later shuffles: any seed is a game's",
    "shuffles": "salts only later shuffles",
    "turn.number": "any number of turns may have passed",
    "options.*": "an option leaves no trace the check can see, unless checked (S8, A6, S2)",
    "hands.*": "table mode: a card the referee is told of, or not, or another one still possible",
    "court.*": "table mode: the court deck as entered (unknown, or another possible card)",
    "piles.*": "table mode: a set-aside card, unknown or another possible one",
    "revealed.*": "table mode: another possible card was turned up",
    "turn.drawn.*": "table mode: another possible drawn card",
    "turn.shown": "table mode: another possible shown card",
    "knowledge.*": "another history of what a reader saw, within the copies (X1)",
    "turn.challenger": "another eligible player challenged",
    "turn.block.*": "another eligible blocker or blocking character (A2, A5, A6, B1)",
    "turn.action.target": "another living opponent was targeted (A9)",
    "turn.passed.*": "another eligible player passed (W1)",
    "last_turn.*": "another finished turn that leads to this one",
    "loss.player": "another player owes the same loss (a challenger, C4)",
    "turn.stage": "another stage the same record fits",
    "disputes.*": "another dispute of the same kind",
}


TIES = {
    "players.*": ("state.coins", "state.hands", "state.revealed", "state.piles"),
    "coins.*": ("state.treasury",),                                     # S7
    "turn.number": ("state.last_turn",),
    "turn.player": ("state.turn", "state.loss"),
    "turn.stage": ("state.turn", "state.loss", "state.piles", "state.revealed"),
    "turn.action.target": ("state.turn", "state.loss"),
    "turn.block.player": ("state.loss",),
    "last_turn.player": ("state.turn.player",),
    "shuffles": ("state.knowledge", "state.court"),
    "options.exchanger": ("state.court", "state.hands", "state.piles", "state.turn"),
}
"""Cross-field invariants: a mutation of the left may be refused naming a field it is checked
against (the seat tables are keyed by the players, coins add up with the treasury…)."""
CARD_PLACES = ("hands.*", "court.*", "piles.*", "revealed.*", "turn.drawn.*")
CARD_TIES = ("state", "state.knowledge", "state.turn.shown")
"""A card of any place is counted with every other (S3: copies; X1: what each reader knows):
the copies check names the whole ``state``."""


def _dotted(path: tuple) -> str:
    return "state" + "".join(f".{k}" if isinstance(k, str) else f"[{k}]" for k in path)


def _pattern(path: tuple, players: list[str]) -> str:
    return ".".join("*" if isinstance(k, int) or k in players else k for k in path)


def _leaves(value, path=()):
    if isinstance(value, dict) and value:
        for key, item in value.items():
            yield from _leaves(item, path + (key,))
    elif isinstance(value, list) and value:
        for i, item in enumerate(value):
            yield from _leaves(item, path + (i,))
    elif path:
        yield path, value


def _mutations(state, value) -> list:
    out = [None, True, -1, "x", [], {}]
    if isinstance(value, bool):
        out.append(not value)
    elif isinstance(value, int):
        out += [value + 1, max(value - 1, 0), 0, 10**6]
    elif isinstance(value, str):
        out += [p for p in state["players"] if p != value][:2] + ["host", "unknown"]
        out += [c for c in CHARACTERS if c != value] + [s for s in STAGES if s != value][:5]
    return [m for m in out if not (m == value and type(m) is type(value))]


def _related(field: str | None, path: tuple, pattern: str) -> bool:
    """The violation names the mutated field, a part of it or what holds it (not the bare
    ``state``), or a field it is checked against (:data:`TIES`, :data:`CARD_TIES`)."""
    if field is None:
        return False
    mutated = _dotted(path)
    if field != "state" and (mutated.startswith(field) or field.startswith(mutated)):
        return True
    ties = [t for p, tied in TIES.items() if fnmatch.fnmatch(pattern, p) for t in tied]
    if any(fnmatch.fnmatch(pattern, p) for p in CARD_PLACES):
        ties += CARD_TIES
    return any(field == t or field.startswith(t + ".") or field.startswith(t + "[")
               for t in ties)


def _positions() -> list[dict]:
    """Mid-game states at every (stage, pending loss) reached by seeded random games, digital
    and table, 2 to 4 players, both exchangers."""
    out = []
    for mode in ("digital", "table"):
        for count, exchanger in ((3, "inquisitor"), (4, "ambassador"), (2, "inquisitor")):
            rng = random.Random(count)
            state = ENGINE.setup({"players": list("ABCD")[:count], "mode": mode,
                                  "options": ENGINE.resolve_options({"exchanger": exchanger})},
                                 count)
            seen = set()
            for step in range(300):
                legal = ENGINE.legal_actions(state)
                if not legal:
                    break
                key = (state["turn"]["stage"], state["loss"] is not None)
                if key not in seen and step > 3:
                    seen.add(key)
                    out.append(state)
                state, _ = ENGINE.apply(state, rng.choice(legal))
    return out


def _continues(state, rng) -> bool:
    """A random continuation of the accepted state is accepted at every step."""
    for _ in range(30):
        legal = ENGINE.legal_actions(state)
        if not legal:
            return True
        state, _ = ENGINE.apply(state, rng.choice(legal))
        ENGINE.check_snapshot(dict(state))
    return True


def fuzz(positions) -> list[str]:
    """Every mutation of every leaf of ``positions``; return what went wrong."""
    rng = random.Random(12)
    failures = []
    for state in positions:
        for path, value in _leaves(state):
            for junk in _mutations(state, value):
                bad = json_copy(state)
                holder = bad
                for key in path[:-1]:
                    holder = holder[key]
                holder[path[-1]] = junk
                try:
                    ENGINE.check_snapshot(bad)
                except ImpossibleState as error:
                    found = error.violations
                    pattern = _pattern(path, state["players"])
                    if not all(v.rule.startswith("COUP-") and v.field for v in found) or not any(
                            _related(v.field, path, pattern) for v in found):
                        failures.append(f"{_dotted(path)}={junk!r}: "
                                        f"{[(v.code, v.field) for v in found]}")
                    continue
                pattern = _pattern(path, state["players"])
                if not any(fnmatch.fnmatch(pattern, free) for free in FREE):
                    failures.append(f"{_dotted(path)}={junk!r} accepted")
                else:
                    try:
                        _continues(bad, rng)
                    except ImpossibleState as error:
                        failures.append(f"{_dotted(path)}={junk!r} accepted, but its game "
                                        f"reaches {[v.code for v in error.violations]}")
    return failures


@pytest.fixture(scope="module")
def positions():
    return _positions()


@pytest.mark.parametrize("mode", ["digital", "table"])  # two tests: xdist runs them apart
def test_every_field_of_mid_game_snapshots_is_checked(positions, mode):
    assert len(positions) >= 20
    mine = [state for state in positions if state["mode"] == mode]
    assert len(mine) >= 10
    failures = fuzz(mine)
    assert failures == [], failures[:10]


def test_the_field_fuzzer_can_fail(positions, monkeypatch):
    """Without the seat checks (hand sizes S4, coins S7, L2, E1) a changed coin count gets
    through: the fuzzer reports it."""
    monkeypatch.setattr(snapshot, "_check_seats", lambda state, problems: None)
    failures = fuzz(positions[:4])
    assert any(f.startswith("state.coins.") and f.endswith("accepted") for f in failures)
