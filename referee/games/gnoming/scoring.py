"""Scoring of Gnoming A Round: a layout (GN-P1–P6), a round (GN-P7) and a game (GN-W1).

Pure functions shared by the end of play in the engine and by the scoring endpoints
(``score-round``, ``score-game``), plus the check that a submitted score sheet is a round the
GN-C1 deck can produce.

Shapes:
- a *grid* is 3×3 rows of cards (``"5"``, ``"-2"``, ``"M"``, ``"H"``); ``None`` stands for a
  face-down card in a provisional score (it adds nothing and no line through it is a set);
- a *round* is ``{"layouts": {player: grid}, "went_out": player | None}``.
"""
from __future__ import annotations

import functools
from typing import Any, Sequence

from referee.games.base import ImpossibleState, Problems
from referee.games.common.card_sets import all_in
from referee.games.gnoming.rules import (
                                         CARD_NAMES, CARDS_TEXT, HAZARD, HAZARD_POINTS, LINES, MULLIGAN, OUT_FIRST_BONUS, POSITIONS, SIZE,
                                         is_card, is_negative, is_positive, over_deck, value)

Grid = Sequence[Sequence[Any]]


def set_value(cards: Sequence[str | None]) -> int | None:
    """Return the value of the set a line forms, or ``None`` when it is no set (GN-P5).

    A set holds at least one positive card, no negative card or Hazard, and positive cards of
    one value only; Mulligans stand for that value (GN-P4).  A face-down card (``None``) is not
    known yet, so a line through it is no set.
    """
    if any(card is None or card == HAZARD or is_negative(card) for card in cards):
        return None
    values = {value(card) for card in cards if is_positive(card)}
    return values.pop() if len(values) == 1 else None


def score_layout(grid: Grid) -> dict[str, Any]:
    """Score one layout (GN-P1–GN-P6) before the ±5 of GN-P7.

    Returns ``{"points", "sets": [{"line": "row"|"column", "index", "value", "points",
    "positions"}], "mulligans": [{"position", "row", "column"}], "hazards"}`` where a
    Mulligan's ``row``/``column`` is the value it took in that set, or ``None`` (GN-P4: it may
    take a different value in each; in no set it scores 0).  Each line is scored on its own, so
    a card at the crossing of two sets counts in both.
    """
    sets = []
    in_set: dict[tuple[int, int], dict[str, int]] = {}
    for kind, index, cells in LINES:
        found = set_value([grid[r][c] for r, c in cells])
        if found is not None:  # GN-P1: a set scores minus its value, once
            sets.append({"line": kind, "index": index, "value": found, "points": -found,
                         "positions": [list(cell) for cell in cells]})
            for cell in cells:
                in_set.setdefault(cell, {})[kind] = found
    points = sum(s["points"] for s in sets)
    mulligans, hazards = [], 0
    for r, c in POSITIONS:
        card = grid[r][c]
        if card is None:
            continue
        if is_negative(card):  # GN-P3
            points += value(card)
        elif is_positive(card) and (r, c) not in in_set:  # GN-P2
            points += value(card)
        elif card == HAZARD:  # GN-P6
            points += HAZARD_POINTS
            hazards += 1
        elif card == MULLIGAN:  # GN-P4: 0 outside any set
            taken = in_set.get((r, c), {})
            mulligans.append({"position": [r, c], "row": taken.get("row"),
                              "column": taken.get("column")})
    return {"points": points, "sets": sets, "mulligans": mulligans, "hazards": hazards}


def layout_points(grid: Grid) -> int:
    """``score_layout(grid)["points"]`` (GN-P1–GN-P6), remembered per layout: a snapshot's
    score adds up every finished round again, from the same layouts, on each request."""
    return _layout_points(tuple(card for row in grid for card in row))


@functools.lru_cache(maxsize=8192)
def _layout_points(cards: tuple[str | None, ...]) -> int:
    return score_layout([cards[r * SIZE:(r + 1) * SIZE] for r in range(SIZE)])["points"]


