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


def test_af_b1_b2_a_play_before_the_begging_is_settled_cites_the_begging_rule_both_modes():
    """AF-B1: the player on the dealer's right first stands or begs; AF-B2: the dealer answers a
    beg. A play before that cites the begging rule the player would quote, whoever plays and
    whatever the card (held or not), in digital and in table mode."""
    state = setup(["ana", "ben"], "ben", HANDS, {0: "10D"})
    for player, card in (("ana", "2H"), ("ben", "AH"), ("ben", "2H")):
        assert _cited(state, type="play", player=player, card=card) == [
            ("AF-B1", "allfours.play.before_stand_or_beg")]
    begged = act(state, type="beg", player="ana")
    assert _cited(begged, type="play", player="ana", card="2H") == [
        ("AF-B2", "allfours.play.before_answer")]
    table = ENGINE.setup({"players": ["ana", "ben"], "dealer": "ben", "mode": "table",
                          "options": ENGINE.resolve_options({})}, 1)
    assert _cited(table, type="play", player="ana", card="2H") == [
        ("AF-D3", "allfours.play.before_deal")]
    table = act(table, type="deal", player="ben", kick="10D")
    assert _cited(table, type="play", player="ana", card="2H") == [
        ("AF-B1", "allfours.play.before_stand_or_beg")]
    table = act(table, type="beg", player="ana")
    assert _cited(table, type="play", player="ben", card="2H") == [
        ("AF-B2", "allfours.play.before_answer")]


def test_af_s6_b2_game_over_reason_is_a_code_rendered_per_language_with_its_plural():
    """AF-S6 with target 1: a given point (AF-B2) ends the game; the reason is a message code,
    rendered "1 point" (not "1 points") in English and in Burmese."""
    from referee.i18n.answers import localize_event
    state = act(setup(["ana", "ben"], "ben", HANDS, {0: "10D"}, target=1),
                type="beg", player="ana")
    _, events = ENGINE.apply(state, {"type": "give_one", "player": "ben"})
    over, = [e for e in events if e["type"] == "game_over"]
    side = over["winner"]
    assert over["reason"] == {"code": "allfours.game_over.target",
                              "params": {"side": side, "target_points": 1}}
    assert localize_event(over, "en")["reason"] == (
        f"{side} reached 1 point: the game is won (AF-S6).")
    assert localize_event(over, "my")["reason"] == (
        f"{side} သည် အမှတ် 1 ရောက်ပြီး ဂိမ်းကို အနိုင်ရသည် (AF-S6)။")
    assert localize_event(over, "my")["reason_message"] == over["reason"]
    many = {**over, "reason": {**over["reason"], "params": {"side": side, "target_points": 14}}}
    assert "reached 14 points" in localize_event(many, "en")["reason"]


def test_af_p1_title_reads_right_for_a_card_not_in_hand_and_for_the_turn():
    """AF-P1 is cited for a card not held ("every card dealt is played": one plays one's own
    cards) and for the lead/turn: its title names both, in both languages."""
    from referee.i18n.answers import violation_answer
    state = act(setup(["ana", "ben"], "ben", HANDS, {0: "10D"}), type="stand", player="ana")
    missing, turn = ENGINE.violations(state, {"type": "play", "player": "ben", "card": "QH"})
    for found in (missing, turn):
        assert violation_answer(found, "en")["title"] == "Leading and playing the cards dealt"
        assert violation_answer(found, "my")["title"] == (
            "ဦးဆောင်ခြင်းနှင့် ဝေထားသောကတ်များကို ချခြင်း")
    assert violation_answer(missing, "en")["message"] == "ben does not hold the queen of hearts."


def test_af_b3_a_beg_or_stand_after_running_the_pack_cites_af_b3_no_second_beg():
    """AF-B3: a new kick of another suit becomes trump and play starts "(no second beg)": a
    beg or stand then cites AF-B3, not AF-B1's generic "only before play"."""
    state = act(setup(["ana", "ben"], "ben", HANDS, {0: "10D", 7: "2S"}),
                type="beg", player="ana")
    state = act(state, type="run_pack", player="ben")
    assert (state["phase"], state["trump"], state["beg"]) == ("play", "S", "run_pack")
    for kind in ("beg", "stand"):
        assert _cited(state, type=kind, player="ana") == [("AF-B3", "allfours.beg.after_run")]
    # a hand that stood: AF-B1 (stand or beg once, before play)
    stood = act(setup(["ana", "ben"], "ben", HANDS, {0: "10D"}), type="stand", player="ana")
    assert _cited(stood, type="beg", player="ana") == [("AF-B1", "allfours.beg.not_now")]
