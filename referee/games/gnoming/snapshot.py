"""Checking a submitted Gnoming A Round snapshot: ``check_snapshot``.

The state (a JSON object; every key below is required):

- ``game`` ``"gnoming"``, ``mode`` ``"digital"``|``"table"``, ``players`` (seat order,
  clockwise), ``options`` (all four, see the engine), ``seed`` (int ≥ 0 or string);
- ``round`` (1-based), ``starter`` (who started this round, GN-S3), ``phase`` (see
  ``judge``);
- ``layouts``: ``{player: 3×3 rows of {"card", "up"}}`` — in table mode face-down cards are
  ``"unknown"``, in digital mode every card is known;
- ``draw_pile`` (top first; table mode: ``"unknown"``s, or after a GN-D5 reshuffle known cards
  in no particular order), ``discard_piles`` (two lists, bottom first, top last),
  ``removed`` (Hazards out of play, GN-D2/GN-S4);
- ``flips_due`` ``{player: 0–2}`` (GN-S2 / GN-D1 flips still owed), ``turn``
  ``{"player", "holding", "source", "pile", "filled", "replaced_face_down",
  "mulligans_at_start"}``, ``went_out`` (GN-E1) and ``final_turns`` (players still to take
  their last turn, in order), ``reshuffles`` (GN-D5 count this round: the shuffle purpose);
- ``history``: the finished rounds, ``[{"layouts": {player: 3×3 cards}, "went_out"}]``.
"""
from __future__ import annotations

import dataclasses

from typing import Any, Callable

from referee.games.base import MODES, UNKNOWN, ImpossibleState, InvalidSetup, Problems
from referee.games.gnoming.judge import HOLDING_PHASES, face_down_count
from referee.games.common.card_sets import all_in
from referee.games.gnoming.rules import (
                                         CARD_NAMES, DECK_SIZE, HAZARD, POSITIONS, SIZE, is_card, is_position, is_positive, over_deck)
from referee.games.gnoming.scoring import check_round, player_count_problem
from referee.games.gnoming.setup import round_starter
from referee.games.gnoming.snapshot_turn import check_turn_record

PHASES = ("setup", "draw", *HOLDING_PHASES, "restart", "hazard", "reveal", "over")
STATE_KEYS = ("game", "mode", "players", "options", "seed", "round", "starter", "phase",
              "layouts", "draw_pile", "discard_piles", "removed", "flips_due", "turn",
              "went_out", "final_turns", "reshuffles", "history")
CARD_OR_UNKNOWN = CARD_NAMES | {UNKNOWN}
DIGITAL_CELLS = frozenset((card, up) for card in CARD_NAMES for up in (True, False))
TABLE_CELLS = frozenset({(card, True) for card in CARD_NAMES} | {(UNKNOWN, False)})
TURN_KEYS = ("player", "holding", "source", "pile", "filled", "replaced_face_down",
             "mulligans_at_start")


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def check_snapshot(state: Any, resolve_options: Callable[[Any], dict]) -> None:
    """Raise :class:`ImpossibleState` listing what makes ``state`` unreachable in a legal game
    (wrong types, cards not of the deck or more than it holds, 110 cards not accounted for,
    a phase its fields contradict...).  ``resolve_options`` is the engine's option check."""
    problems = Problems()
    if not isinstance(state, dict):
        problems.flag('GN-S1', "gnoming.snapshot.not_object", 'state')
        problems.raise_as(ImpossibleState)
    _check_header(state, resolve_options, problems)
    problems.raise_as(ImpossibleState)
    _check_cards(state, problems)
    problems.raise_as(ImpossibleState)
    _check_turn(state, problems)
    problems.raise_as(ImpossibleState)
    _check_phase(state, problems)
    problems.raise_as(ImpossibleState)
    check_turn_record(state, problems)
    problems.raise_as(ImpossibleState)


