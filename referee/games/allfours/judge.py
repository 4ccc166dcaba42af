"""Judging an All Fours action: which rules it breaks in a given state.

``violations(state, action)`` returns every :class:`Violation` (rule ID + message code); an empty
list means the action is legal.  Rule IDs refer to ``shared/rules/allfours.md``.
"""
from __future__ import annotations

from typing import Any

from referee.games.allfours.rules import (follow_violation, max_runs, next_to_play,
                                          player_right_of, side_of)
from referee.games.allfours.vocabulary import VOCABULARY
from referee.games.base import UNKNOWN, Violation, violation
from referee.games.common.cards import is_card, suit_of
from referee.games.common.vocabulary import check_shape, dispatch

_FOLLOW_CODE = {"AF-P2": "allfours.play.must_follow_trump", "AF-P3": "allfours.play.must_follow",
                "AF-P4": "allfours.play.no_undertrump"}


def violations(state: dict[str, Any], action: dict[str, Any]) -> list[Violation]:
    """Every rule ``action`` breaks in ``state`` (empty: legal)."""
    shape = check_shape(VOCABULARY, action, state["players"])  # AF-VOCAB, AF-D1
    if shape:
        return shape
    kind, player = action["type"], action["player"]
    if state["phase"] == "game_over":
        return [violation("AF-S6", "allfours.action.game_over", winner=state["winner"])]
    return CHECKS[kind](state, action, player)


def _deal(state, action, player):
    out = []
    if state["phase"] not in ("hand_over", "deal"):
        return [violation("AF-D3", "allfours.deal.hand_in_progress", "action.type")]
    if player != state["next_dealer"]:
        out.append(violation("AF-D2", "allfours.deal.not_your_deal", "action.player",
                             dealer=state["next_dealer"], player=player))
    out += _kick_field(state, action.get("kick"), "action.kick", required=True)
    return out


def _kick_field(state, kick, where, required) -> list[Violation]:
    if state["mode"] == "digital":
        if kick is not None:
            return [violation("AF-K1", "allfours.kick.digital_turns_it", where)]
        return []
    if kick is None:
        return [violation("AF-K1", "allfours.kick.table_needs_it", where)] if required else []
    if not is_card(kick):
        return [violation("AF-D1", "allfours.card.not_a_card", where, value=repr(kick))]
    return []


def _stand_or_beg(state, action, player):
    if state["phase"] == "play" and state["beg"] == "run_pack":
        # AF-B3: after running the pack the new trump stands and play starts: no second beg
        return [violation("AF-B3", "allfours.beg.after_run", "action.type")]
    if state["phase"] != "beg":
        return [violation("AF-B1", "allfours.beg.not_now", "action.type")]
    right = player_right_of(state["players"], state["dealer"])
    if player != right:
        return [violation("AF-B1", "allfours.beg.not_eldest", "action.player", eldest=right)]
    return []


def _dealer_answer(state, action, player):
    if state["phase"] != "answer":
        return [violation("AF-B2", "allfours.answer.no_beg", "action.type")]
    if player != state["dealer"]:
        return [violation("AF-B2", "allfours.answer.not_dealer", "action.player",
                          dealer=state["dealer"])]
    if action["type"] != "run_pack":
        return []
    return _table_kicks(state, action.get("kicks"))


def _table_kicks(state, kicks) -> list[Violation]:
    """Table mode: the kicks turned while running the pack (AF-B3)."""
    if state["mode"] == "digital":
        return [] if kicks is None else [violation("AF-B3", "allfours.run.digital_runs_it",
                                                   "action.kicks")]
    if not kicks:
        return [violation("AF-B3", "allfours.run.kicks_needed", "action.kicks")]
    out = []
    limit = max_runs(len(state["players"]))
    seen = set(state["kicks"])
    for i, kick in enumerate(kicks):
        where = f"action.kicks[{i}]"
        if not is_card(kick):
            out.append(violation("AF-D1", "allfours.card.not_a_card", where, value=repr(kick)))
            continue
        if kick in seen:
            out.append(violation("AF-D1", "allfours.kick.already_kicked", where, kick=kick))
        seen.add(kick)
        same = suit_of(kick) == state["trump"]
        last = i == len(kicks) - 1
        if not last and not same:
            out.append(violation("AF-B3", "allfours.run.stops_at_new_suit", where, kick=kick))
        if last and same and len(kicks) < limit:
            out.append(violation("AF-B3", "allfours.run.must_run_again", where, kick=kick))
    if len(kicks) > limit:
        out.append(violation("AF-B3", "allfours.run.too_many", "action.kicks", limit=limit,
                             count=len(state["players"])))
    return out


