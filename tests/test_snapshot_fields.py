"""Every field of every snapshot is checked (issue 12 item 8), for All Fours, Gnoming and Spy in
both modes: each leaf of mid-game and end-of-hand snapshots given a value of the wrong type,
values out of any domain and another value found elsewhere in the state, each object key
removed and one added, each list's first item doubled (``tests/snapshot_mutations.py``).

Each mutation is either refused — 422 ``invalid-input`` (the schema) or ``impossible-state``
(the engine) — or a state that is provably still possible, listed in :data:`STILL_VALID`
with the reason.  A wrong type, a removed key or an unknown key must be refused naming the
field itself (or the object holding it, or a part of it); a value of the right type that
contradicts another field may be named where the check sees the contradiction (two places of
one card, the deck count of GN-C1).  A state accepted must serve every reader without an
error, and no mutation is ever a 500 through the API.
"""
from __future__ import annotations

import json
import random
import re

import pytest

from referee.games.base import MODES, PUBLIC, REFEREE, ImpossibleState
from referee.matches.loading import load_state
from referee.refusals import InvalidInput
from referee.registry import GAMES
from tests.snapshot_mutations import Mutation, mutations
from tests.test_conformance import _body

STRICT = ("type", "removed", "extra")
"""Mutations that must be refused naming the field (or its container, or a part of it)."""

PER_FIELD = 3
"""Mutations tried per field shape (path with indexes and seat names generalised) and kind."""

STILL_VALID = [
    (r".*", r"state\.seed", ("type", "domain", "other"),
     "any integer or string seeds a possible deal; nothing else depends on it"),
    (r"all-fours", r"state\.(hand_number|redeals)", ("domain", "other"),
     "any number of hands or redeals is reachable: a hand can score nothing (AF-S4 tie, "
     "AF-S5) and the pack can run out again and again (AF-B4)"),
    (r".*", r"state\.options\.[a-z_]+", ("other",),
     "another allowed value of an option is another possible game; the checks that depend "
     "on it (the target, AF-S6; the round count, GN-C3) run on the new value"),
    (r"all-fours", r"state\.(score|hand_points)\.P", ("other", "domain"),
     "points earlier hands can have given (each award is whole and ≥ 0, AF-S6), "
     "still checked against the target, the winner and the hand so far"),
    (r"all-fours", r"state\.last_hand\.(points|game\.totals)\.P", ("other", "domain"),
     "an earlier hand's record (its cards are gone, so it cannot be scored again): whole "
     "points per side, Game totals at most 80 (AF-S4); right after the hand it is scored again"),
    (r"all-fours", r"state\.scored_hands", ("removed",),
     "the score sheet is optional: a snapshot kept without one is played on and the sheet "
     "begun from it (tests/allfours/test_snapshot.py)"),
    (r"all-fours", r"state\.trick\.leader", ("other",),
     "in the deal phase the current trick is a placeholder the next deal replaces (AF-P1)"),
    (r"gnoming", r"state\.reshuffles", ("domain", "other"),
     "GN-D5 may reshuffle any number of times in a round"),
    (r"gnoming", r"state\.history\[i\]\.layouts\.P\[i\]\[i\]", ("other",),
     "an earlier round's layout of other cards of the deck is another possible round"),
    (r"gnoming table", r"state\.(layouts\.P\[i\]\[i\]\.card|draw_pile\[i\]|"
     r"discard_piles\[i\]\[i\])", ("other",),
     "GN-X1: a card turned up, exchanged for another the deck still has, is another possible "
     "table (the service keeps no log of the cards turned up; a known card in the draw pile "
     "came off the discard piles at a GN-D5 reshuffle, so never a Hazard, GN-D2)"),
    (r"gnoming table", r"state\.turn\.holding", ("other",),
     "GN-X1: the card held was drawn from the unknown draw pile, taken off a discard pile "
     "(whose earlier tops are not kept) or turned up when replaced: another card the deck "
     "still has is another possible turn (a bounce still needs a match, GN-B1)"),
    (r"gnoming", r"state\.turn\.pile", ("other",),
     "GN-T1: which of two discard piles, both still lying, the card was drawn from leaves no "
     "trace; a pile emptied this turn must be the one named (checked)"),
    (r"spy", r"state\.bases\.P\.spy_gap", ("other",),
     "SPY-S2: a Spy whose holder has not moved it, turned it or spied with it yet sits in "
     "the gap its holder chose, any gap; once it has, the log fixes the gap (SPY-M1, SPY-P1)"),
]
"""Accepted mutations that are still possible states: (game and mode pattern, field pattern,
kinds, why)."""

KNOWN_GAPS: list[tuple[str, str, tuple[str, ...], str]] = []
"""Accepted mutations not yet refused: what is not done (reported, not hidden).  None now:
the Gnoming turn is derived from the layout (``gnoming/snapshot_turn.py``) and the Spy log
is replayed (``spy/replay.py``)."""


