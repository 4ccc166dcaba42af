"""Setup: COUP-S1 … S8, the seeded deal, entered deals and the 2-player piles (S5)."""
from __future__ import annotations

from collections import Counter

import pytest

from referee.games.base import InvalidSetup
from referee.games.coup.engine import ENGINE


def _setup_rules(body, seed=1) -> set[str]:
    with pytest.raises(InvalidSetup) as error:
        ENGINE.setup(body, seed)
    return {v.rule for v in error.value.violations}


def _players(n):
    return [chr(65 + i) for i in range(n)]


@pytest.mark.parametrize("n", [1, 9])
def test_coup_s1_two_to_eight_players(n):
    assert _setup_rules({"players": _players(n)}) == {"COUP-S1"}


def test_coup_s1_names_distinct_and_host_reserved_for_w1():
    assert _setup_rules({"players": ["A", "A", "B"]}) == {"COUP-S1"}
    assert _setup_rules({"players": ["A", "host"]}) == {"COUP-W1"}


def test_coup_s2_five_characters_with_the_chosen_exchanger():
    amb = ENGINE.setup({"players": _players(3), "options": {}}, 5)
    cards = Counter(c for h in amb["hands"].values() for c in h) + Counter(amb["court"])
    assert cards == {"duchess": 3, "assassin": 3, "captain": 3, "ambassador": 3, "countess": 3}
    inq = ENGINE.setup({"players": _players(3), "options": {"exchanger": "inquisitor"}}, 5)
    cards = Counter(c for h in inq["hands"].values() for c in h) + Counter(inq["court"])
    assert cards == {"duchess": 3, "assassin": 3, "captain": 3, "inquisitor": 3, "countess": 3}
    assert _setup_rules({"players": _players(3), "options": {"exchanger": "jester"}}) == {
        "COUP-S2"}


@pytest.mark.parametrize("n,copies,court", [(3, 3, 9), (6, 3, 3), (7, 4, 6), (8, 4, 4)])
def test_coup_s3_s4_copies_two_cards_each_and_the_court_deck(n, copies, court):
    state = ENGINE.setup({"players": _players(n)}, n)
    assert all(len(h) == 2 for h in state["hands"].values())          # S4
    assert len(state["court"]) == court
    cards = Counter(c for h in state["hands"].values() for c in h) + Counter(state["court"])
    assert set(cards.values()) == {copies}                            # S3


def test_seeded_deal_is_reproducible_and_the_seed_is_kept():
    one = ENGINE.setup({"players": _players(4)}, "table-7")
    assert one == ENGINE.setup({"players": _players(4)}, "table-7")
    assert one["seed"] == "table-7"
    others = [ENGINE.setup({"players": _players(4)}, s)["hands"] for s in range(5)]
    assert len({str(h) for h in others}) > 1


def test_coup_s5_two_player_piles_and_choose_card():
    state = ENGINE.setup({"players": ["A", "B"]}, 9)
    one_of_each = ["duchess", "assassin", "captain", "ambassador", "countess"]
    assert sorted(state["hands"]["A"] + state["hands"]["B"] + state["court"]) == sorted(
        one_of_each)                                                   # the shuffled pile
    assert len(state["court"]) == 3
    assert state["piles"] == {"A": one_of_each, "B": one_of_each}
    assert state["turn"]["stage"] == "choose_card"
    legal = ENGINE.legal_actions(state)
    assert len(legal) == 10 and {a["type"] for a in legal} == {"choose_card"}
    assert {v.rule for v in ENGINE.violations(state, {"type": "income", "player": "A"})} == {
        "COUP-S5"}
    state, events = ENGINE.apply(state, {"type": "choose_card", "player": "B",
                                         "card": "countess"})
    assert state["hands"]["B"][1] == "countess" and len(state["piles"]["B"]) == 4
    assert [e for e in events if "visible_to" not in e] == [
        {"type": "card_chosen", "player": "B", "rule": "COUP-S5"}]
    again = {"type": "choose_card", "player": "B", "card": "duchess"}
    assert {v.rule for v in ENGINE.violations(state, again)} == {"COUP-S5"}
    assert ENGINE.view(state, "A")["piles"] == {"A": one_of_each}   # B's pile stays unseen
    state, _ = ENGINE.apply(state, {"type": "choose_card", "player": "A", "card": "duchess"})
    assert state["turn"]["stage"] == "declare" and state["turn"]["player"] == "A"


