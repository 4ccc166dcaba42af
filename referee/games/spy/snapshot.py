"""Checks of a submitted Spy snapshot: every field's type and every fact the rules fix.

:func:`state_problems` survives any JSON and lists every problem with the field it is in
(``state.bases.ana.exposed[1]``); the engine raises them as ``ImpossibleState``.
"""
from __future__ import annotations

from typing import Any, Callable

from referee.games.base import MODES, UNKNOWN, Problems
from referee.games.common.options import snapshot_option_problems
from referee.games.spy.answers import spied_position
from referee.games.spy.judge import ACTION_FIELDS, slots_used
from referee.games.spy.log import log_problems
from referee.games.spy.rules import (BOMBS, EXPOSURE_ORDER, TOP_SECRET_2, base_cards,
                                     movement_table, short_repr)
from referee.games.spy.setup import (GAME, LAYOUT_KEYS, RULES_VERSION, colours_problems,
                                     layout_problems, options_problems, players_problems)
from referee.games.spy.table import base_has_arrangement

STATE_KEYS = ("game", "rules_version", "mode", "seed", "options", "players", "colours", "bases",
              "eliminated", "winner", "turn", "log")
BASE_KEYS = LAYOUT_KEYS + ("exposed", "lit", "candidates", "declared")


def state_problems(state: Any, resolve_options: Callable[[Any], dict]) -> Problems:
    """Return every problem of a snapshot (empty when a legal game can reach it).

    ``resolve_options`` is the engine's option check (types and choices).
    """
    problems = Problems()
    if not isinstance(state, dict):
        problems.flag("SPY-S2", "spy.snapshot.not_object", "state")
        return problems
    for key in STATE_KEYS:
        if key not in state:
            problems.flag("SPY-S2", "spy.snapshot.missing", f"state.{key}", key=short_repr(key))
    for key in sorted(set(state) - set(STATE_KEYS)):
        problems.flag("SPY-S2", "spy.snapshot.extra", f"state.{key}", key=short_repr(key))
    if problems:
        return problems
    if state["game"] != GAME:
        problems.flag("SPY-S2", "spy.snapshot.game", "state.game",
                      given=short_repr(state["game"]))
    if state["rules_version"] != RULES_VERSION:
        problems.flag("SPY-S2", "spy.snapshot.rules_version", "state.rules_version",
                      version=RULES_VERSION, given=short_repr(state["rules_version"]))
    if state["mode"] not in MODES:
        problems.flag("SPY-S2", "spy.snapshot.mode", "state.mode")
    seed = state["seed"]
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))):
        problems.flag("SPY-S2", "spy.snapshot.seed", "state.seed")
    if not isinstance(state["log"], list) or not all(isinstance(e, dict) for e in state["log"]):
        problems.flag("SPY-S2", "spy.snapshot.log", "state.log")
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
    if not problems:
        log_problems(state, problems)
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
        problems.flag("SPY-S2", "spy.snapshot.bases_not_per_player", "state.bases")
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
                problems.flag("SPY-S2", "spy.snapshot.base_missing", f"{where}.{key}",
                              key=short_repr(key))
        for key in sorted(set(base) - set(BASE_KEYS)):
            problems.flag("SPY-S2", "spy.snapshot.base_extra", f"{where}.{key}",
                          key=short_repr(key))
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
        problems.flag("SPY-R3", "spy.snapshot.exposed_shape", f"{where}.exposed")
    else:
        for k, pos in enumerate(exposed):
            if cards[pos] != EXPOSURE_ORDER[k]:
                # ``cards`` (one card) is the card held: a second card rendered as a term
                problems.flag("SPY-R1", "spy.snapshot.exposure_order", f"{where}.exposed[{k}]",
                              number=k + 1, card=EXPOSURE_ORDER[k], position=pos,
                              cards=[cards[pos]])
    if not _positions(base["lit"], size, len(BOMBS)):
        problems.flag("SPY-R4", "spy.snapshot.lit_shape", f"{where}.lit")
    else:
        for pos in base["lit"]:
            if cards[pos] not in BOMBS + (UNKNOWN,) or pos in (exposed or ()):
                problems.flag("SPY-R4", "spy.snapshot.lit_not_bomb", f"{where}.lit", position=pos,
                              card=cards[pos])
    cands = base["candidates"]
    if not _card_lists(cands, frozenset(deck), size):
        problems.flag("SPY-S2", "spy.snapshot.candidates_shape", f"{where}.candidates",
                      size=size)
    declared = base["declared"]
    if not (isinstance(declared, list) and len(declared) == size and all(
            d is None or (type(d) is int and d >= 1) for d in declared)):
        problems.flag("SPY-C3", "spy.snapshot.declared_shape", f"{where}.declared", size=size)
    if len(problems.items) > before:
        return
    for pos, number in enumerate(declared):
        if number is not None and any(numbers.get(c, number) != number for c in cands[pos]):
            problems.flag("SPY-C3", "spy.snapshot.declared_candidates", f"{where}.declared[{pos}]",
                          position=pos, number=number)
    for pos in base["exposed"]:
        if cands[pos] != [cards[pos]]:
            problems.flag("SPY-R3", "spy.snapshot.exposed_candidates",
                          f"{where}.candidates[{pos}]", position=pos, card=cards[pos])
    for pos in base["lit"]:
        if not set(cands[pos]) <= set(BOMBS):
            problems.flag("SPY-R4", "spy.snapshot.lit_candidates", f"{where}.candidates[{pos}]",
                          position=pos)
    if not base_has_arrangement(base, deck):
        problems.flag("SPY-C1", "spy.snapshot.no_arrangement", f"{where}.candidates")