def _play(state, action, player):
    card = action.get("card")
    if not is_card(card):
        return [violation("AF-D1", "allfours.card.not_a_card", "action.card", value=repr(card))]
    if state["phase"] != "play":
        return [_not_in_play(state)]
    # the card itself first: not holding it is what forbids this play whoever's turn it is
    # (issue 13 item 4); the turn (AF-P1) after it; following suit only for a held card
    out = _holding(state, player, card)
    due = next_to_play(state)
    if player != due:
        out.append(violation("AF-P1", "allfours.play.not_your_turn", "action.player", due=due,
                             player=player))
    if not out:
        out += _following(state, player, card)
    return out


def _not_in_play(state) -> Violation:
    """No card is played before the begging is settled (AF-B1, AF-B2) or between hands
    (AF-D3): the rule that says what must happen first."""
    phase = state["phase"]
    if phase == "beg":
        return violation("AF-B1", "allfours.play.before_stand_or_beg", "action.type",
                         eldest=player_right_of(state["players"], state["dealer"]))
    if phase == "answer":
        return violation("AF-B2", "allfours.play.before_answer", "action.type",
                         dealer=state["dealer"])
    return violation("AF-D3", "allfours.play.hand_over" if phase == "hand_over" else
                     "allfours.play.before_deal", "action.type", dealer=state["next_dealer"])


def _holding(state, player, card) -> list[Violation]:
    """The card must be in the player's hand: known there (digital), or unseen so far (table)."""
    hand = state["hands"][player]
    if card in hand or card in state["exposed"][player]:
        return []
    if state["mode"] == "digital" or UNKNOWN not in hand:
        return [violation("AF-P1", "allfours.play.not_in_hand", "action.card", player=player,
                          card=card)]
    if card in state["kicks"]:  # a kicked card belongs to nobody
        return [violation("AF-K1", "allfours.play.card_was_kicked", "action.card",
                          player=player, card=card)]
    for i, trick in enumerate(state["tricks"], start=1):
        if card in trick["cards"]:
            return [violation("AF-D1", "allfours.play.card_played_before", "action.card",
                              player=player, card=card, trick=i)]
    if card in state["trick"]["cards"]:
        return [violation("AF-D1", "allfours.play.card_in_this_trick", "action.card",
                          player=player, card=card)]
    for other in state["players"]:  # table hands hold only unknown cards: exposed ones are public
        if card in state["exposed"][other]:
            return [violation("AF-D1", "allfours.play.card_known_elsewhere", "action.card",
                              player=player, card=card, other=other)]
    return []


def _following(state, player, card) -> list[Violation]:
    """AF-P2/P3/P4 against the cards known to be in the hand."""
    known = [c for c in state["hands"][player] + state["exposed"][player] if c != UNKNOWN]
    rule = follow_violation(known + [card], state["trick"]["cards"], card, state["trump"],
                            state["options"]["undertrump"])
    if rule is None:
        return []
    return [violation(rule, _FOLLOW_CODE[rule], "action.card", player=player, card=card,
                      suit=suit_of(state["trick"]["cards"][0]), trump=state["trump"])]


def _call(state, action, player):
    card = action.get("card")
    if not is_card(card):
        return [violation("AF-D1", "allfours.card.not_a_card", "action.card", value=repr(card))]
    owner = next((p for p in state["players"] if card in state["exposed"][p]), None)
    if owner is None:
        return [violation("AF-P6", "allfours.call.not_exposed", "action.card", card=card)]
    if side_of(state["sides"], owner) == side_of(state["sides"], player):
        return [violation("AF-P6", "allfours.call.own_side", "action.player")]
    if state["phase"] != "play" or next_to_play(state) != owner:
        return [violation("AF-P6", "allfours.call.owner_not_next", "action.card", owner=owner)]
    return _following(state, owner, card)


def _expose(state, action, player):
    card = action.get("card")
    if state["mode"] != "table":
        return [violation("AF-P6", "allfours.expose.digital", "action.type")]
    if not is_card(card):
        return [violation("AF-D1", "allfours.card.not_a_card", "action.card", value=repr(card))]
    if state["phase"] != "play":
        return [violation("AF-P6", "allfours.expose.not_in_play", "action.type")]
    return _holding(state, player, card) or (
        [violation("AF-P6", "allfours.expose.already", "action.card", card=card)]
        if card in state["exposed"][player] else [])


def _misdeal(state, action, player):
    if state["mode"] != "table":
        return [violation("AF-I2", "allfours.misdeal.digital", "action.type")]
    if state["phase"] != "beg":
        return [violation("AF-I2", "allfours.misdeal.too_late", "action.type")]
    return []


CHECKS = dispatch(VOCABULARY, {
    "deal": _deal, "stand": _stand_or_beg, "beg": _stand_or_beg, "give_one": _dealer_answer,
    "run_pack": _dealer_answer, "play": _play, "call": _call, "expose": _expose,
    "misdeal": _misdeal})
