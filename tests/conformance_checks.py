"""The conformance checks, run over every registered game (``test_conformance.py``) and over
broken engines (``test_conformance_selftest.py``, which proves each check can fail).

:func:`playout` plays one seeded random game through the engine's public, checked protocol
and returns every :class:`Failure` it saw (it never stops at the first).  The properties:

- ``listed-applies``: a sample of the actions ``legal_actions`` lists has no violation, and
  a smaller one (the action played included) applies without :class:`IllegalAction`;
- ``unlisted-refused``: variants of a listed action that are not listed (another player, a
  field from another listed action, an unknown player) are refused, each violation citing a
  rule ID;
- ``no-mutation``: ``apply`` leaves its input as a copy taken *before* the call shows it;
- ``json-round-trip``: every state, view and event survives ``json.dumps``/``loads``;
- ``snapshot-round-trip``: every state reached, as plain JSON, passes ``check_snapshot`` and
  gives the same legal actions;
- ``no-leak``: no view but the referee's carries the seed, and no view nor summary (the
  match view's envelope: phase, awaiting, score, outcome) changes when the cards in the places
  the engine declares hidden from its viewer (``hidden_places``) are exchanged among
  themselves (what a view depended on would change);
- ``info-set``: what a seat learns without moving depends only on what it may see — for each
  seat, ``legal_actions(state, seat)`` and the violations (rule, code, params, field) of a
  sample of that seat's actions, listed and unlisted, are the same on the state scrambled
  for that seat (the pair test of issue 12, on every game);
- ``conserved``: what the engine declares conserved (``conserved``) never changes;
- ``progress``: a game not over has a legal action for everyone in ``to_move``; an ended
  one has none.
"""
from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from typing import Any

from referee.games.base import PUBLIC, REFEREE, Engine, IllegalAction, ImpossibleState
from referee.games.common.jsoncopy import json_copy

NAMES = ["ana", "ben", "cy", "dee", "eli", "fay", "gus", "hal"]
RULE_ID = re.compile(r"[A-Z]+(-[A-Za-z0-9]+)+")
"""What a cited rule looks like: ``AF-P3``, ``COUP-A8b``, ``GN-D4``."""

SWAP_TRIES = 40
"""Pairs of hidden places a scramble tries to swap when rotating a whole pool is refused."""

SWAP_REFUSALS = 8
"""A scramble stops swapping after this many refused swaps in a row (a pool whose cards the
state check pins to their places, e.g. a table-mode card known to be in one hand)."""

PROPERTIES = ("listed-applies", "unlisted-refused", "no-mutation", "json-round-trip",
              "snapshot-round-trip", "no-leak", "info-set", "conserved", "progress")


@dataclass(frozen=True)
class Failure:
    """One broken property at one step of one playout."""

    prop: str
    step: int
    detail: str


@dataclass
class Budget:
    """How much each playout checks: steps, listed actions judged and applied per step,
    unlisted variants per step, and every how many steps views are scrambled (the dear check)."""

    steps: int = 120
    judged: int = 8
    applied: int = 2
    unlisted: int = 4
    leak_every: int = 3


def _canonical(action: dict) -> str:
    """An action up to the order of a list of cards (Coup returns ``cards`` in any order)."""
    return json.dumps({k: sorted(map(str, v)) if isinstance(v, list) else v
                       for k, v in action.items()}, sort_keys=True)


def _get(state: Any, path: tuple) -> Any:
    for key in path:
        state = state[key]
    return state


def _set(state: Any, path: tuple, value: Any) -> None:
    _get(state, path[:-1])[path[-1]] = value


