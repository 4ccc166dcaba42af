"""Gnoming scoring (GN-P1…GN-P7, GN-W1) and the check of score sheets (GN-C1, C2, C3, S1).

Expected values are worked out by hand from shared/rules/gnoming.md; the four worked examples
of its "Worked examples" section come first.
"""
import pytest

from referee.games.base import ImpossibleState
from referee.games.gnoming.engine import ENGINE
from referee.games.gnoming.scoring import (
    out_first_adjustment, score_game_sheet, score_layout, score_round, score_round_sheet,
    set_value, winners)
from tests.gnoming.deals import grid

OPTIONS = ENGINE.resolve_options({})


# --- the worked examples of the rules file ------------------------------------------------
def test_gn_p1_p2_p4_worked_example_row_of_fives_and_lone_mulligan_is_15():
    result = score_layout(grid("5 5 5 / 3 -2 8 / M 7 4"))
    assert result["points"] == 15  # -5 + (3 - 2 + 8 + 0 + 7 + 4)
    assert [(s["line"], s["index"], s["value"], s["points"]) for s in result["sets"]] == \
        [("row", 0, 5, -5)]
    assert result["mulligans"] == [{"position": [2, 0], "row": None, "column": None}]


def test_gn_p1_p4_worked_example_cross_of_sixes_is_8():
    result = score_layout(grid("3 6 8 / 6 6 6 / 4 6 5"))
    assert result["points"] == 8  # -6 (row 1) - 6 (column 1) + 3 + 8 + 4 + 5
    assert [(s["line"], s["index"]) for s in result["sets"]] == [("row", 1), ("column", 1)]


def test_gn_p3_p5_worked_example_negatives_never_form_a_set_is_27():
    result = score_layout(grid("-2 -2 -2 / 3 4 5 / 6 7 8"))
    assert result["points"] == 27 and result["sets"] == []  # -6 + 33


def test_gn_p5_p6_worked_example_hazard_breaks_its_row_and_adds_10_is_19():
    result = score_layout(grid("5 5 H / 5 3 3 / 5 4 -1"))
    assert result["points"] == 19  # -5 (column 0) + 5 + 3 + 3 + 4 - 1 + 10
    assert [(s["line"], s["index"]) for s in result["sets"]] == [("column", 0)]
    assert result["hazards"] == 1


# --- more of each rule ----------------------------------------------------------------------
def test_gn_p4_mulligan_takes_a_different_value_in_its_row_and_its_column():
    result = score_layout(grid("M 4 4 / 6 3 5 / 6 8 -1"))
    # row 0 is a set of 4s (-4), column 0 a set of 6s (-6); the rest 3 + 5 + 8 - 1 = 15
    assert result["points"] == 5
    assert result["mulligans"] == [{"position": [0, 0], "row": 4, "column": 6}]


def test_gn_p5_a_line_needs_one_positive_card_and_no_negative_or_hazard():
    assert set_value(["M", "M", "5"]) == 5
    assert set_value(["M", "M", "M"]) is None  # no positive card
    assert set_value(["5", "5", "-1"]) is None
    assert set_value(["5", "H", "5"]) is None
    assert set_value(["5", "6", "M"]) is None
    assert set_value(["8", "8", None]) is None  # a face-down card: no set yet


def test_gn_p4_p5_three_mulligans_in_a_row_score_nothing():
    # row 0 M M M is no set; rows 1 and 2 are sets (-3, -4); no column is a set
    assert score_layout(grid("M M M / 3 3 3 / 4 4 4"))["points"] == -7


def test_gn_p1_every_line_of_eights_scores_on_its_own():
    assert score_layout(grid("8 8 8 / 8 8 8 / 8 8 8"))["points"] == -48


def test_gn_p6_each_hazard_adds_ten():
    assert score_layout(grid("H H 3 / 4 5 6 / 7 8 -4"))["points"] == 20 + 3 + 4 + 5 + 6 + 7 + 8 - 4


def test_gn_p7_out_first_lowest_takes_minus_5_otherwise_plus_5():
    assert out_first_adjustment({"a": 3, "b": 9}, "a", "lowest") == -5
    assert out_first_adjustment({"a": 10, "b": 9}, "a", "lowest") == 5
    assert out_first_adjustment({"a": 10, "b": 9}, None, "lowest") == 0


