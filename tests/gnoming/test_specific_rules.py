"""The most specific rule first (issue 13 item 4) in Gnoming A Round: a second draw cites
GN-T1 in every phase of the drawer's turn (it did not, once the turn was waiting for a pile
restart or Hazard flips), and a flip nobody owes cites GN-D1 (the only rule that turns up a
card after setup) rather than whose turn it is."""
from __future__ import annotations

from referee.games.gnoming.engine import ENGINE
from tests.gnoming.deals import THREE, act, corners, flip_all, setup

LAYOUTS = {"ana": "5 5 4 / 4 8 3 / 6 7 M",
           "ben": "4 4 6 / 3 8 7 / -2 5 H",
           "cy": "6 7 3 / 8 4 5 / 3 6 -3"}


def _cited(state, **action):
    return [(v.rule, v.code) for v in ENGINE.violations(state, action)]


def _started(draw_top):
    return flip_all(setup(LAYOUTS, draw_top=draw_top), corners(THREE))


def test_gn_t1_a_second_draw_is_gn_t1_while_holding_and_while_hazard_flips_are_due():
    state = act(_started(("H",)), type="draw", player="ana", source="draw_pile")
    assert _cited(state, type="draw", player="ana", source="draw_pile") == [
        ("GN-T1", "gnoming.draw.twice")]
    state = act(state, type="discard", player="ana")  # the Hazard: ben and cy flip (GN-D1)
    assert state["phase"] == "hazard"
    assert _cited(state, type="draw", player="ana", source="discard", pile=0) == [
        ("GN-T1", "gnoming.draw.twice")]
    # the next player waits for the flips (GN-D1)
    assert _cited(state, type="draw", player="ben", source="draw_pile") == [
        ("GN-D1", "gnoming.turn.waits.hazard")]


def test_gn_d1_a_flip_in_a_turn_cites_gn_d1_for_the_turn_player_and_the_others():
    state = _started(("4",))
    assert state["phase"] == "draw"
    for player in THREE:  # ana is to draw; ben and cy are not: the same verdict
        assert _cited(state, type="flip", player=player, position=[1, 1]) == [
            ("GN-D1", "gnoming.flip.not_owed")]


def test_gn_t3_a_place_or_discard_after_the_discard_cites_gn_t3_not_the_hazard_wait():
    """Digital: ana discards a drawn Hazard (GN-D2); while ben and cy flip for it (GN-D1) her
    place or second discard breaks GN-T3 (the discard ends her turn), not GN-D1."""
    state = act(_started(("H",)), type="draw", player="ana", source="draw_pile")
    state = act(state, type="discard", player="ana")
    assert state["phase"] == "hazard"
    assert _cited(state, type="place", player="ana", position=[1, 1]) == [
        ("GN-T3", "gnoming.turn.discarded")]
    assert _cited(state, type="discard", player="ana", pile=0) == [
        ("GN-T3", "gnoming.turn.discarded")]
    # ben, who owes a flip, is still told what the game waits for (GN-D1)
    assert _cited(state, type="place", player="ben", position=[1, 1]) == [
        ("GN-D1", "gnoming.turn.waits.hazard")]


def test_gn_t3_table_mode_a_place_during_the_pile_restart_cites_gn_t3_not_gn_d4():
    """Table mode: ana empties discard pile 0 (GN-D4 restart due); a place now breaks GN-T3;
    a discard is the restart itself (GN-D4) and a wrong pile still cites GN-D4."""
    from tests.gnoming.test_table import playing
    state = act(playing(), type="draw", player="ana", source="discard", pile=0)
    state = act(state, type="place", player="ana", position=[1, 1], card="3")
    state = act(state, type="discard", player="ana", pile=1)
    assert state["phase"] == "restart"
    assert _cited(state, type="place", player="ana", position=[2, 2], card="5") == [
        ("GN-T3", "gnoming.turn.discarded")]
    assert _cited(state, type="discard", player="ana", pile=1, card="5") == [
        ("GN-D4", "gnoming.discard.restart_pile")]
