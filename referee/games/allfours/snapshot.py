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
from referee.games.allfours.record import check_record, per_side_ok
from referee.games.allfours.rules import (HAND_SIZE, MAX_HAND, RUN_SIZE, max_runs,
                                          trick_winner_index)
from referee.games.base import (UNKNOWN, ImpossibleState, InvalidSetup, Problems, Violation,
                                violation)
from referee.games.common.card_sets import distinct_in
from referee.games.common.cards import PACK, PACK_SET, is_card, suit_of

PHASES = ("deal", "beg", "answer", "play", "hand_over", "game_over")


def side_problems(players: list, sides: Any, where: str) -> list[Violation]:
    """Sides must be two, partitioning the players; with 4, partners sit opposite (AF-D1)."""
    bad = [violation("AF-D1", "allfours.sides.partition", where)]
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
        return [violation("AF-D3", "allfours.setup.deal_hands", "deal.hands")]
    if not isinstance(stock, list):
        return [violation("AF-D3", "allfours.setup.deal_stock", "deal.stock")]
    for p in players:
        if not isinstance(hands[p], list) or len(hands[p]) != HAND_SIZE:
            out.append(violation("AF-D3", "allfours.setup.hand_size", f"deal.hands.{p}",
                                 player=p, size=HAND_SIZE))
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
            out.append(violation("AF-D1", "allfours.card.not_a_card_notation", where,
                                 value=repr(card)))
    for card, n in sorted(counts.items(), key=lambda kv: str(kv[0])):
        if n > 1 and is_card(card):
            places = sorted({w for w, c in located if c == card})
            out.append(violation("AF-D1", "allfours.card.twice", places[0], card=card, times=n,
                                 places=", ".join(places)))
    if full_pack and not out and len(counts) != len(PACK):
        missing = sorted(set(PACK) - set(counts))
        out.append(violation("AF-D1", "allfours.setup.deal_missing", "deal.stock", cards=missing))
    return out


def distinct_cards(cards: list[Any]) -> bool:
    """True when every entry of ``cards`` but ``"unknown"`` is a card of the pack and none is
    there twice: exactly when :func:`_card_problems` (without ``full_pack``) finds nothing, in
    one pass and without naming places (``tests/allfours/test_snapshot_cards_fast.py``)."""
    return distinct_in(cards, PACK_SET, unknown_ok=True)


def check(engine, state: dict[str, Any]) -> None:
    """Raise :class:`ImpossibleState` listing every problem of ``state``."""
    problems = Problems()
    try:
        _check(engine, state, problems)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        problems.flag("AF-D1", "allfours.snapshot.malformed", "state",
                      error=f"{type(exc).__name__}: {exc}"[:200])
    problems.raise_as(ImpossibleState)


def _check(engine, state, problems: Problems) -> None:
    players = state["players"]
    if not isinstance(players, list) or len(players) not in (2, 4) or \
            len(set(map(str, players))) != len(players) or \
            not all(isinstance(p, str) for p in players):
        problems.flag("AF-D1", "allfours.snapshot.players", "state.players")
        return
    for v in side_problems(players, state["sides"], "state.sides"):
        problems.items.append(v)
    try:
        if engine.resolve_options(state["options"]) != state["options"]:
            problems.flag("AF-S6", "allfours.snapshot.options_incomplete", "state.options")
    except InvalidSetup as exc:
        problems.items += [dataclasses.replace(v, field="state." + (v.field or "options"))
                           for v in exc.violations]
    if state["mode"] not in ("digital", "table"):
        problems.flag("AF-D1", "allfours.snapshot.mode", "state.mode")
    if state["phase"] not in PHASES:
        problems.flag("AF-D1", "allfours.snapshot.phase", "state.phase", phases=", ".join(PHASES))
    for who in ("dealer", "next_dealer"):
        if state[who] is not None and state[who] not in players:
            problems.flag("AF-D2", "allfours.snapshot.not_a_player", f"state.{who}", key=who)
    if state.get("game") != engine.name:
        problems.flag("AF-D1", "allfours.snapshot.game", "state.game", game=engine.name)
    for key in ("score", "hand_points"):
        per_side_ok(state, key, problems)
    if problems or _too_long(state, problems):
        return
    _trick_shapes(state, problems)
    if problems:
        return
    check_flow(state, problems)
    if not problems:  # the record is scored again from the flow just checked
        check_record(state, problems)
    if state["phase"] == "deal" and not state["kicks"]:
        return
    _check_cards(state, problems)


def _too_long(state, problems: Problems) -> bool:
    """Flag every list longer than any game allows (AF-B3: at most 21 cards a hand and as many
    tricks; AF-D1: 52 cards; a claim or renege per card played) and say whether one was: the
    checks that walk the lists (each bounded by these) then do not run, so a huge snapshot
    costs one pass over its list lengths (issue 12 item 3)."""
    players = state["players"]
    limits = [("state.tricks", state["tricks"], MAX_HAND),
              ("state.kicks", state["kicks"], max_runs(len(players)) + 1),
              ("state.stock", state["stock"], len(PACK)),
              ("state.claims", state["claims"], MAX_HAND * len(players)),
              ("state.reneges", state["reneges"], MAX_HAND * len(players)),
              ("state.trick.cards", state["trick"]["cards"], len(players))]
    for key in ("hands", "dealt", "exposed"):
        if not isinstance(state[key], dict) or set(state[key]) != set(players):
            problems.flag("AF-D1", "allfours.snapshot.not_per_player", f"state.{key}", key=key)
            continue
        limits += [(f"state.{key}.{p}", state[key][p], MAX_HAND) for p in players]
    for where, items, limit in limits:
        if not isinstance(items, list):
            problems.flag("AF-D1", "allfours.snapshot.not_a_list", where, key=where)
        elif len(items) > limit:
            problems.flag("AF-B3", "allfours.snapshot.too_long", where, key=where,
                          count=len(items), limit=limit)
    return bool(problems)