def test_gn_p7_a_tie_for_lowest_counts_as_lowest_unless_option_not_lowest():
    assert out_first_adjustment({"a": 9, "b": 9, "c": 20}, "a", "lowest") == -5
    assert out_first_adjustment({"a": 9, "b": 9, "c": 20}, "a", "not_lowest") == 5


def test_gn_p7_round_scores_include_the_adjustment_with_a_breakdown():
    layouts = {"ana": grid("4 4 4 / 3 3 3 / 5 -1 6"), "ben": grid("4 4 4 / 3 3 3 / 6 -1 5"),
               "cy": grid("8 8 7 / 6 6 5 / 4 3 3")}
    result = score_round(layouts, "ana", "lowest")
    assert result["scores"] == {"ana": -2, "ben": 3, "cy": 50}
    assert result["breakdown"]["ana"]["base"] == 3 and result["breakdown"]["ana"]["out_first"] == -5
    assert result["breakdown"]["ben"]["out_first"] == 0
    assert score_round(layouts, "ana", "not_lowest")["scores"]["ana"] == 8


def test_gn_w1_lowest_total_then_lowest_last_round_then_shared():
    assert winners({"a": 40, "b": 41}, {"a": 30, "b": 0}) == ["a"]
    assert winners({"a": 40, "b": 40, "c": 50}, {"a": 12, "b": 11, "c": 0}) == ["b"]
    assert winners({"a": 40, "b": 40, "c": 50}, {"a": 11, "b": 11, "c": 0}) == ["a", "b"]


def test_gn_w1_score_game_sheet_totals_three_rounds():
    one = {"layouts": {"ana": grid("5 5 5 / 3 4 6 / 7 8 3"), "ben": grid("4 4 4 / 3 5 6 / 7 8 3"),
                       "cy": grid("8 8 7 / 6 6 5 / 4 3 3")}, "went_out": "ana"}
    # ana 26 - 5 = 21, ben 28, cy 50 in each of the three rounds
    result = score_game_sheet([one, one, one], OPTIONS)
    assert result["round_scores"] == [{"ana": 21, "ben": 28, "cy": 50}] * 3
    assert result["totals"] == {"ana": 63, "ben": 84, "cy": 150}
    assert result["winners"] == ["ana"]


# --- sheets the deck cannot produce ---------------------------------------------------------
ROUND = {"ana": "3 4 5 / 6 7 8 / 3 4 5", "ben": "4 4 4 / -1 -2 -3 / 5 5 M",
         "cy": "8 8 7 / 6 6 5 / 4 3 3"}


def _sheet(**texts):
    return {"layouts": {p: grid(t) if isinstance(t, str) else t
                        for p, t in {**ROUND, **texts}.items()}}


def _problems(data, **options):
    with pytest.raises(ImpossibleState) as info:
        score_round_sheet(data, ENGINE.resolve_options(options))
    return {(v.rule, v.field) for v in info.value.violations}


def test_gn_c1_a_fourth_hazard_is_impossible():
    data = _sheet(ana="H H 5 / 6 7 8 / 3 4 5", cy="H H 7 / 6 6 5 / 4 3 3")
    assert _problems(data) == {("GN-C1", "round.layouts")}


def test_gn_c1_fifteen_threes_are_impossible():
    data = _sheet(ana="3 3 3 / 3 3 3 / 3 3 3", ben="3 3 3 / 3 3 3 / 4 4 4")
    # cy's layout holds two more 3s: 9 + 6 + 2 = 17 > 14
    assert _problems(data) == {("GN-C1", "round.layouts")}


def test_gn_s1_a_three_by_four_layout_is_rejected_naming_the_row():
    data = _sheet(ana=[["3", "4", "5", "6"], ["6", "7", "8", "3"], ["3", "4", "5", "6"]])
    assert ("GN-S1", "round.layouts.ana[0]") in _problems(data)


