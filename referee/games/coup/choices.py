"""Private choices: lose_influence (COUP-L1), return_cards (A7, A8a), show_card and
examine_decide (A8b), choose_card (S5).

A card is named as a character; at a table (COUP-X1) ``"unknown"`` names a face-down card the
referee was not told about — except a card turned face up, which everyone sees.
"""
from __future__ import annotations

from itertools import combinations
from typing import Any

from referee.games.base import UNKNOWN, Problems, event
from referee.games.coup.apply import (DECLARE, DECIDE, END, advance, draw, emit_secret,
                                      shuffle_court, turn_up)
from referee.games.coup.rules import exchange_return_rule, is_card_name
from referee.games.coup.table import (COURT, can_take, forget_one, learn, named_privately,
                                      nameable_cards, spread, take)


def _check_card_name(state: dict[str, Any], card: Any, rule: str, where: str,
                     problems: Problems, face_up: bool = False) -> bool:
    """The card must be a character (or, for a face-down card at a table, unknown)."""
    if is_card_name(card, state["mode"]) and not (face_up and card == UNKNOWN):
        return True
    code = ("coup.card.not_a_character" if face_up or state["mode"] == "digital"
            else "coup.card.not_a_card_name")
    problems.flag(rule, code, where, name=repr(card))
    return False


def card_choices(state: dict[str, Any], pool: list[str], reader: str, place: str,
                 face_up: bool = False) -> list[str]:
    """Every name one card of ``pool`` (of ``place``) may be given, to ``reader`` (COUP-X1,
    V1); ``"unknown"`` too for an unknown card that stays face down."""
    names = nameable_cards(state, pool, reader, place)
    if UNKNOWN in pool and not face_up:
        names.append(UNKNOWN)
    return names


# --- lose_influence ------------------------------------------------------------------------
def check_lose(state: dict[str, Any], action: dict[str, Any], problems: Problems) -> None:
    """COUP-L1: the loser turns up one of their own face-down cards (X1 at a table)."""
    player, card = action["player"], action["card"]
    if not _check_card_name(state, card, "COUP-L1", "action.card", problems, face_up=True):
        return
    if not can_take(state, state["hands"][player], [card], player, player):
        rule = "COUP-X1" if state["mode"] == "table" else "COUP-L1"
        problems.flag(rule, "coup.lose.no_such_card", "action.card", player=player, card_name=card)


def play_lose(state: dict[str, Any], action: dict[str, Any], events: list) -> None:
    """Turn the card face up (L1); the loser may be out (L2) and the game over (E1)."""
    turn_up(state, action["player"], action["card"], state["loss"]["rule"], events)
    advance(state, events)


def legal_losses(state: dict[str, Any]) -> list[dict[str, Any]]:
    """One lose_influence per card the loser may turn up (L1, X1)."""
    player = state["loss"]["player"]
    return [{"type": "lose_influence", "player": player, "card": c}
            for c in card_choices(state, state["hands"][player], player, player, face_up=True)]


# --- return_cards (exchange) ---------------------------------------------------------------
def check_return(state: dict[str, Any], action: dict[str, Any], problems: Problems) -> None:
    """COUP-A7 / A8a: return exactly as many cards as were drawn, all from the exchanger's
    face-down cards and the draw."""
    turn = state["turn"]
    player, cards = action["player"], action["cards"]
    rule = exchange_return_rule(state["options"]["exchanger"])
    if player != turn["player"]:
        problems.flag(rule, "coup.exchange.not_the_exchanger", "action.player",
                      player=turn['player'])
        return
    count = len(turn["drawn"])
    if len(cards) != count:
        problems.flag(rule, "coup.exchange.wrong_count", "action.cards", player=player,
                      count=count, returned=len(cards))
    names_ok = all([_check_card_name(state, c, rule, f"action.cards[{i}]", problems)
                    for i, c in enumerate(cards)])
    if names_ok and not can_take(state, state["hands"][player] + turn["drawn"], cards, player,
                                 player):
        problems.flag(rule, "coup.exchange.not_in_pool", "action.cards", player=player,
                      names=', '.join(cards))


def play_return(state: dict[str, Any], action: dict[str, Any], events: list) -> None:
    """Keep the rest, put the returned cards in the court deck and shuffle it (A7, A8a)."""
    turn = state["turn"]
    player = action["player"]
    kept, returned, unknown = take(state, state["hands"][player] + turn["drawn"],
                                   action["cards"], player, player, "return_cards", ())
    named_privately(state, player, unknown)
    spread(state, player, COURT)  # to the others, any of the exchanger's cards may be returned
    state["hands"][player] = kept
    turn["drawn"] = []
    state["court"].extend(returned)
    for card in returned:
        if card != UNKNOWN:
            learn(state, player, card, [COURT])
    shuffle_court(state)
    emit_secret(events, "cards_returned", [player], {"cards": returned, "kept": list(kept)},
                player=player, count=len(returned))
    turn["stage"] = END
    advance(state, events)


def legal_returns(state: dict[str, Any]) -> list[dict[str, Any]]:
    """One return_cards per distinct set of cards of the pool (A7, A8a); at a table an unknown
    card is listed as ``"unknown"`` (it may also be named, X1)."""
    turn = state["turn"]
    pool = state["hands"][turn["player"]] + turn["drawn"]
    sets = sorted({tuple(sorted(c)) for c in combinations(pool, len(turn["drawn"]))})
    return [{"type": "return_cards", "player": turn["player"], "cards": list(s)} for s in sets]


