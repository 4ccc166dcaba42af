"""Gnoming A Round play through the engine: setup flips, turns, bouncing, Mulligans, Hazards,
empty piles, going out, the end of a round and of the game.

Rule IDs (shared/rules/gnoming.md) are in the test names; every expected card and score is
worked out by hand from the entered deal.
"""
from collections import Counter

from referee.games.base import event_visible
from referee.games.gnoming.engine import ENGINE
from referee.games.gnoming.rules import DECK_COUNTS
from tests.gnoming.deals import (
    THREE, act, act_events, broken, cards, corners, face_up, flip_all, setup)

LAYOUTS = {"ana": "5 5 4 / 4 8 3 / 6 7 M",
           "ben": "4 4 6 / 3 8 7 / -2 5 H",
           "cy": "6 7 3 / 8 4 5 / 3 6 -3"}


def started(draw_top=("4",), piles=("7", "8"), **options):
    """The deal above after everyone turned up the two top corners (GN-S2)."""
    state = setup(LAYOUTS, piles=piles, draw_top=draw_top, **options)
    return flip_all(state, corners(THREE))


def card_counts(state):
    """Every card of the round, wherever it is (GN-C1 conservation)."""
    found = [c["card"] for g in state["layouts"].values() for row in g for c in row]
    found += state["draw_pile"] + state["removed"] + sum(state["discard_piles"], [])
    if state["turn"]["holding"]:
        found.append(state["turn"]["holding"])
    return Counter(found)


# --- setup ----------------------------------------------------------------------------------
def test_gn_s2_everyone_turns_up_two_cards_before_the_starter_draws():
    state = setup(LAYOUTS)
    assert state["phase"] == "setup" and ENGINE.to_move(state) == THREE
    assert broken(state, type="draw", player="ana", source="draw_pile") == {"GN-S2"}
    state = act(state, type="flip", player="ben", position=[2, 2])  # ben turns up his Hazard
    state = act(state, type="flip", player="ben", position=[0, 0])
    assert broken(state, type="flip", player="ben", position=[1, 1]) == {"GN-S2"}
    assert broken(state, type="flip", player="ana", position=[5, 0]) == {"GN-S1"}
    state = flip_all(state, {"ana": [(0, 0), (0, 1)], "cy": [(2, 2), (1, 1)]})
    assert state["phase"] == "draw" and ENGINE.to_move(state) == ["ana"]
    assert face_up(state, "ben") == [[True, False, False], [False] * 3, [False, False, True]]


def test_gn_s3_first_player_option_starts_round_one():
    state = flip_all(setup(LAYOUTS, first_player="cy"), corners(THREE))
    assert state["starter"] == "cy" and ENGINE.to_move(state) == ["cy"]


def test_gn_s4_a_hazard_turned_up_for_a_discard_pile_leaves_play():
    # seed 6 turns up a Hazard while starting the discard piles of 3 players
    state = ENGINE.setup({"players": THREE, "options": {}}, 6)
    assert state["removed"] == ["H"]
    assert [len(p) for p in state["discard_piles"]] == [1, 1]
    assert "H" not in sum(state["discard_piles"], [])
    assert len(state["draw_pile"]) == 110 - 27 - 2 - 1


def test_gn_c1_s1_seeded_deal_uses_all_110_cards_and_replays():
    state = ENGINE.setup({"players": ["a", "b", "c", "d", "e", "f", "g"], "options": {}}, "s")
    assert card_counts(state) == Counter(DECK_COUNTS)
    assert ENGINE.setup({"players": ["a", "b", "c", "d", "e", "f", "g"], "options": {}}, "s") \
        == state
    assert all(not c["up"] for g in state["layouts"].values() for row in g for c in row)


# --- a turn ---------------------------------------------------------------------------------
def test_gn_t1_a_card_from_the_draw_pile_is_told_to_its_drawer_only():
    state, events = act_events(started(), type="draw", player="ana", source="draw_pile")
    assert state["turn"]["holding"] == "4" and state["phase"] == "play"
    public = [e for e in events if event_visible(e, "ben")]
    assert public == [{"type": "drew", "player": "ana", "source": "draw_pile"}]
    private = [e for e in events if e.get("visible_to")]
    assert private == [{"type": "drew", "player": "ana", "source": "draw_pile", "card": "4",
                        "visible_to": ["ana"]}]


