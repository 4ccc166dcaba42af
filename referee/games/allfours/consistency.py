"""Does a submitted All Fours snapshot hang together?  The flow checks of ``check_snapshot``.

``snapshot.py`` checks the cards; this module checks everything a tampered snapshot could
otherwise slip past the referee: the score against the target and the winner (AF-S6), the
phase against the begging outcome and the kicks (AF-B1…B3, AF-K1), the points of the hand so
far, who led each trick (AF-P1, AF-P5), and the table-mode renege record (AF-I1).  Each
problem names its field.
"""
from __future__ import annotations

from typing import Any

from referee.games.allfours.rules import (kick_points, player_right_of, side_of,
                                          trick_winner_index)
from referee.games.allfours.table import track_reneges
from referee.games.base import Problems
from referee.games.common.cards import suit_of


def check_flow(state: dict[str, Any], problems: Problems) -> None:
    """Add every inconsistency of the score, phase, kicks, leaders and reneges."""
    _score(state, problems)
    _phase(state, problems)
    if state["kicks"] and state["phase"] != "deal":  # a deal phase follows a void hand
        _kicks(state, problems)
        _leaders(state, problems)
    _reneges(state, problems)


def _score(state, problems: Problems) -> None:
    target, score, winner = state["options"]["target"], state["score"], state["winner"]
    sides = state["sides"]
    for side in sides:
        if state["hand_points"][side] > score[side]:
            problems.flag("AF-S6", "allfours.snapshot.hand_above_game",
                          f"state.hand_points.{side}", side=side,
                          hand=state["hand_points"][side], game=score[side])
    if state["hand_number"] == 1 and state["redeals"] == 0 and score != state["hand_points"]:
        problems.flag("AF-S6", "allfours.snapshot.first_hand_score", "state.score")
    if (state["phase"] == "game_over") != (winner is not None):
        problems.flag("AF-S6", "allfours.snapshot.winner_vs_phase", "state.winner")
    if winner is not None and winner not in sides:
        problems.flag("AF-S6", "allfours.snapshot.winner_not_a_side", "state.winner",
                      value=repr(winner))
        return
    if winner is None:
        for side in sides:
            if score[side] >= target:
                problems.flag("AF-S6", "allfours.snapshot.target_reached",
                              f"state.score.{side}", side=side, points=score[side],
                              target=target)
        return
    lost = any(isinstance(r, dict) and r.get("loses_game") and r.get("side") != winner
               for r in state["reneges"])
    if score[winner] < target and not lost:
        problems.flag("AF-S6", "allfours.snapshot.winner_short", "state.winner", side=winner,
                      points=score[winner], target=target)


def _phase(state, problems: Problems) -> None:
    phase, beg, players = state["phase"], state["beg"], state["players"]
    expected_beg = {"beg": (None,), "answer": ("begged",),
                    "play": ("stand", "give_one", "run_pack")}.get(phase)
    if expected_beg is not None and beg not in expected_beg:
        problems.flag("AF-B1", "allfours.snapshot.beg_vs_phase", "state.beg", phase=phase,
                      value=repr(beg))
    if phase in ("deal", "hand_over") and state["next_dealer"] not in players:
        problems.flag("AF-D2", "allfours.snapshot.next_dealer_missing", "state.next_dealer",
                      phase=phase)
    if phase == "hand_over":
        if state["next_dealer"] != player_right_of(players, state["dealer"]):
            problems.flag("AF-D2", "allfours.snapshot.next_dealer_right", "state.next_dealer")
        if any(state["hands"][p] for p in players):
            problems.flag("AF-P1", "allfours.snapshot.hand_not_played_out", "state.hands")
    if phase in ("beg", "answer") and (state["tricks"] or state["trick"]["cards"]):
        problems.flag("AF-B1", "allfours.snapshot.played_before_begging", "state.tricks")
    if phase in ("beg", "answer", "play"):
        expected = _hand_points_so_far(state)
        if state["hand_points"] != expected:
            problems.flag("AF-K1", "allfours.snapshot.hand_points_so_far", "state.hand_points",
                          expected=expected, got=state["hand_points"])


def _hand_points_so_far(state) -> dict[str, int]:
    """Kick points to the dealer's side (AF-K1) and the given point to the beggar's (AF-B2)."""
    points = {side: 0 for side in state["sides"]}
    points[side_of(state["sides"], state["dealer"])] += sum(kick_points(k)
                                                            for k in state["kicks"])
    if state["beg"] == "give_one":
        beggar = player_right_of(state["players"], state["dealer"])
        points[side_of(state["sides"], beggar)] += 1
    return points


def _kicks(state, problems: Problems) -> None:
    kicks, beg = state["kicks"], state["beg"]
    if beg in (None, "begged", "stand", "give_one") and len(kicks) != 1:
        problems.flag("AF-B3", "allfours.snapshot.one_kick", "state.kicks", value=repr(beg),
                      count=len(kicks))
    if beg == "run_pack":
        first = suit_of(kicks[0])
        # a game can end on a kick's points in the middle of the run (AF-S6)
        new_suit = suit_of(kicks[-1]) != first or state["phase"] == "game_over"
        if len(kicks) < 2 or not new_suit or any(suit_of(k) != first for k in kicks[1:-1]):
            problems.flag("AF-B3", "allfours.snapshot.run_kicks", "state.kicks")


def _leaders(state, problems: Problems) -> None:
    players, trump = state["players"], state["trump"]
    leader = player_right_of(players, state["dealer"])
    for i, trick in enumerate(state["tricks"] + [state["trick"]]):
        where = f"state.tricks[{i}]" if i < len(state["tricks"]) else "state.trick"
        if trick["leader"] != leader:
            problems.flag("AF-P1", "allfours.snapshot.leader", where + ".leader", leader=leader)
            return
        start = players.index(leader)
        order = [players[(start + j) % len(players)] for j in range(len(players))]
        if trick.get("players", []) != order[:len(trick["cards"])]:
            problems.flag("AF-P1", "allfours.snapshot.turn_order", where + ".players")
            return
        if len(trick["cards"]) == len(players):
            leader = order[trick_winner_index(trick["cards"], trump)]


def _reneges(state, problems: Problems) -> None:
    """The renege record must be exactly what the cards played imply (AF-I1): digital mode
    refuses every failure to follow before it happens, so it has none; in table mode the claims
    and reneges are worked out again from the tricks and compared."""
    claims: list[dict] = []
    reneges: list[dict] = []
    if state["mode"] == "table" and state["kicks"] and state["phase"] != "deal":
        sides, trump = state["sides"], state["trump"]
        undertrump = state["options"]["undertrump"]
        for number, trick in enumerate(state["tricks"] + [state["trick"]], start=1):
            for i, (player, card) in enumerate(zip(trick["players"], trick["cards"])):
                track_reneges(claims, reneges, sides, trick["cards"][:i], player, card, trump,
                              undertrump, number)
    if state["claims"] != claims:
        problems.flag("AF-I1", "allfours.snapshot.claims", "state.claims")
    if state["reneges"] != reneges:
        problems.flag("AF-I1", "allfours.snapshot.reneges", "state.reneges")
