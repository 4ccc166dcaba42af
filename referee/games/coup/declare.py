"""The turn's action: income, foreign aid, coup, tax, assassinate, steal, exchange, examine
(COUP-T1, T2, A1–A9).  Costs are paid when the action is declared (flow step 1)."""
from __future__ import annotations

from typing import Any

from referee.games.base import Problems, event
from referee.games.coup.cards import (ACTION_RULES, COSTS, FORCED_COUP_COINS, INQUISITOR,
                                      TARGETED, blocking_characters, claimed_character)
from referee.games.coup.flow import ACTION_CHALLENGE, OPEN_BLOCK, RESOLVE, advance, living


def check_declare(state: dict[str, Any], action: dict[str, Any], problems: Problems) -> None:
    """Add the rules a declared action breaks: not your turn (T1), a forced coup (T2), too few
    coins (A3, A5), a bad target (A9), an empty target of a steal (A6), examine without the
    Inquisitor (B2)."""
    player, kind = action["player"], action["type"]
    actor = state["turn"]["player"]
    rule = ACTION_RULES[kind]
    if player != actor:
        problems.add("COUP-T1", f"It is {actor}'s turn: {player} cannot declare {kind}.",
                     "action.player")
        return
    coins = state["coins"][player]
    if coins >= FORCED_COUP_COINS and kind != "coup":
        problems.add("COUP-T2", f"{player} began the turn with {coins} coins and must coup; "
                     f"{kind} is not allowed.", "action.type")
    if kind == "examine" and state["options"]["exchanger"] != INQUISITOR:
        problems.add("COUP-B2", "examine is the Inquisitor's power and this game uses the "
                     "Ambassador.", "action.type")
    if kind in COSTS and coins < COSTS[kind]:
        problems.add(rule, f"{kind} costs {COSTS[kind]} coins; {player} has {coins}.",
                     "action.type")
    if kind in TARGETED:
        target = action["target"]
        if target not in state["players"]:
            problems.add("COUP-A9", f"The target {target!r} is not a player of this game.",
                         "action.target")
        elif target == player:
            problems.add("COUP-A9", f"{player} cannot target themselves.", "action.target")
        elif not state["hands"][target]:
            problems.add("COUP-A9", f"{target} is out of the game and cannot be targeted.",
                         "action.target")
        elif (kind == "steal" and state["coins"][target] == 0
              and not state["options"]["steal_from_empty"]):
            problems.add("COUP-A6", f"{target} has no coins to steal.", "action.target")


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