def _check_header(state: dict, resolve_options: Callable, problems: Problems) -> None:
    """Types of the top-level fields, players, options, round and starter."""
    for key in sorted(set(STATE_KEYS) ^ set(state), key=str):
        code = "gnoming.snapshot.field_missing" if key in STATE_KEYS else "gnoming.snapshot.field_unknown"
        problems.flag("GN-S1", code, f"state.{key}", key=key)
    if state.get("game") != "gnoming":
        problems.flag('GN-S1', "gnoming.snapshot.game", 'state.game')
    if state.get("mode") not in MODES:
        problems.flag('GN-X1', "gnoming.snapshot.mode", 'state.mode')
    players = state.get("players")
    if (not isinstance(players, list) or not all(isinstance(p, str) and p for p in players)
            or len(set(players)) != len(players)):
        problems.flag('GN-C2', "gnoming.snapshot.players", 'state.players')
        return
    if not isinstance(state.get("options"), dict):
        problems.flag('GN-C3', "gnoming.snapshot.options", 'state.options')
        return
    try:
        options = resolve_options(state["options"])
    except InvalidSetup as exc:
        problems.items += [dataclasses.replace(v, field=f"state.{v.field}")
                           for v in exc.violations]
        return
    if set(state["options"]) != set(options):
        problems.flag('GN-C3', "gnoming.snapshot.options_keys", 'state.options')
        return
    count = player_count_problem(len(players), options["allow_two_players"])
    if count:
        problems.flag("GN-C2", count[0], "state.players", **count[1])
        return
    seed = state.get("seed")
    if not (isinstance(seed, str) or _is_int(seed) and seed >= 0):
        problems.flag('GN-S1', "gnoming.snapshot.seed", 'state.seed')
    rnd = state.get("round")
    if not _is_int(rnd) or not 1 <= rnd <= options["rounds"]:
        problems.flag('GN-C3', "gnoming.snapshot.round", 'state.round', rounds=options['rounds'])
    elif options["first_player"] is not None and options["first_player"] not in players:
        problems.flag('GN-S3', "gnoming.snapshot.first_player", 'state.options')
    elif state.get("starter") != round_starter(players, options, rnd):
        problems.flag('GN-S3', "gnoming.snapshot.starter", 'state.starter', rnd=rnd, expected=round_starter(players, options, rnd), starter=repr(state.get('starter')))
    if state.get("phase") not in PHASES:
        problems.flag('GN-T1', "gnoming.snapshot.phase", 'state.phase', phases=', '.join(PHASES))
    for key, kind in (("layouts", dict), ("draw_pile", list), ("discard_piles", list),
                      ("removed", list), ("flips_due", dict), ("turn", dict),
                      ("final_turns", list), ("history", list)):
        if not isinstance(state.get(key), kind):
            code = "gnoming.snapshot.not_an_object" if kind is dict else "gnoming.snapshot.not_a_list"
            problems.flag("GN-S1", code, f"state.{key}", key=key)
    if not _is_int(state.get("reshuffles")) or state["reshuffles"] < 0:
        problems.flag('GN-D5', "gnoming.snapshot.reshuffles", 'state.reshuffles')


def _check_cards(state: dict, problems: Problems) -> None:
    """Layout shapes and cards, piles, removed Hazards, the 110 cards of GN-C1, history."""
    players, table = state["players"], state["mode"] == "table"
    layouts = state["layouts"]
    if set(layouts) != set(players):
        problems.flag('GN-S1', "gnoming.snapshot.layouts", 'state.layouts')
        return
    cards: list[str] = []
    for p in players:
        grid, where = layouts[p], f"state.layouts.{p}"
        if not (isinstance(grid, list) and len(grid) == SIZE
                and all(isinstance(row, list) and len(row) == SIZE for row in grid)):
            problems.flag('GN-S1', "gnoming.snapshot.layout_shape", where, at=where)
            continue
        valid = TABLE_CELLS if table else DIGITAL_CELLS
        for r, c in POSITIONS:
            cell = grid[r][c]
            if type(cell) is dict and len(cell) == 2 and type(cell.get("up")) is bool \
                    and type(cell.get("card")) is str and (cell["card"], cell["up"]) in valid:
                cards.append(cell["card"])  # the usual case, checked quickly
                continue
            problem = _cell_problem(cell, table)
            at = f"{where}[{r}][{c}]"
            problems.flag(problem[0], problem[1], at, at=at, **problem[2])
    cards += _card_list(state["draw_pile"], "state.draw_pile", table, problems)
    if table and HAZARD in state["draw_pile"]:  # known cards there came off the discard piles
        problems.flag('GN-D2', "gnoming.snapshot.hazard_in_draw_pile", 'state.draw_pile')
    piles = state["discard_piles"]
    if len(piles) != 2 or not all(isinstance(pile, list) for pile in piles):
        problems.flag('GN-S1', "gnoming.snapshot.discard_piles", 'state.discard_piles')
    else:
        for i, pile in enumerate(piles):
            cards += _card_list(pile, f"state.discard_piles[{i}]", False, problems)
            if HAZARD in pile:
                problems.flag('GN-D2', "gnoming.snapshot.hazard_on_pile", f'state.discard_piles[{i}]')
    if any(card != HAZARD for card in state["removed"]):
        problems.flag('GN-D2', "gnoming.snapshot.removed", 'state.removed')
    cards += [card for card in state["removed"] if card == HAZARD]
    if set(state["turn"]) != set(TURN_KEYS):  # before counting the card it may hold
        problems.flag('GN-T1', "gnoming.snapshot.turn_keys", 'state.turn', turn_keys=', '.join(TURN_KEYS))
        return
    holding = state["turn"]["holding"]
    if holding is not None:
        cards += _card_list([holding], "state.turn.holding", False, problems)
    if problems:
        return
    for extra in over_deck(cards):
        problems.flag('GN-C1', "gnoming.snapshot.over_deck", 'state', **extra)
    if len(cards) != DECK_SIZE:
        problems.flag('GN-C1', "gnoming.snapshot.card_total", 'state', count=len(cards), deck_size=DECK_SIZE)
    history = state["history"]
    expected = state["round"] if state["phase"] == "over" else state["round"] - 1
    if len(history) != expected:  # GN-C3: no record of a history this long is read
        problems.flag('GN-C3', "gnoming.snapshot.history_length", 'state.history', expected=expected)
        return
    options = {**state["options"]}
    for i, record in enumerate(history):
        where = f"state.history[{i}]"
        if not isinstance(record, dict) or set(record) != {"layouts", "went_out"}:
            problems.flag('GN-C3', "gnoming.snapshot.history_round", where, at=where)
            continue
        got = check_round(record, where, options, problems)
        if got and set(got) != set(players):
            problems.flag('GN-C3', "gnoming.snapshot.history_players", where, at=where)