def _play_problems(state: dict[str, Any], problems: Problems) -> None:
    """Eliminations (SPY-R7, SPY-E1), winner (SPY-E2) and the turn (SPY-T1)."""
    players, eliminated = state["players"], state["eliminated"]
    if not (isinstance(eliminated, list) and len(set(map(repr, eliminated))) == len(eliminated)
            and all(p in players for p in eliminated) and len(eliminated) < len(players)):
        problems.flag("SPY-E1", "spy.snapshot.eliminated", "state.eliminated")
        return
    if state["options"]["top_secret_2_eliminates"]:
        for player in players:
            if TOP_SECRET_2 in (state["bases"][player]["cards"][p]
                                for p in state["bases"][player]["exposed"]) \
                    and player not in eliminated:
                problems.flag("SPY-R7", "spy.snapshot.top_secret_2_in", "state.eliminated",
                              player=player)
    left = [p for p in players if p not in eliminated]
    winner, turn = state["winner"], state["turn"]
    if len(left) == 1:
        if winner != left[0] or turn is not None:
            problems.flag("SPY-E2", "spy.snapshot.winner_left", "state.winner", player=left[0])
        return
    if winner is not None:
        problems.flag("SPY-E2", "spy.snapshot.winner_early", "state.winner")
    _turn_problems(state, turn, left, problems)


def _turn_problems(state: dict[str, Any], turn: Any, left: list[str],
                   problems: Problems) -> None:
    if not isinstance(turn, dict) or set(turn) != {"player", "done", "pending"}:
        problems.flag("SPY-T1", "spy.snapshot.turn_shape", "state.turn")
        return
    if turn["player"] not in left:
        problems.flag("SPY-E1", "spy.snapshot.turn_player", "state.turn.player",
                      given=short_repr(turn["player"]))
        return
    done = turn["done"]
    if not isinstance(done, list) or not all(isinstance(d, str) and d in ACTION_FIELDS
                                             for d in done) or slots_used(done) is None:
        problems.flag("SPY-T1", "spy.snapshot.done_order", "state.turn.done")
        return
    pending = turn["pending"]
    if pending is None:
        if "spy" in done:
            problems.flag("SPY-T1", "spy.snapshot.spy_ends_turn", "state.turn.done")
        return
    if state["mode"] != "table" or "spy" not in done or not isinstance(pending, dict) \
            or set(pending) != {"attacker", "defender", "position"}:
        problems.flag("SPY-T1", "spy.snapshot.pending_shape", "state.turn.pending")
        return
    attacker, defender = pending["attacker"], pending["defender"]
    if attacker != turn["player"] or defender not in left or defender == attacker:
        problems.flag("SPY-P2", "spy.snapshot.pending_players", "state.turn.pending")
    elif pending["position"] != spied_position(state, attacker):
        problems.flag("SPY-P1", "spy.snapshot.pending_position", "state.turn.pending.position",
                      attacker=attacker, position=spied_position(state, attacker),
                      given=short_repr(pending["position"]))
