"""Table mode's knowledge of All Fours hands: what a play claims about an unknown hand, and the
renege a later card proves (AF-I1).

In table mode hands are (partly) ``"unknown"``: a play that the known cards cannot refute is
accepted and what it implies is kept as a *claim* in ``state["claims"]`` ("holds no heart since
trick 5"); a later card that contradicts a claim proves a renege, kept in ``state["reneges"]``.
Digital mode never calls this module (every hand is known, so ``judge.py`` refuses the card).
``consistency.py`` replays :func:`track_reneges` to check a submitted snapshot's record.
"""
from __future__ import annotations

from typing import Any

from referee.games.allfours.rules import HONOURS, is_undertrump, side_of
from referee.games.allfours.scoring import end_game
from referee.games.base import event
from referee.games.common.cards import rank_of, suit_of


def record_claims(state: dict[str, Any], player: str, card: str) -> list[dict]:
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
