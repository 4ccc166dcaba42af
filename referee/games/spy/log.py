"""Checks of a Spy snapshot's ``log``: every entry is a public event the engine writes, with
exactly its fields, each of the right type and range, and each card it shows agreeing with the
bases (SPY-R3 an exposed card, SPY-R5 a shown lit bomb), each elimination and win with the
state (SPY-E1, SPY-E2).

Event shapes (``type`` and its fields)::

    turn_round {player, facing}      move {player, steps, facing, from_gap, spy_gap, faced}
    spy {player, target, position}   answer {player, attacker, position, answer[, card]}
    eliminated {player, rule}        game_over {winner, rule}        turn {player}

``card`` is in an answer exactly when the answer shows one (``exposed``, ``lit_bomb``).  A
private event (``visible_to``) is never in the log.
"""
from __future__ import annotations

import functools
from typing import Any, Callable

from referee.games.base import Problems
from referee.games.spy.positions import FACINGS
from referee.games.spy.replay import replay_problems
from referee.games.spy.rules import base_cards, short_repr
from referee.games.spy.table import ANSWERS, CARD_ANSWERS

EVENT_FIELDS = {"turn_round": ("player", "facing"),
                "move": ("player", "steps", "facing", "from_gap", "spy_gap", "faced"),
                "spy": ("player", "target", "position"),
                "answer": ("player", "attacker", "position", "answer"),
                "eliminated": ("player", "rule"), "game_over": ("winner", "rule"),
                "turn": ("player",)}
RULES = {"eliminated": ("SPY-R5", "SPY-R7"), "game_over": ("SPY-E2",)}


def log_problems(state: dict[str, Any], problems: Problems) -> None:
    """Add a problem for each log entry that is not an event a legal game writes (the state's
    other fields already checked); when every entry is, replay the log (``replay.py``).

    Each entry is first tried by :func:`_fits` (one pass, no message built); only an entry it
    does not pass goes through :func:`_entry_problem`, which finds and words the problem (the
    two agree: ``tests/spy/test_spy_log_fast.py``).  Once ``verdicts.LISTED`` problems are
    worded, an entry :func:`_fits` refuses is counted (``problems.unlisted``: it has exactly
    one problem, the first :func:`_entry_problem` would word), not worded."""
    players = state["players"]
    specs = _specs(tuple(players), len(base_cards(len(players))))
    before = len(problems.items)
    for index, entry in enumerate(state["log"]):
        if _fits(entry, specs):
            _agreement(state, entry, index, problems)
        elif problems.full:
            problems.unlisted += 1
        elif not _entry_problem(state, entry, index, problems):
            _agreement(state, entry, index, problems)
    if len(problems.items) == before and not problems.unlisted:
        replay_problems(state, problems)


_KEYS = {kind: frozenset(("type",) + fields) for kind, fields in EVENT_FIELDS.items()}
_CARD_KEYS = _KEYS["answer"] | {"card"}
_INTS = {"steps": 1, "from_gap": 0, "spy_gap": 0, "faced": 0, "position": 0}
"""The integer fields and their least value (``steps`` up to the base's size, the others
below it)."""


@functools.lru_cache(maxsize=64)
def _specs(players: tuple[str, ...], size: int) -> dict[str, tuple[tuple[str, Any, bool], ...]]:
    """Per event type, each field but ``type`` as ``(key, allowed values, is an integer)``:
    the values :func:`log_problems`'s per-field checks accept, for ``players`` and bases of
    ``size`` cards (``size`` + 1: a range past the last gap for ``steps``)."""
    seated, deck = frozenset(players), frozenset(base_cards(len(players)))
    allowed: dict[str, Any] = {"player": seated, "attacker": seated, "target": seated,
                               "winner": seated, "facing": frozenset(FACINGS),
                               "answer": frozenset(ANSWERS), "card": deck}
    for key, least in _INTS.items():
        allowed[key] = range(least, size + least)
    out = {}
    for kind, fields in EVENT_FIELDS.items():
        out[kind] = tuple((key, frozenset(RULES[kind]) if key == "rule" else allowed[key],
                           key in _INTS) for key in fields)
    out["answer+card"] = out["answer"] + (("card", deck, False),)
    return out


