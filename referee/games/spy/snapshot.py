"""Checks of a submitted Spy snapshot: every field's type and every fact the rules fix.

:func:`state_problems` survives any JSON and lists every problem with the field it is in
(``state.bases.ana.exposed[1]``); the engine raises them as ``ImpossibleState``.
"""
from __future__ import annotations

from typing import Any, Callable

from referee.games.base import MODES, UNKNOWN, Problems
from referee.games.common.options import snapshot_option_problems
from referee.games.spy.answers import spied_position
from referee.games.spy.cards import (BOMBS, EXPOSURE_ORDER, TOP_SECRET_2, base_cards,
                                     movement_table)
from referee.games.spy.knowledge import domains, has_arrangement
from referee.games.spy.setup import (GAME, LAYOUT_KEYS, colours_problems, layout_problems,
                                     options_problems, players_problems)
from referee.games.spy.turn import ACTION_FIELDS, slots_used

STATE_KEYS = ("game", "rules_version", "mode", "seed", "options", "players", "colours", "bases",
              "eliminated", "winner", "turn", "log")
BASE_KEYS = LAYOUT_KEYS + ("exposed", "lit", "candidates", "declared")


def state_problems(state: Any, resolve_options: Callable[[Any], dict]) -> Problems:
    """Return every problem of a snapshot (empty when a legal game can reach it).

    ``resolve_options`` is the engine's option check (types and choices).
    """
    problems = Problems()
    if not isinstance(state, dict):
        problems.add("SPY-S2", "The state must be an object.", "state")
        return problems
    for key in STATE_KEYS:
        if key not in state:
            problems.add("SPY-S2", f"The state has no {key!r}.", f"state.{key}")
    for key in sorted(set(state) - set(STATE_KEYS)):
        problems.add("SPY-S2", f"{key!r} is not a field of a Spy state.", f"state.{key}")
    if problems:
        return problems
    if state["game"] != GAME:
        problems.add("SPY-S2", f"This is not a Spy state (game {state['game']!r}).", "state.game")
    if state["mode"] not in MODES:
        problems.add("SPY-S2", "mode must be 'digital' or 'table'.", "state.mode")
    seed = state["seed"]
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))):
        problems.add("SPY-S2", "seed must be a whole number, a string or null.", "state.seed")
    if not isinstance(state["log"], list) or not all(isinstance(e, dict) for e in state["log"]):
        problems.add("SPY-S2", "log must be a list of events.", "state.log")
    players = state["players"]
    if not players_problems(players, problems, "state.players") or problems:
        return problems
    _options_problems(state["options"], players, resolve_options, problems)
    colours_problems(state["colours"], players, problems, "state.colours")
    if problems:
        return problems
    _bases_problems(state, problems)
    if problems:
        return problems
    _play_problems(state, problems)
    return problems


def _options_problems(options: Any, players: list[str], resolve: Callable[[Any], dict],
                      problems: Problems) -> None:
    found = snapshot_option_problems(options, resolve, "SPY-S2")
    problems.items.extend(found)
    if not found:
        options_problems(options, players, problems, "state.options")


def _bases_problems(state: dict[str, Any], problems: Problems) -> None:
    bases, players = state["bases"], state["players"]
    if not isinstance(bases, dict) or set(bases) != set(players):
        problems.add("SPY-S2", "bases must hold one base for each player.", "state.bases")
        return
    deck = base_cards(len(players))
    mode = state["mode"]
    numbers = movement_table(mode, state["options"].get("card_moves"))
    for player in players:
        where = f"state.bases.{player}"
        base = bases[player]
        if not layout_problems(base, deck, mode, problems, where):
            continue
        for key in BASE_KEYS:
            if key not in base:
                problems.add("SPY-S2", f"The base has no {key!r}.", f"{where}.{key}")
        for key in sorted(set(base) - set(BASE_KEYS)):
            problems.add("SPY-S2", f"{key!r} is not a field of a base.", f"{where}.{key}")
        if all(key in base for key in BASE_KEYS):
            _knowledge_problems(base, deck, numbers, problems, where)


def _positions(value: Any, size: int, limit: int) -> bool:
    """True when ``value`` lists at most ``limit`` distinct positions 0…size-1."""
    return (isinstance(value, list) and len(value) <= limit
            and all(type(p) is int and 0 <= p < size for p in value)
            and len(set(value)) == len(value))


def _card_lists(value: Any, deck: frozenset[str], size: int) -> bool:
    """True when ``value`` is ``size`` non-empty lists of distinct cards of ``deck``."""
    try:
        return isinstance(value, list) and len(value) == size and all(
            isinstance(c, list) and c and deck.issuperset(c) and len(set(c)) == len(c)
            for c in value)
    except TypeError:  # an unhashable entry
        return False


