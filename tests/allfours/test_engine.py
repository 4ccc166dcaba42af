"""All Fours engine flow: begging, running the pack, dealing on, table-mode reneges and calls.

Every expected value is worked out by hand from shared/rules/allfours.md (rule IDs in names).
"""
import copy

import pytest

from referee.games.allfours.engine import ENGINE
from referee.games.base import IllegalAction
from tests.allfours.deals import act, rules_broken, setup

FOUR = ["ana", "ben", "cy", "dee"]
HANDS4 = {"ana": ["2C", "3C", "4C", "5C", "7C", "8C"],
          "ben": ["2D", "3D", "4D", "5D", "7D", "8D"],
          "cy": ["2S", "3S", "4S", "5S", "7S", "8S"],
          "dee": ["9C", "10C", "QC", "9D", "10D", "QD"]}


def test_af_k1_kick_scores_at_once_to_the_dealers_side():
    state = setup(FOUR, "ana", HANDS4, {0: "JH"})  # a kicked jack scores 3
    assert state["trump"] == "H" and state["kicks"] == ["JH"]
    assert state["score"] == {"A": 3, "B": 0}  # ana and cy are side A


def test_af_s6_game_ends_the_moment_the_kick_reaches_the_target():
    state = setup(FOUR, "ben", HANDS4, {0: "AH"}, target=1)
    assert state["phase"] == "game_over" and state["winner"] == "B"
    assert ENGINE.legal_actions(state) == []
    assert rules_broken(state, type="stand", player="cy") == {"AF-S6"}


def test_af_b1_only_the_player_on_the_dealers_right_stands_or_begs():
    state = setup(FOUR, "ana", HANDS4, {0: "KH"})
    assert rules_broken(state, type="beg", player="cy") == {"AF-B1"}
    assert rules_broken(state, type="stand", player="ana") == {"AF-B1"}
    assert ENGINE.legal_actions(state) == [{"type": "stand", "player": "ben"},
                                           {"type": "beg", "player": "ben"}]


def test_af_b2_give_one_scores_one_to_the_beggars_side():
    state = act(setup(FOUR, "ana", HANDS4, {0: "KH"}), type="beg", player="ben")
    assert rules_broken(state, type="give_one", player="cy") == {"AF-B2"}
    state = act(state, type="give_one", player="ana")
    assert state["score"] == {"A": 0, "B": 1} and state["phase"] == "play"
    assert ENGINE.to_move(state) == ["ben"]  # AF-P1: the dealer's right leads


def test_af_b3_running_the_pack_repeats_on_the_same_suit():
    # kick 5H; the run's kick 9H repeats hearts (set aside, scores 0); the next, 6S, is trump
    # and scores 2 to the dealer's side.
    state = setup(FOUR, "ana", HANDS4, {0: "5H", 13: "9H", 26: "6S"})
    state = act(act(state, type="beg", player="ben"), type="run_pack", player="ana")
    assert state["kicks"] == ["5H", "9H", "6S"] and state["trump"] == "S"
    assert {p: len(h) for p, h in state["hands"].items()} == {p: 12 for p in FOUR}
    assert state["score"] == {"A": 2, "B": 0}
    assert len(state["stock"]) == 52 - 4 * 12 - 3
    assert state["phase"] == "play"
    ENGINE.check_snapshot(state)  # the snapshot stays consistent


def test_af_b3_run_deals_three_each_starting_on_the_dealers_right():
    state = setup(FOUR, "ana", HANDS4, {0: "5H", 13: "6S"})
    first_run = state["stock"][0:12]  # the kick is already turned
    state = act(act(state, type="beg", player="ben"), type="run_pack", player="ana")
    # ben (dealer's right) gets the first three, then cy, dee, ana
    assert state["hands"]["ben"][6:] == first_run[0:3]
    assert state["hands"]["ana"][6:] == first_run[9:12]


def test_af_b4_pack_runs_out_same_dealer_deals_again_keeping_kick_points():
    # AH (1), JH (3), 6H (2): every kick repeats hearts and a third run is impossible
    state = setup(FOUR, "ana", HANDS4, {0: "AH", 13: "JH", 26: "6H"})
    state = act(act(state, type="beg", player="ben"), type="run_pack", player="ana")
    assert state["dealer"] == "ana" and state["redeals"] == 1 and state["phase"] == "beg"
    assert {p: len(h) for p, h in state["hands"].items()} == {p: 6 for p in FOUR}
    from referee.games.allfours.rules import kick_points
    assert state["score"]["A"] == 6 + kick_points(state["kicks"][0])
    ENGINE.check_snapshot(state)


