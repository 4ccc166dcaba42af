"""Setting up a game (GN-C2, GN-C3, GN-S1, GN-S3, GN-S4, GN-X1): bodies that cannot start a
game are InvalidSetup naming the field and the rule."""
import pytest

from referee.games.base import InvalidSetup
from referee.games.gnoming.engine import ENGINE
from referee.games.gnoming.setup import round_starter
from tests.gnoming.deals import make_deal
from tests.gnoming.test_turns import LAYOUTS


def _invalid(body):
    body = {"options": {}, **body}
    body["options"] = ENGINE.resolve_options(body["options"])
    with pytest.raises(InvalidSetup) as info:
        ENGINE.setup(body, 1)
    return {(v.rule, v.field) for v in info.value.violations}


def test_gn_c2_player_counts_and_names():
    assert _invalid({"players": ["ana", "ben"]}) == {("GN-C2", "players")}
    assert _invalid({"players": [f"p{i}" for i in range(8)]}) == {("GN-C2", "players")}
    assert _invalid({"players": ["ana", "ana", "ben"]}) == {("GN-C2", "players")}
    assert _invalid({"players": "ana ben cy"}) == {("GN-C2", "players")}
    two = ENGINE.setup({"players": ["ana", "ben"], "options": {"allow_two_players": True}}, 1)
    assert len(two["draw_pile"]) + len(two["removed"]) == 110 - 18 - 2


def test_gn_s3_first_player_must_sit_and_the_starter_rotates_clockwise():
    assert _invalid({"players": ["ana", "ben", "cy"], "options": {"first_player": "zed"}}) == \
        {("GN-S3", "options.first_player")}
    options = ENGINE.resolve_options({"first_player": "cy"})
    assert [round_starter(["ana", "ben", "cy"], options, n) for n in (1, 2, 3, 4)] == \
        ["cy", "ana", "ben", "cy"]


def test_gn_c3_options_are_checked():
    with pytest.raises(InvalidSetup):
        ENGINE.resolve_options({"rounds": 0})
    with pytest.raises(InvalidSetup):
        ENGINE.resolve_options({"out_first_tie": "sometimes"})
    with pytest.raises(InvalidSetup):
        ENGINE.resolve_options({"jokers": True})


def test_gn_s4_an_entered_deal_may_not_start_a_pile_with_a_hazard():
    deal = make_deal(LAYOUTS, piles=("H", "8"))
    assert _invalid({"players": list(LAYOUTS), "deal": deal}) == \
        {("GN-S4", "deal.discard_piles[0][0]")}
    good = make_deal(LAYOUTS, removed=("H",))  # set aside by GN-S4
    state = ENGINE.setup({"players": list(LAYOUTS), "options": ENGINE.resolve_options({}),
                          "deal": good}, 1)
    assert state["removed"] == ["H"]


def test_gn_c1_s1_an_entered_deal_is_the_whole_deck_laid_out():
    deal = make_deal(LAYOUTS)
    short = {**deal, "draw_pile": deal["draw_pile"][1:]}
    assert _invalid({"players": list(LAYOUTS), "deal": short}) == {("GN-C1", "deal")}
    wrong = {**deal, "layouts": {**deal["layouts"], "ana": [["5", "5"], ["4", "8"]]}}
    assert ("GN-S1", "deal.layouts.ana") in _invalid({"players": list(LAYOUTS), "deal": wrong})
    others = {**deal, "layouts": {"ana": deal["layouts"]["ana"]}}
    assert ("GN-S1", "deal.layouts") in _invalid({"players": list(LAYOUTS), "deal": others})
    nine = {**deal, "draw_pile": ["9"] + deal["draw_pile"][1:]}
    assert ("GN-C1", "deal.draw_pile[0]") in _invalid({"players": list(LAYOUTS), "deal": nine})


def test_gn_x1_table_mode_takes_no_entered_deal():
    body = {"players": list(LAYOUTS), "mode": "table", "deal": make_deal(LAYOUTS)}
    assert _invalid(body) == {("GN-X1", "deal")}
