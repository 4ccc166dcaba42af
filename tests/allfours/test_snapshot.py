"""Tampered All Fours snapshots are refused (ImpossibleState naming the field), never refereed.

Each case starts from a state the engine itself produced and changes one thing.
"""
import copy

import pytest

from referee.games.allfours.engine import ENGINE
from referee.games.base import ImpossibleState
from tests.allfours.deals import act, two_player_play


def _problem_fields(state):
    with pytest.raises(ImpossibleState) as err:
        ENGINE.check_snapshot(state)
    return {v.field for v in err.value.violations}, {v.rule for v in err.value.violations}


def _tampered(change):
    state = copy.deepcopy(two_player_play())
    change(state)
    return _problem_fields(state)


def test_af_d1_with_two_players_each_side_is_one_player():
    fields, rules = _tampered(lambda s: s.update(sides={"ana": ["ana", "ben"], "ben": []}))
    assert fields == {"state.sides"} and rules == {"AF-D1"}


def test_af_p1_the_first_trick_is_led_by_the_dealers_right():
    fields, rules = _tampered(lambda s: s["trick"].update(leader="ben"))
    assert fields == {"state.trick.leader"} and rules == {"AF-P1"}


def test_af_s6_a_winner_means_the_game_is_over_and_the_target_reached():
    fields, _ = _tampered(lambda s: s.update(winner="ana"))
    assert "state.winner" in fields
    fields, _ = _tampered(lambda s: s.update(score={"ana": 10**12, "ben": 0},
                                             hand_points=s["hand_points"]))
    assert "state.score.ana" in fields


def test_af_k1_hand_points_before_scoring_are_only_kick_and_given_points():
    fields, rules = _tampered(lambda s: s.update(hand_points={"ana": 5, "ben": 0},
                                                 score={"ana": 5, "ben": 0}))
    assert fields == {"state.hand_points"} and rules == {"AF-K1"}
    fields, _ = _tampered(lambda s: s.update(beg="give_one"))  # no point was given
    assert "state.hand_points" in fields


def test_af_b3_begging_outcome_must_match_the_kicks():
    fields, rules = _tampered(lambda s: s.update(beg="run_pack"))  # one kick only
    assert "state.kicks" in fields and "AF-B3" in rules
    fields, _ = _tampered(lambda s: s.update(beg=None))  # play without stand or beg
    assert "state.beg" in fields


def test_af_i1_digital_states_record_no_reneges():
    fields, rules = _tampered(lambda s: s["reneges"].append(
        {"player": "ana", "side": "ana", "trick": 9, "rule": "AF-P3", "loses_game": False,
         "claim": 1}))
    assert fields == {"state.reneges"} and rules == {"AF-I1"}


def test_last_hand_has_a_fixed_shape():
    fields, _ = _tampered(lambda s: s.update(last_hand={"foo": 1}))
    assert fields == {"state.last_hand"}


def test_af_d2_hand_over_needs_the_next_dealer():
    fields, rules = _tampered(lambda s: s.update(phase="hand_over", next_dealer=None))
    assert "state.next_dealer" in fields and "AF-D2" in rules


def test_tampered_snapshot_through_the_api_is_422_impossible_state(client):
    state = two_player_play()
    state["sides"] = {"ana": ["ana", "ben"], "ben": []}
    response = client.post("/v1/games/all-fours/apply",
                           json={"state": state, "action": {"type": "play", "player": "ana",
                                                            "card": state["hands"]["ana"][0]}})
    assert response.status_code == 422
    assert response.get_json()["type"] == "/problems/impossible-state"


def _table_after_renege():
    """Table mode: ben fails to follow hearts in trick 1 (claim), then plays the 5H (proof)."""
    state = ENGINE.setup({"players": ["ana", "ben"], "dealer": "ben", "mode": "table",
                          "kick": "2S", "options": ENGINE.resolve_options({})}, seed="t")
    for kind, player, card in [("stand", "ana", None), ("play", "ana", "KH"),
                               ("play", "ben", "4C"), ("play", "ana", "AH"),
                               ("play", "ben", "5H")]:
        state = act(state, type=kind, player=player, **({"card": card} if card else {}))
    assert [r["trick"] for r in state["reneges"]] == [1]
    return state


def test_af_i1_table_claims_and_reneges_must_be_those_the_tricks_imply():
    state = _table_after_renege()
    ENGINE.check_snapshot(state)
    dropped = copy.deepcopy(state)
    dropped["claims"], dropped["reneges"] = [], []
    assert _problem_fields(dropped)[0] == {"state.claims", "state.reneges"}
    invented = copy.deepcopy(state)
    invented["claims"].append({**invented["claims"][0], "id": 2, "player": "ana"})
    assert _problem_fields(invented)[0] == {"state.claims"}