def _play_out(state):
    """Play the first legal card until the hand is over (digital)."""
    while state["phase"] == "play":
        player = ENGINE.to_move(state)[0]
        state = act(state, **ENGINE.legal_actions(state, player)[0])
    return state


def test_af_d2_after_a_hand_the_deal_passes_to_the_right():
    state = act(setup(FOUR, "ana", HANDS4, {0: "KH"}), type="stand", player="ben")
    state = _play_out(state)
    assert state["phase"] == "hand_over" and state["next_dealer"] == "ben"
    assert rules_broken(state, type="deal", player="cy") == {"AF-D2"}
    dealt = act(state, type="deal", player="ben")
    assert dealt["dealer"] == "ben" and dealt["hand_number"] == 2
    assert ENGINE.to_move(dealt) == ["cy"]  # cy is now on the dealer's right (AF-B1)


def test_af_p1_every_dealt_card_is_played_and_hand_points_add_up():
    state = act(setup(FOUR, "ana", HANDS4, {0: "KH"}), type="stand", player="ben")
    state = _play_out(state)
    assert len(state["tricks"]) == 6
    # no heart was dealt: no High/Low/Jack (AF-S5); only Game, 1 point, is scored
    assert sum(state["hand_points"].values()) == 1
    assert state["last_hand"]["high"] is None


def test_af_p1_playing_out_of_turn_or_a_card_not_held_is_refused():
    state = act(setup(FOUR, "ana", HANDS4, {0: "KH"}), type="stand", player="ben")
    assert rules_broken(state, type="play", player="cy", card="2S") == {"AF-P1"}
    assert rules_broken(state, type="play", player="ben", card="2S") == {"AF-P1"}
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, {"type": "play", "player": "cy", "card": "2S"})
    assert err.value.violations[0].rule == "AF-P1"


def test_apply_never_changes_the_state_it_is_given():
    state = setup(FOUR, "ana", HANDS4, {0: "KH"})
    before = repr(state)
    act(state, type="beg", player="ben")
    assert repr(state) == before


# --- table mode -------------------------------------------------------------------------
def _table(players, dealer, kick, **options):
    return ENGINE.setup({"players": players, "dealer": dealer, "mode": "table", "kick": kick,
                         "options": ENGINE.resolve_options(options)}, seed="t")


def test_af_i1_failing_a_trump_lead_holding_the_ace_loses_the_game_when_proven():
    state = act(_table(["ana", "ben"], "ben", "4S"), type="stand", player="ana")
    state = act(state, type="play", player="ana", card="2S")  # trump led
    state = act(state, type="play", player="ben", card="7D")  # ben shows no trump...
    assert state["reneges"] == [] and state["phase"] == "play"  # not provable yet
    state = act(state, type="play", player="ana", card="3D")  # ana won with the 2S, leads
    state = act(state, type="play", player="ben", card="AS")  # ...but held the ace
    assert state["phase"] == "game_over" and state["winner"] == "ana"
    assert state["reneges"][0]["player"] == "ben" and state["reneges"][0]["trick"] == 1
    assert state["reneges"][0]["loses_game"] and state["reneges"][0]["rule"] == "AF-I1"
    assert state["reneges"][0]["broke"] == "AF-P2"  # the trump lead it failed to follow


