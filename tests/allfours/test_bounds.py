"""Bounded work and complete shape checks of All Fours snapshots and sheets (issue 12 items 3
and 8), and the most specific rule for a play before the begging is settled (issue 13 item 4).
"""
import copy

import pytest

from referee.games.allfours.engine import ENGINE
from referee.games.allfours.rules import MAX_HAND
from referee.games.allfours.sheet import InvalidSheet, score_sheet
from referee.games.base import ImpossibleState
from tests.allfours.deals import act, rules_broken, two_player_play


def _violations(state):
    with pytest.raises(ImpossibleState) as err:
        ENGINE.check_snapshot(state)
    return [(v.rule, v.code, v.field) for v in err.value.violations]


def test_af_b3_a_snapshot_with_4096_tricks_is_one_problem_found_before_any_trick_is_walked():
    """AF-B3: a hand has at most 21 cards, so at most 21 tricks; 4096 empty tricks are refused
    with one problem (not one per trick) naming the field and the count."""
    state = copy.deepcopy(two_player_play())
    state["tricks"] = [{}] * 4096
    assert _violations(state) == [("AF-B3", "allfours.snapshot.too_long", "state.tricks")]
    assert MAX_HAND == 21


def test_af_d1_a_hand_for_a_non_player_is_refused():
    """AF-D1: hands belong to the players; a hand for 'eve' holding ben's cards is impossible."""
    state = copy.deepcopy(two_player_play())
    state["hands"]["eve"] = list(state["hands"]["ben"])
    assert _violations(state) == [("AF-D1", "allfours.snapshot.not_per_player", "state.hands")]


def test_af_b3_a_hand_longer_than_21_cards_is_refused_by_its_length():
    state = copy.deepcopy(two_player_play())
    state["hands"]["ana"] = state["hands"]["ana"] * 4  # 24 cards
    assert _violations(state) == [("AF-B3", "allfours.snapshot.too_long", "state.hands.ana")]


def _sheet(tricks):
    return {"players": ["ana", "ben"], "dealer": "ben", "kicks": ["2H"], "beg": "stand",
            "tricks": tricks}


def test_af_x1_a_sheet_of_65000_empty_tricks_is_one_problem_not_one_per_trick():
    """AF-X1/AF-B3: an engine caller without the HTTP schema's bound gets one problem for an
    absurd sheet instead of ~130,000 (each trick lacking its cards and its leader)."""
    with pytest.raises(InvalidSheet) as err:
        score_sheet(ENGINE, _sheet([{"leader": "ana", "cards": []}] * 65000), None)
    assert [(v.rule, v.code) for v in err.value.violations] == [
        ("AF-X1", "allfours.sheet.too_long")]
    assert err.value.violations[0].params == {"tricks": 65000, "kicks": 1, "limit": 21}
    # within the bound every trick is still checked: 7 empty tricks, 7 problems + the count
    with pytest.raises(InvalidSheet) as err:
        score_sheet(ENGINE, _sheet([{"leader": "ana", "cards": []}] * 7), None)
    codes = [v.code for v in err.value.violations]
    assert codes.count("allfours.sheet.trick_size") == 7


def test_af_b2_playing_while_the_dealer_owes_an_answer_to_a_beg_cites_af_b2():
    """Issue 13 item 4: after a beg, a card played before the dealer answers breaks AF-B2 (the
    dealer answers the beg: give one or run the pack), not the generic AF-B1."""
    state = act(ENGINE.setup({"players": ["ana", "ben"], "dealer": "ben", "mode": "digital",
                              "options": ENGINE.resolve_options({})}, seed=42),
                type="beg", player="ana")
    card = state["hands"]["ana"][0]
    assert rules_broken(state, type="play", player="ana", card=card) == {"AF-B2"}
    before = ENGINE.setup({"players": ["ana", "ben"], "dealer": "ben", "mode": "digital",
                           "options": ENGINE.resolve_options({})}, seed=42)
    assert rules_broken(before, type="play", player="ana", card=card) == {"AF-B1"}
