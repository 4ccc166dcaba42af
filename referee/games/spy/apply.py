"""Applying a judged Spy action, and what follows it: the working copy ``apply`` changes, turning
round and moving the Spy (SPY-M1…M4, SPY-C3), spying and its answer (SPY-P1, SPY-P2), and the
end of the turn (SPY-T1, SPY-S3, SPY-E1, SPY-E2).

Every function here changes the (already copied) state in place and returns events; the caller
has judged the action (``judge.py``).
"""
from __future__ import annotations

from typing import Any

from referee.games.base import event
from referee.games.common.jsoncopy import json_copy
from referee.games.common.seats import next_seat
from referee.games.common.vocabulary import dispatch
from referee.games.spy.answers import faced_position, resolve_answer, spied_position, true_answer
from referee.games.spy.judge import remaining
from referee.games.spy.positions import moved_gap, turned_round
from referee.games.spy.rules import base_cards, movement_table
from referee.games.spy.table import narrowed, steps_allow
from referee.games.spy.vocabulary import VOCABULARY


def working_copy(state: dict[str, Any]) -> dict[str, Any]:
    """The copy ``apply`` changes: every container new but the log's past events, which are
    shared (never modified, only appended to), and each base's lists of candidates, shared
    too: a base's ``candidates`` is only ever replaced as a whole (``narrowed``), never
    changed in place."""
    new = {key: _bases_copy(value) if key == "bases" else json_copy(value)
           for key, value in state.items() if key != "log"}
    new["log"] = list(state["log"])
    return new


def _bases_copy(bases: dict[str, Any]) -> dict[str, Any]:
    return {name: {k: list(v) if k == "candidates" else json_copy(v) for k, v in base.items()}
            for name, base in bases.items()}


def play(new: dict[str, Any], action: dict[str, Any]) -> list[dict]:
    """Apply a legal ``action`` to ``new`` (a :func:`working_copy`) in place; return the
    events."""
    events = PLAYS[action["type"]](new, action["player"], action)
    new["log"].extend(dict(e) for e in events if "visible_to" not in e)
    return events


def _play_turn_round(new: dict[str, Any], player: str, action: dict) -> list[dict]:
    """SPY-M4: the Spy faces the other way."""
    base = new["bases"][player]
    base["facing"] = turned_round(base["facing"])
    new["turn"]["done"].append("turn_round")
    return [event("turn_round", player=player, facing=base["facing"])]


def _play_move(new: dict[str, Any], player: str, action: dict) -> list[dict]:
    events = [_move(new, player, action["steps"])]
    new["turn"]["done"].append("move")
    return events


def _play_answer(new: dict[str, Any], player: str, action: dict) -> list[dict]:
    """The defender's answer to the pending spy (SPY-P2, R2–R6), which ends the turn."""
    turn = new["turn"]
    pending, turn["pending"] = turn["pending"], None
    events = resolve_answer(new, pending["attacker"], player, pending["position"],
                            action["answer"], action.get("card"))
    return events + pass_turn(new)


PLAYS = dispatch(VOCABULARY, {
    "turn_round": _play_turn_round, "move": _play_move, "answer": _play_answer,
    "spy": lambda new, player, action: _spy(new, player, action["target"]),
    "end_turn": lambda new, player, action: pass_turn(new)})


def _move(state: dict[str, Any], player: str, steps: int) -> dict[str, Any]:
    """Move the Spy exactly ``steps`` the way it faces (SPY-M1, M3); record the declared number
    of a hidden card and what it tells about the card (SPY-C3)."""
    base = state["bases"][player]
    size, position, start = len(base["cards"]), faced_position(base), base["spy_gap"]
    if position not in base["exposed"]:
        base["declared"][position] = steps
        numbers = movement_table(state["mode"], state["options"].get("card_moves"))
        if numbers:
            base["candidates"] = narrowed(base, position, steps_allow(steps, numbers),
                                          base_cards(len(state["players"])))
    base["spy_gap"] = moved_gap(start, base["facing"], steps, size)
    return event("move", player=player, steps=steps, facing=base["facing"], from_gap=start,
                 spy_gap=base["spy_gap"], faced=position)


def _spy(state: dict[str, Any], attacker: str, defender: str) -> list[dict[str, Any]]:
    """Spy on ``defender`` (SPY-P1): the engine answers in digital mode; table mode waits."""
    position = spied_position(state, attacker)
    state["turn"]["done"].append("spy")
    events = [event("spy", player=attacker, target=defender, position=position)]
    if state["mode"] == "table":
        state["turn"]["pending"] = {"attacker": attacker, "defender": defender,
                                    "position": position}
        return events
    answer, card = true_answer(state["bases"][defender], position)
    events += resolve_answer(state, attacker, defender, position, answer, card)
    return events + pass_turn(state)


def pass_turn(state: dict[str, Any]) -> list[dict[str, Any]]:
    """End the turn: the next player still in takes it (SPY-S3 seat order, SPY-E1), or the
    last player left wins (SPY-E2)."""
    left = remaining(state)
    if len(left) == 1:
        state["winner"], state["turn"] = left[0], None
        return [event("game_over", winner=left[0], rule="SPY-E2")]
    player = next_seat(state["players"], state["turn"]["player"], state["eliminated"])
    state["turn"] = {"player": player, "done": [], "pending": None}
    return [event("turn", player=player)]
