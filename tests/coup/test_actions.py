"""The turn's actions: COUP-T1, T2, A1 … A9 and the treasury (S7), through the engine."""
from __future__ import annotations

import pytest

HANDS = {"A": ["captain", "duchess"], "B": ["assassin", "countess"],
         "C": ["ambassador", "captain"]}


def test_coup_t1_only_the_player_to_move_declares_and_cannot_pass(new_game):
    game = new_game(HANDS)
    assert game.rules("income", "B") == {"COUP-T1"}
    assert game.rules("pass", "A") == {"COUP-T1"}
    game.do("tax", "A")
    assert game.rules("income", "A") == {"COUP-T1"}     # one action per turn


@pytest.mark.parametrize("coins", [10, 11, 12])
def test_coup_t2_ten_or_more_coins_must_coup(new_game, coins):
    game = new_game(HANDS, coins={"A": coins})
    for kind in ("income", "foreign_aid", "tax", "exchange"):
        assert game.rules(kind, "A") == {"COUP-T2"}
    assert game.rules("steal", "A", target="B") == {"COUP-T2"}
    game.do("coup", "A", target="B")
    assert game.coins["A"] == coins - 7


def test_coup_a1_income_takes_one_coin_unchallenged_unblocked(new_game):
    game = new_game(HANDS).do("income", "A")
    assert game.coins == {"A": 3, "B": 2, "C": 2} and game.state["treasury"] == 47
    assert game.turn["player"] == "B" and game.turn["stage"] == "declare"


def test_coup_a2_foreign_aid_two_coins_blocked_by_any_duchess_claim(new_game):
    game = new_game(HANDS).do("foreign_aid", "A")
    assert game.turn["stage"] == "block"                  # no challenge window: no claim
    assert game.rules("challenge", "B") == {"COUP-A2"}   # claims no character (A2), not W1
    game.do("pass", "B").do("pass", "C")
    assert game.coins["A"] == 4
    game = new_game(HANDS).do("foreign_aid", "A").do("block", "C", character="duchess")
    assert game.turn["stage"] == "block_challenge"
    game.do("pass", "A").do("pass", "B")                  # the block stands (B1)
    assert game.coins["A"] == 2 and game.turn["player"] == "B"


def test_coup_a3_coup_costs_seven_and_the_target_loses_one(new_game):
    game = new_game(HANDS, coins={"A": 6})
    assert game.rules("coup", "A", target="B") == {"COUP-A3"}
    game = new_game(HANDS, coins={"A": 7}).do("coup", "A", target="B")
    assert game.coins["A"] == 0 and game.state["treasury"] == 54 - 4
    assert game.state["loss"] == {"player": "B", "rule": "COUP-A3"}
    game.do("lose_influence", "B", card="countess")
    assert game.revealed["B"] == ["countess"] and game.turn["player"] == "B"


def test_coup_a4_tax_takes_three(new_game):
    game = new_game(HANDS).do("tax", "A").do("pass", "B").do("pass", "C")
    assert game.coins["A"] == 5
    # A4 "cannot be blocked" (issue 13), even once it resolved: not T1's "not now"
    assert game.rules("block", "B", character="duchess") == {"COUP-A4"}


def test_coup_s7_a_gain_larger_than_the_treasury_takes_what_is_left(new_game):
    # six players can hold nearly all 54 coins (nobody more than 12, COUP-T2):
    # 2 + 4 × 11 + 7 = 53, so the treasury holds 1 and A's tax takes only that one
    hands = {"A": ["captain", "duchess"], "B": ["assassin", "countess"],
             "C": ["ambassador", "captain"], "D": ["duchess", "countess"],
             "E": ["assassin", "ambassador"], "F": ["captain", "countess"]}
    game = new_game(hands, coins={"B": 11, "C": 11, "D": 11, "E": 11, "F": 7})
    assert game.state["treasury"] == 1
    game.do("tax", "A")
    for player in "BCDEF":
        game.do("pass", player)
    assert game.coins["A"] == 3 and game.state["treasury"] == 0


def test_coup_a5_assassinate_costs_three_needs_three(new_game):
    game = new_game(HANDS)
    assert game.rules("assassinate", "A", target="B") == {"COUP-A5"}   # 2 coins
    game = new_game(HANDS, coins={"A": 3}).do("assassinate", "A", target="B")
    assert game.coins["A"] == 0
    game.do("pass", "B").do("pass", "C")
    assert game.turn["stage"] == "block"
    assert game.rules("block", "C", character="countess") == {"COUP-A5"}  # target only
    game.do("pass", "B")
    game.do("lose_influence", "B", card="assassin")
    assert game.hands["B"] == ["countess"] and game.coins["A"] == 0


def test_coup_a6_steal_two_one_or_none(new_game):
    game = new_game(HANDS).do("steal", "A", target="B")
    game.do("pass", "B").do("pass", "C").do("pass", "B")
    assert game.coins == {"A": 4, "B": 0, "C": 2}
    game = new_game(HANDS, coins={"B": 1}).do("steal", "A", target="B")
    game.do("pass", "B").do("pass", "C").do("pass", "B")
    assert game.coins == {"A": 3, "B": 0, "C": 2}
    assert new_game(HANDS, coins={"B": 0}).rules("steal", "A", target="B") == {"COUP-A6"}
    game = new_game(HANDS, coins={"B": 0}, steal_from_empty=True)
    game.do("steal", "A", target="B").do("pass", "B").do("pass", "C").do("pass", "B")
    assert game.coins == {"A": 2, "B": 0, "C": 2}