# --- examine: show_card and examine_decide -------------------------------------------------
def check_show(state: dict[str, Any], action: dict[str, Any], problems: Problems) -> None:
    """COUP-A8b: the examined player chooses one of their own face-down cards."""
    target = state["turn"]["action"]["target"]
    player, card = action["player"], action["card"]
    if player != target:
        problems.flag("COUP-A8b", "coup.show.not_the_examined", "action.player", target=target)
        return
    if _check_card_name(state, card, "COUP-A8b", "action.card", problems) and not can_take(
            state, state["hands"][player], [card], player, player):
        rule = "COUP-X1" if state["mode"] == "table" else "COUP-A8b"
        problems.flag(rule, "coup.show.no_such_card", "action.card", player=player, card_name=card)


def play_show(state: dict[str, Any], action: dict[str, Any], events: list) -> None:
    """Show the card to the Inquisitor alone (A8b, V1); a named unknown card becomes known."""
    turn = state["turn"]
    player, card = action["player"], action["card"]
    rest, taken, unknown = take(state, state["hands"][player], [card], player, player,
                                "show_card", (turn["player"],))
    named_privately(state, player, unknown)
    if card != UNKNOWN:  # the Inquisitor now sees this copy in the examined hand
        forget_one(state, turn["player"], card, player)
        learn(state, turn["player"], card, [player])
    state["hands"][player] = rest + taken
    turn["shown"] = card
    turn["stage"] = DECIDE
    emit_secret(events, "card_shown", [turn["player"], player], {"card": card},
                player=player, to=turn["player"], rule="COUP-A8b")


def legal_shows(state: dict[str, Any]) -> list[dict[str, Any]]:
    """One show_card per card the examined player may show (A8b, X1)."""
    target = state["turn"]["action"]["target"]
    return [{"type": "show_card", "player": target, "card": c}
            for c in card_choices(state, state["hands"][target], target, target)]


def check_decide(state: dict[str, Any], action: dict[str, Any], problems: Problems) -> None:
    """COUP-A8b: the Inquisitor gives the card back or has it swapped."""
    actor = state["turn"]["player"]
    if action["player"] != actor:
        problems.flag("COUP-A8b", "coup.decide.not_the_inquisitor", "action.player", actor=actor)


def play_decide(state: dict[str, Any], action: dict[str, Any], events: list) -> None:
    """Give the card back, or swap it: shuffled into the court deck then a new card drawn
    (seed order) or drawn first (``examine_order: "reformation"``) — COUP-A8b."""
    turn = state["turn"]
    target, card = turn["action"]["target"], turn["shown"]
    turn["shown"] = None
    turn["stage"] = END
    if action["swap"]:
        hand, _, _ = take(state, state["hands"][target], [card], target, target,
                          "examine_decide", ())
        forget_one(state, turn["player"], card, target)  # it leaves the hand, seen by both
        spread(state, target, COURT)  # to the others, any card of the target may have gone
        if state["options"]["examine_order"] == "reformation":
            hand.append(draw(state, target))
            _into_court(state, card, (turn["player"], target))
        else:
            _into_court(state, card, (turn["player"], target))
            hand.append(draw(state, target))
        state["hands"][target] = hand
        emit_secret(events, "examined_card_swapped", [target], {"card": hand[-1]},
                    player=target, by=turn["player"], rule="COUP-A8b")
    else:
        events.append(event("examined_card_kept", player=target, by=turn["player"],
                            rule="COUP-A8b"))
    advance(state, events)


def _into_court(state: dict[str, Any], card: str, seen_by: tuple[str, ...]) -> None:
    """The examined card goes into the court deck, which is shuffled (A8b); ``seen_by`` know
    it is there (X1)."""
    state["court"].append(card)
    for seat in seen_by if card != UNKNOWN else ():
        learn(state, seat, card, [COURT])
    shuffle_court(state)


def legal_decisions(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Both examine_decide answers of the Inquisitor (A8b)."""
    actor = state["turn"]["player"]
    return [{"type": "examine_decide", "player": actor, "swap": s} for s in (False, True)]


# --- choose_card (2-player setup) ----------------------------------------------------------
def check_choose(state: dict[str, Any], action: dict[str, Any], problems: Problems) -> None:
    """COUP-S5: each player once chooses their second card from their own pile."""
    player, card = action["player"], action["card"]
    pile = state["piles"][player]
    if len(state["hands"][player]) > 1:
        problems.flag("COUP-S5", "coup.choose.already_chosen", "action.player", player=player)
    elif _check_card_name(state, card, "COUP-S5", "action.card", problems) and not can_take(
            state, pile, [card], player, "pile"):
        problems.flag("COUP-S5", "coup.choose.not_in_pile", "action.card", player=player,
                      card_name=card)


def play_choose(state: dict[str, Any], action: dict[str, Any], events: list) -> None:
    """Take the card; the pile's other four are out of the game, unseen (S5).  The first turn
    starts once both have chosen."""
    player = action["player"]
    rest, taken, _ = take(state, state["piles"][player], [action["card"]], player, "pile",
                          "choose_card", ())
    state["piles"][player] = rest
    state["hands"][player].append(taken[0])
    emit_secret(events, "card_chosen", [player], {"card": taken[0]}, player=player,
                rule="COUP-S5")
    if all(len(state["hands"][p]) == 2 for p in state["players"]):
        state["turn"]["stage"] = DECLARE
        events.append(event("turn_started", player=state["turn"]["player"],
                            number=state["turn"]["number"]))


def legal_choices(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Each player still to choose: one choose_card per card of their pile (S5)."""
    return [{"type": "choose_card", "player": p, "card": c} for p in state["players"]
            if len(state["hands"][p]) == 1
            for c in card_choices(state, state["piles"][p], p, "pile")]
