"""The turn's action: income, foreign aid, coup, tax, assassinate, steal, exchange, examine
(COUP-T1, T2, A1–A9).  Costs are paid when the action is declared (flow step 1)."""
from __future__ import annotations

from typing import Any

from referee.games.base import Problems, event
from referee.games.coup.apply import ACTION_CHALLENGE, OPEN_BLOCK, RESOLVE, advance, living
from referee.games.coup.rules import (ACTION_RULES, COSTS, FORCED_COUP_COINS, INQUISITOR,
                                      TARGETED, blocking_characters, claimed_character)


def check_declare(state: dict[str, Any], action: dict[str, Any], problems: Problems) -> None:
    """Add the rules a declared action breaks: not your turn (T1), a forced coup (T2), too few
    coins (A3, A5), a bad target (A9), an empty target of a steal (A6), examine without the
    Inquisitor (B2)."""
    player, kind = action["player"], action["type"]
    actor = state["turn"]["player"]
    rule = ACTION_RULES[kind]
    if player != actor:
        problems.flag("COUP-T1", "coup.declare.not_your_turn", "action.player", actor=actor,
                      player=player, action=kind)
        return
    coins = state["coins"][player]
    if coins >= FORCED_COUP_COINS and kind != "coup":
        problems.flag("COUP-T2", "coup.declare.must_coup", "action.type", player=player,
                      coins=coins, action=kind)
    if kind == "examine" and state["options"]["exchanger"] != INQUISITOR:
        problems.flag("COUP-B2", "coup.declare.examine_without_inquisitor", "action.type")
    if kind in COSTS and coins < COSTS[kind]:
        problems.flag(rule, "coup.declare.too_few_coins", "action.type", action=kind,
                      cost=COSTS[kind], player=player, coins=coins)
    if kind in TARGETED:
        target = action["target"]
        if target not in state["players"]:
            problems.flag("COUP-A9", "coup.target.not_a_player", "action.target",
                          target=repr(target))
        elif target == player:
            problems.flag("COUP-A9", "coup.target.self", "action.target", player=player)
        elif not state["hands"][target]:
            problems.flag("COUP-A9", "coup.target.out", "action.target", target=target)
        elif (kind == "steal" and state["coins"][target] == 0
              and not state["options"]["steal_from_empty"]):
            problems.flag("COUP-A6", "coup.target.no_coins", "action.target", target=target)


def play_declare(state: dict[str, Any], action: dict[str, Any], events: list) -> None:
    """Declare the action: pay its cost (A3, A5), then open the challenge window if it claims
    a character (C1), else the block window (A2) or resolve it (A1, A3)."""
    player, kind = action["player"], action["type"]
    turn = state["turn"]
    cost = COSTS.get(kind, 0)
    state["coins"][player] -= cost
    state["treasury"] += cost
    turn["action"] = {"type": kind}
    if kind in TARGETED:
        turn["action"]["target"] = action["target"]
    exchanger = state["options"]["exchanger"]
    claim = claimed_character(kind, exchanger)
    events.append(event("action_declared", player=player, action=dict(turn["action"]),
                        claim=claim, cost=cost))
    if claim is not None:
        turn["stage"] = ACTION_CHALLENGE
    elif blocking_characters(kind, exchanger):
        turn["stage"] = OPEN_BLOCK
    else:
        turn["stage"] = RESOLVE
    advance(state, events)


def legal_declare(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Every action the player to move may declare (T1, T2, A1–A9)."""
    player = state["turn"]["player"]
    coins = state["coins"][player]
    targets = [p for p in living(state) if p != player]
    if coins >= FORCED_COUP_COINS:
        return [{"type": "coup", "player": player, "target": t} for t in targets]
    out = [{"type": kind, "player": player}
           for kind in ("income", "foreign_aid", "tax", "exchange")]
    targeted = []
    if coins >= COSTS["coup"]:
        targeted.append("coup")
    if coins >= COSTS["assassinate"]:
        targeted.append("assassinate")
    targeted.append("steal")
    if state["options"]["exchanger"] == INQUISITOR:
        targeted.append("examine")
    for kind in targeted:
        for target in targets:
            if (kind == "steal" and state["coins"][target] == 0
                    and not state["options"]["steal_from_empty"]):
                continue
            out.append({"type": kind, "player": player, "target": target})
    return out