def test_gn_t1_only_the_players_turn_and_only_once():
    state = started()
    assert broken(state, type="draw", player="ben", source="draw_pile") == {"GN-S3"}
    state = act(state, type="draw", player="ana", source="discard", pile=1)
    assert state["turn"]["holding"] == "8" and state["discard_piles"][1] == []
    assert broken(state, type="draw", player="ana", source="draw_pile") == {"GN-T1"}


def test_gn_t2_t3_place_the_drawn_card_and_discard_the_replaced_one_face_up():
    state = act(started(), type="draw", player="ana", source="discard", pile=0)  # the 7
    state = act(state, type="place", player="ana", position=[1, 1])  # over the face-down 8
    assert state["phase"] == "discard" and state["turn"]["holding"] == "8"  # 8 matches nothing
    assert broken(state, type="place", player="ana", position=[2, 0]) == {"GN-B1"}
    assert broken(state, type="discard", player="ana") == {"GN-T3"}  # which pile?
    state = act(state, type="discard", player="ana", pile=1)
    assert cards(state, "ana")[1][1] == "7" and face_up(state, "ana")[1][1]
    assert state["discard_piles"][1] == ["8", "8"]
    # GN-D4: pile 0 was emptied by the draw, so the top of the draw pile (the 4) restarts it
    assert state["discard_piles"][0] == ["4"]
    assert state["phase"] == "draw" and state["turn"]["player"] == "ben"


def test_gn_t3_the_card_taken_from_a_discard_pile_may_go_back_onto_either_pile():
    state = act(started(), type="draw", player="ana", source="discard", pile=0)
    state = act(state, type="discard", player="ana", pile=1)
    assert state["discard_piles"] == [["4"], ["8", "7"]]  # pile 0 restarted (GN-D4)


# --- bouncing -------------------------------------------------------------------------------
def test_gn_b1_a_matching_face_down_card_bounces_until_a_mulligan_ends_the_chain():
    # ana shows 5 at (0,0) and 4 at (0,2); she draws a 4
    state = act(started(), type="draw", player="ana", source="draw_pile")
    state = act(state, type="place", player="ana", position=[0, 1])  # turns up a 5: matches
    assert state["phase"] == "bounce" and state["turn"]["holding"] == "5"
    assert broken(state, type="place", player="ana", position=[0, 1]) == {"GN-B1"}  # filled
    state = act(state, type="place", player="ana", position=[1, 0])  # turns up a 4: matches
    assert state["phase"] == "bounce" and state["turn"]["holding"] == "4"
    state = act(state, type="place", player="ana", position=[2, 2])  # turns up the Mulligan
    assert state["phase"] == "discard" and state["turn"]["holding"] == "M"
    assert broken(state, type="place", player="ana", position=[2, 0]) == {"GN-B1"}
    state = act(state, type="discard", player="ana", pile=0)
    assert cards(state, "ana") == [["5", "4", "4"], ["5", "8", "3"], ["6", "7", "4"]]
    assert face_up(state, "ana") == [[True] * 3, [True, False, False], [False, False, True]]
    assert state["discard_piles"][0] == ["7", "M"]


def test_gn_b1_landing_on_a_face_up_card_ends_the_chain():
    state = act(started(), type="draw", player="ana", source="draw_pile")
    state = act(state, type="place", player="ana", position=[0, 1])  # the 5 may bounce
    state = act(state, type="place", player="ana", position=[0, 0])  # onto the face-up 5
    assert state["phase"] == "discard" and state["turn"]["holding"] == "5"
    assert broken(state, type="place", player="ana", position=[2, 0]) == {"GN-B1"}


