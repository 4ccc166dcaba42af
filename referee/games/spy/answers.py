"""Spying and its answer: which card is spied on, what the defender must answer, and what the
answer changes (SPY-P1, SPY-R1…R7).

Digital mode computes the answer (:func:`true_answer`); table mode takes it from the defender
and checks it against every public fact and every entered card (:func:`answer_violations`).
Both go through :func:`resolve_answer`, which records what the answer makes public.
"""
from __future__ import annotations

from typing import Any

from referee.games.base import UNKNOWN, Violation, event, violation
from referee.games.spy.positions import faced_index, mirror_index
from referee.games.spy.rules import (BOMB, CARD_TYPE, TOP_SECRET_2, base_cards,
                                     movement_table, short_repr)
from referee.games.spy.table import (ANSWERS, CARD_ANSWERS, answer_allows, exposure_target,
                                     narrowed, stays_consistent)

ANSWER_RULE = {"safe": "SPY-R2", "top_secret": "SPY-R2", "exposed": "SPY-R3", "tsss": "SPY-R4",
               "lit_bomb": "SPY-R5", "already_exposed": "SPY-R6"}


def faced_position(base: dict[str, Any]) -> int:
    """Return the index of the card the base's own Spy faces (position model, SPY-M3)."""
    return faced_index(base["spy_gap"], base["facing"], len(base["cards"]))


def spied_position(state: dict[str, Any], attacker: str) -> int:
    """Return the defender's index spied on by ``attacker``: the mirror of the card the
    attacker's Spy faces (SPY-P1, ``options.mirror``)."""
    base = state["bases"][attacker]
    return mirror_index(faced_position(base), len(base["cards"]), state["options"]["mirror"])


def true_answer(base: dict[str, Any], position: int) -> tuple[str, str | None]:
    """Return the truthful ``(answer, card shown or None)`` for a known card (digital mode).

    SPY-R6 an exposed card: ``already_exposed``.  SPY-R5 a lit bomb: ``lit_bomb`` and the bomb.
    SPY-R4 an unlit bomb: ``tsss``.  SPY-R3 the exposure target: ``exposed`` and the card.
    SPY-R2 any other Safe or Top Secret: its type, never its number.
    """
    card = base["cards"][position]
    if position in base["exposed"]:
        return "already_exposed", None
    if CARD_TYPE[card] == BOMB:
        return ("lit_bomb", card) if position in base["lit"] else ("tsss", None)
    if card == exposure_target(base):
        return "exposed", card
    return CARD_TYPE[card], None


def answer_violations(state: dict[str, Any], defender: str, position: int, answer: Any,
                      card: Any) -> list[Violation]:
    """Return why a defender's table-mode ``answer`` (and ``card``) cannot be true.

    Checks, in order: the answer's shape; the public state of the spied position (exposed →
    ``already_exposed`` SPY-R6, lit → ``lit_bomb`` SPY-R5); the exposure order (SPY-R1/R3);
    a shown card against the number declared for it (SPY-C3/M1); and that some arrangement of
    the defender's cards still fits every answer so far and every entered card.
    """
    if answer not in ANSWERS:
        return [violation("SPY-R2", "spy.answer.unknown", "action.answer",
                          choices=", ".join(ANSWERS), given=short_repr(answer))]
    base = state["bases"][defender]
    deck = base_cards(len(state["players"]))
    if answer in CARD_ANSWERS and card not in deck:
        return [violation(ANSWER_RULE[answer], "spy.answer.card_missing", "action.card",
                          answer=short_repr(answer), choices=", ".join(deck), given=short_repr(card))]
    if answer not in CARD_ANSWERS and card is not None:
        return [violation(ANSWER_RULE[answer], "spy.answer.card_extra", "action.card",
                          answer=short_repr(answer))]
    status = _status_violation(base, position, answer, defender)
    if status:
        return [status]
    target = exposure_target(base)
    if answer == "exposed" and CARD_TYPE[card] == BOMB:
        return [violation("SPY-R3", "spy.answer.bomb_exposed", "action.card", card=card)]
    if answer == "exposed" and target is None:
        return [violation("SPY-R1", "spy.answer.all_exposed", "action.card",
                          defender=defender, card=card)]
    if answer == "exposed" and card != target:
        # ``cards`` (one card) names the target: a second card parameter rendered as a term
        return [violation("SPY-R1", "spy.answer.out_of_order", "action.card",
                          defender=defender, cards=[target], card=card)]
    if answer in CARD_ANSWERS:
        declared = base["declared"][position]
        number = movement_table(state["mode"], state["options"].get("card_moves")).get(card)
        if declared is not None and number is not None and number != declared:
            return [violation("SPY-C3", "spy.answer.declared_number", "action.card",
                              player=defender, position=position, declared=declared,
                              card=card, number=number)]
    allowed = answer_allows(answer, target, card)
    if not stays_consistent(base, position, allowed, deck):
        return [_contradiction(base, position, allowed, answer, defender)]
    return []