def _fits(entry: dict[str, Any], specs: dict[str, tuple]) -> bool:
    """True when ``entry`` is an event of a known type with exactly its fields, each of the
    right type and range (what :func:`_entry_problem` finds no problem in); ``False`` sends
    it there.  Any value that cannot be looked up (a list, an object) is ``False``."""
    kind = entry.get("type")
    if type(kind) is not str:
        return False
    try:
        if kind == "answer" and entry.get("answer") in CARD_ANSWERS:
            keys, spec = _CARD_KEYS, specs["answer+card"]
        else:
            keys, spec = _KEYS[kind], specs[kind]
        if entry.keys() != keys:
            return False
        for key, allowed, integer in spec:
            value = entry[key]
            if (integer and type(value) is not int) or value not in allowed:
                return False
    except (KeyError, TypeError):  # an unknown type; an unhashable value
        return False
    return True


def _entry_problem(state: dict[str, Any], entry: dict[str, Any], index: int,
                   problems: Problems) -> bool:
    """Flag the first problem of log entry ``index`` (SPY-S2: an unknown type, other fields
    than its type's, a value of the wrong type or range); ``False`` when it has none."""
    players = state["players"]
    size = len(base_cards(len(players)))
    deck = base_cards(len(players))
    checks: dict[str, Callable[[Any], bool]] = {
        "player": players.__contains__, "attacker": players.__contains__,
        "target": players.__contains__, "winner": players.__contains__,
        "facing": FACINGS.__contains__, "answer": ANSWERS.__contains__,
        "card": lambda v: isinstance(v, str) and v in deck,
        "steps": lambda v: type(v) is int and 1 <= v <= size,
    }
    for key in ("from_gap", "spy_gap", "faced", "position"):
        checks[key] = lambda v: type(v) is int and 0 <= v < size
    where = f"state.log[{index}]"
    kind = entry.get("type")
    if not isinstance(kind, str) or kind not in EVENT_FIELDS:
        problems.flag("SPY-S2", "spy.snapshot.log_type", f"{where}.type", index=index,
                      given=short_repr(kind), choices=", ".join(EVENT_FIELDS))
        return True
    fields = EVENT_FIELDS[kind]
    if kind == "answer" and entry.get("answer") in CARD_ANSWERS:
        fields += ("card",)
    if set(entry) != {"type", *fields}:
        problems.flag("SPY-S2", "spy.snapshot.log_fields", where, index=index, kind=kind,
                      choices=", ".join(fields))
        return True
    bad = [key for key in fields if key != "rule" and not _safe(checks[key], entry[key])]
    if kind in RULES and entry["rule"] not in RULES[kind]:
        bad.append("rule")
    if bad:
        problems.flag("SPY-S2", "spy.snapshot.log_value", f"{where}.{bad[0]}", index=index,
                      kind=kind, key=bad[0], given=short_repr(entry[bad[0]]))
        return True
    return False


def _safe(check: Callable[[Any], bool], value: Any) -> bool:
    try:
        return bool(check(value))
    except TypeError:  # an unhashable value
        return False


def _agreement(state: dict[str, Any], entry: dict[str, Any], index: int,
               problems: Problems) -> None:
    """A card the event showed is the card the base holds there, still exposed or lit; an
    eliminated player is in ``eliminated``, a winner is the state's."""
    where, kind = f"state.log[{index}]", entry["type"]
    if kind == "answer" and entry["answer"] in CARD_ANSWERS:
        base = state["bases"][entry["player"]]
        shown, position = entry["card"], entry["position"]
        kept = base["exposed"] if entry["answer"] == "exposed" else base["lit"]
        if base["cards"][position] != shown or position not in kept:
            problems.flag("SPY-R3" if entry["answer"] == "exposed" else "SPY-R5",
                          "spy.snapshot.log_shown", f"{where}.card", index=index, card=shown,
                          player=entry["player"], position=position)
    elif kind == "eliminated" and entry["player"] not in state["eliminated"]:
        problems.flag("SPY-E1", "spy.snapshot.log_eliminated", f"{where}.player", index=index,
                      player=entry["player"])
    elif kind == "game_over" and entry["winner"] != state["winner"]:
        problems.flag("SPY-E2", "spy.snapshot.log_winner", f"{where}.winner", index=index,
                      winner=entry["winner"])
