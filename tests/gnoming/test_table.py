"""Table mode (GN-X1): face-down cards and the draw pile are unknown until turned up; each card
turned up is entered and checked against the GN-C1 deck and every card already seen."""
from collections import Counter

from referee.games.base import UNKNOWN
from referee.games.gnoming.engine import ENGINE
from referee.games.gnoming.rules import DECK_COUNTS
from referee.games.gnoming.table import seen_counts
from tests.gnoming.deals import THREE, act, broken, cards, setup

FLIPS = {"ana": [((0, 0), "4"), ((0, 2), "6")], "ben": [((0, 0), "H"), ((0, 2), "5")],
         "cy": [((0, 0), "3"), ((0, 2), "3")]}


def table_game():
    return ENGINE.setup({"players": THREE, "options": {}, "mode": "table"}, 1)


def playing():
    """Piles started with 7 and 8, everyone's two flips entered."""
    state = table_game()
    state = act(state, type="discard", player="ana", pile=0, card="7")
    state = act(state, type="discard", player="ana", pile=1, card="8")
    for player, flips in FLIPS.items():
        for (r, c), card in flips:
            state = act(state, type="flip", player=player, position=[r, c], card=card)
    return state


def test_gn_x1_a_table_round_starts_unknown_and_the_starter_turns_up_both_piles():
    state = table_game()
    assert all(c == {"card": UNKNOWN, "up": False}
               for g in state["layouts"].values() for row in g for c in row)
    assert state["draw_pile"] == [UNKNOWN] * 83 and state["discard_piles"] == [[], []]
    assert ENGINE.to_move(state) == THREE
    assert broken(state, type="discard", player="ben", pile=0, card="7") == {"GN-S2"}
    assert broken(state, type="discard", player="ana", pile=0) == {"GN-X1"}  # which card?
    state = act(state, type="discard", player="ana", pile=0, card="H")  # GN-S4: leaves play
    assert state["removed"] == ["H"] and state["discard_piles"] == [[], []]
    state = act(state, type="discard", player="ana", pile=0, card="7")
    assert broken(state, type="discard", player="ana", pile=0, card="5") == {"GN-S1"}
    state = act(state, type="discard", player="ana", pile=1, card="8")
    assert len(state["draw_pile"]) == 80


def test_gn_x1_each_card_turned_up_is_entered_and_checked_against_the_deck():
    state = table_game()
    assert broken(state, type="flip", player="ben", position=[0, 0]) == {"GN-X1"}
    for r, c in [(0, 0), (0, 1)]:
        state = act(state, type="flip", player="ben", position=[r, c], card="H")
    state = act(state, type="flip", player="cy", position=[0, 0], card="H")
    # a fourth Hazard cannot be turned up: the deck holds three
    assert broken(state, type="flip", player="cy", position=[0, 1], card="H") == {"GN-X1"}
    assert broken(state, type="discard", player="ana", pile=0, card="H") == {"GN-X1"}


def test_gn_x1_digital_mode_takes_no_card():
    state = setup({"ana": "5 5 4 / 4 8 3 / 6 7 M", "ben": "4 4 6 / 3 8 7 / -2 5 H",
                   "cy": "6 7 3 / 8 4 5 / 3 6 -3"})
    assert broken(state, type="flip", player="ana", position=[0, 0], card="5") == {"GN-X1"}


def test_gn_x1_t1_b1_draw_and_place_enter_the_cards_turned_up():
    state = playing()
    assert state["phase"] == "draw"
    assert broken(state, type="draw", player="ana", source="draw_pile") == {"GN-X1"}
    assert broken(state, type="draw", player="ana", source="discard", pile=0,
                  card="7") == {"GN-X1"}  # a discard pile's top is known
    state = act(state, type="draw", player="ana", source="draw_pile", card="4")
    assert broken(state, type="place", player="ana", position=[1, 1]) == {"GN-X1"}
    assert broken(state, type="place", player="ana", position=[0, 0], card="4") == {"GN-X1"}
    state = act(state, type="place", player="ana", position=[1, 1], card="4")
    assert state["phase"] == "bounce"  # the 4 turned up matches the face-up 4s (GN-B1)
    state = act(state, type="discard", player="ana", pile=0)
    assert state["discard_piles"][0] == ["7", "4"] and cards(state, "ana")[1][1] == "4"
    assert len(state["draw_pile"]) == 80  # 83 - 2 for the piles - 1 drawn