def _cell_problem(cell: Any, table: bool) -> tuple[str, str, dict[str, str]]:
    """``(rule, code, params)`` of the message saying why a layout cell is not ``{"card", "up"}`` with a card that
    may lie there (``"unknown"`` only face down in table mode, where every face-down card is)."""
    if not (type(cell) is dict and len(cell) == 2 and "card" in cell and "up" in cell
            and type(cell["up"]) is bool):
        return ("GN-S1", "gnoming.snapshot.cell.shape", {})
    card = cell["card"]
    if card == UNKNOWN:
        return ("GN-X1", "gnoming.snapshot.cell.unknown", {})
    if not is_card(card):
        return ("GN-C1", "gnoming.snapshot.cell.not_a_card", {"entered": repr(card)})
    return ("GN-X1", "gnoming.snapshot.cell.known", {})


def _card_list(cards: list, where: str, unknown_ok: bool, problems: Problems) -> list[str]:
    """The entries of ``cards`` that are cards (or ``"unknown"`` where allowed)."""
    allowed = CARD_OR_UNKNOWN if unknown_ok else CARD_NAMES
    if all_in(allowed, cards):  # the usual case, one set test
        return cards
    good = [card for card in cards if type(card) is str and card in allowed]
    if len(good) != len(cards):
        for i, card in enumerate(cards):
            if not (type(card) is str and card in allowed):
                problems.flag('GN-C1', "gnoming.snapshot.not_a_card", f'{where}[{i}]', at=where, i=i, entered=repr(card))
    return good


def _check_turn(state: dict, problems: Problems) -> None:
    """Types of ``turn``, ``flips_due``, ``went_out``, ``final_turns``."""
    players, turn = state["players"], state["turn"]
    if set(turn) != set(TURN_KEYS):
        problems.flag('GN-T1', "gnoming.snapshot.turn_keys", 'state.turn', turn_keys=', '.join(TURN_KEYS))
        return
    if turn["player"] not in players:
        problems.flag('GN-S3', "gnoming.snapshot.turn_player", 'state.turn.player')
    if turn["source"] not in (None, "draw_pile", "discard") or turn["pile"] not in (None, 0, 1) \
            or isinstance(turn["pile"], bool):
        problems.flag('GN-T1', "gnoming.snapshot.turn_source", 'state.turn')
    if not isinstance(turn["filled"], list) or not all(is_position(p) for p in turn["filled"]) \
            or len({tuple(p) for p in turn["filled"]}) != len(turn["filled"]):
        problems.flag('GN-B1', "gnoming.snapshot.filled", 'state.turn.filled')
    if not isinstance(turn["replaced_face_down"], bool):
        problems.flag('GN-B1', "gnoming.snapshot.replaced_face_down", 'state.turn.replaced_face_down')
    if not _is_int(turn["mulligans_at_start"]) or not 0 <= turn["mulligans_at_start"] <= 3:
        problems.flag('GN-M1', "gnoming.snapshot.mulligans_at_start", 'state.turn.mulligans_at_start')
    due = state["flips_due"]
    if set(due) != set(players) or not all(_is_int(n) and 0 <= n <= 2 for n in due.values()):
        problems.flag('GN-S2', "gnoming.snapshot.flips_due", 'state.flips_due')
    went_out, final = state.get("went_out"), state["final_turns"]
    if went_out is not None and went_out not in players:
        problems.flag('GN-E1', "gnoming.snapshot.went_out", 'state.went_out')
    if not all(isinstance(p, str) and p in players and p != went_out for p in final) \
            or len(set(final)) != len(final) or (final and went_out is None):
        problems.flag('GN-E1', "gnoming.snapshot.final_turns", 'state.final_turns')