def round_points(layouts: dict[str, Grid], went_out: str | None,
                 tie: str = "lowest") -> dict[str, int]:
    """``score_round(layouts, went_out, tie)["scores"]`` without the breakdown (GN-P1–GN-P7):
    ``{player: points with the ±5}``."""
    base = {player: layout_points(grid) for player, grid in layouts.items()}
    bonus = out_first_adjustment(base, went_out, tie)
    return {player: points + (bonus if player == went_out else 0)
            for player, points in base.items()}


def out_first_adjustment(scores: dict[str, int], went_out: str | None, tie: str) -> int:
    """Return −5, +5 or 0 for the player who went out first (GN-P7).

    ``scores`` are the round scores before the adjustment; ``tie`` is
    ``options.out_first_tie``: ``"lowest"`` (a tie for lowest counts as lowest) or
    ``"not_lowest"``.  No one went out: 0.
    """
    if went_out is None:
        return 0
    own = scores[went_out]
    others = [points for player, points in scores.items() if player != went_out]
    lowest = all(own <= p for p in others) if tie == "lowest" else all(own < p for p in others)
    return -OUT_FIRST_BONUS if lowest else OUT_FIRST_BONUS


def score_round(layouts: dict[str, Grid], went_out: str | None,
                tie: str = "lowest") -> dict[str, Any]:
    """Score a finished round (GN-P1–GN-P7).

    Returns ``{"scores": {player: points with the ±5}, "breakdown": {player: score_layout(...)
    plus "base" (before GN-P7) and "out_first" (−5, +5 or 0)}}``.
    """
    breakdown = {player: score_layout(grid) for player, grid in layouts.items()}
    base = {player: b["points"] for player, b in breakdown.items()}
    bonus = out_first_adjustment(base, went_out, tie)
    scores = {}
    for player, b in breakdown.items():
        b["base"] = b.pop("points")
        b["out_first"] = bonus if player == went_out else 0
        scores[player] = b["base"] + b["out_first"]
    return {"scores": scores, "breakdown": breakdown}


def winners(totals: dict[str, int], last_round: dict[str, int]) -> list[str]:
    """Return the winners (GN-W1): the lowest total; a tie is broken by the lowest score of the
    last round (±5 included); players still tied share the win.  Seat order is kept."""
    best = min(totals.values())
    tied = [p for p, t in totals.items() if t == best]
    best_last = min(last_round[p] for p in tied)
    return [p for p in tied if last_round[p] == best_last]


def score_game(rounds: Sequence[dict[str, Any]], tie: str = "lowest") -> dict[str, Any]:
    """Score a whole game: ``rounds`` as checked by :func:`check_game`.

    Returns ``{"round_scores": [{player: points}], "totals": {player: points}, "winners":
    [players]}`` (GN-W1).
    """
    round_scores = [round_points(r["layouts"], r.get("went_out"), tie) for r in rounds]
    players = list(round_scores[0])
    totals = {p: sum(scores[p] for scores in round_scores) for p in players}
    return {"round_scores": round_scores, "totals": totals,
            "winners": winners(totals, round_scores[-1])}


# --- checking a score sheet -----------------------------------------------------------------
def player_count_problem(count: int, allow_two: bool) -> tuple[str, dict[str, int]] | None:
    """``(code, params)`` of the GN-C2 message if ``count`` players cannot play (3–7, or 2–7
    with ``options.allow_two_players``), else ``None``."""
    low = 2 if allow_two else 3
    if low <= count <= 7:
        return None
    return ("gnoming.players.count_two" if allow_two else "gnoming.players.count"), {"count": count}


def grid_problems(grid: Any, where: str, problems: Problems) -> bool:
    """Add a GN-S1/GN-C1 problem for a grid that is not 3×3 rows of card names; True if fine."""
    if type(grid) is list and len(grid) == SIZE and all(
            type(row) is list and len(row) == SIZE and all_in(CARD_NAMES, row) for row in grid):
        return True
    if not isinstance(grid, list) or len(grid) != SIZE:
        problems.flag('GN-S1', "gnoming.sheet.row_count", where, at=where)
        return False
    fine = True
    for r, row in enumerate(grid):
        if not isinstance(row, list) or len(row) != SIZE:
            problems.flag('GN-S1', "gnoming.sheet.row_size", f'{where}[{r}]', at=where, r=r)
            fine = False
            continue
        for c, card in enumerate(row):
            if not is_card(card):
                fine = False
                if problems.full:  # counted, not worded: the answer lists the first 50
                    problems.unlisted += 1
                    continue
                problems.flag('GN-C1', "gnoming.sheet.not_a_card", f'{where}[{r}][{c}]', entered=repr(card), at=where, r=r, c=c, cards_text=CARDS_TEXT)
    return fine


