"""Starting a game of Coup: players, options, the seeded deal or an entered one (COUP-S1–S8).

Setup body (see ``shared/rules/coup.md`` "Setup body")::

    {"players": [...], "options": {...}, "mode": "digital"|"table", "deal"?: {...}}

3–8 players deal ``{"hands": {player: [2 cards]}, "court": [cards, top first]}``; 2 players
deal ``{"hands": {player: [1 card]}, "piles": {player: [5 cards]}, "court": [3 cards]}`` and
each player then sends ``choose_card`` (COUP-S5).  Without a deal the service shuffles with
``common.shuffle`` (purpose ``"deal"``); in table mode without a deal every face-down card is
``"unknown"``.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from referee.games.base import MODES, REFEREE, UNKNOWN, InvalidSetup, Problems, violation
from referee.games.common.shuffle import shuffled
from referee.games.coup.apply import new_turn
from referee.games.coup.rules import (HAND_SIZE, HOST, START_COINS, TREASURY_VALUE,
                                      characters_in_game, copies_per_character, full_deck,
                                      is_card_name)
from referee.games.coup.table import empty_knowledge

MIN_PLAYERS, MAX_PLAYERS = 2, 8


def setup_game(body: dict[str, Any], options: dict[str, Any], seed: int | str) -> dict:
    """Return the initial state for a setup ``body`` with resolved ``options`` (COUP-S1–S8).

    Raises :class:`InvalidSetup` naming the field: player count or names (S1), first player
    (S8), mode, or an entered deal that is not the game's cards (S2, S3, S4, S5).
    """
    problems = Problems()
    players = _players(body.get("players"), problems)
    mode = body.get("mode", "digital")
    if mode not in MODES:
        problems.flag("COUP-X1", "coup.setup.bad_mode", "mode", modes=', '.join(MODES),
                      mode=repr(mode))
    if not isinstance(seed, (int, str)) or isinstance(seed, bool):
        problems.flag("COUP-S4", "coup.setup.bad_seed", "seed")
    problems.raise_as(InvalidSetup)
    first = options["first_player"] if options["first_player"] is not None else players[0]
    if first not in players:
        problems.flag("COUP-S8", "coup.setup.first_player_unknown", "options.first_player",
                      first=repr(first))
    problems.raise_as(InvalidSetup)
    if body.get("deal") is None:
        hands, court, piles = _shuffled_deal(players, options["exchanger"], mode, seed)
    else:
        hands, court, piles = _entered_deal(body["deal"], players, options["exchanger"], mode)
    coins = {p: START_COINS for p in players}
    if len(players) == 2 and options["two_player_first_coin"]:
        coins[first] = 1  # COUP-S6 variant
    return {
        "game": "coup", "mode": mode, "seed": seed, "options": dict(options),
        "players": players, "coins": coins, "treasury": TREASURY_VALUE - sum(coins.values()),
        "hands": hands, "revealed": {p: [] for p in players}, "court": court,
        "piles": piles, "shuffles": 0,
        "turn": new_turn(first, 1, "choose_card" if len(players) == 2 else "declare"),
        "loss": None, "winner": None, "last_turn": None,
        "knowledge": empty_knowledge(players, mode), "disputes": [],
    }


def _players(players: Any, problems: Problems) -> list[str]:
    """Check COUP-S1: 2 to 8 distinct names (``"host"`` is reserved for COUP-W1, the
    referee's viewer id for COUP-V1: a seat of that name would be shown every card)."""
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        problems.flag("COUP-S1", "coup.setup.players_not_names", "players")
        return []
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        problems.flag("COUP-S1", "coup.setup.player_count", "players", count=len(players))
    if len(set(players)) != len(players):
        problems.flag("COUP-S1", "coup.setup.players_not_unique", "players")
    if HOST in players:
        problems.flag("COUP-W1", "coup.setup.host_reserved", "players", host=repr(HOST))
    if REFEREE in players:
        problems.flag("COUP-V1", "coup.setup.referee_reserved", "players", referee=repr(REFEREE))
    return players


def _shuffled_deal(players: list[str], exchanger: str, mode: str, seed: int | str):
    """Deal from the seeded shuffle (COUP-S4, S5); table mode knows no face-down card."""
    n = len(players)
    if n == 2:  # COUP-S5: one pile of one copy each is shuffled and dealt; two are chosen from
        pile = list(characters_in_game(exchanger))
        dealt = shuffled(pile, seed, "deal") if mode == "digital" else [UNKNOWN] * len(pile)
        hands = {p: [dealt[i]] for i, p in enumerate(players)}
        return hands, dealt[n:], {p: list(pile) for p in players}
    deck = full_deck(exchanger, n)
    deck = shuffled(deck, seed, "deal") if mode == "digital" else [UNKNOWN] * len(deck)
    hands = {p: [deck[i + k * n] for k in range(HAND_SIZE)] for i, p in enumerate(players)}
    return hands, deck[HAND_SIZE * n:], {}


def _entered_deal(deal: Any, players: list[str], exchanger: str, mode: str):
    """Check an entered deal against COUP-S2–S5 and return ``(hands, court, piles)``."""
    problems = Problems()
    two = len(players) == 2
    if not isinstance(deal, dict):
        raise InvalidSetup(violation("COUP-S4", "coup.setup.deal_not_object", "deal"))
    allowed = {"hands", "court", "piles"} if two else {"hands", "court"}
    for key in deal:
        if key not in allowed:
            problems.flag("COUP-S5" if key == "piles" else "COUP-S4",
                          "coup.setup.deal_unknown_part", f"deal.{key}", key=key,
                          count=len(players))
    hand_size = 1 if two else HAND_SIZE
    hands = _card_table(deal.get("hands"), players, hand_size, "deal.hands", mode, exchanger,
                        problems)
    court_size = len(characters_in_game(exchanger)) - 2 if two else (
        len(full_deck(exchanger, len(players))) - HAND_SIZE * len(players))
    court = _card_list(deal.get("court"), court_size, "deal.court", mode, exchanger, problems)
    piles = {}
    if two:
        piles = _card_table(deal.get("piles"), players, 5, "deal.piles", mode, exchanger,
                            problems)
    problems.raise_as(InvalidSetup)
    if two:  # COUP-S5: three piles of one copy of each character
        groups = {"deal.hands + deal.court": [h[0] for h in hands.values()] + court}
        groups.update({f"deal.piles.{p}": cards for p, cards in piles.items()})
        for where, cards in groups.items():
            twice = sorted(c for c, k in Counter(cards).items() if c != UNKNOWN and k > 1)
            if twice:
                problems.flag("COUP-S5", "coup.setup.pile_twice", where, place=where,
                              names=', '.join(twice))
    else:
        everything = [c for h in hands.values() for c in h] + court
        _check_counts(everything, exchanger, len(players), mode, problems)
    problems.raise_as(InvalidSetup)
    return hands, court, piles


def _check_counts(cards: list[str], exchanger: str, n: int, mode: str,
                  problems: Problems) -> None:
    """COUP-S3: each character exactly ``copies`` times (at most, in table mode)."""
    copies = copies_per_character(n)
    counts = Counter(cards)
    for character in characters_in_game(exchanger):
        have = counts[character]
        if have > copies or (mode == "digital" and have != copies):
            problems.flag("COUP-S3", "coup.setup.copies", "deal", have=have, name=character,
                          count=n, copies=copies)


def _card_table(table: Any, players: list[str], size: int, where: str, mode: str,
                exchanger: str, problems: Problems) -> dict[str, list[str]]:
    """Check ``{player: [size cards]}`` for every player and no one else."""
    if not isinstance(table, dict):
        problems.flag("COUP-S4", "coup.setup.table_not_object", where, place=where)
        return {}
    for key in table:
        if key not in players:
            problems.flag("COUP-S1", "coup.setup.not_a_player", f"{where}.{key}", place=where,
                          key=repr(key))
    out = {}
    for p in players:
        if p not in table:
            problems.flag("COUP-S4", "coup.setup.no_cards_for", f"{where}.{p}", place=where,
                          player=p)
            continue
        out[p] = _card_list(table[p], size, f"{where}.{p}", mode, exchanger, problems)
    return out


def _card_list(cards: Any, size: int, where: str, mode: str, exchanger: str,
               problems: Problems) -> list[str]:
    """Check a list of ``size`` card names of this game (COUP-S2; unknown only in table mode)."""
    if not isinstance(cards, list):
        problems.flag("COUP-S4", "coup.setup.not_a_list", where, place=where, size=size)
        return []
    if len(cards) != size:
        problems.flag("COUP-S4", "coup.setup.wrong_size", where, place=where, size=size,
                      count=len(cards))
    in_game = characters_in_game(exchanger)
    for i, card in enumerate(cards):
        if not is_card_name(card, mode) or (card != UNKNOWN and card not in in_game):
            problems.flag("COUP-S2", "coup.setup.not_a_card", f"{where}[{i}]", place=where, i=i,
                          name=repr(card),
                          names=', '.join(in_game) + (', unknown' if mode == 'table' else ''))
    return list(cards)
