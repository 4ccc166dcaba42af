"""Windows, challenges, blocks, losses and the end: COUP-W1, W2, C1 … C5, B1, B2, R1, L1, L2,
E1, through the engine."""
from __future__ import annotations

from collections import Counter

from referee.games.coup.engine import ENGINE

HANDS = {"A": ["duchess", "assassin"], "B": ["captain", "countess"],
         "C": ["ambassador", "captain"]}


def test_coup_w1_window_open_to_all_at_once_closes_when_all_passed(new_game):
    game = new_game(HANDS).do("tax", "A")
    assert ENGINE.to_move(game.state) == ["B", "C"]
    game.do("pass", "C")
    assert game.rules("pass", "C") == {"COUP-W1"}          # already passed
    assert ENGINE.to_move(game.state) == ["B"]
    game.do("pass", "B")
    assert game.coins["A"] == 5 and game.turn["player"] == "B"


def test_coup_w1_first_challenge_closes_the_window(new_game):
    game = new_game(HANDS).do("tax", "A").do("challenge", "C")
    assert game.rules("challenge", "B") == {"COUP-C1"}       # only the first counts
    assert game.rules("pass", "B") == {"COUP-W1"}          # the challenge closed the window


def test_coup_w1_block_while_the_challenge_window_is_open_is_rejected(new_game):
    game = new_game(HANDS, coins={"A": 3}).do("assassinate", "A", target="B")
    assert game.rules("block", "B", character="countess") == {"COUP-W1"}


def test_coup_w1_host_closes_the_window_for_whoever_has_not_acted(new_game):
    game = new_game(HANDS).do("tax", "A").do("pass", "B")
    assert {"type": "close_window", "player": "host"} in ENGINE.legal_actions(game.state)
    assert game.rules("close_window", "B") == {"COUP-W1"}   # a seat passes instead
    game.do("close_window", "host")
    assert game.coins["A"] == 5 and game.turn["player"] == "B"
    assert game.rules("close_window", "host") == {"COUP-W1"}   # no window open now


def test_coup_w2_a_loss_is_taken_before_anything_else(new_game):
    game = new_game(HANDS, coins={"A": 3}).do("assassinate", "A", target="B")
    game.do("challenge", "B").do("prove", "A", card="assassin")
    assert game.state["loss"] == {"player": "B", "rule": "COUP-C4"}
    assert game.rules("pass", "B") == {"COUP-W2"}
    assert game.rules("block", "B", character="countess") == {"COUP-W2"}
    assert game.rules("lose_influence", "C", card="captain") == {"COUP-W2"}
    assert ENGINE.to_move(game.state) == ["B"]


def test_coup_c1_claimant_cannot_challenge_own_claim_actor_may_challenge_a_block(new_game):
    game = new_game(HANDS).do("tax", "A")
    assert game.rules("challenge", "A") == {"COUP-C1"}
    game = new_game(HANDS).do("foreign_aid", "A").do("block", "B", character="duchess")
    assert game.rules("challenge", "B") == {"COUP-C1"}
    game.do("challenge", "A").do("concede", "B")            # B holds no Duchess
    game.do("lose_influence", "B", card="countess")
    assert game.coins["A"] == 4                             # the block failed (B1)


def test_coup_c1_an_out_player_cannot_challenge(new_game):
    game = new_game(HANDS, coins={"A": 7, "C": 7}).do("coup", "A", target="B")
    game.do("lose_influence", "B", card="captain").do("income", "B").do("coup", "C", target="B")
    game.do("tax", "A")
    assert game.rules("challenge", "B") == {"COUP-L2"}
    assert ENGINE.to_move(game.state) == ["C"]


def test_coup_c2_only_the_claimed_character_proves(new_game):
    game = new_game(HANDS).do("tax", "A").do("challenge", "B")
    assert game.rules("prove", "A", card="assassin") == {"COUP-C2"}
    assert game.rules("prove", "B", card="duchess") == {"COUP-C2"}
    game = new_game(HANDS).do("steal", "A", target="B").do("challenge", "C")
    assert game.rules("prove", "A") == {"COUP-C2"}           # A holds no Captain


