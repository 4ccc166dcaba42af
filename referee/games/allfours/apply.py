"""Applying a judged All Fours action, and what follows it: a card to the trick, the trick
complete, the end of the hand and its scoring (AF-B*, AF-P*, AF-I2, AF-S*).

Functions here take a state the caller already copied and change it in place, returning events.
:func:`play` applies every action; dealing, the kick and running the pack are ``setup.py``'s.
In digital mode every hand is known, so a card that breaks AF-P2/P3/P4 was refused by
``judge.py`` and no renege can happen; in table mode each play first goes through
``table.record_claims`` (AF-I1).
"""
from __future__ import annotations

from typing import Any

from referee.games.allfours import setup
from referee.games.allfours.rules import (next_to_play, player_right_of, side_of,
                                          trick_winner_index)
from referee.games.allfours.scoring import award, hand_awards, sheet_awards
from referee.games.allfours.table import record_claims
from referee.games.base import UNKNOWN, event


def play(state: dict[str, Any], action: dict[str, Any]) -> list[dict]:
    """Apply a legal ``action`` to ``state`` (the caller's working copy) in place; return the
    events (AF-D*, AF-B*, AF-P*, AF-I2)."""
    kind, player = action["type"], action["player"]
    if kind == "deal":
        return setup.start_hand(state, player, kick=action.get("kick"))
    if kind == "stand":
        state.update(beg="stand", phase="play")
        return [event("stand", player=player)]
    if kind == "beg":
        state.update(beg="begged", phase="answer")
        return [event("beg", player=player)]
    if kind == "give_one":
        state.update(beg="give_one", phase="play")
        beggar = player_right_of(state["players"], state["dealer"])
        events = [event("give_one", player=player)]
        return events + award(state, "give_one", side_of(state["sides"], beggar), 1)
    if kind == "run_pack":
        return setup.run_the_pack(state, action.get("kicks"))
    if kind == "misdeal":  # AF-I2
        other = next(s for s in state["sides"] if s != side_of(state["sides"],
                                                               state["dealer"]))
        events = [event("misdeal", player=player)] + award(state, "misdeal", other, 1)
        if state["phase"] != "game_over":  # the same dealer deals again
            state.update(phase="deal", next_dealer=state["dealer"],
                         redeals=state["redeals"] + 1)
        return events
    if kind == "expose":
        hand = state["hands"][player]
        hand.remove(action["card"] if action["card"] in hand else UNKNOWN)
        state["exposed"][player].append(action["card"])
        return [event("expose", player=player, card=action["card"])]
    if kind == "call":
        owner = next_to_play(state)
        return play_card(state, owner, action["card"], called_by=player)
    return play_card(state, player, action["card"])


def play_card(state: dict[str, Any], player: str, card: str, called_by: str | None = None
              ) -> list[dict]:
    """Play ``card`` from ``player``'s hand (or exposed cards) to the current trick; complete
    the trick and the hand when due.  The caller has checked legality."""
    trick = state["trick"]
    events = []
    if state["mode"] == "table":
        events += record_claims(state, player, card)
    if card in state["exposed"][player]:  # it left the hand when it was exposed (AF-P6)
        state["exposed"][player].remove(card)
    else:
        hand = state["hands"][player]
        hand.remove(card if card in hand else UNKNOWN)
    if state["mode"] == "table":
        state["dealt"][player].append(card)
    trick["cards"].append(card)
    trick["players"].append(player)
    events.append(event("play", player=player, card=card, trick=len(state["tricks"]) + 1,
                        **({"called_by": called_by} if called_by else {})))
    if state["phase"] == "game_over":
        return events
    if len(trick["cards"]) == len(state["players"]):
        events += _complete_trick(state)
    return events


def _complete_trick(state: dict[str, Any]) -> list[dict]:
    trick = state["trick"]
    winner = trick["players"][trick_winner_index(trick["cards"], state["trump"])]
    done = {**trick, "winner": winner}
    state["tricks"].append(done)
    state["trick"] = {"leader": winner, "cards": [], "players": []}
    events = [event("trick", number=len(state["tricks"]), winner=winner, cards=done["cards"])]
    if not any(state["hands"][p] for p in state["players"]):
        events += end_hand(state)
    return events


def end_hand(state: dict[str, Any]) -> list[dict]:
    """Score High, Low, Jack, Game and renege penalties in the order of AF-S6, stopping when a
    side reaches the target; then the deal passes to the right (AF-D2).  The hand's line of the
    score sheet is added to ``scored_hands`` (:func:`sheet_line`)."""
    result = hand_awards(dealt=state["dealt"], tricks=state["tricks"], trump=state["trump"],
                         sides=state["sides"], dealer=state["dealer"],
                         options=state["options"], reneges=state["reneges"])
    events, given = [], 0
    for kind, side, points in result["awards"]:
        events += award(state, kind, side, points)
        given += 1
        if state["phase"] == "game_over":
            break
    state["last_hand"] = {k: result[k] for k in ("high", "low", "jack", "game")}
    state["last_hand"].update(points=dict(state["hand_points"]), reneges=state["reneges"])
    events.append(event("hand_scored", **state["last_hand"]))
    state["scored_hands"] = [*state.get("scored_hands", []),
                             sheet_line(state, sheet_awards(result["awards"][:given]))]
    if state["phase"] != "game_over":
        state["phase"] = "hand_over"
        state["next_dealer"] = player_right_of(state["players"], state["dealer"])
        state["hand_number"] += 1
        state["redeals"] = 0
    return events


def sheet_line(state: dict[str, Any], awards: list[dict[str, Any]]) -> dict[str, Any]:
    """The score sheet's line of the hand just scored: ``{"hand", "awards", "points",
    "score"}``: its number, ``awards`` (``{"award", "side", "points"}`` in AF-S6's order,
    those scored before a side reached the target), the points the hand gave each side (the
    kicks of every deal of it included, AF-K1 and AF-B4, and a give one, AF-B2) and the match
    score after it.  The points are the score's rise since the line before; a sheet begun
    from a snapshot kept without one counts this deal's points (``hand_points``)."""
    lines, number, score = state.get("scored_hands") or [], state["hand_number"], state["score"]
    if lines and lines[-1]["hand"] == number - 1:
        before = lines[-1]["score"]
    elif number == 1:
        before = {side: 0 for side in score}
    else:
        before = {side: score[side] - state["hand_points"][side] for side in score}
    return {"hand": number, "awards": awards,
            "points": {side: score[side] - before[side] for side in score},
            "score": dict(score)}