def test_gn_d4_x1_table_restart_waits_for_the_card_turned_up():
    state = act(playing(), type="draw", player="ana", source="discard", pile=0)
    state = act(state, type="place", player="ana", position=[1, 1], card="3")
    state = act(state, type="discard", player="ana", pile=1)
    assert state["phase"] == "restart" and ENGINE.to_move(state) == ["ana"]
    assert broken(state, type="draw", player="ben", source="draw_pile", card="5") == {"GN-S3"}
    assert broken(state, type="discard", player="ana", pile=1, card="5") == {"GN-D4"}
    state = act(state, type="discard", player="ana", pile=0, card="5")
    assert state["discard_piles"] == [["5"], ["8", "3"]]
    assert state["phase"] == "draw" and state["turn"]["player"] == "ben"


def test_gn_d5_x1_a_reshuffled_table_draw_pile_holds_known_cards():
    state = playing()
    pool = Counter(DECK_COUNTS) - seen_counts(state)
    below = [c for c in pool.elements() if c not in ("H", "-4")][:len(state["draw_pile"])]
    state["discard_piles"][0] = below + state["discard_piles"][0]
    state["draw_pile"] = []
    ENGINE.check_snapshot(state)
    # every -4 is still unseen but none is in the reshuffled pile
    assert broken(state, type="draw", player="ana", source="draw_pile", card="-4") == {"GN-X1"}
    state = act(state, type="draw", player="ana", source="draw_pile", card=below[0])
    assert state["discard_piles"] == [["7"], ["8"]] and len(state["draw_pile"]) == len(below) - 1
    assert UNKNOWN not in state["draw_pile"]


def test_gn_e1_e2_x1_table_round_end_waits_for_every_face_down_card_then_scores():
    state = playing()
    ana = [["4", "5", "6"], ["7", "8", "3"], ["-1", "-2", UNKNOWN]]
    state["layouts"]["ana"] = [[{"card": c, "up": c != UNKNOWN} for c in row] for row in ana]
    ENGINE.check_snapshot(state)
    state = act(state, type="draw", player="ana", source="draw_pile", card="-3")
    state = act(state, type="place", player="ana", position=[2, 2], card="5")
    state = act(state, type="discard", player="ana", pile=0)
    assert state["went_out"] == "ana"
    state = act(state, type="draw", player="ben", source="draw_pile", card="M")
    state = act(state, type="discard", player="ben", pile=1)
    state = act(state, type="draw", player="cy", source="draw_pile", card="-4")
    state = act(state, type="discard", player="cy", pile=1)
    assert state["phase"] == "reveal" and ENGINE.to_move(state) == ["ben", "cy"]
    ben = {(0, 1): "4", (1, 0): "4", (1, 1): "4", (1, 2): "4", (2, 0): "6", (2, 1): "7",
           (2, 2): "8"}
    cy = {(0, 1): "3", (1, 0): "6", (1, 1): "6", (1, 2): "6", (2, 0): "8", (2, 1): "8",
          (2, 2): "-1"}
    for player, entered in (("ben", ben), ("cy", cy)):
        for (r, c), card in entered.items():
            assert state["round"] == 1
            state = act(state, type="flip", player=player, position=[r, c], card=card)
    # ana 4 5 6 / 7 8 3 / -1 -2 -3 = 27, not the lowest: +5; ben H 4 5 / 4 4 4 / 6 7 8 =
    # 10 + 4 + 5 - 4 + 6 + 7 + 8 = 36; cy 3 3 3 / 6 6 6 / 8 8 -1 = -3 - 6 + 16 - 1 = 6
    assert ENGINE.score(state)["totals"] == {"ana": 32, "ben": 36, "cy": 6}
    assert state["round"] == 2 and state["starter"] == "ben" and state["mode"] == "table"
    assert state["draw_pile"] == [UNKNOWN] * 83
