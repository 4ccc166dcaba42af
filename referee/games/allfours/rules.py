"""All Fours (Trinidad) facts and the play predicates, each named for the rule it states.

Rule IDs refer to ``shared/rules/allfours.md``.
"""
from __future__ import annotations

from typing import Any, Iterable, Sequence

from referee.games.common.cards import PACK, rank_of, rank_value, suit_of

HAND_SIZE = 6  # AF-D3
RUN_SIZE = 3  # AF-B3: each run of the pack adds 3 cards to every hand
KICK_POINTS = {"A": 1, "6": 2, "J": 3}  # AF-K1
GAME_POINTS = {"A": 4, "K": 3, "Q": 2, "J": 1, "10": 10}  # AF-S4
HONOURS = ("A", "K", "Q", "J", "10")  # AF-I1: holding one of these when failing a trump lead


def kick_points(card: str) -> int:
    """Points the dealer's side scores at once for kicking ``card`` (AF-K1)."""
    return KICK_POINTS.get(rank_of(card), 0)


def game_points(card: str) -> int:
    """Card points counted for Game (AF-S4): A 4, K 3, Q 2, J 1, 10 ten, others 0."""
    return GAME_POINTS.get(rank_of(card), 0)


def side_of(sides: dict[str, list[str]], player: str) -> str:
    """Name of the side ``player`` belongs to."""
    for name, members in sides.items():
        if player in members:
            return name
    raise KeyError(player)


def default_sides(players: Sequence[str]) -> dict[str, list[str]]:
    """Sides when none are given: with 4 players ``A`` (seats 0 and 2) and ``B`` (1 and 3);
    with 2 each player is a side (AF-D1, cases README)."""
    if len(players) == 4:
        return {"A": [players[0], players[2]], "B": [players[1], players[3]]}
    return {p: [p] for p in players}


def player_right_of(players: Sequence[str], player: str) -> str:
    """The player on ``player``'s right, i.e. next in play order (AF-D2, AF-B1)."""
    return players[(players.index(player) + 1) % len(players)]


def max_runs(player_count: int) -> int:
    """How many times the pack can be run before it is exhausted (AF-B3): 52 cards, 6 each
    dealt, a kick, then 3 each plus a kick per run — 2 with four players, 5 with two."""
    left = 52 - HAND_SIZE * player_count - 1
    return left // (RUN_SIZE * player_count + 1)


MAX_HAND = HAND_SIZE + RUN_SIZE * max_runs(2)
"""The most cards a hand can hold, so the most tricks a hand can have (AF-B3: 21, two players
running the pack five times)."""


_RANK = {card: rank_value(card) for card in PACK}
"""Rank order of each card (A high, AF-D1), looked up once per card played."""


def trick_winner_index(cards: Sequence[str], trump: str) -> int:
    """Index in ``cards`` (play order) of the card winning the trick (AF-P5): the highest trump,
    otherwise the highest card of the suit led."""
    led = cards[0][-1]
    best, best_key = 0, (-1, -1)
    for i, card in enumerate(cards):
        suit = card[-1]
        key = (2 if suit == trump else 1 if suit == led else 0, _RANK.get(card, -1))
        if key > best_key:
            best, best_key = i, key
    return best


def follow_violation(hand: Iterable[str], trick: Sequence[str], card: str, trump: str,
                     undertrump: bool) -> str | None:
    """The rule ``card`` breaks when played to ``trick`` (cards so far) from a hand known to hold
    ``hand`` (which includes ``card``), or ``None`` when the play is legal.

    AF-P2: to a trump lead, a player holding trump must play trump.
    AF-P3: to another lead, a player holding the suit led must follow or trump.
    AF-P4: with ``undertrump`` false, no trump lower than one already in a trick led in another
    suit, unless the hand holds only trumps.
    """
    if not trick:
        return None
    hand = list(hand)
    led = suit_of(trick[0])
    suit = suit_of(card)
    if led == trump:
        if suit != trump and any(suit_of(c) == trump for c in hand):
            return "AF-P2"
        return None
    if suit not in (led, trump) and any(suit_of(c) == led for c in hand):
        return "AF-P3"
    if not undertrump and is_undertrump(trick, card, trump):
        if any(suit_of(c) != trump for c in hand):
            return "AF-P4"
    return None


def is_undertrump(trick: Sequence[str], card: str, trump: str) -> bool:
    """True when ``card`` is a trump lower than a trump already in ``trick``, which was led in
    another suit (AF-P4)."""
    if not trick or suit_of(trick[0]) == trump or suit_of(card) != trump:
        return False
    return any(suit_of(c) == trump and rank_value(c) > rank_value(card) for c in trick)


def next_to_play(state: dict[str, Any]) -> str:
    """The player whose turn it is in the current trick (AF-P1: the leader, then in order)."""
    trick = state["trick"]
    players = state["players"]
    return players[(players.index(trick["leader"]) + len(trick["cards"])) % len(players)]