def scrambled(engine: Engine, state: dict, viewer: str | None) -> tuple[dict, int]:
    """``state`` with the cards of the places hidden from ``viewer`` moved round within each
    pool (``engine.hidden_places``), and how many places now hold another card.

    First the whole pool is rotated (sorted by card, shifted by the largest count of one
    card, so every place gets another card when the cards allow); when the engine's state
    check refuses that (Spy: a card must fit what its base's answers told), pairs of places
    are swapped one by one (at most ``SWAP_TRIES``, stopping after ``SWAP_REFUSALS`` refusals
    in a row), each swap kept only when the state check accepts it."""
    pools: dict[Any, list[tuple]] = {}
    for pool, path in engine.hidden_places(state, viewer):
        pools.setdefault(pool, []).append(path)
    out = json_copy(state)
    for paths in pools.values():
        cards = [_get(state, path) for path in paths]
        order = sorted(range(len(paths)), key=lambda i: str(cards[i]))
        shift = max(cards.count(c) for c in cards)
        for i, place in enumerate(order):
            _set(out, paths[place], cards[order[(i + shift) % len(order)]])
    if not _accepted(engine, state, out):
        out = json_copy(state)
        tries, refused = SWAP_TRIES, 0
        for paths in pools.values():
            for i, first in enumerate(paths):
                for second in paths[i + 1:]:
                    a, b = _get(out, first), _get(out, second)
                    if a == b or a != _get(state, first) or b != _get(state, second):
                        continue
                    tries -= 1
                    if tries < 0 or refused >= SWAP_REFUSALS:
                        break
                    _set(out, first, b)
                    _set(out, second, a)
                    if _accepted(engine, state, out):
                        refused = 0
                    else:
                        refused += 1
                        _set(out, first, a)
                        _set(out, second, b)
        _accepted(engine, state, out)
    return out, sum(_get(out, p) != _get(state, p) for ps in pools.values() for p in ps)


def _accepted(engine: Engine, before: dict, after: dict) -> bool:
    """Repair what no view shows (``engine.repair_hidden``), then ask the state check."""
    engine.repair_hidden(before, after)
    try:
        engine.check_snapshot(after)
    except ImpossibleState:
        return False
    return True


def _variants(state: dict, action: dict, legal: list[dict], rng: random.Random) -> list[dict]:
    """Variants of ``action``: another seat or an unknown player acting, each of its fields
    given the value another listed action has, and other listed types sent by its player."""
    seats = state["players"]
    out = [{**action, "player": "nobody"}]
    others = [p for p in seats if p != action["player"]]
    if others:
        out.append({**action, "player": rng.choice(others)})
    for other in rng.sample(legal, min(4, len(legal))):
        for key, value in other.items():
            if key in action and key not in ("type", "player") and action[key] != value:
                out.append({**action, key: value})
        if other["type"] != action["type"]:
            out.append({**other, "player": action["player"]})
    return out


def playout(engine: Engine, body: dict, seed: Any, budget: Budget | None = None,
            rng: random.Random | None = None) -> tuple[list[Failure], dict]:
    """Play one seeded random game from setup ``body``; return ``(failures, last state)``."""
    budget = budget or Budget()
    rng = rng or random.Random(f"{engine.name}:{seed}")
    failures: list[Failure] = []

    def fail(prop: str, step: int, detail: str) -> None:
        failures.append(Failure(prop, step, detail[:400]))

    state = engine.setup(body, seed)
    conserved = engine.conserved(state)
    for step in range(budget.steps):
        _check_snapshot_and_json(engine, state, step, fail)
        if step % budget.leak_every == 0:
            _check_views(engine, state, step, fail, rng)
        legal = engine.legal_actions(state)
        if engine.is_over(state):
            if legal or engine.to_move(state):
                fail("progress", step, f"the game is over but {legal[:2]} are listed")
            break
        if not legal:
            fail("progress", step, "the game is not over but nothing is legal")
            break
        for player in engine.to_move(state):
            if not engine.legal_actions(state, player):
                fail("progress", step, f"{player} is to move but has no legal action")
        state = _step(engine, state, legal, step, budget, rng, fail)
        if state is None:
            break
        if engine.conserved(state) != conserved:
            fail("conserved", step, f"{conserved} became {engine.conserved(state)}")
    return failures, state


