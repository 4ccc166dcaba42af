"""Is a submitted All Fours snapshot possible?  Every check names the field it fails on.

``check(engine, state)`` raises ``ImpossibleState`` listing every problem: wrong types, a card
twice (AF-D1), a kicked card in a hand (AF-K1), unequal hand sizes (AF-D3, AF-B3), a trump that
is not the last kick's suit, tricks won by the wrong player (AF-P5), scores that are not
whole numbers.  It runs before every stateless call on a client-supplied state.
"""
from __future__ import annotations

import dataclasses

from collections import Counter
from typing import Any

from referee.games.allfours.consistency import check_flow
from referee.games.allfours.rules import HAND_SIZE, RUN_SIZE, trick_winner_index
from referee.games.base import UNKNOWN, ImpossibleState, InvalidSetup, Problems, Violation
from referee.games.common.cards import PACK, describe, is_card, suit_of

PHASES = ("deal", "beg", "answer", "play", "hand_over", "game_over")


def side_problems(players: list, sides: Any, where: str) -> list[Violation]:
    """Sides must be two, partitioning the players; with 4, partners sit opposite (AF-D1)."""
    bad = [Violation("AF-D1", "sides must map two side names to their players: partners sit "
                     "opposite (players[i] and players[i+2]); with 2 players one each.", where)]
    if not isinstance(sides, dict) or len(sides) != 2:
        return bad
    if not all(isinstance(m, list) for m in sides.values()):
        return bad
    members = sorted(str(m) for ms in sides.values() for m in ms)
    if members != sorted(str(p) for p in players):
        return bad
    if len(players) == 2 and not all(len(ms) == 1 for ms in sides.values()):
        return bad
    if len(players) == 4 and not all(
            {players[0], players[2]} == set(ms) or {players[1], players[3]} == set(ms)
            for ms in sides.values()):
        return bad
    return []


def entered_deal_problems(players: list[str], deal: dict[str, Any]) -> list[Violation]:
    """An entered deal: 6 cards to every player, the stock top first, the 52 cards each once."""
    out = []
    hands = deal.get("hands") if isinstance(deal, dict) else None
    stock = deal.get("stock") if isinstance(deal, dict) else None
    if not isinstance(hands, dict) or set(hands) != set(players):
        return [Violation("AF-D3", "deal.hands must give a hand to each player and nobody else.",
                          "deal.hands")]
    if not isinstance(stock, list):
        return [Violation("AF-D3", "deal.stock must list the undealt cards, top first.",
                          "deal.stock")]
    for p in players:
        if not isinstance(hands[p], list) or len(hands[p]) != HAND_SIZE:
            out.append(Violation("AF-D3", f"{p} must be dealt exactly {HAND_SIZE} cards.",
                                 f"deal.hands.{p}"))
    out += _card_problems([("deal.hands." + p, c) for p in players
                           if isinstance(hands[p], list) for c in hands[p]] +
                          [("deal.stock", c) for c in stock], full_pack=True)
    return out


def _card_problems(located: list[tuple[str, Any]], full_pack: bool) -> list[Violation]:
    out = []
    counts = Counter(c for _, c in located if c != UNKNOWN)
    for where, card in located:
        if card == UNKNOWN:
            continue
        if not is_card(card):
            out.append(Violation("AF-D1", f"{card!r} is not a card (rank 2-10, J, Q, K, A and "
                                 "suit C, D, H, S).", where))
    for card, n in sorted(counts.items(), key=lambda kv: str(kv[0])):
        if n > 1 and is_card(card):
            places = sorted({w for w, c in located if c == card})
            out.append(Violation("AF-D1", f"The {describe(card)} appears {n} times "
                                 f"({', '.join(places)}); the pack has one.", places[0]))
    if full_pack and not out and len(counts) != len(PACK):
        missing = sorted(set(PACK) - set(counts))
        out.append(Violation("AF-D1", f"The deal must account for all 52 cards; missing: "
                             f"{', '.join(missing)}.", "deal.stock"))
    return out


def check(engine, state: dict[str, Any]) -> None:
    """Raise :class:`ImpossibleState` listing every problem of ``state``."""
    problems = Problems()
    try:
        _check(engine, state, problems)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        problems.add("AF-D1", f"The state is malformed ({type(exc).__name__}: {exc}).", "state")
    problems.raise_as(ImpossibleState)


