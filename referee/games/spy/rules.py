"""The cards of Spy: colours, each colour's base, the exposure order and movement numbers.

Rules: SPY-C1 (30 cards in four colours), SPY-C2 (which colours hold a Bomb 2), SPY-C3
(movement numbers), SPY-S1 (colours and base sizes by player count), SPY-R1 (exposure order).
"""
from __future__ import annotations

from typing import Any, Mapping

from referee.games.common.quoting import quoted

COLOURS = ("green", "red", "blue", "yellow")
TWO_PLAYER_COLOURS = ("green", "red")  # SPY-S1: with 2 players only green and red are used

SPY = "spy"
SAFE_1, SAFE_2 = "safe_1", "safe_2"
TOP_SECRET_1, TOP_SECRET_2 = "top_secret_1", "top_secret_2"
BOMB_1, BOMB_2, BOMB_3 = "bomb_1", "bomb_2", "bomb_3"

EXPOSURE_ORDER = (SAFE_1, SAFE_2, TOP_SECRET_1, TOP_SECRET_2)  # SPY-R1
BOMBS = (BOMB_1, BOMB_2, BOMB_3)
BASE_CARDS = EXPOSURE_ORDER + BOMBS
"""Every card a base may hold (the Spy sits between cards and is not part of the base)."""

SAFE, TOP_SECRET, BOMB = "safe", "top_secret", "bomb"
CARD_TYPE = {SAFE_1: SAFE, SAFE_2: SAFE, TOP_SECRET_1: TOP_SECRET, TOP_SECRET_2: TOP_SECRET,
             BOMB_1: BOMB, BOMB_2: BOMB, BOMB_3: BOMB}

DEFAULT_MOVES = {SAFE_1: 1, SAFE_2: 2, TOP_SECRET_1: 1, TOP_SECRET_2: 2,
                 BOMB_1: 1, BOMB_2: 2, BOMB_3: 3}
"""SPY-C3 [decision]: the movement number is the number in the card's name."""

EXPOSED_CARD_STEPS = (1, 2)
"""SPY-M2: facing an exposed card, the Spy moves 1 or 2 spaces, the player's choice."""


def base_cards(player_count: int) -> tuple[str, ...]:
    """Return the cards of one player's base for ``player_count`` players (SPY-C2, SPY-S1).

    Every colour holds Safe 1–2, Top Secret 1–2, Bomb 1 and Bomb 3; the Bomb 2 (green and red
    only) is used with 2 players and removed with 3–4.  So a base has 7 cards with 2 players and
    6 with 3–4.
    """
    if player_count == 2:
        return BASE_CARDS
    return tuple(card for card in BASE_CARDS if card != BOMB_2)


def allowed_colours(player_count: int) -> tuple[str, ...]:
    """Return the colours players may take with ``player_count`` players (SPY-S1)."""
    return TWO_PLAYER_COLOURS if player_count == 2 else COLOURS


def card_moves_problems(card_moves: Any, base_size: int) -> list[tuple[str, str, dict]]:
    """Return ``(field suffix, message code, params)`` for each bad entry of
    ``options.card_moves``.

    ``card_moves`` maps a card name (not the Spy) to a movement number, a whole number from 1
    to ``base_size`` (SPY-C3): a move wraps round the cyclic base (SPY-M3), so a larger number
    means nothing a smaller one does not, and an absurd one (10**30) must not reach the engine.
    """
    if not isinstance(card_moves, Mapping):
        return [("", "spy.options.card_moves_not_map", {})]
    problems = []
    for card, number in card_moves.items():
        if card not in BASE_CARDS:
            problems.append((f".{card}", "spy.options.card_moves_unknown_card",
                             {"given": short_repr(card), "choices": ", ".join(BASE_CARDS)}))
        elif isinstance(number, bool) or not isinstance(number, int) \
                or not 1 <= number <= base_size:
            problems.append((f".{card}", "spy.options.card_moves_number",
                             {"card": card, "size": base_size, "given": short_repr(number)}))
    return problems


def short_repr(value: Any) -> str:
    """``value`` as a message shows it, cut short as every quoted value is
    (:func:`referee.games.common.quoting.quoted`: a text quoted, ``'x'``, its first 64 characters
    then "…"; anything else as the JSON the request sent, ``["a", "b"]``, ``true``, ``null``), never
    a Python repr."""
    return quoted(value)


def movement_table(mode: str, card_moves: Mapping[str, int] | None) -> dict[str, int]:
    """Return the movement numbers the referee may rely on (SPY-C3).

    Digital mode: the default numbers, overridden by ``options.card_moves``.  Table mode: only
    the numbers ``card_moves`` gives (a real deck may print other numbers), so an empty dict
    when it gives none.
    """
    given = dict(card_moves or {})
    if mode == "digital":
        return {**DEFAULT_MOVES, **given}
    return given