def _step(engine, state, legal, step, budget, rng, fail):
    """Judge the listed actions and a sample of unlisted ones, apply a sample of listed ones,
    and return the state after one of them (``None`` when none applies)."""
    listed = {_canonical(a) for a in legal}
    for action in rng.sample(legal, min(budget.judged, len(legal))):
        found = engine.violations(state, action)
        if found:
            fail("listed-applies", step, f"listed {action} breaks {[v.rule for v in found]}")
    chosen = rng.choice(legal)
    unlisted = [w for w in _variants(state, chosen, legal, rng) if _canonical(w) not in listed]
    for wrong in rng.sample(unlisted, min(budget.unlisted, len(unlisted))):
        found = engine.violations(state, wrong)
        if not found:
            fail("unlisted-refused", step, f"unlisted {wrong} has no violation")
        elif not all(RULE_ID.fullmatch(v.rule) and v.message for v in found):
            fail("unlisted-refused", step, f"{wrong}: {found} cite no rule ID")
    after = None
    for action in [chosen] + rng.sample(legal, min(budget.applied, len(legal)) - 1):
        before = json_copy(state)
        try:
            new, events = engine.apply(state, action)
        except IllegalAction as exc:
            fail("listed-applies", step, f"listed {action} refused: {exc}")
            continue
        if state != before:
            fail("no-mutation", step, f"apply({action}) changed its input")
            state = before
        try:
            if json.loads(json.dumps(events)) != events or not all("type" in e for e in events):
                fail("json-round-trip", step, f"events {events} do not round-trip")
        except (TypeError, ValueError) as exc:
            fail("json-round-trip", step, f"events of {action}: {exc}")
        if after is None:
            after = new
    return after


def _check_snapshot_and_json(engine, state, step, fail) -> None:
    try:
        plain = json.loads(json.dumps(state))
    except (TypeError, ValueError) as exc:
        fail("json-round-trip", step, f"the state is not JSON: {exc}")
        return
    if plain != state:
        fail("json-round-trip", step, "the state changes through JSON")
        return
    try:
        engine.check_snapshot(plain)
    except ImpossibleState as exc:
        fail("snapshot-round-trip", step, f"a state the engine made is refused: {exc}")
        return
    if engine.legal_actions(plain) != engine.legal_actions(state):
        fail("snapshot-round-trip", step, "the checked JSON copy lists other actions")


def _check_views(engine, state, step, fail, rng=None) -> None:
    rng = rng or random.Random(step)
    for viewer in [PUBLIC, REFEREE, *state["players"]]:
        seen = engine.view(state, viewer)
        try:
            json.dumps(seen)
        except (TypeError, ValueError) as exc:
            fail("json-round-trip", step, f"the view of {viewer} is not JSON: {exc}")
        if viewer == REFEREE:
            continue
        if "seed" in seen:
            fail("no-leak", step, f"the view of {viewer} carries the seed")
        other, _ = scrambled(engine, state, viewer)
        try:
            changed = engine.view(other, viewer) != seen
        except ImpossibleState:  # even the state itself is refused: snapshot-round-trip says so
            continue
        if changed:
            fail("no-leak", step, f"the view of {viewer} depends on a card hidden from it")
        elif engine.summary(other, viewer) != engine.summary(state, viewer):
            fail("no-leak", step, f"the summary (phase, awaiting, score, outcome) of {viewer} "
                                  "depends on a card hidden from it")
        if viewer is not PUBLIC:
            _check_info_set(engine, state, other, viewer, step, fail, rng)


def _answers(engine, state: dict, seat: str, actions: list[dict]) -> list:
    """What ``seat`` learns without moving: its legal actions, and each action's violations."""
    return [engine.legal_actions(state, seat)] + [
        [(v.rule, v.code, v.params, v.field, v.text) for v in engine.violations(state, a)]
        for a in actions]


def _check_info_set(engine, state, other, seat, step, fail, rng) -> None:
    """``info-set``: the seat's legal actions and the verdicts on a sample of its actions
    (listed ones and unlisted variants of them) are those of the scrambled state."""
    mine = engine.legal_actions(state, seat)
    sample = rng.sample(mine, min(3, len(mine)))
    legal = engine.legal_actions(state)
    for action in list(sample):
        sample += [v for v in _variants(state, action, legal, rng) if v["player"] == seat]
    if _answers(engine, other, seat, sample) != _answers(engine, state, seat, sample):
        fail("info-set", step, f"what {seat} learns without moving depends on a card "
                               f"hidden from it (legal actions or verdicts of {sample[:3]})")
