"""Judging a turn of Spy: who may act, the rules an action breaks, and the legal actions
(SPY-T1, SPY-M1…M4, SPY-P1, SPY-P2, SPY-E1, SPY-E2).  What a judged action changes is
``apply.py``'s.

A turn is, in this order and each at most once, ``turn_round``, ``move``, ``turn_round``,
``spy``; ``spy`` or ``end_turn`` ends it (SPY-T1).  In table mode a ``spy`` waits for the
defender's ``answer``, which ends the turn.
"""
from __future__ import annotations

from typing import Any

from referee.games.base import Violation, violation
from referee.games.common.vocabulary import check_shape
from referee.games.spy.answers import answer_violations, faced_position, legal_answers
from referee.games.spy.rules import EXPOSED_CARD_STEPS, base_cards, movement_table, short_repr
from referee.games.spy.table import stays_consistent, steps_allow
from referee.games.spy.vocabulary import VOCABULARY

TURN_ORDER = ("turn_round", "move", "turn_round", "spy")  # SPY-T1
ACTION_FIELDS = {spec.type: tuple(spec.fields) for spec in VOCABULARY.actions}
"""Each action type and its fields besides ``type`` and ``player`` (``vocabulary.py``)."""


def slots_used(done: list[str]) -> int | None:
    """Return how many slots of :data:`TURN_ORDER` the actions ``done`` this turn used, each
    action taking the earliest free slot of its kind; ``None`` if ``done`` breaks the order."""
    used = 0
    for kind in done:
        slot = next_slot(used, kind)
        if slot is None:
            return None
        used = slot + 1
    return used


def next_slot(used: int, kind: str) -> int | None:
    """Return the slot of TURN_ORDER an action ``kind`` takes after ``used`` slots, or None."""
    for slot in range(used, len(TURN_ORDER)):
        if TURN_ORDER[slot] == kind:
            return slot
    return None


def remaining(state: dict[str, Any]) -> list[str]:
    """Return the players still in the game, in seat order (SPY-E1)."""
    return [p for p in state["players"] if p not in state["eliminated"]]


def to_move(state: dict[str, Any]) -> list[str]:
    """Return who may act: the defender owing an answer, else the player whose turn it is."""
    turn = state["turn"]
    if state["winner"] is not None or turn is None:
        return []
    return [turn["pending"]["defender"] if turn["pending"] else turn["player"]]


# --- violations -----------------------------------------------------------------------------
def action_violations(state: dict[str, Any], action: Any) -> list[Violation]:
    """Return every rule ``action`` breaks in (checked) ``state``; empty when legal."""
    found = check_shape(VOCABULARY, action, state["players"])  # SPY-T1, SPY-S1
    if any(v.field in ("action", "action.type", "action.player") for v in found):
        return found  # an unknown field does not stop the rules; a wrong type or sender does
    kind, player = action["type"], action["player"]
    if state["winner"] is not None:
        return found + [violation("SPY-E2", "spy.action.game_over", "action.type",
                                  winner=state["winner"])]
    if player in state["eliminated"]:
        return found + [violation("SPY-E1", "spy.action.eliminated", "action.player",
                                  player=player)]
    return found + _turn_violations(state, kind, player, action)


def not_a_player(state: dict[str, Any], who: Any, where: str) -> Violation:
    """SPY-S1: ``who`` is not one of the players (an action's player, a viewer)."""
    return violation("SPY-S1", "spy.player.unknown", where, given=short_repr(who),
                     players=", ".join(state["players"]))


def _turn_violations(state: dict[str, Any], kind: str, player: str,
                     action: dict[str, Any]) -> list[Violation]:
    turn = state["turn"]
    pending = turn["pending"]
    if kind == "answer":
        if pending is None:
            code = ("spy.answer.digital" if state["mode"] == "digital"
                    else "spy.answer.none_pending")
            return [violation("SPY-P2", code, "action.type", player=player)]
        if player != pending["defender"]:
            return [violation("SPY-P2", "spy.answer.not_defender", "action.player",
                              defender=pending["defender"])]
        return answer_violations(state, player, pending["position"], action.get("answer"),
                                 action.get("card"))
    if pending is not None:
        return [violation("SPY-P2", "spy.turn.answer_pending", "action.type",
                          attacker=pending["attacker"], defender=pending["defender"])]
    if player != turn["player"]:  # a target nobody may spy on is named first (issue 13)
        target = _target_violations(state, player, action.get("target")) \
            if kind == "spy" else _steps_shape(action.get("steps")) if kind == "move" else []
        return target + [violation("SPY-P2", "spy.turn.not_yours", "action.player",
                                   turn=turn["player"], player=player)]
    found = _order_violations(turn["done"], kind, player)
    if found:  # an action not allowed now: its fields are beside the point
        return found
    if kind == "move":
        return move_violations(state, player, action.get("steps"))
    if kind == "spy":
        return _target_violations(state, player, action.get("target"))
    return []