def test_af_s6_in_the_first_deal_the_score_is_this_hands_points():
    fields, rules = _tampered(lambda s: s.update(score={"ana": 13, "ben": 0}))
    assert fields == {"state.score"} and rules == {"AF-S6"}


@pytest.mark.parametrize("place", ["hand", "exposed", "stock", "kick", "trick"])
def test_af_d1_a_digital_snapshot_names_every_card_wherever_it_lies(place):
    """``"unknown"`` (a face-down card, table mode only) anywhere in a digital snapshot is
    AF-D1's ``digital_unknown``, whichever list holds it."""
    def change(state):
        if place == "exposed":
            state["exposed"]["ana"].append(state["hands"]["ana"].pop())
        lists = {"hand": state["hands"]["ben"], "exposed": state["exposed"]["ana"],
                 "stock": state["stock"], "kick": state["kicks"],
                 "trick": (state["tricks"] + [state["trick"]])[0]["cards"]}
        if not lists[place]:
            pytest.skip(f"no card in the {place} of this state")
        lists[place][-1] = "unknown"
    state = copy.deepcopy(two_player_play())
    if place == "trick":  # one card played: the trick holds it
        play = next(a for a in ENGINE.legal_actions(state) if a["type"] == "play")
        state = ENGINE.apply(state, play)[0]
    change(state)
    with pytest.raises(ImpossibleState) as err:
        ENGINE.check_snapshot(state)
    assert "allfours.snapshot.digital_unknown" in {v.code for v in err.value.violations}


def _after_one_hand():
    """A 2-player game (seed 3) played by each first legal action until its first hand is
    scored: one line on the score sheet."""
    state = ENGINE.setup({"players": ["ana", "ben"], "dealer": "ben",
                          "options": ENGINE.resolve_options({})}, seed=3)
    while state["phase"] != "hand_over":
        state, _ = ENGINE.apply(state, ENGINE.legal_actions(state)[0])
    assert len(state["scored_hands"]) == 1
    return state


def test_af_s6_each_score_sheet_line_is_one_scoring_can_give():
    state = _after_one_hand()
    ENGINE.check_snapshot(state)
    line = state["scored_hands"][0]
    # the line's score is the match score after the hand, here the whole score (hand 1)
    assert line["hand"] == 1 and line["score"] == state["score"] == line["points"]
    for change in (lambda l: l.update(score={"ana": 99, "ben": 99}),  # above the score
                   lambda l: l.update(hand=2),  # a hand not yet played (hand_number 2)
                   lambda l: l["awards"].append({"award": "game", "side": "ana",
                                                 "points": 50}),  # more than its points
                   lambda l: l.update(points={"ana": 1})):  # not both sides
        tampered = copy.deepcopy(state)
        change(tampered["scored_hands"][0])
        assert _problem_fields(tampered) == ({"state.scored_hands[0]"}, {"AF-S6"})


def test_af_s6_a_snapshot_without_a_score_sheet_is_played_on_and_the_sheet_begun():
    state = _after_one_hand()
    del state["scored_hands"]  # a snapshot kept before the sheet was
    ENGINE.check_snapshot(state)
    while state["phase"] not in ("hand_over", "game_over") or state["hand_number"] == 2:
        state, _ = ENGINE.apply(state, ENGINE.legal_actions(state)[0])
    assert [line["hand"] for line in state["scored_hands"]] == [2]


def test_af_s6_a_line_whose_award_changed_side_is_named_once():
    state = _after_one_hand()
    tampered = copy.deepcopy(state)
    award = tampered["scored_hands"][0]["awards"][0]
    award["side"] = next(s for s in tampered["sides"] if s != award["side"])
    with pytest.raises(ImpossibleState) as err:
        ENGINE.check_snapshot(tampered)
    fields = [v.field for v in err.value.violations]
    assert fields.count("state.scored_hands[0]") == 1


def test_af_s6_a_sheet_line_holds_at_most_the_awards_a_hand_can_give(client):
    # High, Low, Jack, Game and a renege's point per card played (AF-S1-S4, AF-I1): 4 + 4 x
    # 21 = 88; a longer list is refused before any of its items is read (issue 21 item 1: 4,031
    # copies cost up to 24 ms to check one by one)
    from referee.schemas.allfours import MAX_AWARDS
    assert MAX_AWARDS == 88
    state = _after_one_hand()
    line = state["scored_hands"][0]
    for count, status in ((88, "the line's own check"), (89, "Longer than maximum length 88.")):
        tampered = copy.deepcopy(dict(state))
        tampered["scored_hands"][0]["awards"] = (line["awards"] * 30)[:count]
        answer = client.post("/v1/games/all-fours/validate", json={
            "state": tampered, "action": ENGINE.legal_actions(state)[0]})
        assert answer.status_code == 422
        errors = answer.get_json()["errors"]
        if count == 89:
            assert errors == [{"field": "state.scored_hands[0].awards", "message": status}]
        else:
            assert answer.get_json()["type"] == "/problems/impossible-state"
