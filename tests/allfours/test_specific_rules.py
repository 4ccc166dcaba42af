"""The most specific rule first (issue 13 item 4): a refused All Fours action names the rule
that forbids that action itself before a generic turn rule, and a proven renege cites the
renege rule AF-I1 with the follow rule it broke."""
from __future__ import annotations

import json

from referee.games.allfours.engine import ENGINE
from referee.games.allfours.sheet import score_sheet
from tests.allfours.deals import act, setup
from tests.conftest import CASES_DIR

HANDS = {"ana": ["2H", "5H", "9C", "KD", "3S", "QS"],
         "ben": ["AH", "7H", "4C", "JD", "6S", "8S"]}


def _cited(state, **action):
    return [(v.rule, v.code) for v in ENGINE.violations(state, action)]


def test_af_p1_a_card_not_held_is_cited_before_the_turn_and_instead_of_following():
    state = act(setup(["ana", "ben"], "ben", HANDS, {0: "10D"}), type="stand", player="ana")
    # ana leads: ben, out of turn, plays a card he does not hold: the card first (AF-P1)
    assert _cited(state, type="play", player="ben", card="QH") == [
        ("AF-P1", "allfours.play.not_in_hand"), ("AF-P1", "allfours.play.not_your_turn")]
    state = act(state, type="play", player="ana", card="5H")  # hearts led
    # ben holds hearts and would break AF-P3 with a club: the card he lacks is the verdict
    assert _cited(state, type="play", player="ben", card="2C") == [
        ("AF-P1", "allfours.play.not_in_hand")]
    assert _cited(state, type="play", player="ben", card="4C") == [
        ("AF-P3", "allfours.play.must_follow")]  # held: following suit decides


def test_af_i1_a_proven_renege_cites_af_i1_and_the_follow_rule_it_broke_af_p3():
    case = json.loads((CASES_DIR / "allfours" / "renege-2p.json").read_text())
    result = score_sheet(ENGINE, case["sheet"], None)
    renege, = result["reneges"]
    # ben failed to follow hearts in trick 5 (AF-P3) and played the 5H in trick 6: a renege
    assert (renege["player"], renege["trick"], renege["rule"], renege["broke"]) == (
        "ben", 5, "AF-I1", "AF-P3")
    assert (renege["proven_by"], renege["proven_at"], renege["loses_game"]) == ("5H", 6, False)