def _check_phase(state: dict, problems: Problems) -> None:
    """What the phase says against the other fields."""
    phase, turn, players = state["phase"], state["turn"], state["players"]
    layouts, table = state["layouts"], state["mode"] == "table"
    down = {p: face_down_count(layouts[p]) for p in players}
    up = {p: SIZE * SIZE - down[p] for p in players}
    due, piles = state["flips_due"], state["discard_piles"]
    holding = turn["holding"]
    if (holding is None) == (phase in HOLDING_PHASES):
        code = "gnoming.snapshot.holding_none" if holding is None else "gnoming.snapshot.holding_card"
        problems.flag("GN-T1", code, "state.turn.holding", phase=phase)
    if phase == "play" and turn["filled"] or phase in ("bounce", "discard") and not turn["filled"]:
        problems.flag('GN-B1', "gnoming.snapshot.filled_phase", 'state.turn.filled', phase=phase)
    if phase in ("restart",) and (not table or all(piles)):
        problems.flag('GN-D4', "gnoming.snapshot.restart_phase", 'state.phase')
    if phase in ("draw", "hazard") and not all(piles):
        problems.flag('GN-D4', "gnoming.snapshot.empty_pile", 'state.discard_piles')
    if phase == "setup":
        if state["went_out"] is not None or turn["player"] != state["starter"]:
            problems.flag('GN-S2', "gnoming.snapshot.setup_turn", 'state.turn')
        for p in players:
            if up[p] != 2 - due[p]:
                problems.flag('GN-S2', "gnoming.snapshot.setup_flips_owed", f'state.layouts.{p}', player=p, up=up[p], due=due[p])
        if not table and not all(piles):
            problems.flag('GN-S1', "gnoming.snapshot.setup_piles", 'state.discard_piles')
        return
    for p in players:
        if up[p] < 2:
            problems.flag('GN-S2', "gnoming.snapshot.setup_flips_done", f'state.layouts.{p}', player=p, up=up[p])
    if phase == "hazard":
        if not any(due.values()) or any(n > 1 or n and down[p] < 2 for p, n in due.items()):
            problems.flag('GN-D1', "gnoming.snapshot.hazard_flips", 'state.flips_due')
    elif any(due.values()) and phase != "restart":
        problems.flag('GN-D1', "gnoming.snapshot.flips_not_owed", 'state.flips_due', phase=phase)
    went_out = state["went_out"]
    if went_out is not None and down[went_out]:
        problems.flag('GN-E1', "gnoming.snapshot.went_out_face_down", 'state.went_out', went_out=went_out)
    if went_out is not None and phase == "draw" and (
            turn["player"] == went_out or state["final_turns"][:1] != [turn["player"]]):
        problems.flag('GN-E1', "gnoming.snapshot.final_turns_order", 'state.turn.player', went_out=went_out)
    if went_out is None and phase not in ("reveal", "over"):
        # GN-E1 is noted at the end of the turn: only the turn's player, mid-turn, may be out
        mid_turn = {turn["player"]} if phase in HOLDING_PHASES + ("restart",) else set()
        if {p for p in players if not down[p]} - mid_turn:
            problems.flag('GN-E1', "gnoming.snapshot.out_unnoticed", 'state.went_out')
    if phase == "reveal" and (not table or not any(down.values())):
        problems.flag('GN-E2', "gnoming.snapshot.reveal_phase", 'state.phase')
    if phase == "over" and any(down.values()):
        problems.flag('GN-E2', "gnoming.snapshot.over_face_down", 'state.layouts')
    if phase == "bounce" and not is_positive(holding):
        problems.flag('GN-B1', "gnoming.snapshot.bounce_not_positive", 'state.turn.holding')
