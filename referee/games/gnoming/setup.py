"""Setting up a game and each of its rounds (GN-C2, GN-C3, GN-S1–GN-S4).

A round is dealt one of three ways:
- digital, shuffled: ``shuffled(DECK, seed, "gnoming", "deal", round)`` — 9 cards to each player
  in seat order (row by row), then two cards turned up to start the discard piles (a Hazard
  turned up is removed and replaced, GN-S4), the rest is the draw pile (top first);
- digital, entered (round 1 only): the setup body's ``deal`` ``{"layouts": {player: 3×3 rows},
  "discard_piles": [[card], [card]], "draw_pile": [cards, top first], "removed"?: ["H"...]}``
  accounting for all 110 cards (``removed``: Hazards set aside by GN-S4); later rounds are
  shuffled from the seed;
- table (GN-X1): every layout card and the draw pile are ``"unknown"``; the round's starter
  enters the two cards turned up for the discard piles with ``discard`` + ``card``.
Each round then waits for every player's two ``flip``s (GN-S2) before its starter draws.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from referee.games.base import REFEREE, UNKNOWN, InvalidSetup, Problems, event, violation
from referee.games.common.shuffle import shuffled
from referee.games.gnoming.rules import (
                                         DECK, DECK_COUNTS, DECK_SIZE, HAZARD, SIZE, is_card, over_deck)
from referee.games.gnoming.scoring import grid_problems, player_count_problem

SETUP_FLIPS = 2  # GN-S2


def check_players(players: Any, options: dict[str, Any]) -> None:
    """Raise :class:`InvalidSetup` unless ``players`` is a list of distinct non-empty names in a
    number GN-C2 allows and ``options.first_player`` (GN-S3) is one of them."""
    problems = Problems()
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        problems.flag('GN-C2', "gnoming.setup.players_not_list", 'players')
        problems.raise_as(InvalidSetup)
    if len(set(players)) != len(players):
        problems.flag('GN-C2', "gnoming.setup.players_twice", 'players')
    if REFEREE in players:
        problems.flag('GN-C2', "gnoming.setup.referee_name", 'players', referee=repr(REFEREE))
    count_problem = player_count_problem(len(players), options["allow_two_players"])
    if count_problem:
        problems.flag("GN-C2", count_problem[0], "players", **count_problem[1])
    first = options["first_player"]
    if first is not None and first not in players:
        problems.flag('GN-S3', "gnoming.setup.first_player", 'options.first_player', first=repr(first))
    problems.raise_as(InvalidSetup)


def round_starter(players: list[str], options: dict[str, Any], round_no: int) -> str:
    """Return who starts round ``round_no`` (GN-S3): ``options.first_player`` (default the
    first seat) in round 1, then the next player clockwise each round."""
    first = options["first_player"] if options["first_player"] is not None else players[0]
    return players[(players.index(first) + round_no - 1) % len(players)]


def blank_turn(player: str) -> dict[str, Any]:
    """The ``turn`` of ``player`` before they draw."""
    return {"player": player, "holding": None, "source": None, "pile": None, "filled": [],
            "replaced_face_down": False, "mulligans_at_start": 0}


def new_game(body: dict[str, Any], options: dict[str, Any], seed: int | str) -> dict[str, Any]:
    """Return the state of a new game at the start of round 1 (see the module docstring).

    ``body``: ``players``, ``mode`` (default ``"digital"``), optional ``deal``.  Raises
    :class:`InvalidSetup` (GN-C2 player count, GN-S3 first player, GN-C1/GN-S1/GN-S4 for a deal
    that is not the 110-card deck laid out as the rules say).
    """
    players = body.get("players")
    check_players(players, options)
    mode = body.get("mode", "digital")
    if mode not in ("digital", "table"):
        raise InvalidSetup(violation('GN-X1', "gnoming.setup.bad_mode", 'mode', mode=repr(mode)))
    deal = body.get("deal")
    if deal is not None and mode != "digital":
        raise InvalidSetup(violation('GN-X1', "gnoming.setup.deal_in_table_mode", 'deal'))
    state = {"game": "gnoming", "mode": mode, "players": list(players), "options": options,
             "seed": seed, "round": 0, "history": []}
    if deal is not None:
        start_round(state, 1, dealt=entered_deal(deal, players))
    else:
        start_round(state, 1)
    return state


def start_round(state: dict[str, Any], round_no: int,
                dealt: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Deal round ``round_no`` into ``state`` (changed in place) and return its events.

    ``dealt`` is an already checked entered deal (layouts of cards, discard piles, draw pile,
    removed Hazards); without it digital mode shuffles and table mode starts unknown.
    """
    players = state["players"]
    starter = round_starter(players, state["options"], round_no)
    state.update({"round": round_no, "starter": starter, "phase": "setup",
                  "flips_due": {p: SETUP_FLIPS for p in players}, "turn": blank_turn(starter),
                  "went_out": None, "final_turns": [], "reshuffles": 0})
    if state["mode"] == "table":
        state["layouts"] = {p: [[{"card": UNKNOWN, "up": False} for _ in range(SIZE)]
                                for _ in range(SIZE)] for p in players}
        state["draw_pile"] = [UNKNOWN] * (DECK_SIZE - SIZE * SIZE * len(players))
        state["discard_piles"] = [[], []]
        state["removed"] = []
        return [event("round_started", round=round_no, starter=starter, discard_tops=[None, None])]
    if dealt is None:
        dealt = _shuffled_deal(players, state["seed"], round_no)
    state["layouts"] = {p: [[{"card": card, "up": False} for card in row] for row in grid]
                        for p, grid in dealt["layouts"].items()}
    state["discard_piles"] = [list(pile) for pile in dealt["discard_piles"]]
    state["draw_pile"] = list(dealt["draw_pile"])
    state["removed"] = list(dealt["removed"])
    return [event("round_started", round=round_no, starter=starter,
                  discard_tops=[pile[-1] for pile in state["discard_piles"]],
                  removed=list(state["removed"]))]