def test_coup_a6_steal_blocked_by_captain_or_the_games_exchanger_target_only(new_game):
    game = new_game(HANDS).do("steal", "A", target="B").do("pass", "B").do("pass", "C")
    assert game.rules("block", "C", character="captain") == {"COUP-A6"}
    # A6 names who blocks a steal: the Captain or the exchanger, not the Countess
    assert game.rules("block", "B", character="countess") == {"COUP-A6"}
    assert game.rules("block", "B", character="inquisitor") == {"COUP-B2"}
    game.do("block", "B", character="captain").do("pass", "A").do("pass", "C")
    assert game.coins == {"A": 2, "B": 2, "C": 2}


def test_coup_a7_ambassador_exchange_draws_two_returns_two_and_shuffles(new_game):
    game = new_game(HANDS, top=("assassin", "countess"))
    game.do("exchange", "A").do("pass", "B").do("pass", "C")
    assert game.turn["stage"] == "exchange" and game.turn["drawn"] == ["assassin", "countess"]
    assert len(game.state["court"]) == 7
    assert game.rules("return_cards", "A", cards=["captain"]) == {"COUP-A7"}
    assert game.rules("return_cards", "A", cards=["duchess", "duchess"]) == {"COUP-A7"}
    assert game.rules("return_cards", "B", cards=["captain", "duchess"]) == {"COUP-A7"}
    game.do("return_cards", "A", cards=["captain", "duchess"])
    assert game.hands["A"] == ["assassin", "countess"] and len(game.state["court"]) == 9
    assert game.state["shuffles"] == 1 and game.turn["player"] == "B"
    assert sorted(game.state["court"]).count("captain") == 2      # C holds the third


def test_coup_a8a_inquisitor_exchange_draws_one_returns_one(new_game):
    hands = {"A": ["inquisitor", "duchess"], "B": ["assassin", "countess"],
             "C": ["inquisitor", "captain"]}
    game = new_game(hands, "inquisitor", top=("countess",))
    game.do("exchange", "A").do("pass", "B").do("pass", "C")
    assert game.turn["drawn"] == ["countess"]
    assert game.rules("return_cards", "A", cards=["countess", "duchess"]) == {"COUP-A8a"}
    game.do("return_cards", "A", cards=["countess"])              # give back the drawn card
    assert game.hands["A"] == ["inquisitor", "duchess"]


def test_coup_a8b_examine_give_back_keeps_the_card(new_game):
    hands = {"A": ["inquisitor", "duchess"], "B": ["assassin", "countess"],
             "C": ["inquisitor", "captain"]}
    game = new_game(hands, "inquisitor")
    game.do("examine", "A", target="B").do("pass", "B").do("pass", "C")
    assert game.rules("examine_decide", "A", swap=False) == {"COUP-A8b"}  # B shows first
    game.do("show_card", "B", card="assassin")
    assert game.rules("examine_decide", "B", swap=True) == {"COUP-A8b"}
    game.do("examine_decide", "A", swap=False)
    assert game.hands["B"] == ["countess", "assassin"] and game.turn["player"] == "B"
    assert game.turn["shown"] is None


def test_coup_a8b_examine_only_in_an_inquisitor_game(new_game):
    assert new_game(HANDS).rules("examine", "A", target="B") == {"COUP-B2"}


def test_coup_a9_a_target_is_a_living_opponent(new_game):
    game = new_game(HANDS, coins={"A": 7, "C": 7})
    assert game.rules("coup", "A", target="A") == {"COUP-A9"}
    assert game.rules("coup", "A", target="Z") == {"COUP-A9"}
    game.do("coup", "A", target="B").do("lose_influence", "B", card="assassin")
    game.do("income", "B").do("coup", "C", target="B")    # B's last card goes at once (L1)
    assert game.hands["B"] == [] and game.revealed["B"] == ["assassin", "countess"]
    assert game.coins == {"A": 0, "B": 0, "C": 0}          # B's 3 coins went back (L2)
    assert game.turn["player"] == "A"
    assert game.rules("steal", "A", target="B") == {"COUP-A9"}


def test_coup_a2_the_actor_cannot_block_their_own_foreign_aid(new_game):
    game = new_game(HANDS).do("foreign_aid", "A")
    assert game.rules("block", "A", character="duchess") == {"COUP-A2"}
    # A2: foreign aid is blocked by the Duchess only
    assert game.rules("block", "B", character="countess") == {"COUP-A2"}


@pytest.mark.parametrize("kind, exchanger, rule", [
    ("tax", "ambassador", "COUP-A4"), ("exchange", "ambassador", "COUP-A7"),
    ("exchange", "inquisitor", "COUP-A8a"), ("examine", "inquisitor", "COUP-A8b")])
def test_coup_a4_a7_a8_an_unblockable_action_is_refused_a_block_citing_its_own_rule(
        new_game, kind, exchanger, rule):
    """COUP-A4 "Can be challenged; cannot be blocked" (A7, A8 alike): a block sent during its
    challenge window is refused because the action cannot be blocked at all — not because the
    block came too early (COUP-W1 is for blockable actions), which would tell the blocker to
    try again once the window closes."""
    hands = {"A": ["duchess", exchanger], "B": ["captain", "countess"],
             "C": ["duchess", "captain"]}
    target = {"target": "B"} if kind == "examine" else {}
    game = new_game(hands, exchanger=exchanger).do(kind, "A", **target)
    assert game.turn["stage"] == "action_challenge"
    assert game.rules("block", "B", character="captain") == {rule}
    game = new_game(HANDS, coins={"A": 3}).do("assassinate", "A", target="B")
    assert game.rules("block", "B", character="countess") == {"COUP-W1"}   # blockable: too early