def test_coup_s5_entered_two_player_deal_must_be_three_piles_of_one_each():
    piles = {"A": ["duchess", "assassin", "captain", "ambassador", "countess"],
             "B": ["duchess", "assassin", "captain", "ambassador", "countess"]}
    good = {"players": ["A", "B"], "deal": {"hands": {"A": ["duchess"], "B": ["captain"]},
                                            "piles": piles,
                                            "court": ["assassin", "ambassador", "countess"]}}
    state = ENGINE.setup(good, 1)
    assert state["court"] == ["assassin", "ambassador", "countess"]
    bad = {**good, "deal": {**good["deal"], "court": ["duchess", "ambassador", "countess"]}}
    assert _setup_rules(bad) == {"COUP-S5"}


def test_coup_s6_two_coins_each_and_the_two_player_first_coin_variant():
    state = ENGINE.setup({"players": _players(4)}, 1)
    assert state["coins"] == {"A": 2, "B": 2, "C": 2, "D": 2}
    two = ENGINE.setup({"players": ["A", "B"], "options": {"two_player_first_coin": True,
                                                            "first_player": "B"}}, 1)
    assert two["coins"] == {"A": 2, "B": 1}
    three = ENGINE.setup({"players": _players(3), "options": {"two_player_first_coin": True}}, 1)
    assert three["coins"] == {"A": 2, "B": 2, "C": 2}   # a 2-player variant only


def test_coup_s7_the_treasury_holds_the_rest_of_54():
    assert ENGINE.setup({"players": _players(5)}, 1)["treasury"] == 54 - 10
    assert ENGINE.setup({"players": ["A", "B"], "options": {"two_player_first_coin": True}},
                        1)["treasury"] == 54 - 3


def test_coup_s8_first_player_option():
    state = ENGINE.setup({"players": _players(3), "options": {"first_player": "C"}}, 1)
    assert state["turn"]["player"] == "C"
    assert ENGINE.to_move(state) == ["C"]
    assert _setup_rules({"players": _players(3), "options": {"first_player": "Z"}}) == {
        "COUP-S8"}


def test_entered_deal_errors_name_the_field():
    hands = {"A": ["duchess", "duchess"], "B": ["duchess", "duchess"],
             "C": ["captain", "captain"]}
    body = {"players": _players(3), "deal": {"hands": hands, "court": ["captain"] * 9}}
    assert "COUP-S3" in _setup_rules(body)
    body = {"players": _players(3), "deal": {"hands": {"A": ["duchess"]}, "court": []}}
    with pytest.raises(InvalidSetup) as error:
        ENGINE.setup(body, 1)
    fields = {v.field for v in error.value.violations}
    assert {"deal.hands.A", "deal.hands.B", "deal.hands.C", "deal.court"} <= fields
    body = {"players": _players(3),
            "deal": {"hands": {"A": ["joker", "duchess"], "B": ["unknown", "x"],
                               "C": ["captain", "captain"], "Z": []}, "court": []}}
    with pytest.raises(InvalidSetup) as error:
        ENGINE.setup(body, 1)
    found = {(v.rule, v.field) for v in error.value.violations}
    assert {("COUP-S2", "deal.hands.A[0]"), ("COUP-S2", "deal.hands.B[0]"),
            ("COUP-S1", "deal.hands.Z")} <= found


def test_table_mode_deal_may_hold_unknown_cards():
    hands = {"A": ["unknown", "duchess"], "B": ["unknown", "unknown"],
             "C": ["captain", "unknown"]}
    body = {"players": _players(3), "mode": "table",
            "deal": {"hands": hands, "court": ["unknown"] * 9}}
    state = ENGINE.setup(body, 1)
    assert state["mode"] == "table" and state["hands"]["B"] == ["unknown", "unknown"]
    unseen = ENGINE.setup({"players": _players(3), "mode": "table"}, 1)
    assert unseen["hands"]["A"] == ["unknown", "unknown"] and unseen["court"] == ["unknown"] * 9