def _generalised(where: str) -> str:
    return re.sub(r"\[\d+\]", "[i]", re.sub(r"\.(ana|ben|cy|dee|eli|fay|gus|hal|A|B)\b",
                                            ".P", where))


def _listed(table, game: str, where: str, kind: str) -> bool:
    return any(re.match(g, game) and re.fullmatch(p, where) and kind in kinds
               for g, p, kinds, _ in table)


def states(game: str, mode: str) -> list[dict]:
    """Snapshots reached by seeded random play: early, mid-game, right after a scored hand
    (All Fours) and at the end, at the smallest and largest table."""
    entry = GAMES[game]
    engine = entry.engine
    out = []
    for count in sorted({entry.player_counts()[0], entry.player_counts()[-1]}):
        rng = random.Random(f"{game}:{mode}:{count}")
        state = engine.setup(_body(entry, count, mode), count)
        for step in range(600):
            scored = game == "all-fours" and state["phase"] == "hand_over"
            if step in (4, 40) or scored and not any(s["phase"] == "hand_over" for s in out):
                out.append(json.loads(json.dumps(state)))
            if engine.is_over(state):
                out.append(json.loads(json.dumps(state)))
                break
            state, _ = engine.apply(state, rng.choice(engine.legal_actions(state)))
    return out


def _fields(exc: Exception) -> list[str]:
    if isinstance(exc, InvalidInput):
        return [e["field"] for e in exc.errors]
    return [v.field or "state" for v in exc.violations]


def _names(where: str, fields: list[str]) -> bool:
    return any(f != "state" and (where == f or where.startswith((f + ".", f + "["))
                                 or f.startswith(where)) for f in fields)


def audit(game: str, mode: str) -> list[str]:
    """Every mutation that is accepted unlisted, refused without naming its field, or makes
    anything raise other than a refusal."""
    entry = GAMES[game]
    failures, tried = [], {}
    for state in states(game, mode):
        for mutation in mutations(state):
            where = _generalised(mutation.where())
            key = (where, mutation.kind)
            tried[key] = tried.get(key, 0) + 1
            if tried[key] > PER_FIELD:
                continue
            problem = _judge(entry, mutation, state, where, mode)
            if problem:
                failures.append(f"{game} {mode} {mutation.where()} {mutation.kind} "
                                f"{mutation.value!r}: {problem}")
    return failures


def _judge(entry, mutation: Mutation, state: dict, where: str, mode: str) -> str | None:
    bad = mutation.applied(state)
    try:
        checked = load_state(entry, bad)
    except (InvalidInput, ImpossibleState) as exc:
        if mutation.kind in STRICT and not _names(mutation.where(), _fields(exc)):
            return f"refused naming {_fields(exc)[:3]}"
        return None
    except Exception as exc:  # noqa: BLE001 - any other error is the finding
        return f"{type(exc).__name__}: {exc}"
    game = f"{entry.name} {mode}"
    if not (_listed(STILL_VALID, game, where, mutation.kind)
            or _listed(KNOWN_GAPS, game, where, mutation.kind)):
        return "accepted"
    try:
        for reader in (PUBLIC, REFEREE, *checked["players"]):
            entry.engine.view(checked, reader)
            entry.engine.legal_actions(checked, None if reader in (PUBLIC, REFEREE) else reader)
        entry.engine.score(checked)
    except Exception as exc:  # noqa: BLE001
        return f"accepted, then {type(exc).__name__}: {exc}"
    return None


@pytest.mark.parametrize("game", ["all-fours", "gnoming", "spy"])
@pytest.mark.parametrize("mode", MODES)
def test_every_field_of_every_snapshot_is_checked(game, mode):
    assert audit(game, mode) == []


@pytest.mark.parametrize("game", ["all-fours", "gnoming", "spy"])
def test_no_mutated_snapshot_is_a_500(client, game):
    """Through the stateless API a sample of the mutations answers 200 or 422, never 500."""
    for mode in MODES:
        state = states(game, mode)[1]
        sample = list(mutations(state))[::37]
        for mutation in sample:
            response = client.post(f"/v1/games/{game}/legal-actions",
                                   json={"state": mutation.applied(state)})
            assert response.status_code in (200, 422), (mutation, response.get_json())


def test_the_field_audit_can_fail(monkeypatch):
    """Proof: without the All Fours ``last_hand`` checks the audit finds those fields
    accepted (the gap of issue 12 item 8)."""
    from referee.games.allfours import snapshot
    monkeypatch.setattr(snapshot, "check_record", lambda state, problems: None)
    found = audit("all-fours", "digital")
    assert any("state.last_hand." in f and f.endswith("accepted") for f in found), found[:5]