def test_gn_b1_bouncing_is_optional():
    state = act(started(), type="draw", player="ana", source="draw_pile")
    state = act(state, type="place", player="ana", position=[0, 1])
    state = act(state, type="discard", player="ana", pile=1)
    assert state["discard_piles"][1] == ["8", "5"] and state["turn"]["player"] == "ben"


def test_gn_b1_a_card_matching_nothing_face_up_does_not_bounce():
    # ana draws the 4 and puts it over the face-down 3 at (1,2): no 3 is face up
    state = act(started(), type="draw", player="ana", source="draw_pile")
    state = act(state, type="place", player="ana", position=[1, 2])
    assert state["phase"] == "discard" and state["turn"]["holding"] == "3"


def test_gn_b1_negative_cards_never_bounce():
    # cy shows 6 and 3 on top; the -3 at (2,2) is turned up by a place and must be discarded
    state = act(started(draw_top=("4", "3")), type="draw", player="ana", source="draw_pile")
    state = act(state, type="discard", player="ana", pile=0)
    state = act(state, type="draw", player="ben", source="discard", pile=0)
    state = act(state, type="discard", player="ben", pile=0)
    state = act(state, type="draw", player="cy", source="draw_pile")  # the 3
    state = act(state, type="place", player="cy", position=[2, 2])
    assert state["phase"] == "discard" and state["turn"]["holding"] == "-3"


# --- Mulligans ------------------------------------------------------------------------------
def test_gn_m1_a_second_face_up_mulligan_may_not_be_placed():
    state = flip_all(setup(LAYOUTS, draw_top=("M",)),
                     {"ana": [(2, 2), (0, 0)], "ben": [(0, 0), (0, 1)], "cy": [(0, 0), (0, 1)]})
    state = act(state, type="draw", player="ana", source="draw_pile")  # a second Mulligan
    assert broken(state, type="place", player="ana", position=[1, 1]) == {"GN-M1"}
    assert not broken(state, type="place", player="ana", position=[2, 2])  # replaces the M
    assert {"type": "place", "player": "ana", "position": [1, 1]} not in \
        ENGINE.legal_actions(state, "ana")


def test_gn_m1_setup_flips_may_show_two_mulligans_and_one_may_be_placed_on_none():
    layouts = {**LAYOUTS, "ana": "M 5 M / 4 8 3 / 6 7 4"}
    state = flip_all(setup(layouts, draw_top=("M",)), corners(THREE))
    assert state["layouts"]["ana"][0][0] == {"card": "M", "up": True}  # exempt (GN-M1)
    state = act(state, type="draw", player="ana", source="draw_pile")
    assert state["turn"]["mulligans_at_start"] == 2
    assert broken(state, type="place", player="ana", position=[1, 1]) == {"GN-M1"}  # 3 > 2
    state = act(state, type="place", player="ana", position=[0, 0])  # M over M: still 2
    assert state["phase"] == "discard" and state["turn"]["holding"] == "M"
    # with none face up, one Mulligan may be placed
    fresh = act(started(draw_top=("M",)), type="draw", player="ana", source="draw_pile")
    assert not broken(fresh, type="place", player="ana", position=[1, 1])


# --- Hazards --------------------------------------------------------------------------------
def test_gn_d1_d2_a_discarded_hazard_leaves_play_and_the_others_each_turn_up_a_card():
    state = act(started(draw_top=("H",)), type="draw", player="ana", source="draw_pile")
    assert broken(state, type="discard", player="ana", pile=0) == {"GN-D2"}
    state, events = act_events(state, type="discard", player="ana")
    assert state["removed"] == ["H"] and state["discard_piles"] == [["7"], ["8"]]
    assert state["phase"] == "hazard" and ENGINE.to_move(state) == ["ben", "cy"]
    assert {"type": "hazard", "rule": "GN-D1", "players": ["ben", "cy"]} in events
    assert broken(state, type="flip", player="ana", position=[1, 1]) == {"GN-D1"}
    discarder, = ENGINE.violations(state, {"type": "flip", "player": "ana", "position": [1, 1]})
    assert discarder.code == "gnoming.flip.hazard_discarder"
    # the next turn waits for the flips (GN-D1)
    assert broken(state, type="draw", player="ben", source="draw_pile") == {"GN-D1"}
    state = act(state, type="flip", player="cy", position=[2, 2])  # any order
    assert broken(state, type="flip", player="cy", position=[2, 1]) == {"GN-D1"}
    again, = ENGINE.violations(state, {"type": "flip", "player": "cy", "position": [2, 1]})
    assert again.message == "cy has already turned up a card for this Hazard."
    state = act(state, type="flip", player="ben", position=[1, 0])
    assert state["phase"] == "draw" and state["turn"]["player"] == "ben"
    assert cards(state, "cy")[2][2] == "-3" and face_up(state, "cy")[2][2]


