"""What a match view's envelope says of an All Fours game (issue 22): the phase, what the game
waits for, the running score per side with the last hand's High, Low, Jack and Game, and the
outcome (AF-S6: first side to the target; AF-I1: a game-losing renege).

Everything here is public: the score, the kicks' and begs' points, and the last hand's awards
(shown once the hand is scored, as ``last_hand`` is in every view).
"""
from __future__ import annotations

from typing import Any

from referee.games.allfours.rules import side_of
from referee.games.allfours.scoring import capturer
from referee.games.common.summary import OVER, message, outcome, score, summary


def summarize(state: dict[str, Any], to_move: list[str]) -> dict[str, Any]:
    """``{"phase", "awaiting", "score", "outcome"}`` of ``state`` (see
    :meth:`referee.games.base.Engine.summary`); ``to_move`` is the engine's ``to_move``."""
    over = state["phase"] == "game_over"
    return summary(phase=OVER if over else state["phase"],
                   awaiting=_awaiting(state, to_move), score=_score(state),
                   outcome=_outcome(state) if over else None)


def _awaiting(state: dict[str, Any], to_move: list[str]) -> dict[str, Any]:
    """What the game waits for (AF-D2 deal, AF-B1 stand or beg, AF-B2 answer, AF-P1 play)."""
    phase = state["phase"]
    if phase == "game_over":
        return message("allfours.now.over", side=state["winner"])
    player = to_move[0]
    if phase in ("deal", "hand_over"):
        return message("allfours.now.deal", player=player)
    if phase in ("beg", "answer"):
        return message(f"allfours.now.{phase}", player=player)
    trick = len(state["tricks"]) + 1
    kind = "play" if state["trick"]["cards"] else "lead"
    return message(f"allfours.now.{kind}", player=player, trick=trick)


def _score(state: dict[str, Any]) -> dict[str, Any]:
    """Per side: the match totals toward the target (AF-S6), this hand's points so far (kick,
    give one), the last scored hand's awards, each with the side that won it, and the score
    sheet: ``hands``, one line per scored hand (``{"hand", "awards": [{"award", "side",
    "points"}], "points", "score", "deal_points"}``, AF-S1…S4, AF-I1; :func:`_sheet`)."""
    return score(by="side", sides=state["sides"], totals=state["score"], wins_by="target",
                 target=state["options"]["target"], still_in=state["players"],
                 breakdown={"hand_number": state["hand_number"],
                            "hand": dict(state["hand_points"]),
                            "last_hand": _last_hand(state),
                            "hands": _sheet(state)})


def _sheet(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The score sheet (the state's ``scored_hands``), each line with ``deal_points``: the
    points of the hand not from its awards, scored at the deal and the beg (the kicks of
    every deal of it, AF-K1, AF-B3, AF-B4, and a give one, AF-B2), per side."""
    out = []
    for line in state.get("scored_hands") or []:
        awarded = dict.fromkeys(line["points"], 0)
        for item in line["awards"]:
            awarded[item["side"]] += item["points"]
        out.append({**line, "deal_points": {side: line["points"][side] - awarded[side]
                                            for side in awarded}})
    return out


def _last_hand(state: dict[str, Any]) -> dict[str, Any] | None:
    """The last scored hand: High (AF-S1), Low (AF-S2), Jack (AF-S3), Game (AF-S4), each with
    its ``side``, the hand's ``points`` per side and its ``reneges`` (AF-I1); ``None`` before
    the first hand is scored."""
    last = state["last_hand"]
    if last is None:
        return None
    sides = state["sides"]
    high, low, jack = last["high"], last["low"], last["jack"]
    return {
        "high": None if high is None else {**high, "side": side_of(sides, high["player"])},
        "low": None if low is None else {**low, "side": _low_side(state, low)},
        "jack": None if jack is None else {**jack, "side": side_of(
            sides, jack["won_by"] if jack["hanged"] else jack["player"])},
        "game": dict(last["game"]), "points": dict(last["points"]),
        "reneges": len(last["reneges"])}


def _low_side(state: dict[str, Any], low: dict[str, Any]) -> str | None:
    """The side Low went to (AF-S2): the side dealt it, or with ``options.low`` ``taker`` the
    side that won its trick — known while the scored hand's tricks are on the table (every card
    played, until the next deal), else ``None``."""
    if state["options"]["low"] != "taker":
        return side_of(state["sides"], low["player"])
    scored_tricks = (state["phase"] in ("hand_over", "game_over") and not state["trick"]["cards"]
                     and not any(state["hands"].values()))
    taker = capturer(state["tricks"], low["card"]) if scored_tricks else None
    return None if taker is None else side_of(state["sides"], taker)


def _outcome(state: dict[str, Any]) -> dict[str, Any]:
    """The winning side and why: a game-losing renege by the other side (AF-I1: the honour
    that proved it is the last card played) or the target reached (AF-S6)."""
    winner = state["winner"]
    lost = next((r for r in state["reneges"] if r["loses_game"] and r["side"] != winner), None)
    if lost is not None:
        played = state["trick"]["cards"]
        reason = message("allfours.game_over.renege", player=lost["player"],
                         trick=lost["trick"], card=played[-1] if played else lost["proven_by"])
    else:
        reason = message("allfours.game_over.target", side=winner,
                         target_points=state["options"]["target"])
    return outcome(state["sides"][winner], [winner], reason)