def test_coup_c3_not_proven_the_claimant_loses_and_the_action_fails(new_game):
    game = new_game(HANDS).do("steal", "A", target="B").do("challenge", "C")
    game.do("concede", "A").do("lose_influence", "A", card="assassin")
    assert game.coins == {"A": 2, "B": 2, "C": 2}
    assert game.revealed == {"A": ["assassin"], "B": [], "C": []}
    assert game.turn["player"] == "B"


def test_coup_c4_proven_card_replaced_before_the_action_resolves(new_game):
    game = new_game(HANDS, first_player="C").do("exchange", "C").do("pass", "A")
    court_before = Counter(game.state["court"])
    game.do("challenge", "B").do("prove", "C")
    hand = game.hands["C"]
    # The Ambassador went in, the court was shuffled and C drew one card in its place.
    assert len(hand) == 2 and "captain" in hand
    drawn = Counter(hand) - Counter({"captain": 1})
    assert Counter(game.state["court"]) == court_before + Counter({"ambassador": 1}) - drawn
    assert game.state["shuffles"] == 1
    game.do("lose_influence", "B", card="countess")          # the challenger loses one
    # Then the exchange resolves with the replaced hand: 2 drawn from the shuffled court.
    assert game.turn["stage"] == "exchange" and len(game.turn["drawn"]) == 2
    private = [e for e in game.events if e["type"] == "replacement_drawn"]
    assert private[0] == {"type": "replacement_drawn", "player": "C"}
    assert private[1]["visible_to"] == ["C"] and private[1]["card"] == hand[-1]


def test_coup_c5_losses_add_up_two_different_cards(new_game):
    game = new_game(HANDS, coins={"A": 3}).do("assassinate", "A", target="B")
    game.do("challenge", "B").do("prove", "A").do("lose_influence", "B", card="countess")
    game.do("block", "B", character="countess").do("challenge", "A").do("concede", "B")
    assert game.hands["B"] == [] and game.revealed["B"] == ["countess", "captain"]
    assert game.turn["player"] == "C"


def test_coup_b1_unchallenged_block_makes_the_action_fail_coins_spent(new_game):
    game = new_game(HANDS, coins={"A": 3}).do("assassinate", "A", target="B")
    game.do("pass", "B").do("pass", "C").do("block", "B", character="countess")
    game.do("pass", "A").do("pass", "C")
    assert game.hands["B"] == ["captain", "countess"] and game.coins["A"] == 0
    assert {"type": "action_blocked", "player": "A", "rule": "COUP-B1",
            "blocker": "B"} in game.events


def test_coup_b1_proven_block_stands_and_the_challenger_loses(new_game):
    game = new_game(HANDS).do("steal", "A", target="B").do("pass", "B").do("pass", "C")
    game.do("block", "B", character="captain").do("challenge", "A").do("prove", "B")
    game.do("lose_influence", "A", card="duchess")
    assert game.coins == {"A": 2, "B": 2, "C": 2} and game.turn["player"] == "B"


def test_coup_b2_one_block_per_action_and_no_second_block_after_a_failed_one(new_game):
    game = new_game(HANDS).do("foreign_aid", "A").do("block", "B", character="duchess")
    assert game.rules("block", "C", character="duchess") == {"COUP-B2"}
    game.do("challenge", "C").do("concede", "B").do("lose_influence", "B", card="captain")
    assert game.coins["A"] == 4 and game.turn["player"] == "B"    # foreign aid resolved


