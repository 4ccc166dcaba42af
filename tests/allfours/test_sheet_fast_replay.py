"""``score_sheet`` (AF-X1) scores a sheet without playing it through the engine (issue 11):
for random played-out hands, spoilt or not, with random options and scores before, its answer
(or its list of AF-X1 problems) is exactly what the engine's checked path gives when the sheet
is applied action by action (``tests/allfours/sheets.py``: every action judged, every state
checked again), and a sheet whose own checks pass never holds an action the engine refuses."""
from __future__ import annotations

import random

import pytest

from referee.games.allfours import sheet as sheet_module
from referee.games.allfours.engine import ENGINE
from referee.games.allfours.sheet import InvalidSheet, score_sheet
from tests.allfours.sheets import random_options, random_sheet, reference_score, spoil


def _outcome(scorer, sheet, options):
    """``("scored", answer)`` or ``("invalid", every problem as (rule, code, field, params))``."""
    try:
        return "scored", scorer(sheet, options)
    except InvalidSheet as exc:
        return "invalid", [(v.rule, v.code, v.field, v.params) for v in exc.violations]


def _cases(seed: int, count: int):
    rng = random.Random(seed)
    for _ in range(count):
        options = random_options(rng)
        sheet = random_sheet(rng, (options or {}).get("target", 14))
        yield sheet, options
        yield spoil(rng, sheet), options


def differences(seed: int, count: int) -> tuple[list, dict[str, int]]:
    """The sheets whose fast answer differs from the checked replay's, and how many sheets
    were invalid, or scored with the game ended by each kind of action (``None``: not ended;
    a card: the hand's scoring or a game-losing renege), with a renege, with two runs of the
    pack or more (so the comparison is known to cover each)."""
    seen: dict[str | None, int] = dict.fromkeys(
        ("invalid", None, "deal", "give_one", "run_pack", "hand", "renege_lost", "reneges",
         "runs_2"), 0)
    found = []
    for sheet, options in _cases(seed, count):
        ended = []
        fast = _outcome(lambda s, o: score_sheet(ENGINE, s, o), sheet, options)
        slow = _outcome(lambda s, o: ended.append(reference_score(s, o)) or ended[0][0],
                        sheet, options)
        if fast != slow:
            found.append((sheet, options, fast, slow))
        if slow[0] == "invalid":
            seen["invalid"] += 1
            continue
        lost = any(r["loses_game"] for r in slow[1]["reneges"])
        by = ended[0][1]
        seen[by if by != "play" else "renege_lost" if lost else "hand"] += 1
        seen["reneges"] += bool(slow[1]["reneges"])
        seen["runs_2"] += len(sheet["kicks"]) > 2
    return found, seen


def test_af_x1_the_fast_score_equals_the_checked_replay_on_random_hands():
    found, seen = differences(11, 150)
    assert found == []
    assert all(n >= 3 for n in seen.values()), seen


@pytest.mark.parametrize("broken", ["kick_points", "side_of", "renege", "race"])
def test_the_comparison_finds_a_scorer_that_is_wrong(monkeypatch, broken):
    """Proven once: each of these faults in the fast scorer makes the comparison fail."""
    if broken == "kick_points":  # AF-K1 ignored
        monkeypatch.setattr(sheet_module, "kick_points", lambda card: 0)
    elif broken == "side_of":  # every point (kicks, AF-B2's given one) to the first side
        monkeypatch.setattr(sheet_module, "side_of", lambda sides, player: next(iter(sides)))
    elif broken == "renege":  # AF-I1: a game-losing renege does not end the game
        original = sheet_module._reneges_and_loss
        monkeypatch.setattr(sheet_module, "_reneges_and_loss",
                            lambda *args: (original(*args)[0], None))
    else:  # AF-S6: points counted past the target
        monkeypatch.setattr(sheet_module, "add_points", lambda score, points, side, amount,
                            target: (score.__setitem__(side, score[side] + amount),
                                     points.__setitem__(side, points[side] + amount)) and False)
    found, _ = differences(11, 60)
    assert found