def in_turn_order(done: list[str], kind: str) -> bool:
    """Whether an action ``kind`` may follow the actions ``done`` this turn (SPY-T1 order,
    SPY-P2 each at most once, SPY-M4 turning round): :func:`_order_violations` finds none."""
    return not _order_violations(done, kind, "")


def _order_violations(done: list[str], kind: str, player: str) -> list[Violation]:
    """SPY-T1 order, SPY-P2 a second move or spy, SPY-M4 turning round during a move, twice
    in a row (no move between) or a third time."""
    if kind == "end_turn":
        return []
    if kind in done and kind != "turn_round":
        found = [violation("SPY-P2", "spy.turn.second", "action.type", player=player,
                           kind=kind)]
        if kind == "move" and done[-1] == "turn_round":
            found.append(violation("SPY-M4", "spy.turn.round_mid_move", "action.type"))
        return found
    if kind == "turn_round" and done and done[-1] == "turn_round" and "move" not in done:
        # SPY-M4: turned round before or after the move; twice in a row is neither
        return [violation("SPY-M4", "spy.turn.round_again", "action.type", player=player)]
    if next_slot(slots_used(done) or 0, kind) is None:
        if kind == "turn_round":  # the rule that allows turning round limits it (SPY-M4)
            return [violation("SPY-M4", "spy.turn.round_twice", "action.type")]
        return [violation("SPY-T1", "spy.turn.order", "action.type", kind=kind,
                          last=done[-1])]
    return []


def move_violations(state: dict[str, Any], player: str, steps: Any) -> list[Violation]:
    """Why ``player``'s Spy may not move ``steps`` spaces (SPY-M1, SPY-M2, SPY-C3)."""
    shape = _steps_shape(steps)
    if shape:
        return shape
    base = state["bases"][player]
    position = faced_position(base)
    where = {"player": player, "position": position, "steps": steps}
    if position in base["exposed"]:
        if steps in EXPOSED_CARD_STEPS:
            return []
        return [violation("SPY-M2", "spy.move.exposed", "action.steps", **where)]
    numbers = movement_table(state["mode"], state["options"].get("card_moves"))
    card = base["cards"][position]
    if state["mode"] == "digital":
        if steps == numbers[card]:
            return []
        return [violation("SPY-M1", "spy.move.exact", "action.steps", card=card,
                          number=numbers[card], **where)]
    declared = base["declared"][position]
    if declared is not None and declared != steps:
        return [violation("SPY-C3", "spy.move.declared_before", "action.steps",
                          declared=declared, **where)]
    deck = base_cards(len(state["players"]))
    if numbers and not stays_consistent(base, position, steps_allow(steps, numbers), deck):
        return [violation("SPY-M1", "spy.move.no_card", "action.steps", **where)]
    return []


def _steps_shape(steps: Any) -> list[Violation]:
    """SPY-M1: ``steps`` is a whole number of at least 1 (whoever sends it)."""
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
        return [violation("SPY-M1", "spy.move.steps_shape", "action.steps",
                          given=short_repr(steps))]
    return []


def _target_violations(state: dict[str, Any], player: str, target: Any) -> list[Violation]:
    """SPY-P1 name an opponent; SPY-P2/E1 never yourself or an eliminated player."""
    if not isinstance(target, str) or target not in state["players"]:
        return [violation("SPY-P1", "spy.spy.unknown_target", "action.target",
                          given=short_repr(target))]
    if target == player:
        return [violation("SPY-P2", "spy.spy.self", "action.target", player=player)]
    if target in state["eliminated"]:
        return [violation("SPY-P2", "spy.spy.eliminated_target", "action.target",
                          target=target)]
    return []


# --- legal actions --------------------------------------------------------------------------
def legal_turn_actions(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Return every legal action now (the pending answers, or the turn player's actions)."""
    turn = state["turn"]
    if state["winner"] is not None or turn is None:
        return []
    if turn["pending"]:
        return legal_answers(state)
    player, done = turn["player"], turn["done"]
    used = slots_used(done) or 0
    out = []
    if not _order_violations(done, "turn_round", player):
        out.append({"type": "turn_round", "player": player})
    if "move" not in done and next_slot(used, "move") is not None:
        size = len(state["bases"][player]["cards"])
        numbers = movement_table(state["mode"], state["options"].get("card_moves"))
        for steps in range(1, max([size, *numbers.values()]) + 1):
            if not move_violations(state, player, steps):
                out.append({"type": "move", "player": player, "steps": steps})
    out += [{"type": "spy", "player": player, "target": t} for t in remaining(state)
            if t != player]
    out.append({"type": "end_turn", "player": player})
    return out
