"""Gnoming's legal actions skip the shape check of the actions they build themselves (issue
25: a table reads them before every move): the same list as when every candidate is judged by
the whole of :func:`referee.games.gnoming.judge.violations` (shape, then rules), at every step
of random playouts, digital and table mode, 3 to 7 players, every player's and everyone's;
and every action listed has a right shape.  A difference is caught (the last test)."""
from __future__ import annotations

import random

import pytest

from referee.games.gnoming import judge
from referee.games.gnoming.engine import ENGINE
from referee.games.gnoming.judge import shape_violations

NAMES = ["ana", "ben", "cy", "dee", "eve", "fay", "gus"]
STEPS = 400
RULES = judge.rule_violations


def _states(mode: str, seed: int):
    """Each state of a random playout (at most :data:`STEPS`)."""
    rng = random.Random(seed)
    players = NAMES[:3 + seed % 5]
    state = ENGINE.setup({"players": players, "mode": mode}, seed)
    for _ in range(STEPS):
        yield state
        legal = ENGINE.legal_actions(state)
        if not legal:
            return
        state, _ = ENGINE.apply(state, rng.choice(legal))


def _plain(state, player=None):
    """Legal actions with every candidate judged by the whole ``violations``."""
    saved = judge.rule_violations
    judge.rule_violations = lambda state, action: (shape_violations(state, action)
                                                   or RULES(state, action))
    try:
        return judge.legal_actions(state, player)
    finally:
        judge.rule_violations = saved


@pytest.mark.parametrize("mode, seeds", [("digital", range(6)), ("table", range(4))])
def test_gn_the_same_legal_actions_as_with_every_shape_checked(mode, seeds):
    states = 0
    for seed in seeds:
        for state in _states(mode, seed):
            for player in [None, *state["players"]]:
                fast = judge.legal_actions(state, player)
                assert fast == _plain(state, player)
                assert not any(shape_violations(state, a) for a in fast)
            states += 1
    assert states >= 400


def test_a_difference_is_caught(monkeypatch):
    """The comparison above is shown to fail: a fast path that forgets the rules (every
    candidate listed) lists more than the plain one once some candidate breaks a rule."""
    states = list(_states("digital", 1))[:60]
    monkeypatch.setattr(judge, "rule_violations", lambda state, action: [])
    assert any(judge.legal_actions(state) != _plain(state) for state in states)