def _knowledge_problems(base: dict[str, Any], deck: tuple[str, ...],
                        numbers: dict[str, int], problems: Problems, where: str) -> None:
    """Exposures in order (SPY-R1/R3), lit bombs (SPY-R4), candidates and declared numbers."""
    size, cards, before = len(deck), base["cards"], len(problems.items)
    exposed = base["exposed"] if _positions(base["exposed"], size, len(EXPOSURE_ORDER)) else None
    if exposed is None:
        problems.add("SPY-R3", "exposed must list distinct positions, at most four.",
                     f"{where}.exposed")
    else:
        for k, pos in enumerate(exposed):
            if cards[pos] != EXPOSURE_ORDER[k]:
                problems.add("SPY-R1", f"Exposure {k + 1} must be {EXPOSURE_ORDER[k]}, and c{pos}"
                             f" holds {cards[pos]}.", f"{where}.exposed[{k}]")
    if not _positions(base["lit"], size, len(BOMBS)):
        problems.add("SPY-R4", "lit must list distinct positions of bombs.", f"{where}.lit")
    else:
        for pos in base["lit"]:
            if cards[pos] not in BOMBS + (UNKNOWN,) or pos in (exposed or ()):
                problems.add("SPY-R4", f"c{pos} ({cards[pos]}) cannot be a lit bomb.",
                             f"{where}.lit")
    cands = base["candidates"]
    if not _card_lists(cands, frozenset(deck), size):
        problems.add("SPY-S2", f"candidates must list, for each of the {size} positions, the "
                     "distinct cards it may hold.", f"{where}.candidates")
    declared = base["declared"]
    if not (isinstance(declared, list) and len(declared) == size and all(
            d is None or (type(d) is int and d >= 1) for d in declared)):
        problems.add("SPY-C3", f"declared must hold {size} movement numbers or nulls.",
                     f"{where}.declared")
    if len(problems.items) > before:
        return
    for pos, number in enumerate(declared):
        if number is not None and any(numbers.get(c, number) != number for c in cands[pos]):
            problems.add("SPY-C3", f"c{pos} was declared to move {number}, which not every "
                         "card still possible there does.", f"{where}.declared[{pos}]")
    for pos in base["exposed"]:
        if cands[pos] != [cards[pos]]:
            problems.add("SPY-R3", f"c{pos} is exposed: everyone knows it is {cards[pos]}.",
                         f"{where}.candidates[{pos}]")
    for pos in base["lit"]:
        if not set(cands[pos]) <= set(BOMBS):
            problems.add("SPY-R4", f"c{pos} is a lit bomb: everyone knows it is a bomb.",
                         f"{where}.candidates[{pos}]")
    if not has_arrangement(domains(base), deck):
        problems.add("SPY-C1", "The base's cards do not fit what its answers, exposures and "
                     "declared moves say.", f"{where}.candidates")


def _play_problems(state: dict[str, Any], problems: Problems) -> None:
    """Eliminations (SPY-R7, SPY-E1), winner (SPY-E2) and the turn (SPY-T1)."""
    players, eliminated = state["players"], state["eliminated"]
    if not (isinstance(eliminated, list) and len(set(map(repr, eliminated))) == len(eliminated)
            and all(p in players for p in eliminated) and len(eliminated) < len(players)):
        problems.add("SPY-E1", "eliminated must list distinct players, and one must be left.",
                     "state.eliminated")
        return
    if state["options"]["top_secret_2_eliminates"]:
        for player in players:
            if TOP_SECRET_2 in (state["bases"][player]["cards"][p]
                                for p in state["bases"][player]["exposed"]) \
                    and player not in eliminated:
                problems.add("SPY-R7", f"{player}'s Top Secret 2 is exposed, so {player} is "
                             "eliminated.", "state.eliminated")
    left = [p for p in players if p not in eliminated]
    winner, turn = state["winner"], state["turn"]
    if len(left) == 1:
        if winner != left[0] or turn is not None:
            problems.add("SPY-E2", f"Only {left[0]} is left: {left[0]} is the winner and no "
                         "turn follows.", "state.winner")
        return
    if winner is not None:
        problems.add("SPY-E2", "No one has won while two players are left.", "state.winner")
    _turn_problems(state, turn, left, problems)


def _turn_problems(state: dict[str, Any], turn: Any, left: list[str],
                   problems: Problems) -> None:
    if not isinstance(turn, dict) or set(turn) != {"player", "done", "pending"}:
        problems.add("SPY-T1", "turn must be an object with player, done and pending.",
                     "state.turn")
        return
    if turn["player"] not in left:
        problems.add("SPY-E1", f"{turn['player']!r} cannot have the turn: not a player still in.",
                     "state.turn.player")
        return
    done = turn["done"]
    if not isinstance(done, list) or not all(isinstance(d, str) and d in ACTION_FIELDS
                                             for d in done) or slots_used(done) is None:
        problems.add("SPY-T1", "done must list this turn's actions in the order turn_round, "
                     "move, turn_round, spy.", "state.turn.done")
        return
    pending = turn["pending"]
    if pending is None:
        if "spy" in done:
            problems.add("SPY-T1", "A spy ends the turn.", "state.turn.done")
        return
    if state["mode"] != "table" or "spy" not in done or not isinstance(pending, dict) \
            or set(pending) != {"attacker", "defender", "position"}:
        problems.add("SPY-T1", "Only a table-mode spy waits for an answer, as "
                     "{attacker, defender, position}.", "state.turn.pending")
        return
    attacker, defender = pending["attacker"], pending["defender"]
    if attacker != turn["player"] or defender not in left or defender == attacker:
        problems.add("SPY-P2", "The pending spy must be by the turn's player on another player "
                     "still in.", "state.turn.pending")
    elif pending["position"] != spied_position(state, attacker):
        problems.add("SPY-P1", f"{attacker}'s Spy faces the mirror of c"
                     f"{spied_position(state, attacker)}, not {pending['position']!r}.",
                     "state.turn.pending.position")
