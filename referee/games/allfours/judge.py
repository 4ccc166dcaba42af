"""Judging an All Fours action: which rules it breaks in a given state.

``violations(state, action)`` returns every :class:`Violation` (rule ID + sentence); an empty
list means the action is legal.  Rule IDs refer to ``shared/rules/allfours.md``.
"""
from __future__ import annotations

from typing import Any

from referee.games.allfours.play import next_to_play
from referee.games.allfours.rules import follow_violation, max_runs, player_right_of, side_of
from referee.games.base import UNKNOWN, Violation
from referee.games.common.cards import SUIT_NAMES, describe, is_card, suit_of

ACTION_TYPES = ("deal", "stand", "beg", "give_one", "run_pack", "play", "call", "expose",
                "misdeal")
_RULE_TEXT = {"AF-P2": "to a trump lead a player holding trump must play trump",
              "AF-P3": "a player holding the suit led must follow suit or trump",
              "AF-P4": "undertrumping is not allowed while holding a card that is not trump"}


def violations(state: dict[str, Any], action: dict[str, Any]) -> list[Violation]:
    """Every rule ``action`` breaks in ``state`` (empty: legal)."""
    kind, player = action.get("type"), action.get("player")
    if kind not in ACTION_TYPES:
        return [Violation("AF-VOCAB", f"Unknown action type {kind!r}; All Fours actions are "
                          f"{', '.join(ACTION_TYPES)}.", "action.type")]
    if player not in state["players"]:
        return [Violation("AF-D1", f"{player!r} is not a player in this game.", "action.player")]
    if state["phase"] == "game_over":
        return [Violation("AF-S6", f"The game is over: {state['winner']} won.")]
    return _CHECKS[kind](state, action, player)


def _deal(state, action, player):
    out = []
    if state["phase"] not in ("hand_over", "deal"):
        return [Violation("AF-D3", "A hand is in progress: nobody deals now.")]
    if player != state["next_dealer"]:
        out.append(Violation("AF-D2", f"The deal passes to the right: {state['next_dealer']} "
                             f"deals now, not {player}."))
    out += _kick_field(state, action.get("kick"), "action.kick", required=True)
    return out


def _kick_field(state, kick, where, required) -> list[Violation]:
    if state["mode"] == "digital":
        if kick is not None:
            return [Violation("AF-K1", "In digital mode the service turns the kick; do not send "
                              "one.", where)]
        return []
    if kick is None:
        return [Violation("AF-K1", "In table mode the dealer must say which card was kicked.",
                          where)] if required else []
    if not is_card(kick):
        return [Violation("AF-D1", f"{kick!r} is not a card.", where)]
    return []


def _stand_or_beg(state, action, player):
    if state["phase"] != "beg":
        return [Violation("AF-B1", "Standing or begging is only possible before play starts, "
                          "once per hand.")]
    right = player_right_of(state["players"], state["dealer"])
    if player != right:
        return [Violation("AF-B1", f"Only the player on the dealer's right ({right}) may "
                          f"stand or beg.")]
    return []


def _dealer_answer(state, action, player):
    if state["phase"] != "answer":
        return [Violation("AF-B2", "The dealer answers only a beg: there is none to answer.")]
    if player != state["dealer"]:
        return [Violation("AF-B2", f"Only the dealer ({state['dealer']}) may answer the beg.")]
    if action["type"] != "run_pack":
        return []
    return _table_kicks(state, action.get("kicks"))


def _table_kicks(state, kicks) -> list[Violation]:
    """Table mode: the kicks turned while running the pack (AF-B3)."""
    if state["mode"] == "digital":
        return [] if kicks is None else [Violation(
            "AF-B3", "In digital mode the service runs the pack; do not send kicks.",
            "action.kicks")]
    if not kicks:
        return [Violation("AF-B3", "In table mode list the kicks turned while running the pack.",
                          "action.kicks")]
    out = []
    limit = max_runs(len(state["players"]))
    seen = set(state["kicks"])
    for i, kick in enumerate(kicks):
        where = f"action.kicks[{i}]"
        if not is_card(kick):
            out.append(Violation("AF-D1", f"{kick!r} is not a card.", where))
            continue
        if kick in seen:
            out.append(Violation("AF-D1", f"{describe(kick)} was already kicked this hand.", where))
        seen.add(kick)
        same = suit_of(kick) == state["trump"]
        last = i == len(kicks) - 1
        if not last and not same:
            out.append(Violation("AF-B3", "Running stops at the first kick of a new suit; "
                                 f"{kick} changed trump but more kicks follow.", where))
        if last and same and len(kicks) < limit:
            out.append(Violation("AF-B3", f"{kick} repeats the trump suit: the dealer must run "
                                 "the pack again (list that kick too).", where))
    if len(kicks) > limit:
        out.append(Violation("AF-B3", f"The pack can be run at most {limit} times with "
                             f"{len(state['players'])} players.", "action.kicks"))
    return out