def test_gn_d1_a_hazard_turned_up_by_a_place_is_discarded_with_the_same_effect():
    # ben shows 4 4 on top; he places the 7 from pile 0 over his face-down Hazard at (2,2)
    state = act(started(), type="draw", player="ana", source="draw_pile")
    state = act(state, type="discard", player="ana", pile=1)
    state = act(state, type="draw", player="ben", source="discard", pile=0)
    state = act(state, type="place", player="ben", position=[2, 2])
    assert state["phase"] == "discard" and state["turn"]["holding"] == "H"
    assert broken(state, type="place", player="ben", position=[1, 1]) == {"GN-B1"}
    state = act(state, type="discard", player="ben")
    assert state["phase"] == "hazard" and ENGINE.to_move(state) == ["ana", "cy"]


def test_gn_d3_a_hazard_never_turns_up_a_players_last_face_down_card():
    state = started(draw_top=("H",))
    for r, c in [(0, 1), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1)]:  # ben: only (2,2) face down
        state["layouts"]["ben"][r][c]["up"] = True
    ENGINE.check_snapshot(state)
    state = act(state, type="draw", player="ana", source="draw_pile")
    state = act(state, type="discard", player="ana")
    assert state["flips_due"] == {"ana": 0, "ben": 0, "cy": 1}
    assert ENGINE.to_move(state) == ["cy"]
    # ben's refusal names GN-D3 (the rule that spares his last card), not the generic GN-D1
    refusal, = ENGINE.violations(state, {"type": "flip", "player": "ben", "position": [2, 2]})
    assert (refusal.rule, refusal.code) == ("GN-D3", "gnoming.flip.hazard_last_card")
    assert refusal.message == "A Hazard never makes ben turn up their last face-down card."


# --- empty piles ----------------------------------------------------------------------------
def test_gn_d4_s4_an_emptied_pile_is_restarted_and_a_hazard_turned_up_then_leaves_play():
    state = act(started(draw_top=("H", "6")), type="draw", player="ana", source="discard",
                pile=0)
    state, events = act_events(state, type="discard", player="ana", pile=1)
    assert state["discard_piles"] == [["6"], ["8", "7"]]
    assert state["removed"] == ["H"] and state["phase"] == "draw"  # no Hazard effect
    assert {"type": "hazard_removed", "rule": "GN-S4", "pile": 0} in events


def test_gn_d5_an_empty_draw_pile_is_remade_from_the_discard_piles_but_their_tops():
    state = started()
    rest = state["draw_pile"]
    state["removed"] = [c for c in rest if c == "H"]
    state["discard_piles"] = [[c for c in rest if c != "H"] + ["7"], ["8"]]
    state["draw_pile"] = []
    ENGINE.check_snapshot(state)
    below = len(state["discard_piles"][0]) - 1
    state, events = act_events(state, type="draw", player="ana", source="draw_pile")
    assert state["discard_piles"] == [["7"], ["8"]]
    assert len(state["draw_pile"]) == below - 1 and state["reshuffles"] == 1
    assert {"type": "reshuffled", "rule": "GN-D5", "draw_pile_count": below} in events
    assert card_counts(state) == Counter(DECK_COUNTS)


# --- the end of a round and of the game -----------------------------------------------------
END = {"ana": "5 5 5 / 3 4 6 / 7 8 3", "ben": "4 4 4 / 3 5 6 / 7 8 3",
       "cy": "8 8 7 / 6 6 5 / 4 3 3"}