def check_round(data: Any, where: str, options: dict[str, Any], problems: Problems) -> list[str]:
    """Check one finished round sheet ``{"layouts", "went_out"?}`` into ``problems``.

    Every layout must be 3×3 cards of GN-C1, the player count allowed by GN-C2, no card more
    often than the deck holds (GN-C1: a fourth Hazard, fifteen 3s), ``went_out`` one of the
    players.  Returns the players (in the order given) when the layouts were readable.  A
    player count GN-C2 forbids is the one problem found: no layout of an impossible table
    is read (4,000 layouts cost no more than 8).
    """
    if not isinstance(data, dict) or not isinstance(data.get("layouts"), dict):
        problems.flag('GN-S1', "gnoming.sheet.not_object", f'{where}.layouts', at=where)
        return []
    layouts = data["layouts"]
    players = list(layouts)
    count_problem = player_count_problem(len(players), options["allow_two_players"])
    if count_problem:
        problems.flag("GN-C2", count_problem[0], f"{where}.layouts", **count_problem[1])
        return []
    readable = True
    for player, grid in layouts.items():
        if not player:
            problems.flag('GN-C2', "gnoming.sheet.empty_name", f'{where}.layouts')
        readable = grid_problems(grid, f"{where}.layouts.{player}", problems) and readable
    if readable:
        for extra in over_deck(card for grid in layouts.values() for row in grid
                                  for card in row):
            problems.flag('GN-C1', "gnoming.sheet.over_deck", f'{where}.layouts', at=where, **extra)
    went_out = data.get("went_out")
    if went_out is not None and not (isinstance(went_out, str) and went_out in layouts):
        problems.flag('GN-P7', "gnoming.sheet.went_out", f'{where}.went_out', went_out=repr(went_out), at=where)
    return players if readable else []


def check_game(rounds: Any, options: dict[str, Any]) -> None:
    """Raise :class:`ImpossibleState` unless ``rounds`` is a list of ``options.rounds`` round
    sheets (GN-C3), each possible (:func:`check_round`), all with the same players."""
    problems = Problems()
    if not isinstance(rounds, list) or len(rounds) != options["rounds"]:
        if isinstance(rounds, list):
            problems.flag("GN-C3", "gnoming.sheet.round_count", "rounds",
                          rounds=options["rounds"], got=len(rounds))
        else:
            problems.flag("GN-C3", "gnoming.sheet.rounds_not_list", "rounds",
                          rounds=options["rounds"])
        problems.raise_as(ImpossibleState)
    first: list[str] | None = None
    for i, data in enumerate(rounds):
        players = check_round(data, f"rounds[{i}]", options, problems)
        if players and first is None:
            first = players
        elif players and set(players) != set(first or ()):
            problems.flag('GN-C3', "gnoming.sheet.players_differ", f'rounds[{i}].layouts', i=i + 1, players=', '.join(players), first=', '.join(first or ()))
    problems.raise_as(ImpossibleState)


def score_round_sheet(data: Any, options: dict[str, Any]) -> dict[str, Any]:
    """Score a submitted round sheet ``{"layouts", "went_out"?}`` (the ``score-round``
    endpoint): :func:`score_round` after :func:`check_round`.  Raises
    :class:`ImpossibleState` naming each field (``round.layouts.ana[0][2]``) for a layout the
    GN-C1 deck cannot produce or a player count GN-C2 forbids."""
    problems = Problems()
    check_round(data, "round", options, problems)
    problems.raise_as(ImpossibleState)
    return score_round(data["layouts"], data.get("went_out"), options["out_first_tie"])


def score_game_sheet(rounds: Any, options: dict[str, Any]) -> dict[str, Any]:
    """Score submitted round sheets of a whole game (the ``score-game`` endpoint):
    :func:`score_game` after :func:`check_game`.  Raises :class:`ImpossibleState`."""
    check_game(rounds, options)
    return score_game(rounds, options["out_first_tie"])