def _check(engine, state, problems: Problems) -> None:
    players = state["players"]
    if not isinstance(players, list) or len(players) not in (2, 4) or \
            len(set(map(str, players))) != len(players) or \
            not all(isinstance(p, str) for p in players):
        problems.add("AF-D1", "players must be 2 or 4 distinct names.", "state.players")
        return
    for v in side_problems(players, state["sides"], "state.sides"):
        problems.items.append(v)
    try:
        if engine.resolve_options(state["options"]) != state["options"]:
            problems.add("AF-S6", "state.options must list every option.", "state.options")
    except InvalidSetup as exc:
        problems.items += [dataclasses.replace(v, field="state." + (v.field or "options"))
                           for v in exc.violations]
    if state["mode"] not in ("digital", "table"):
        problems.add("AF-D1", "mode must be digital or table.", "state.mode")
    if state["phase"] not in PHASES:
        problems.add("AF-D1", f"phase must be one of {', '.join(PHASES)}.", "state.phase")
    for who in ("dealer", "next_dealer"):
        if state[who] is not None and state[who] not in players:
            problems.add("AF-D2", f"{who} must be one of the players.", f"state.{who}")
    for name in state["sides"]:
        for key in ("score", "hand_points"):
            value = state[key][name]
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                problems.add("AF-S6", f"{key} of {name} must be a whole number ≥ 0.",
                             f"state.{key}.{name}")
    if problems:
        return
    check_flow(state, problems)
    if state["phase"] == "deal" and not state["kicks"]:
        return
    _check_cards(state, problems)


def _check_cards(state, problems: Problems) -> None:
    players = state["players"]
    located = [(f"state.hands.{p}", c) for p in players for c in state["hands"][p]]
    located += [(f"state.exposed.{p}", c) for p in players for c in state["exposed"][p]]
    located += [("state.kicks", c) for c in state["kicks"]]
    located += [("state.stock", c) for c in state["stock"]]
    for i, trick in enumerate(state["tricks"] + [state["trick"]]):
        located += [(f"state.tricks[{i}]", c) for c in trick["cards"]]
    if state["mode"] == "digital" and any(c == UNKNOWN for _, c in located):
        problems.add("AF-D1", "A digital-mode state knows every card: no 'unknown'.",
                     "state.hands")
    problems.items += _card_problems(located, full_pack=False)
    if problems:
        return
    if state["mode"] == "digital" and len(located) != len(PACK):
        problems.add("AF-D1", f"The cards in hands, stock, kicks and tricks number "
                     f"{len(located)}, not 52.", "state")
    if not state["kicks"] or state["trump"] != suit_of(state["kicks"][-1]):
        problems.add("AF-K1", "trump must be the suit of the last kick.", "state.trump")
    runs = len(state["kicks"]) - 1 if state["beg"] == "run_pack" else 0
    dealt_each = HAND_SIZE + RUN_SIZE * runs
    played = Counter(p for t in state["tricks"] + [state["trick"]] for p in t["players"])
    for p in players:
        held = len(state["hands"][p]) + len(state["exposed"][p]) + played[p]
        if held != dealt_each:
            problems.add("AF-D3", f"{p} holds and has played {held} cards; every player was "
                         f"dealt {dealt_each} this hand.", f"state.hands.{p}")
        by_player = [c for t in state["tricks"] + [state["trick"]]
                     for c, who in zip(t["cards"], t["players"]) if who == p]
        if state["mode"] == "digital" and sorted(state["dealt"][p]) != sorted(
                state["hands"][p] + state["exposed"][p] + by_player):
            problems.add("AF-S1", f"dealt.{p} must be the cards {p} holds plus those played.",
                         f"state.dealt.{p}")
    for i, trick in enumerate(state["tricks"]):
        if len(trick["cards"]) != len(players) or len(trick["players"]) != len(players):
            problems.add("AF-X1", f"Trick {i + 1} must have one card per player.",
                         f"state.tricks[{i}]")
        elif trick["winner"] != trick["players"][trick_winner_index(trick["cards"],
                                                                    state["trump"])]:
            problems.add("AF-P5", f"Trick {i + 1} was not won by {trick['winner']}.",
                         f"state.tricks[{i}].winner")
