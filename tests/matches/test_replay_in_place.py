"""A rollback's replay (referee.matches.history.replay) makes one working copy of the state in
all, not one per action: a long match's replay would otherwise grow with the square of its
state (All Fours' score sheet grows by a line a hand), and a deciding vote on a 2,500-action
All Fours match took ~500 ms of CPU instead of ~40.  The state it reaches is the state the
actions applied one by one reach, in every game (a random playout each), reshuffles included."""
from __future__ import annotations

import pytest

from bench.payloads import playout, setup_body
from referee.registry import GAMES
from referee.matches.history import replay


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_replay_reaches_the_state_of_the_actions_applied_one_by_one(game):
    engine = GAMES[game].engine
    setup = setup_body(game)
    _, steps = playout(game, 5, 300, setup)
    actions = [action for _, action in steps]
    # a reshuffle a third of the way in, as an applied rollback leaves in the line
    cut = len(actions) // 3
    line = [{"version": i + 2, "action": a} for i, a in enumerate(actions[:cut])]
    line.append({"version": cut + 2, "reshuffle": "5:rollback:9"})
    line += [{"version": cut + 3 + i, "action": a} for i, a in enumerate(actions[cut:])]
    expected = engine.setup(setup, 5)
    for step in line:
        if "reshuffle" in step:
            expected = engine.reshuffle_hidden(expected, step["reshuffle"])
        else:
            try:
                expected, _ = engine.apply(expected, step["action"])
            except Exception:  # the reshuffle changed the deal: the playout's later actions
                line = line[:line.index(step)]  # need not be legal any more; stop there
                break
    assert replay(engine, setup, 5, line) == expected


def test_the_replay_copies_the_state_once_not_per_action(monkeypatch):
    engine = GAMES["all-fours"].engine
    setup = setup_body("all-fours")
    _, steps = playout("all-fours", 7, 400, setup)
    line = [{"version": i + 2, "action": a} for i, (_, a) in enumerate(steps)]
    copies = []
    real = type(engine)._working_copy
    monkeypatch.setattr(type(engine), "_working_copy",
                        lambda self, state: copies.append(1) or real(self, state))
    replay(engine, setup, 7, line)
    assert len(line) > 100 and len(copies) == 1  # the first action's copy only


def test_a_working_copy_shares_the_score_sheet_lines_it_never_changes():
    # AF-S6: a scored hand's line never changes; apply copies the list, not each line
    engine = GAMES["all-fours"].engine
    setup = setup_body("all-fours")
    _, steps = playout("all-fours", 3, 2000, setup)
    for before, action in steps:
        if len(before.get("scored_hands") or []) >= 2:
            after, _ = engine.apply(before, action)
            assert after["scored_hands"][0] is before["scored_hands"][0]
            break
    else:
        pytest.fail("no playout reached a second scored hand")
