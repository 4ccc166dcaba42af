"""Setting up a game of Spy: players, colours, bases entered or dealt from a seed (SPY-S1…S3).

Setup body (spy.md, "Setup body")::

    {"players": [...], "mode": "digital"|"table", "options": {...}, "seed": n,
     "colours": {player: colour},                      # optional, default seat order
     "bases": {player: {"cards": [n cards from the holder's left],
                        "spy_gap": g, "facing": "left"|"right"}}}   # optional: dealt if absent

Without ``bases`` every base is dealt from the seed: a shuffled order, a random Spy gap and a
random facing (``referee.games.common.shuffle``, one purpose per player).
"""
from __future__ import annotations

from typing import Any, Mapping

from referee.games.base import MODES, REFEREE, UNKNOWN, InvalidSetup, Problems
from referee.games.common.card_sets import distinct_in
from referee.games.common.shuffle import rng, shuffled
from referee.games.spy.positions import FACINGS
from referee.games.spy.rules import (BASE_CARDS, BOMB_2, COLOURS, SPY, allowed_colours,
                                     base_cards, card_moves_problems, short_repr)
from referee.games.spy.table import initial_knowledge

GAME = "spy"
RULES_VERSION = "1"
MIN_PLAYERS, MAX_PLAYERS = 2, 4
LAYOUT_KEYS = ("cards", "spy_gap", "facing")


def players_problems(players: Any, problems: Problems, where: str) -> bool:
    """Add SPY-S1 problems of a player list to ``problems``; True when it is usable."""
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        problems.flag("SPY-S1", "spy.setup.players_not_names", where)
        return False
    ok = True
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        problems.flag("SPY-S1", "spy.setup.player_count", where, count=len(players))
        ok = False
    if len(set(players)) != len(players):
        problems.flag("SPY-S1", "spy.setup.players_repeated", where)
        ok = False
    if REFEREE in players:
        problems.flag("SPY-S1", "spy.setup.player_reserved", where, given=short_repr(REFEREE))
        ok = False
    return ok


def options_problems(options: Mapping[str, Any], players: list[str], problems: Problems,
                     where: str) -> None:
    """Add problems of the game-specific option values (SPY-C3 card_moves, SPY-S3 first_player)."""
    size = len(base_cards(len(players)))
    for suffix, code, params in card_moves_problems(options.get("card_moves"), size):
        problems.flag("SPY-C3", code, f"{where}.card_moves{suffix}", **params)
    first = options.get("first_player")
    if first is not None and first not in players:
        problems.flag("SPY-S3", "spy.options.first_player", f"{where}.first_player",
                      given=short_repr(first), players=", ".join(players))


def colours_problems(colours: Any, players: list[str], problems: Problems, where: str) -> None:
    """Add SPY-S1 problems of a ``{player: colour}`` map: one distinct colour each, and only
    green and red with 2 players."""
    if not isinstance(colours, dict) or set(colours) != set(players):
        problems.flag("SPY-S1", "spy.setup.colours_not_per_player", where)
        return
    allowed = allowed_colours(len(players))
    for player, colour in colours.items():
        if colour not in allowed:
            code = ("spy.setup.colour_two_players" if len(players) == 2
                    else "spy.setup.colour_not_allowed")
            problems.flag("SPY-S1", code, f"{where}.{player}", player=player,
                          given=short_repr(colour), choices=", ".join(allowed))
    if len(set(map(str, colours.values()))) != len(colours):
        problems.flag("SPY-S1", "spy.setup.colours_repeated", where)


def layout_problems(base: Any, deck: tuple[str, ...], mode: str, problems: Problems,
                    where: str) -> bool:
    """Add the problems of a base's ``cards``, ``spy_gap`` and ``facing`` (SPY-S1, SPY-S2).

    ``cards`` holds the ``len(deck)`` cards from the holder's left, Spy excluded, each of
    ``deck`` once; in table mode ``"unknown"`` stands for any card not entered.  A list
    longer than any base (7 cards, ``BASE_CARDS``) is that one problem: its cards are not
    read (3,000 cards cost what 8 do).  Returns True when the layout is usable.
    """
    if not isinstance(base, dict):
        problems.flag("SPY-S2", "spy.base.not_object", where)
        return False
    size, before = len(deck), len(problems.items)
    cards = base.get("cards")
    if not isinstance(cards, list):
        problems.flag("SPY-S2", "spy.base.cards_not_list", f"{where}.cards")
    else:
        if len(cards) != size:
            problems.flag("SPY-S1", "spy.base.size", f"{where}.cards", size=size,
                          count=len(cards))
            if len(cards) > len(BASE_CARDS):
                cards = []
        seen: set[str] = set()
        for i, card in enumerate([] if distinct_in(cards, frozenset(deck), mode == "table") else cards):
            if card == UNKNOWN and mode == "table":
                continue
            problem = _card_problem(card, deck, mode)
            if problem is None and card in seen:
                problem = "spy.base.card_twice", {"card": card}
            if problem:
                problems.flag("SPY-S1" if card == BOMB_2 else "SPY-C1", problem[0],
                              f"{where}.cards[{i}]", **problem[1])
            seen.add(card if isinstance(card, str) else "")
    gap = base.get("spy_gap")
    if isinstance(gap, bool) or not isinstance(gap, int) or not 0 <= gap < size:
        problems.flag("SPY-S2", "spy.base.spy_gap", f"{where}.spy_gap", last=size - 1,
                      given=short_repr(gap))
    if base.get("facing") not in FACINGS:
        problems.flag("SPY-S2", "spy.base.facing", f"{where}.facing",
                      given=short_repr(base.get("facing")))
    return len(problems.items) == before