def test_af_i1_ordinary_renege_gives_a_point_and_bars_game():
    # ana leads hearts in trick 1; ben plays a club though he holds the 5H (played in trick 2)
    state = act(_table(["ana", "ben"], "ben", "2S"), type="stand", player="ana")
    plays = [("ana", "KH"), ("ben", "4C"),  # 1: ana wins (3 card points)
             ("ana", "AH"), ("ben", "5H"),  # 2: ana wins (4); the 5H proves trick 1's renege
             ("ana", "10D"), ("ben", "JD"),  # 3: ben wins (11)
             ("ben", "QD"), ("ana", "2D"),  # 4: ben wins (2)
             ("ben", "3C"), ("ana", "9C"),  # 5: ana wins (0)
             ("ana", "6H"), ("ben", "AC")]  # 6: ana wins (4)
    for player, card in plays:
        state = act(state, type="play", player=player, card=card)
    assert [r["trick"] for r in state["reneges"]] == [1]
    assert state["phase"] == "hand_over"
    # Game totals ana 11, ben 13, but the reneging side cannot score Game: it goes to nobody;
    # ana gets 1 for the renege; no trump was dealt, so no High, Low or Jack (AF-S5)
    assert state["last_hand"]["game"]["totals"] == {"ana": 11, "ben": 13}
    assert state["last_hand"]["game"]["side"] is None
    assert state["hand_points"] == {"ana": 1, "ben": 0}


def test_af_p6_an_opponent_calls_an_exposed_card_which_must_then_be_played():
    state = act(_table(["ana", "ben"], "ben", "2S"), type="stand", player="ana")
    state = act(state, type="expose", player="ben", card="QH")  # shown out of turn
    assert state["exposed"]["ben"] == ["QH"]
    state = act(state, type="play", player="ana", card="5H")
    assert rules_broken(state, type="call", player="ben", card="QH") == {"AF-P6"}  # own card
    state = act(state, type="call", player="ana", card="QH")
    assert state["tricks"][0]["cards"] == ["5H", "QH"] and state["tricks"][0]["winner"] == "ben"
    # the called card had already left ben's hand when it was exposed: 6 - 1 played = 5 left
    assert len(state["hands"]["ben"]) == 5 and state["exposed"]["ben"] == []
    ENGINE.check_snapshot(state)


def test_af_p6_an_owner_playing_his_own_exposed_card_keeps_the_hand_size_right():
    state = act(_table(["ana", "ben"], "ben", "2S"), type="stand", player="ana")
    state = act(state, type="expose", player="ana", card="KH")
    state = act(state, type="play", player="ana", card="KH")
    assert len(state["hands"]["ana"]) == 5 and state["exposed"]["ana"] == []
    ENGINE.check_snapshot(state)


def test_af_d1_table_mode_refuses_a_card_already_seen():
    state = act(_table(["ana", "ben"], "ben", "2S"), type="stand", player="ana")
    assert rules_broken(state, type="play", player="ana", card="2S") == {"AF-K1"}  # kicked
    state = act(state, type="play", player="ana", card="5H")
    assert rules_broken(state, type="play", player="ben", card="5H") == {"AF-D1"}


def test_af_b3_table_mode_legal_actions_offer_running_the_pack_with_a_new_kick():
    state = act(_table(["ana", "ben"], "ben", "2S"), type="beg", player="ana")
    runs = [a for a in ENGINE.legal_actions(state, "ben") if a["type"] == "run_pack"]
    assert len(runs) == 39  # one per card of another suit than spades
    assert {"type": "run_pack", "player": "ben", "kicks": ["AH"]} in runs
    state = act(state, **runs[0])
    assert state["phase"] == "play" and state["trump"] != "S"
    assert {p: len(h) for p, h in state["hands"].items()} == {"ana": 9, "ben": 9}


def test_af_i2_a_misdeal_is_a_redeal_by_the_same_dealer_keeping_the_point():
    state = act(_table(["ana", "ben"], "ben", "2S"), type="misdeal", player="ana")
    assert state["score"] == {"ana": 1, "ben": 0} and state["redeals"] == 1
    assert state["phase"] == "deal" and state["next_dealer"] == "ben"
    ENGINE.check_snapshot(state)


def test_af_d1_digital_mode_conserves_the_52_cards_and_the_invariant_can_fail():
    """The conformance suite compares ``conserved`` before and after every action: in digital
    mode it is the whole pack (AF-D1), 52 distinct cards; a card lost from a hand changes it."""
    state = ENGINE.setup({"players": ["ana", "ben", "cy", "dee"], "dealer": "ana",
                          "mode": "digital", "options": ENGINE.resolve_options({})}, seed=5)
    cards = ENGINE.conserved(state)["cards"]
    assert len(cards) == len(set(cards)) == 52
    lost = copy.deepcopy(state)
    lost["hands"]["ben"].pop()
    assert ENGINE.conserved(lost) != ENGINE.conserved(state)