def _status_violation(base: dict[str, Any], position: int, answer: str,
                      defender: str) -> Violation | None:
    exposed, lit = position in base["exposed"], position in base["lit"]
    where = {"player": defender, "position": position}
    if exposed and answer != "already_exposed":
        return violation("SPY-R6", "spy.answer.already_exposed", "action.answer",
                         card=base["cards"][position], **where)
    if not exposed and answer == "already_exposed":
        return violation("SPY-R6", "spy.answer.not_exposed", "action.answer", **where)
    if lit and answer != "lit_bomb":
        return violation("SPY-R5", "spy.answer.lit", "action.answer", **where)
    if not lit and answer == "lit_bomb":
        return violation("SPY-R5", "spy.answer.not_lit", "action.answer", **where)
    return None


def _contradiction(base: dict[str, Any], position: int, allowed: set[str], answer: str,
                   defender: str) -> Violation:
    """The violation of an answer no arrangement of the defender's base fits."""
    rule, where = ANSWER_RULE[answer], {"player": defender, "position": position}
    public = base["candidates"][position]
    if not allowed & set(public):
        return violation(rule, "spy.answer.contradicts_public", "action.answer",
                         answer=short_repr(answer), cards=list(public), **where)
    known = base["cards"][position]
    if known != UNKNOWN and known not in allowed:
        return violation(rule, "spy.answer.contradicts_entered", "action.answer",
                         answer=short_repr(answer), card=known, **where)
    return violation(rule, "spy.answer.no_arrangement", "action.answer", answer=short_repr(answer))


def legal_answers(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Return every answer the pending defender may give now (table mode)."""
    pending = state["turn"]["pending"]
    defender, position = pending["defender"], pending["position"]
    deck = base_cards(len(state["players"]))
    shapes = [(a, None) for a in ANSWERS if a not in CARD_ANSWERS]
    shapes += [(a, c) for a in CARD_ANSWERS for c in deck]
    out = []
    for answer, card in shapes:
        if not answer_violations(state, defender, position, answer, card):
            action = {"type": "answer", "player": defender, "answer": answer}
            if card is not None:
                action["card"] = card
            out.append(action)
    return out


def resolve_answer(state: dict[str, Any], attacker: str, defender: str, position: int,
                   answer: str, card: str | None) -> list[dict[str, Any]]:
    """Apply a (checked) answer to ``state`` in place; return its events.

    SPY-R2 narrows what the card may be; SPY-R3 exposes the target (public from then on);
    SPY-R4 lights the bomb (position public, card hidden); SPY-R5 shows the lit bomb and
    eliminates the attacker; SPY-R6 changes nothing; SPY-R7 eliminates the defender whose
    Top Secret 2 is exposed (``options.top_secret_2_eliminates``).
    """
    base = state["bases"][defender]
    deck = base_cards(len(state["players"]))
    shown = {"card": card} if answer in CARD_ANSWERS else {}
    events = [event("answer", player=defender, attacker=attacker, position=position,
                    answer=answer, **shown)]
    if state["mode"] == "digital" and answer in ("safe", "top_secret", "tsss"):
        events.append(event("spied_card", visible_to=[defender], player=defender,
                            attacker=attacker, position=position,
                            card=base["cards"][position]))
    if answer != "already_exposed":
        allowed = answer_allows(answer, exposure_target(base), card)
        base["candidates"] = narrowed(base, position, allowed, deck)
    if answer in CARD_ANSWERS:
        base["cards"][position] = card
    if answer == "tsss":
        base["lit"] = sorted(base["lit"] + [position])
    elif answer == "exposed":
        base["exposed"].append(position)
        if card == TOP_SECRET_2 and state["options"]["top_secret_2_eliminates"]:
            events.append(eliminate(state, defender, "SPY-R7"))
    elif answer == "lit_bomb":
        events.append(eliminate(state, attacker, "SPY-R5"))
    return events


def eliminate(state: dict[str, Any], player: str, rule: str) -> dict[str, Any]:
    """Mark ``player`` eliminated in ``state`` (in place); return the public event (SPY-E1)."""
    state["eliminated"].append(player)
    return event("eliminated", player=player, rule=rule)
