"""Scoring a played hand of All Fours: High, Low, Jack, Game and renege penalties.

Pure functions over what a hand leaves behind: who was dealt which card (``dealt``), the
completed tricks (each ``{"leader", "cards", "players", "winner"}``) and the reneges proven;
and :func:`award` / :func:`end_game`, which score points into a (copied) state in place and end
the game when a side has won (AF-S6, AF-I1).
Rule IDs refer to ``shared/rules/allfours.md``.
"""
from __future__ import annotations

from typing import Any, Sequence

from referee.games.allfours.rules import game_points, side_of
from referee.games.base import event
from referee.games.common.cards import PACK, rank_of, rank_value, suit_of

_CARD_POINTS = {card: game_points(card) for card in PACK}
"""AF-S4's card points of each card of the pack, looked up once per card of a trick."""

# The order points count in (AF-S6).
AWARD_ORDER = ("kick", "give_one", "high", "low", "jack", "game", "renege")


def trump_holders(dealt: dict[str, list[str]], trump: str) -> list[tuple[str, str]]:
    """Every trump dealt to a player, as ``(card, player)``, lowest first."""
    found = [(c, p) for p, cards in dealt.items() for c in cards if suit_of(c) == trump]
    return sorted(found, key=lambda cp: rank_value(cp[0]))


def capturer(tricks: Sequence[dict], card: str) -> str | None:
    """The player who won the trick ``card`` was played to, or ``None`` if it was not played."""
    for trick in tricks:
        if card in trick["cards"]:
            return trick["winner"]
    return None


def game_totals(tricks: Sequence[dict], sides: dict[str, list[str]]) -> dict[str, int]:
    """Card points per side from the tricks each side won (AF-S4)."""
    totals = {name: 0 for name in sides}
    for trick in tricks:
        cards = trick["cards"]
        try:
            points = sum(map(_CARD_POINTS.__getitem__, cards))
        except (KeyError, TypeError):  # not a card code: game_points says what it is worth
            points = sum(game_points(c) for c in cards)
        totals[side_of(sides, trick["winner"])] += points
    return totals


def hand_awards(*, dealt: dict[str, list[str]], tricks: Sequence[dict], trump: str,
                sides: dict[str, list[str]], dealer: str, options: dict[str, Any],
                reneges: Sequence[dict]) -> dict[str, Any]:
    """Work out the end-of-hand awards, in the order of AF-S6 (High, Low, Jack, Game, renege).

    Returns ``{"awards": [(kind, side, points)...], "high", "low", "jack", "game"}`` where
    ``high``/``low`` are ``{"card", "player"}`` or ``None`` (AF-S1, AF-S2, AF-S5), ``jack`` is
    ``{"player", "won_by", "points", "hanged"}`` or ``None`` (AF-S3), and ``game`` is
    ``{"totals", "side"}`` (AF-S4, with AF-I1's bar on a reneging side).  Kick and give-one
    points are scored when they happen, not here.
    """
    awards: list[tuple[str, str, int]] = []
    trumps = trump_holders(dealt, trump)
    high = low = jack = None
    if trumps:  # AF-S5: no trump dealt, only Game is scored
        high_card, high_player = trumps[-1]
        low_card, low_player = trumps[0]
        high = {"card": high_card, "player": high_player}
        low = {"card": low_card, "player": low_player}
        awards.append(("high", side_of(sides, high_player), 1))  # AF-S1
        low_side = side_of(sides, low_player)  # AF-S2 default: who was dealt it
        if options.get("low") == "taker":
            low_side = side_of(sides, capturer(tricks, low_card))
        awards.append(("low", low_side, 1))
        jack = _jack(trumps, tricks, sides, options)
        if jack:
            jack_side = side_of(sides, jack["won_by"]) if jack["hanged"] else \
                side_of(sides, jack["player"])
            awards.append(("jack", jack_side, jack["points"]))
    game = _game(tricks, sides, dealer, options, reneges)
    if game["side"] is not None:
        awards.append(("game", game["side"], options.get("game_value", 1)))
    for renege in reneges:  # AF-I1: each proven renege gives the other side 1, after Game
        if not renege.get("loses_game"):
            for name in sides:
                if name != renege["side"]:
                    awards.append(("renege", name, 1))
    return {"awards": awards, "high": high, "low": low, "jack": jack, "game": game}


def _jack(trumps, tricks, sides, options) -> dict[str, Any] | None:
    """AF-S3: the holder's side scores 1 unless an opponent captures it (hang jack)."""
    holder = next((p for c, p in trumps if rank_of(c) == "J"), None)
    if holder is None:
        return None
    card = next(c for c, p in trumps if rank_of(c) == "J")
    won_by = capturer(tricks, card)
    if won_by is None:  # cannot happen in a complete hand: every dealt card is played (AF-P1)
        return None
    hanged = side_of(sides, won_by) != side_of(sides, holder)
    points = options.get("hang_jack", 3) if hanged else 1
    return {"player": holder, "won_by": won_by, "points": points, "hanged": hanged}


def _game(tricks, sides, dealer, options, reneges) -> dict[str, Any]:
    """AF-S4 with its tie option, and AF-I1: a reneging side cannot score Game."""
    totals = game_totals(tricks, sides)
    best = max(totals.values())
    leaders = [name for name, total in totals.items() if total == best]
    if len(leaders) == 1:
        side = leaders[0]
    else:
        tie = options.get("game_tie", "none")
        dealer_side = side_of(sides, dealer)
        if tie == "dealer":
            side = dealer_side
        elif tie == "non_dealer":
            side = next(name for name in sides if name != dealer_side)
        else:
            side = None
    if side is not None and any(r["side"] == side for r in reneges):
        side = None  # [decision] Game goes to nobody
    return {"totals": totals, "side": side}


def sheet_awards(awards: Sequence[tuple[str, str, int]]) -> list[dict[str, Any]]:
    """``hand_awards``' ``(kind, side, points)`` awards as a score sheet line writes them
    (AF-S6): ``{"award", "side", "points"}`` each, in their order."""
    return [{"award": kind, "side": side, "points": points} for kind, side, points in awards]


def add_points(score: dict[str, int], points: dict[str, int], side: str, amount: int,
               target: int) -> bool:
    """Add ``amount`` to ``side`` in both the match ``score`` and the hand's ``points``;
    return True when that side has now reached ``target`` (AF-S6)."""
    score[side] += amount
    points[side] += amount
    return score[side] >= target


def award(state: dict[str, Any], kind: str, side: str, points: int) -> list[dict]:
    """Score ``points`` to ``side``; end the game when the target is reached (AF-S6)."""
    if state["phase"] == "game_over":
        return []
    reached = add_points(state["score"], state["hand_points"], side, points,
                         state["options"]["target"])
    events = [event("points", award=kind, side=side, points=points,
                    score=dict(state["score"]))]
    if reached:
        events += end_game(state, side, "allfours.game_over.target",
                           side=side, target_points=state["options"]["target"])
    return events


def end_game(state: dict[str, Any], winner: str, code: str, **params: Any) -> list[dict]:
    """Finish the game: side ``winner`` has won (AF-S6 or AF-I1).  The ``game_over`` event's
    ``reason`` is a message ``{"code", "params"}`` (``allfours.game_over.*``), rendered in the
    reader's language at the edge (:func:`referee.i18n.answers.localize_event`)."""
    state["winner"] = winner
    state["phase"] = "game_over"
    return [event("game_over", winner=winner, reason={"code": code, "params": params})]