def test_gn_c1_card_nine_is_rejected_naming_the_card():
    data = _sheet(ben="4 4 4 / -1 9 -3 / 5 5 M")
    assert _problems(data) == {("GN-C1", "round.layouts.ben[1][1]")}


def test_gn_c2_two_players_only_with_the_option_and_never_eight():
    two = {"layouts": {"ana": grid(ROUND["ana"]), "ben": grid(ROUND["ben"])}}
    assert _problems(two) == {("GN-C2", "round.layouts")}
    assert score_round_sheet(two, ENGINE.resolve_options({"allow_two_players": True}))[
        "scores"] == {"ana": 45, "ben": -15}
    eight = {"layouts": {f"p{i}": grid("3 4 5 / 6 7 8 / -1 -2 M") for i in range(8)}}
    assert ("GN-C2", "round.layouts") in _problems(eight)


def test_gn_p7_went_out_must_be_a_player():
    assert _problems({**_sheet(), "went_out": "zed"}) == {("GN-P7", "round.went_out")}


def test_gn_c3_a_game_sheet_has_options_rounds_rounds_of_the_same_players():
    one = _sheet()
    with pytest.raises(ImpossibleState) as info:
        score_game_sheet([one, one], OPTIONS)
    assert [(v.rule, v.field) for v in info.value.violations] == [("GN-C3", "rounds")]
    assert score_game_sheet([one, one], ENGINE.resolve_options({"rounds": 2}))["totals"] == \
        {"ana": 90, "ben": -30, "cy": 100}
    other = {"layouts": {"ana": grid(ROUND["ana"]), "ben": grid(ROUND["ben"]),
                         "dee": grid(ROUND["cy"])}}
    with pytest.raises(ImpossibleState) as info:
        score_game_sheet([one, other, one], OPTIONS)
    assert [(v.rule, v.field) for v in info.value.violations] == [("GN-C3", "rounds[1].layouts")]


def test_remembered_layout_and_round_points_are_score_layout_and_score_round():
    """layout_points / round_points (what a snapshot's score uses, remembered per layout)
    give exactly score_layout's points and score_round's scores (GN-P1–GN-P7), face-down
    cards (None) included, over 3,000 random layouts dealt from the GN-C1 deck."""
    import random

    from referee.games.gnoming.rules import DECK
    from referee.games.gnoming.scoring import layout_points, round_points
    rng = random.Random(11)
    for _ in range(1000):
        cards = rng.sample(DECK, 27)
        layouts = {}
        for seat, name in enumerate(["ana", "ben", "cy"]):
            nine = [c if rng.random() > 0.2 else None for c in cards[seat * 9:seat * 9 + 9]]
            layouts[name] = [nine[0:3], nine[3:6], nine[6:9]]
            assert layout_points(layouts[name]) == score_layout(layouts[name])["points"]
        if any(c is None for g in layouts.values() for row in g for c in row):
            continue
        went_out = rng.choice([None, "ana", "ben", "cy"])
        for tie in ("lowest", "not_lowest"):
            assert round_points(layouts, went_out, tie) == \
                score_round(layouts, went_out, tie)["scores"]


def test_round_points_applies_gn_p7_to_who_went_out():
    """By hand: ana's row of 3s is a set (GN-P1, −3), the rest at face value (GN-P2, P3)
    and the Hazard 10 (GN-P6): −3 + 5 − 1 + 7 + 10 + 4 + 6 = 28; ben −8 + 8+7+6 + 10+10+5 =
    38; cy has no set: 51.  ana went out lowest: −5 (GN-P7) → 23."""
    from referee.games.gnoming.scoring import round_points
    layouts = {"ana": [["3", "3", "3"], ["5", "-1", "7"], ["H", "4", "6"]],
               "ben": [["8", "8", "8"], ["8", "7", "6"], ["H", "H", "5"]],
               "cy": [["4", "5", "6"], ["7", "8", "3"], ["5", "6", "7"]]}
    assert [score_layout(g)["points"] for g in layouts.values()] == [28, 38, 51]
    assert round_points(layouts, "ana") == {"ana": 23, "ben": 38, "cy": 51}
    assert round_points(layouts, "cy") == {"ana": 28, "ben": 38, "cy": 56}  # not lowest: +5
