"""The turn's bookkeeping in a Gnoming snapshot is derived again from the layout, the phase and
the piles (issue 12 item 8, ``snapshot_turn.py``): each field changed to a value of the right
type that no game reaches is refused, citing the rule and naming the field."""
import pytest

from referee.games.base import ImpossibleState
from referee.games.common.jsoncopy import json_copy
from referee.games.gnoming.engine import ENGINE
from tests.gnoming.deals import THREE, act, corners, flip_all, setup

# ana's face-up top corners after GN-S2: a Mulligan at (0, 0) and a 4 at (0, 2); the 4 at
# (1, 0) is face down, so a 4 placed there bounces (GN-B1).
LAYOUTS = {"ana": "M 5 4 / 4 8 3 / 6 7 5",
           "ben": "4 4 6 / 3 8 7 / -2 5 H",
           "cy": "6 7 3 / 8 4 5 / 3 6 -3"}


def _started():
    return flip_all(setup(LAYOUTS, draw_top=("4",)), corners(THREE))


def _refused(state, **turn):
    bad = json_copy(state)
    bad["turn"].update(turn)
    with pytest.raises(ImpossibleState) as info:
        ENGINE.check_snapshot(bad)
    return {(v.rule, v.field) for v in info.value.violations}


def test_gn_t1_before_the_draw_the_turn_is_blank():
    state = _started()
    assert state["phase"] == "draw"
    ENGINE.check_snapshot(state)
    assert _refused(state, mulligans_at_start=1) == {("GN-T1", "state.turn.mulligans_at_start")}
    assert _refused(state, source="draw_pile") == {("GN-T1", "state.turn.source")}
    assert _refused(state, filled=[[0, 0]]) == {("GN-T1", "state.turn.filled")}


def test_gn_m1_mulligans_at_start_is_the_count_at_the_draw():
    state = act(_started(), type="draw", player="ana", source="draw_pile")
    assert state["turn"]["mulligans_at_start"] == 1  # the M at (0, 0)
    assert _refused(state, mulligans_at_start=0) == {("GN-M1", "state.turn.mulligans_at_start")}
    # the 4 placed on the face-up M: the M is held, and it was face up at the draw
    held = act(state, type="place", player="ana", position=[0, 0])
    assert (held["phase"], held["turn"]["holding"]) == ("discard", "M")
    ENGINE.check_snapshot(held)
    assert _refused(held, mulligans_at_start=0) == {("GN-M1", "state.turn.mulligans_at_start")}
    # had the M been face down, the layout had no face-up Mulligan at the draw
    assert _refused(held, replaced_face_down=True) == {("GN-M1", "state.turn.mulligans_at_start")}


def test_gn_t1_pile_fits_the_source_and_an_emptied_pile_is_the_one_drawn_from():
    state = act(_started(), type="draw", player="ana", source="discard", pile=0)
    assert state["discard_piles"][0] == [] and state["turn"]["pile"] == 0
    ENGINE.check_snapshot(state)
    assert _refused(state, pile=1) == {("GN-T1", "state.turn.pile")}
    assert ("GN-T1", "state.turn.pile") in _refused(state, source="draw_pile")


def test_gn_t2_filled_positions_are_face_up():
    state = act(_started(), type="draw", player="ana", source="draw_pile")
    placed = act(state, type="place", player="ana", position=[1, 1])
    assert placed["turn"]["filled"] == [[1, 1]]
    assert _refused(placed, filled=[[2, 2]]) == {("GN-T2", "state.turn.filled")}


def test_gn_b1_replaced_face_down_and_the_bounce_phase():
    state = act(_started(), type="draw", player="ana", source="draw_pile")
    assert _refused(state, replaced_face_down=True) == {("GN-B1", "state.turn.replaced_face_down")}
    bounce = act(state, type="place", player="ana", position=[1, 0])  # a face-down 4: it matches
    assert (bounce["phase"], bounce["turn"]["holding"]) == ("bounce", "4")
    ENGINE.check_snapshot(bounce)
    assert _refused(bounce, replaced_face_down=False) == {("GN-B1", "state.phase")}
    waiting = json_copy(bounce)
    waiting["phase"] = "discard"  # the 4 may bounce, so the game waits on the bounce
    with pytest.raises(ImpossibleState) as info:
        ENGINE.check_snapshot(waiting)
    assert {(v.rule, v.field) for v in info.value.violations} == {
        ("GN-B1", "state.turn.replaced_face_down")}


def test_gn_m1_the_possible_counts_read_as_alternatives_in_each_language():
    # "3 or 4" in English; the Burmese sentence joins them with its own "or", not the English
    from referee.i18n.verdicts import render, text
    params = {"player": "ana", "counts": [3, 4]}
    assert render("gnoming.snapshot.mulligans_at_start_count", params, "en").endswith(
        ": 3 or 4.")
    burmese = render("gnoming.snapshot.mulligans_at_start_count", params, "my")
    assert f"3{text('term.list_or', 'my')}4" in burmese and " or " not in burmese
    assert render("gnoming.snapshot.mulligans_at_start_count",
                  {"player": "ana", "counts": [1]}, "en").endswith(": 1.")
