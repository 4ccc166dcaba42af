"""The compiled snapshot check (``referee.schemas.fastcheck``) says "valid" only where the
game's marshmallow ``StateSchema`` finds no error, and says it for every snapshot the engines
produce (so marshmallow's own walk is skipped for them).  Where it is unsure marshmallow runs,
so refusals keep marshmallow's fields and messages (issue 11: speed without a weaker check).

The snapshots: every state of seeded random playouts of each game, then thousands of
mutations of them (a value replaced by one of another JSON type or an unknown card, a key
removed, an unknown key added, ``null`` where it may or may not be allowed)."""
from __future__ import annotations

import copy
import random

import pytest

from bench.payloads import playout, setup_body
from referee.matches.loading import load_state
from referee.refusals import InvalidInput
from referee.registry import GAMES
from referee.schemas.fastcheck import checker

ODD_VALUES = [None, 0, -1, 7, 2**70, True, False, 1.5, "", "x", "unknown", "AS", "duke",
              "ana", " ana", "ana\u202e", [], ["x"], [None], {}, {"x": 1}, [[]], [1, 2]]
"""Replacement values: every JSON type, codes of other games, names that are not names."""


def snapshots(game: str) -> list[dict]:
    """Every state of two seeded playouts (2 and the bench's player count), table and digital
    modes alike for the schema (the mode field is a value like any other)."""
    engine = GAMES[game].engine
    counts = sorted({engine.min_players, 4 if engine.max_players >= 4 else engine.max_players})
    found = []
    for seed, count in enumerate(counts):
        first, steps = playout(game, seed, limit=120, setup=setup_body(game, count))
        found += [first] + [state for state, _ in steps]
    return found


def paths(node, prefix=()):
    """Every path (keys and indexes) to a value inside ``node``."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield prefix + (key,)
            yield from paths(value, prefix + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield prefix + (index,)
            yield from paths(value, prefix + (index,))


def mutations(state: dict, rng: random.Random, count: int):
    """``count`` copies of ``state``, each changed in one place."""
    where = list(paths(state))
    for _ in range(count):
        out = copy.deepcopy(state)
        path = rng.choice(where)
        parent = out
        for step in path[:-1]:
            parent = parent[step]
        roll = rng.random()
        if roll < 0.15 and isinstance(parent, dict):
            del parent[path[-1]]
        elif roll < 0.25 and isinstance(parent, dict):
            parent["surplus"] = 1
        else:
            parent[path[-1]] = copy.deepcopy(rng.choice(ODD_VALUES))
        yield out


@pytest.mark.parametrize("game", sorted(GAMES))
def test_fast_check_never_accepts_what_marshmallow_refuses(game):
    schema = GAMES[game].schemas.StateSchema()
    fast = checker(schema)
    rng = random.Random(game)
    states = snapshots(game)
    for state in states:  # every engine-made snapshot takes the fast path
        assert schema.validate(state) == {}
        assert fast(state) is True
    refused = accepted = 0
    for state in rng.sample(states, min(25, len(states))):
        for changed in mutations(state, rng, 40):
            errors = schema.validate(changed)
            if fast(changed):
                assert errors == {}, (game, errors)
                accepted += 1
            else:
                refused += errors != {}
    # both sides are exercised: mutations marshmallow refuses, and ones it still accepts
    assert refused > 300 and accepted > 30, (refused, accepted)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_refusal_is_marshmallows_own(game):
    """A snapshot with a bad card list is refused with marshmallow's field paths and
    messages, under ``state``."""
    entry = GAMES[game]
    state = snapshots(game)[3]
    schema = entry.schemas.StateSchema()
    bad = copy.deepcopy(state)
    bad["players"] = [bad["players"][0], 5]
    with pytest.raises(InvalidInput) as caught:
        load_state(entry, bad)
    assert {"field": "state.players[1]", "message": "Not a valid string."} in caught.value.errors
    assert schema.validate(bad) == {"players": {1: ["Not a valid string."]}}



def compare_action_loads(game: str, make_loader) -> None:
    """Every action a playout took loads fast (``make_loader(schema)(action)``) to exactly
    what ``schema.load`` returns (its keys and their order); each of thousands of mutated
    actions either loads fast to marshmallow's answer or is left to marshmallow (``None``),
    never accepted where marshmallow refuses."""
    from marshmallow import ValidationError
    schemas = GAMES[game].schemas.ACTION_SCHEMAS
    rng = random.Random(game)
    actions = []
    for seed in range(2):
        actions += [action for _, action in playout(game, seed, limit=150)[1]]
    seen = {action["type"] for action in actions}
    refused = 0
    for action in actions + [m for a in rng.sample(actions, min(60, len(actions)))
                             for m in mutations(a, rng, 30)]:
        if not isinstance(action.get("type"), str) or action["type"] not in schemas:
            continue
        schema = schemas[action["type"]]()
        fast = make_loader(schema)(action)
        try:
            slow = schema.load(action)
        except ValidationError:
            assert fast is None, action
            refused += 1
            continue
        if action in actions:
            assert fast is not None, action
        if fast is not None:
            assert fast == slow and list(fast) == list(slow), (fast, slow)
    assert refused > 100 and len(seen) >= 3, (refused, seen)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_fast_action_load_is_marshmallows_load_or_unsure(game):
    """``referee.schemas.fastcheck.loader``, the action path of ``load_action``."""
    from referee.schemas.fastcheck import loader
    compare_action_loads(game, loader)


def test_fast_action_load_comparison_can_fail():
    """The comparison catches a loader that accepts too much (every object as it is)."""
    with pytest.raises(AssertionError):
        compare_action_loads("all-fours", lambda schema: dict)
