"""Views (GN-V1): no seat view or public view shows a face-down card; the draw pile is a
count; discard piles show their top cards; a card drawn from the draw pile is seen by its
drawer only until it is placed or discarded; the seed (which gives away every shuffle) never
shows."""
import random

from referee.games.base import PUBLIC, REFEREE, event_visible
from referee.games.gnoming.engine import ENGINE
from tests.gnoming.deals import THREE, act, corners, flip_all, setup
from tests.gnoming.test_turns import LAYOUTS

HIDDEN = {"card": None, "up": False}


def assert_view_hides(state, viewer):
    view = ENGINE.view(state, viewer)
    assert "seed" not in view and "draw_pile" not in view and "discard_piles" not in view
    assert view["draw_pile_count"] == len(state["draw_pile"])
    assert view["discard_tops"] == [p[-1] if p else None for p in state["discard_piles"]]
    for player, grid in state["layouts"].items():
        for r, row in enumerate(grid):
            for c, cell in enumerate(row):
                shown = view["layouts"][player][r][c]
                assert shown == (cell if cell["up"] else HIDDEN), (viewer, player, r, c)
    turn = state["turn"]
    secret = turn["source"] == "draw_pile" and not turn["filled"] and turn["holding"]
    if secret and viewer != turn["player"]:
        assert view["turn"]["holding"] is None and view["turn"]["holding_hidden"]
    else:
        assert view["turn"]["holding"] == turn["holding"]


def assert_events_hide(events, viewer):
    for ev in events:
        if not event_visible(ev, viewer):
            continue
        if ev["type"] == "drew" and ev["source"] == "draw_pile" and viewer != ev["player"]:
            assert "card" not in ev
        if ev["type"] == "round_started":
            assert "layouts" not in ev


def test_gn_v1_no_seat_or_public_view_shows_a_face_down_card():
    for seed, mode, count in [(11, "digital", 3), (12, "digital", 5), (13, "table", 4)]:
        rng = random.Random(seed)
        players = ["ana", "ben", "cy", "dee", "eve"][:count]
        state = ENGINE.setup({"players": players, "options": {"rounds": 2}, "mode": mode}, seed)
        steps = 0
        while not ENGINE.is_over(state):
            for viewer in players + [PUBLIC]:
                assert_view_hides(state, viewer)
            assert ENGINE.view(state, REFEREE) == state
            new, events = ENGINE.apply(state, rng.choice(ENGINE.legal_actions(state)))
            for viewer in players + [PUBLIC]:
                assert_events_hide(events, viewer)
            state, steps = new, steps + 1
        assert steps > 50


def test_gn_v1_the_drawer_sees_the_drawn_card_the_others_when_it_is_placed():
    state = flip_all(setup(LAYOUTS, draw_top=("6",)), corners(THREE))
    state = act(state, type="draw", player="ana", source="draw_pile")
    assert ENGINE.view(state, "ana")["turn"]["holding"] == "6"
    for viewer in ("ben", PUBLIC):
        view = ENGINE.view(state, viewer)
        assert view["turn"]["holding"] is None and view["turn"]["holding_hidden"] is True
    state = act(state, type="place", player="ana", position=[1, 1])  # over the face-down 8
    view = ENGINE.view(state, "ben")
    assert view["layouts"]["ana"][1][1] == {"card": "6", "up": True}
    assert view["turn"]["holding"] == "8"  # turned up: everyone sees it
    assert view["layouts"]["ana"][1][0] == HIDDEN  # ana's own face-down 4 stays hidden
    assert ENGINE.view(state, "ana")["layouts"]["ana"][1][0] == HIDDEN


def test_gn_v1_a_card_taken_from_a_discard_pile_is_public():
    state = flip_all(setup(LAYOUTS), corners(THREE))
    state = act(state, type="draw", player="ana", source="discard", pile=1)
    assert ENGINE.view(state, PUBLIC)["turn"]["holding"] == "8"