def _play(state, action, player):
    card = action.get("card")
    if not is_card(card):
        return [Violation("AF-D1", f"{card!r} is not a card.", "action.card")]
    if state["phase"] != "play":
        return [Violation("AF-B1" if state["phase"] in ("beg", "answer") else "AF-D3",
                          "No card can be played now: " + _phase_text(state))]
    out = []
    due = next_to_play(state)
    if player != due:
        out.append(Violation("AF-P1", f"It is {due}'s turn to play, not {player}'s."))
    out += _holding(state, player, card)
    if not out:
        out += _following(state, player, card)
    return out


def _holding(state, player, card) -> list[Violation]:
    """The card must be in the player's hand: known there (digital), or unseen so far (table)."""
    hand = state["hands"][player]
    if card in hand or card in state["exposed"][player]:
        return []
    if state["mode"] == "digital" or UNKNOWN not in hand:
        return [Violation("AF-P1", f"{player} does not hold the {describe(card)}.",
                          "action.card")]
    where = _seen_where(state, card)
    if where:
        return [Violation("AF-K1" if card in state["kicks"] else "AF-D1", f"The {describe(card)} cannot be in {player}'s hand: it "
                          f"{where}.", "action.card")]
    return []


def _seen_where(state, card) -> str | None:
    if card in state["kicks"]:
        return "was kicked"
    for i, trick in enumerate(state["tricks"], start=1):
        if card in trick["cards"]:
            return f"was played in trick {i}"
    if card in state["trick"]["cards"]:
        return "was played to this trick"
    for other in state["players"]:
        if card in state["hands"][other] or card in state["exposed"][other]:
            return f"is known to be {other}'s"
    return None


def _following(state, player, card) -> list[Violation]:
    """AF-P2/P3/P4 against the cards known to be in the hand."""
    known = [c for c in state["hands"][player] + state["exposed"][player] if c != UNKNOWN]
    rule = follow_violation(known + [card], state["trick"]["cards"], card, state["trump"],
                            state["options"]["undertrump"])
    if rule is None:
        return []
    led = state["trick"]["cards"][0]
    return [Violation(rule, f"{player} may not play the {describe(card)} to a "
                      f"{describe(led)} lead: {_RULE_TEXT[rule]} (trump is "
                      f"{SUIT_NAMES[state['trump']]}).", "action.card")]


def _call(state, action, player):
    card = action.get("card")
    if not is_card(card):
        return [Violation("AF-D1", f"{card!r} is not a card.", "action.card")]
    owner = next((p for p in state["players"] if card in state["exposed"][p]), None)
    if owner is None:
        return [Violation("AF-P6", f"The {describe(card)} is not an exposed card.", "action.card")]
    if side_of(state["sides"], owner) == side_of(state["sides"], player):
        return [Violation("AF-P6", "Only an opponent may call an exposed card.")]
    if state["phase"] != "play" or next_to_play(state) != owner:
        return [Violation("AF-P6", f"An exposed card can be called only when its owner "
                          f"({owner}) is next to play.")]
    return _following(state, owner, card)


def _expose(state, action, player):
    card = action.get("card")
    if state["mode"] != "table":
        return [Violation("AF-P6", "Exposing a card is a table-mode record; in digital mode a "
                          "play out of turn is refused (AF-P1).")]
    if not is_card(card):
        return [Violation("AF-D1", f"{card!r} is not a card.", "action.card")]
    if state["phase"] != "play":
        return [Violation("AF-P6", "Cards are exposed only during play.")]
    return _holding(state, player, card) or (
        [Violation("AF-P6", f"The {describe(card)} is already exposed.")]
        if card in state["exposed"][player] else [])


def _misdeal(state, action, player):
    if state["mode"] != "table":
        return [Violation("AF-I2", "In digital mode the service deals: there is no misdeal.")]
    if state["phase"] != "beg":
        return [Violation("AF-I2", "A misdeal is claimed before play starts.")]
    return []


def _phase_text(state) -> str:
    return {"beg": f"{player_right_of(state['players'], state['dealer'])} must first stand "
                   "or beg (AF-B1).",
            "answer": f"the dealer {state['dealer']} must first answer the beg (AF-B2).",
            "hand_over": f"the hand is over; {state['next_dealer']} deals next.",
            "deal": f"{state['next_dealer']} must deal."}.get(state["phase"], state["phase"])


_CHECKS = {"deal": _deal, "stand": _stand_or_beg, "beg": _stand_or_beg,
           "give_one": _dealer_answer, "run_pack": _dealer_answer, "play": _play,
           "call": _call, "expose": _expose, "misdeal": _misdeal}