def _card_problem(card: Any, deck: tuple[str, ...], mode: str) -> tuple[str, dict] | None:
    """``(message code, params)`` of an entered card that cannot be in a base, or None."""
    if card == SPY:
        return "spy.base.spy_in_cards", {}
    if card == BOMB_2 and BOMB_2 not in deck:
        return "spy.base.bomb_2_removed", {}
    if card == UNKNOWN:
        return "spy.base.unknown_in_digital", {}
    if not isinstance(card, str) or card not in deck:
        return "spy.base.not_a_card", {"given": short_repr(card), "choices": ", ".join(deck)}
    return None


def new_state(body: Mapping[str, Any], options: dict[str, Any], seed: int | str | None) -> dict:
    """Return the initial state for a setup ``body`` with resolved ``options``.

    Raises :class:`InvalidSetup` naming every problem (SPY-S1 players, colours and base sizes,
    SPY-S2 layouts, SPY-S3 first player, SPY-C3 card_moves).
    """
    problems = Problems()
    players = body.get("players")
    mode = body.get("mode", "digital")
    if mode not in MODES:
        problems.flag("SPY-S2", "spy.setup.mode", "mode", given=short_repr(mode))
    if not players_problems(players, problems, "players"):
        problems.raise_as(InvalidSetup)
    options_problems(options, players, problems, "options")
    colours = body.get("colours")
    if colours is None:
        colours = dict(zip(players, COLOURS))
    colours_problems(colours, players, problems, "colours")
    deck = base_cards(len(players))
    layouts = body.get("bases")
    if layouts is None and mode == "table":
        # real bases are arranged by the players: the referee cannot invent them (SPY-S2)
        problems.flag("SPY-S2", "spy.setup.table_needs_bases", "bases")
    elif layouts is None and seed is None:
        problems.flag("SPY-S2", "spy.setup.no_bases_no_seed", "seed")
    elif layouts is None:
        layouts = {p: dealt_layout(deck, seed, p) for p in players}
    elif not isinstance(layouts, dict) or set(layouts) != set(players):
        problems.flag("SPY-S2", "spy.setup.bases_not_per_player", "bases")
    else:
        for player in players:
            where = f"bases.{player}"
            if layout_problems(layouts[player], deck, mode, problems, where):
                for key in sorted(set(layouts[player]) - set(LAYOUT_KEYS)):
                    problems.flag("SPY-S2", "spy.setup.base_extra_key", f"{where}.{key}",
                                  choices=", ".join(LAYOUT_KEYS), given=short_repr(key))
    problems.raise_as(InvalidSetup)
    first = options.get("first_player") or players[0]  # SPY-S3
    return {
        "game": GAME, "rules_version": RULES_VERSION, "mode": mode, "seed": seed,
        "options": dict(options), "players": list(players), "colours": dict(colours),
        "bases": {p: new_base(layouts[p], deck) for p in players},
        "eliminated": [], "winner": None,
        "turn": {"player": first, "done": [], "pending": None},
        "log": [],
    }


def dealt_layout(deck: tuple[str, ...], seed: int | str, player: str) -> dict[str, Any]:
    """Return a base dealt from ``seed`` for ``player``: shuffled cards, a random Spy gap and
    facing (SPY-S2 arranged by chance instead of by the player)."""
    chance = rng(seed, "spy-base", player)
    return {"cards": shuffled(deck, seed, "spy-cards", player),
            "spy_gap": chance.randrange(len(deck)), "facing": chance.choice(FACINGS)}


def new_base(layout: Mapping[str, Any], deck: tuple[str, ...]) -> dict[str, Any]:
    """Return a base at the start: the layout, nothing exposed, every bomb unlit (SPY-S2)."""
    return {"cards": list(layout["cards"]), "spy_gap": layout["spy_gap"],
            "facing": layout["facing"], "exposed": [], "lit": [], **initial_knowledge(deck)}
