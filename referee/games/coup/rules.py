"""Coup's facts: the characters, the copies dealt, the treasury, which action claims which
character and which characters block which action (COUP-S2, S3, S7, A1–A8, B1, B2).

Characters are lower-case strings (``"duchess"``…); ``"unknown"`` (table mode) is a face-down
card the referee was not told about (COUP-X1).
"""
from __future__ import annotations

import functools

from referee.games.base import UNKNOWN
# HOST, the ``player`` of ``close_window`` (COUP-W1), reserved as a name; the turn actions
# (COUP-T1), those naming a ``target`` (COUP-A9) and the rule defining each: declared with the
# vocabulary, re-exported here with the other facts.
from referee.games.common.vocabulary import HOST  # noqa: F401
from referee.games.coup.vocabulary import ACTION_RULES, TARGETED, TURN_ACTIONS  # noqa: F401

DUCHESS = "duchess"
ASSASSIN = "assassin"
CAPTAIN = "captain"
AMBASSADOR = "ambassador"
INQUISITOR = "inquisitor"
COUNTESS = "countess"

CHARACTERS = (DUCHESS, ASSASSIN, CAPTAIN, AMBASSADOR, INQUISITOR, COUNTESS)
EXCHANGERS = (AMBASSADOR, INQUISITOR)

TREASURY_VALUE = 54
"""COUP-S7: 24 silver (1) and 6 gold (5); treasury + every player's coins = 54 always."""
START_COINS = 2
"""COUP-S6: coins each player starts with."""
FORCED_COUP_COINS = 10
"""COUP-T2: a player who begins their turn with this many coins or more must coup."""
HAND_SIZE = 2
"""COUP-S4: influence each player starts with."""

COSTS = {"coup": 7, "assassinate": 3}
"""COUP-A3, A5: coins paid when the action is declared."""
GAINS = {"income": 1, "foreign_aid": 2, "tax": 3}
"""COUP-A1, A2, A4: coins taken from the treasury."""
STEAL_MAX = 2
"""COUP-A6: coins a steal takes at most."""
EXCHANGE_DRAW = {AMBASSADOR: 2, INQUISITOR: 1}
"""COUP-A7, A8a: cards an exchange draws (and returns)."""


@functools.lru_cache(maxsize=8)
def characters_in_game(exchanger: str) -> tuple[str, ...]:
    """Return the five characters of a game whose exchanger is ``exchanger`` (COUP-S2);
    worked out once per exchanger (a tuple: nobody can change it)."""
    return tuple(c for c in CHARACTERS if c not in EXCHANGERS or c == exchanger)


def copies_per_character(player_count: int) -> int:
    """Return the copies of each character: 3 for 2–6 players, 4 for 7–8 (COUP-S3)."""
    return 4 if player_count >= 7 else 3


def full_deck(exchanger: str, player_count: int) -> list[str]:
    """Return every card of the game, grouped by character (COUP-S2, S3)."""
    copies = copies_per_character(player_count)
    return [c for c in characters_in_game(exchanger) for _ in range(copies)]


def claimed_character(action_type: str, exchanger: str) -> str | None:
    """Return the character a turn action claims, or ``None`` (COUP-A1–A8).

    ``exchange`` claims the game's exchanger (Ambassador COUP-A7 or Inquisitor COUP-A8a).
    """
    return {"tax": DUCHESS, "assassinate": ASSASSIN, "steal": CAPTAIN,
            "exchange": exchanger, "examine": INQUISITOR}.get(action_type)


def blocking_characters(action_type: str, exchanger: str) -> tuple[str, ...]:
    """Return the characters that may block ``action_type`` (COUP-A2, A5, A6, B2)."""
    return {"foreign_aid": (DUCHESS,), "assassinate": (COUNTESS,),
            "steal": (CAPTAIN, exchanger)}.get(action_type, ())


def only_target_blocks(action_type: str) -> bool:
    """True when only the target may block (COUP-A5, A6); foreign aid is open to all (A2)."""
    return action_type in ("assassinate", "steal")


def exchange_return_rule(exchanger: str) -> str:
    """Return the rule of an exchange's return: COUP-A7 (Ambassador) or COUP-A8a (Inquisitor)."""
    return "COUP-A7" if exchanger == AMBASSADOR else "COUP-A8a"


def is_card_name(value: object, mode: str) -> bool:
    """True when ``value`` names a character, or ``"unknown"`` in table mode (COUP-X1)."""
    return isinstance(value, str) and (value in CHARACTERS or (mode == "table"
                                                               and value == UNKNOWN))