def _trick_shapes(state, problems: Problems) -> None:
    """Each trick lists its cards and players; a completed one its winner, the current one
    none (AF-P5)."""
    for i, trick in enumerate(state["tricks"] + [state["trick"]]):
        done = i < len(state["tricks"])
        where = f"state.tricks[{i}]" if done else "state.trick"
        for key in ("leader", "cards", "players") + (("winner",) if done else ()):
            if key not in trick:
                problems.flag("AF-P5", "allfours.snapshot.trick_field", f"{where}.{key}",
                              key=key)
        if "leader" in trick and not (isinstance(trick["leader"], str)
                                      and trick["leader"] in state["players"]):
            problems.flag("AF-P1", "allfours.snapshot.trick_field", f"{where}.leader",
                          key="leader")
        if not done and "winner" in trick:
            problems.flag("AF-P5", "allfours.snapshot.trick_field", f"{where}.winner",
                          key="winner")


def _table_hands(state, problems: Problems) -> None:
    """Table mode: a hand is face down, so every card in it is ``unknown`` until exposed
    (AF-P6) or played; ``dealt`` is then what each player played (AF-S1)."""
    for p in state["players"]:
        if any(c != UNKNOWN for c in state["hands"][p]):
            problems.flag("AF-P6", "allfours.snapshot.table_hand_known", f"state.hands.{p}",
                          player=p)
        played = [c for t in state["tricks"] + [state["trick"]]
                  for c, who in zip(t["cards"], t["players"]) if who == p]
        if sorted(state["dealt"][p]) != sorted(played):
            problems.flag("AF-S1", "allfours.snapshot.dealt", f"state.dealt.{p}", player=p)


def _places(state) -> list[tuple[str, list]]:
    """Every place cards lie, as ``(field, cards)``: hands, exposed, kicks, stock, tricks."""
    players = state["players"]
    places = [(f"state.hands.{p}", state["hands"][p]) for p in players]
    places += [(f"state.exposed.{p}", state["exposed"][p]) for p in players]
    places += [("state.kicks", state["kicks"]), ("state.stock", state["stock"])]
    return places + [(f"state.tricks[{i}]", trick["cards"])
                     for i, trick in enumerate(state["tricks"] + [state["trick"]])]


def _check_cards(state, problems: Problems) -> None:
    players = state["players"]
    tricks = state["tricks"] + [state["trick"]]
    cards = [c for p in players for c in state["hands"][p]]  # the places of _places, in order
    cards += [c for p in players for c in state["exposed"][p]]
    cards += state["kicks"] + state["stock"] + [c for trick in tricks for c in trick["cards"]]
    if state["mode"] == "digital" and UNKNOWN in cards:
        problems.flag("AF-D1", "allfours.snapshot.digital_unknown", "state.hands")
    if not distinct_cards(cards):  # then _card_problems finds what is wrong, and where
        problems.items += _card_problems([(where, c) for where, held in _places(state)
                                          for c in held], full_pack=False)
    if problems:
        return
    if state["mode"] == "table":
        _table_hands(state, problems)
    if state["mode"] == "digital" and len(cards) != len(PACK):
        problems.flag("AF-D1", "allfours.snapshot.not_52", "state", count=len(cards))
    if not state["kicks"] or state["trump"] != suit_of(state["kicks"][-1]):
        problems.flag("AF-K1", "allfours.snapshot.trump", "state.trump")
    runs = len(state["kicks"]) - 1 if state["beg"] == "run_pack" else 0
    dealt_each = HAND_SIZE + RUN_SIZE * runs
    played = Counter(p for t in tricks for p in t["players"])  # every one hashable, then
    by_player: dict[Any, list[str]] = {p: [] for p in players}
    for trick in tricks:
        for card, who in zip(trick["cards"], trick["players"]):
            by_player.setdefault(who, []).append(card)  # a non-player's: never read
    for p in players:
        held = len(state["hands"][p]) + len(state["exposed"][p]) + played[p]
        if held != dealt_each:
            problems.flag("AF-D3", "allfours.snapshot.hand_size", f"state.hands.{p}", player=p,
                          held=held, dealt=dealt_each)
        if state["mode"] == "digital" and sorted(state["dealt"][p]) != sorted(
                state["hands"][p] + state["exposed"][p] + by_player[p]):
            problems.flag("AF-S1", "allfours.snapshot.dealt", f"state.dealt.{p}", player=p)
    for i, trick in enumerate(state["tricks"]):
        if len(trick["cards"]) != len(players) or len(trick["players"]) != len(players):
            problems.flag("AF-X1", "allfours.snapshot.trick_size", f"state.tricks[{i}]",
                          number=i + 1)
        elif trick["winner"] != trick["players"][trick_winner_index(trick["cards"],
                                                                    state["trump"])]:
            problems.flag("AF-P5", "allfours.snapshot.trick_winner", f"state.tricks[{i}].winner",
                          number=i + 1, winner=trick["winner"])
