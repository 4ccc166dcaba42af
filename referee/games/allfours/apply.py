"""Playing cards to tricks, proving reneges, and the end of a hand (AF-P*, AF-I1, AF-S*).

In digital mode every hand is known, so a card that breaks AF-P2/P3/P4 is refused before it is
played and no renege can happen.  In table mode hands are (partly) ``"unknown"``: a play that
the known cards cannot refute is accepted and what it implies is kept as a *claim* ("holds no
heart since trick 5"); a later card that contradicts a claim proves a renege (AF-I1).
"""
from __future__ import annotations

from typing import Any

from referee.games.allfours.setup import award, end_game
from referee.games.allfours.rules import (HONOURS, is_undertrump, player_right_of, side_of,
                                          trick_winner_index)
from referee.games.allfours.scoring import hand_awards
from referee.games.base import UNKNOWN, event
from referee.games.common.cards import rank_of, suit_of


def next_to_play(state: dict[str, Any]) -> str:
    """The player whose turn it is in the current trick (AF-P1: the leader, then in order)."""
    trick = state["trick"]
    players = state["players"]
    return players[(players.index(trick["leader"]) + len(trick["cards"])) % len(players)]


def play_card(state: dict[str, Any], player: str, card: str, called_by: str | None = None
              ) -> list[dict]:
    """Play ``card`` from ``player``'s hand (or exposed cards) to the current trick; complete
    the trick and the hand when due.  The caller has checked legality."""
    trick = state["trick"]
    events = []
    if state["mode"] == "table":
        events += _record_claims(state, player, card)
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
    side reaches the target; then the deal passes to the right (AF-D2)."""
    result = hand_awards(dealt=state["dealt"], tricks=state["tricks"], trump=state["trump"],
                         sides=state["sides"], dealer=state["dealer"],
                         options=state["options"], reneges=state["reneges"])
    events = []
    for kind, side, points in result["awards"]:
        events += award(state, kind, side, points)
        if state["phase"] == "game_over":
            break
    state["last_hand"] = {k: result[k] for k in ("high", "low", "jack", "game")}
    state["last_hand"].update(points=dict(state["hand_points"]), reneges=state["reneges"])
    events.append(event("hand_scored", **state["last_hand"]))
    if state["phase"] != "game_over":
        state["phase"] = "hand_over"
        state["next_dealer"] = player_right_of(state["players"], state["dealer"])
        state["hand_number"] += 1
        state["redeals"] = 0
    return events


def _record_claims(state: dict[str, Any], player: str, card: str) -> list[dict]:
    """Table mode: prove the earlier claims ``card`` contradicts (AF-I1) — a game-losing
    renege ends the game at once — then record what this play claims about the hand."""
    trick_no = len(state["tricks"]) + 1
    events = []
    for renege, upgraded in track_reneges(state["claims"], state["reneges"], state["sides"],
                                          state["trick"]["cards"], player, card,
                                          state["trump"], state["options"]["undertrump"],
                                          trick_no):
        if not upgraded:
            events.append(event("renege", **{k: v for k, v in renege.items() if k != "claim"}))
        if renege["loses_game"] and state["phase"] != "game_over":
            other = next(s for s in state["sides"] if s != renege["side"])
            events += end_game(state, other, "allfours.game_over.renege", player=player,
                               trick=renege["trick"], card=card)
    return events


def track_reneges(claims: list[dict], reneges: list[dict], sides: dict[str, list[str]],
                  trick: list[str], player: str, card: str, trump: str, undertrump: bool,
                  trick_no: int) -> list[tuple[dict, bool]]:
    """Update ``claims`` and ``reneges`` (in place) for ``player`` playing ``card`` to
    ``trick`` (the cards before it) in trick ``trick_no``; return the reneges this card proves
    or makes game-losing, each with ``True`` when it was already known (an upgrade).

    A renege cites ``rule`` AF-I1 (what the objecting player quotes: the failure is proven by
    this card, and the penalty follows) and ``broke``, the rule failed in that trick (AF-P2,
    AF-P3 or AF-P4).

    A claim is what a play implies about the hand: no card of the suit led (AF-P2/P3), or only
    trumps when undertrumping (AF-P4).  A later card that contradicts it proves a renege; if
    the claim was a failure to follow a trump lead and the card is the A, K, Q, J or 10 of
    trumps, the renege loses the game (AF-I1).
    """
    proven = []
    for claim in claims:
        if claim["player"] != player or not _contradicts(claim, card, trump):
            continue
        honour = claim["trump_lead"] and rank_of(card) in HONOURS
        renege = next((r for r in reneges if r["claim"] == claim["id"]), None)
        if renege is None:
            renege = {"player": player, "side": side_of(sides, player),
                      "trick": claim["trick"], "rule": "AF-I1", "broke": claim["rule"],
                      "proven_by": card,
                      "proven_at": trick_no, "loses_game": honour, "claim": claim["id"]}
            reneges.append(renege)
            proven.append((renege, False))
        elif honour and not renege["loses_game"]:
            renege["loses_game"] = True
            proven.append((renege, True))
    if trick:
        led = suit_of(trick[0])
        if suit_of(card) not in (led, trump):
            _claim(claims, player, trick_no, "no_suit", led, led == trump,
                   "AF-P2" if led == trump else "AF-P3")
        elif not undertrump and is_undertrump(trick, card, trump):
            _claim(claims, player, trick_no, "only_trumps", trump, False, "AF-P4")
    return proven


def _claim(claims, player, trick_no, kind, suit, trump_lead, rule) -> None:
    claims.append({"id": len(claims) + 1, "player": player, "trick": trick_no, "kind": kind,
                   "suit": suit, "trump_lead": trump_lead, "rule": rule})


def _contradicts(claim: dict[str, Any], card: str, trump: str) -> bool:
    if claim["kind"] == "no_suit":
        return suit_of(card) == claim["suit"]
    return suit_of(card) != trump  # only_trumps