def _shuffled_deal(players: list[str], seed: int | str, round_no: int) -> dict[str, Any]:
    """GN-S1 with GN-S4: the seeded deal of one round."""
    order = shuffled(DECK, seed, "gnoming", "deal", round_no)
    per = SIZE * SIZE
    layouts = {p: [order[i * per + r * SIZE:i * per + (r + 1) * SIZE] for r in range(SIZE)]
               for i, p in enumerate(players)}
    rest = order[per * len(players):]
    piles, removed = [], []
    for _ in range(2):
        card = rest.pop(0)
        while card == HAZARD:  # GN-S4: a Hazard turned up to start a pile leaves play
            removed.append(card)
            card = rest.pop(0)
        piles.append([card])
    return {"layouts": layouts, "discard_piles": piles, "draw_pile": rest, "removed": removed}


def entered_deal(deal: Any, players: list[str]) -> dict[str, Any]:
    """Check an entered deal (see the module docstring) and return it; raise
    :class:`InvalidSetup` naming every field that is wrong."""
    problems = Problems()
    if not isinstance(deal, dict):
        problems.flag('GN-S1', "gnoming.setup.deal_not_object", 'deal')
        problems.raise_as(InvalidSetup)
    layouts = deal.get("layouts")
    cards: list[str] = []
    if not isinstance(layouts, dict) or set(layouts) != set(players):
        problems.flag('GN-S1', "gnoming.setup.deal_layouts", 'deal.layouts', players=', '.join(players))
    else:
        for p in players:
            if grid_problems(layouts[p], f"deal.layouts.{p}", problems):
                cards += [card for row in layouts[p] for card in row]
    piles = deal.get("discard_piles")
    if not (isinstance(piles, list) and len(piles) == 2
            and all(isinstance(pile, list) and len(pile) == 1 for pile in piles)):
        problems.flag('GN-S1', "gnoming.setup.deal_discard_piles", 'deal.discard_piles')
    else:
        for i, (card,) in enumerate(piles):
            if card == HAZARD:
                problems.flag('GN-S4', "gnoming.setup.hazard_on_pile", f'deal.discard_piles[{i}][0]')
            cards += _cards_of([card], f"deal.discard_piles[{i}]", problems)
    draw = deal.get("draw_pile")
    if not isinstance(draw, list):
        problems.flag('GN-S1', "gnoming.setup.deal_draw_pile", 'deal.draw_pile')
    else:
        cards += _cards_of(draw, "deal.draw_pile", problems)
    removed = deal.get("removed", [])
    if not isinstance(removed, list) or any(card != HAZARD for card in removed):
        problems.flag('GN-S4', "gnoming.setup.deal_removed", 'deal.removed')
    else:
        cards += removed
    if not problems:
        _deck_problems(cards, problems)
    problems.raise_as(InvalidSetup)
    return {"layouts": layouts, "discard_piles": piles, "draw_pile": draw, "removed": removed}


def _cards_of(cards: list[Any], where: str, problems: Problems) -> list[str]:
    """The valid card names of ``cards``; a GN-C1 problem for each other entry."""
    for i, card in enumerate(cards):
        if not is_card(card):
            problems.flag('GN-C1', "gnoming.setup.not_a_card", f'{where}[{i}]', entered=repr(card), at=where, i=i)
    return [card for card in cards if is_card(card)]


def _deck_problems(cards: list[str], problems: Problems) -> None:
    """GN-C1: the deal must be exactly the 110-card deck."""
    for extra in over_deck(cards):
        problems.flag('GN-C1', "gnoming.setup.deal_over_deck", 'deal', **extra)
    counts = Counter(cards)
    missing = {card: n - counts[card] for card, n in DECK_COUNTS.items() if counts[card] < n}
    if missing:
        listed = ", ".join(f"{n}×{card!r}" for card, n in missing.items())
        problems.flag('GN-C1', "gnoming.setup.deal_missing", 'deal', listed=listed)