def about_to_go_out(**options):
    """ana to draw with only (2,2) face down."""
    state = flip_all(setup(END, piles=("-1", "-2"), draw_top=("-3", "-4", "-4"), **options),
                     corners(THREE))
    for r in range(3):
        for c in range(3):
            state["layouts"]["ana"][r][c]["up"] = (r, c) != (2, 2)
    ENGINE.check_snapshot(state)
    return state


def test_gn_e1_e2_p7_going_out_gives_each_other_player_one_more_turn_then_scores():
    state = act(about_to_go_out(), type="draw", player="ana", source="draw_pile")  # -3
    state = act(state, type="place", player="ana", position=[2, 2])  # turns up a 3
    assert state["phase"] == "bounce"  # a face-up 3 at (1,0) matches (GN-B1)
    state, events = act_events(state, type="discard", player="ana", pile=0)
    assert state["went_out"] == "ana" and state["final_turns"] == ["ben", "cy"]
    assert {"type": "went_out", "rule": "GN-E1", "player": "ana"} in events
    state = act(state, type="draw", player="ben", source="draw_pile")
    state = act(state, type="discard", player="ben", pile=1)
    assert state["turn"]["player"] == "cy" and state["final_turns"] == ["cy"]
    state = act(state, type="draw", player="cy", source="draw_pile")
    state, events = act_events(state, type="discard", player="cy", pile=1)
    # GN-E2: every card turned up where it lay; ana -5 + 3+4+6+7+8-3 = 20, the lowest: 15
    ended = next(e for e in events if e["type"] == "round_ended")
    assert ended["scores"] == {"ana": 15, "ben": 28, "cy": 50}
    assert ended["layouts"]["ana"] == [["5", "5", "5"], ["3", "4", "6"], ["7", "8", "-3"]]
    # GN-S3: round 2 is dealt from the seed and started by ben
    assert state["round"] == 2 and state["starter"] == "ben" and state["phase"] == "setup"
    score = ENGINE.score(state)
    assert score["totals"] == {"ana": 15, "ben": 28, "cy": 50} and score["winner"] is None
    assert score["points"] == {"ana": 0, "ben": 0, "cy": 0} and score["provisional"]


def test_gn_w1_the_last_round_ends_the_game_with_its_winners():
    state = act(about_to_go_out(rounds=1), type="draw", player="ana", source="draw_pile")
    state = act(state, type="discard", player="ana", pile=0)  # still one face-down card
    assert state["went_out"] is None and state["turn"]["player"] == "ben"
    state = act(state, type="draw", player="ben", source="draw_pile")
    state = act(state, type="discard", player="ben", pile=0)
    state = act(state, type="draw", player="cy", source="draw_pile")
    state = act(state, type="discard", player="cy", pile=0)
    state = act(state, type="draw", player="ana", source="draw_pile")  # a 3 (deck order)
    state = act(state, type="place", player="ana", position=[2, 2])
    state = act(state, type="discard", player="ana", pile=0)
    state = act(state, type="draw", player="ben", source="discard", pile=0)
    state = act(state, type="discard", player="ben", pile=0)
    state = act(state, type="draw", player="cy", source="discard", pile=0)
    state = act(state, type="discard", player="cy", pile=0)
    assert ENGINE.is_over(state) and ENGINE.legal_actions(state) == []
    score = ENGINE.score(state)
    # ana went out with 5 5 5 / 3 4 6 / 7 8 3: -5 + 31 = 26, the lowest: 21
    assert score["points"] == score["totals"] == {"ana": 21, "ben": 28, "cy": 50}
    assert score["winner"] == ["ana"] and not score["provisional"]
    assert broken(state, type="draw", player="ana", source="draw_pile") == {"GN-W1"}


def test_gn_v1_score_so_far_counts_only_face_up_cards():
    # corners up: ana 5 . 4 → 9; ben 4 . 6 → 10; cy 6 . 3 → 9; no line is complete
    assert ENGINE.score(started())["points"] == {"ana": 9, "ben": 10, "cy": 9}
