"""All Fours rule predicates, one test per rule (shared/rules/allfours.md)."""
from referee.games.allfours.rules import (follow_violation, game_points, kick_points, max_runs,
                                          trick_winner_index)
from referee.games.allfours.scoring import hand_awards


def test_af_k1_kick_points_ace_1_six_2_jack_3_others_0():
    assert [kick_points(c) for c in ("AH", "6C", "JD", "KS", "10H", "2D")] == [1, 2, 3, 0, 0, 0]


def test_af_s4_card_points_for_game():
    # A 4, K 3, Q 2, J 1, 10 counts 10, the rest 0, in every suit
    assert [game_points(c) for c in ("AS", "KD", "QC", "JH", "10S", "9S", "2H")] == \
        [4, 3, 2, 1, 10, 0, 0]


def test_af_b3_pack_can_be_run_twice_with_four_five_times_with_two():
    assert max_runs(4) == 2 and max_runs(2) == 5


def test_af_p5_highest_trump_wins_else_highest_of_suit_led():
    assert trick_winner_index(["KH", "AH", "2S", "QH"], "S") == 2  # the only trump
    assert trick_winner_index(["KH", "AH", "2S", "5S"], "S") == 3  # higher trump
    assert trick_winner_index(["KH", "AD", "3C", "QH"], "S") == 0  # off-suit ace loses


def test_af_p2_must_play_trump_to_a_trump_lead_when_holding_one():
    assert follow_violation(["5D", "3S"], ["9S"], "5D", "S", True) == "AF-P2"
    assert follow_violation(["5D", "7C"], ["9S"], "5D", "S", True) is None


def test_af_p3_follow_suit_or_trump_even_when_able_to_follow():
    hand = ["5H", "3S", "9D"]
    assert follow_violation(hand, ["KH"], "9D", "S", True) == "AF-P3"
    assert follow_violation(hand, ["KH"], "3S", "S", True) is None  # trumping allowed
    assert follow_violation(["9D", "3S"], ["KH"], "9D", "S", True) is None  # void in hearts


def test_af_p4_no_undertrump_unless_only_trumps_when_option_off():
    trick = ["KH", "QS"]  # hearts led, trumped with the queen of spades
    assert follow_violation(["5H", "3S"], trick, "3S", "S", False) == "AF-P4"
    assert follow_violation(["3S", "2S"], trick, "3S", "S", False) is None  # only trumps
    assert follow_violation(["5H", "3S"], trick, "3S", "S", True) is None  # default allows it


def _awards(dealt, tricks, options=None, reneges=()):
    """End-of-hand awards for ana and ben (each a side), ben dealing, spades trump."""
    return hand_awards(dealt=dealt, tricks=tricks, trump="S",
                       sides={"ana": ["ana"], "ben": ["ben"]}, dealer="ben",
                       options=options or {}, reneges=list(reneges))


def test_af_s5_single_trump_is_high_and_low_and_jack_if_it_is_the_jack():
    tricks = [{"leader": "ana", "cards": ["JS", "2H"], "players": ["ana", "ben"],
               "winner": "ana"}]
    result = _awards({"ana": ["JS"], "ben": ["2H"]}, tricks)
    assert result["high"] == result["low"] == {"card": "JS", "player": "ana"}
    assert result["jack"] == {"player": "ana", "won_by": "ana", "points": 1, "hanged": False}
    # High, Low, Jack to ana; Game: ana 1 card point against 0
    assert result["awards"] == [("high", "ana", 1), ("low", "ana", 1), ("jack", "ana", 1),
                                ("game", "ana", 1)]


def test_af_s5_no_trump_dealt_only_game_scores():
    tricks = [{"leader": "ana", "cards": ["AH", "KH"], "players": ["ana", "ben"],
               "winner": "ana"}]
    result = _awards({"ana": ["AH"], "ben": ["KH"]}, tricks)
    assert result["high"] is None and result["low"] is None and result["jack"] is None
    assert result["awards"] == [("game", "ana", 1)]


def test_af_s2_low_taker_option_gives_low_to_the_side_winning_its_trick():
    tricks = [{"leader": "ana", "cards": ["2S", "5S"], "players": ["ana", "ben"],
               "winner": "ben"}]
    dealt = {"ana": ["2S"], "ben": ["5S"]}
    default = _awards(dealt, tricks)
    taker = _awards(dealt, tricks, {"low": "taker"})
    assert ("low", "ana", 1) in default["awards"]  # ana was dealt the 2
    assert ("low", "ben", 1) in taker["awards"]  # ben captured it
    assert taker["low"] == {"card": "2S", "player": "ana"}  # still reports who was dealt it


def test_af_i1_reneging_side_cannot_score_game_and_opponents_get_one():
    tricks = [{"leader": "ana", "cards": ["AH", "KH"], "players": ["ana", "ben"],
               "winner": "ana"}]
    reneges = [{"player": "ana", "side": "ana", "trick": 1, "loses_game": False}]
    result = _awards({"ana": ["AH"], "ben": ["KH"]}, tricks, reneges=reneges)
    assert result["game"] == {"totals": {"ana": 7, "ben": 0}, "side": None}
    assert result["awards"] == [("renege", "ben", 1)]