def test_coup_r1_target_out_before_resolution_makes_the_action_void(new_game):
    game = new_game(HANDS | {"A": ["assassin", "duchess"]}, coins={"A": 3, "C": 7})
    game.do("income", "A").do("income", "B")
    game.do("coup", "C", target="B").do("lose_influence", "B", card="captain")
    game.do("assassinate", "A", target="B").do("challenge", "B").do("prove", "A")
    # B's last card went to the lost challenge (C4): out, so the assassination does nothing.
    assert game.hands["B"] == [] and game.revealed["B"] == ["captain", "countess"]
    assert {"type": "action_void", "player": "A", "target": "B",
            "rule": "COUP-R1"} in game.events
    assert game.coins == {"A": 1, "B": 0, "C": 0} and game.turn["player"] == "C"


def test_coup_l1_digital_last_card_goes_at_once(new_game):
    game = new_game(HANDS, coins={"A": 7}).do("tax", "A").do("challenge", "B").do("prove", "A")
    game.do("lose_influence", "B", card="captain").do("income", "B").do("income", "C")
    assert game.coins["A"] == 10
    game.do("coup", "A", target="B")                     # no lose_influence is asked
    assert game.state["loss"] is None and game.hands["B"] == []
    assert game.revealed["B"] == ["captain", "countess"]
    assert {"type": "influence_lost", "player": "B", "card": "countess",
            "rule": "COUP-A3"} in game.events


def test_coup_l1_table_mode_names_even_the_last_card(new_game):
    table = new_game(HANDS, mode="table")
    table.do("tax", "A").do("challenge", "B").do("prove", "A", card="duchess")
    table.do("lose_influence", "B", card="captain")
    table.do("income", "B").do("tax", "C").do("challenge", "B").do("concede", "C")
    table.do("lose_influence", "C", card="captain")
    # A's replacement is unknown; a Duchess can still be there (COUP-X1).
    table.do("tax", "A").do("challenge", "B").do("prove", "A", card="duchess")
    assert table.state["loss"] == {"player": "B", "rule": "COUP-C4"}
    assert ENGINE.legal_actions(table.state) == [
        {"type": "lose_influence", "player": "B", "card": "countess"}]
    table.do("lose_influence", "B", card="countess")
    assert table.hands["B"] == []


def test_coup_l1_the_choice_is_the_losers(new_game):
    game = new_game(HANDS).do("tax", "A").do("challenge", "B").do("prove", "A")
    assert game.rules("lose_influence", "B", card="duchess") == {"COUP-L1"}   # not B's
    assert game.rules("lose_influence", "A", card="duchess") == {"COUP-W2"}
    assert game.rules("lose_influence", "C", card="captain") == {"COUP-W2"}
    assert {a["card"] for a in ENGINE.legal_actions(game.state)} == {"captain", "countess"}


def test_coup_l2_out_player_skipped_coins_back_and_e1_winner_mid_turn(new_game):
    game = new_game(HANDS, coins={"A": 7, "C": 9})        # treasury 36
    game.do("coup", "A", target="C").do("lose_influence", "C", card="ambassador")
    game.do("income", "B").do("coup", "C", target="B").do("lose_influence", "B",
                                                           card="captain")
    game.do("income", "A").do("income", "B")
    game.do("tax", "C").do("challenge", "A").do("concede", "C")   # C's last card: out
    assert game.hands["C"] == [] and game.coins["C"] == 0          # 2 coins back (L2)
    assert game.state["treasury"] == 49
    assert game.turn["player"] == "A"                              # B then A: C skipped
    game.do("tax", "A").do("challenge", "B").do("prove", "A")
    # B's last card goes before the tax resolves: A wins at once (E1), without the 3 coins.
    assert ENGINE.is_over(game.state) and game.state["winner"] == "A"
    assert ENGINE.score(game.state) == {"points": {"A": 2, "B": 0, "C": 0},
                                        "totals": {"A": 1, "B": 0, "C": 0}, "winner": "A"}
    assert game.state["treasury"] == 53
    assert ENGINE.legal_actions(game.state) == [] and ENGINE.to_move(game.state) == []
    assert game.rules("income", "A") == {"COUP-E1"}
