"""Table mode (spy.md "Table mode"): the defender answers, the referee records every public fact
and refuses an answer or a declared number that cannot be true."""
from __future__ import annotations

from referee.games.spy.engine import ENGINE
from tests.spy.harness import ORDERED, base, moves, start

UNKNOWN6 = ["unknown"] * 6


def table(a_gap=1, c_gap=1, a_cards=UNKNOWN6, b_cards=UNKNOWN6, **options):
    """3 players at a table, facing right; A's and C's Spies face c``gap``, the mirror of B's
    c(5 - gap)."""
    return start({"A": base(a_cards, a_gap), "B": base(b_cards, 0),
                  "C": base(UNKNOWN6, c_gap)}, mode="table", **options)


def answers(game) -> list[tuple]:
    return [(a["answer"], a.get("card")) for a in ENGINE.legal_actions(game.state)]


def test_table_spy_waits_for_the_defenders_answer_spy_t1_p2():
    """A table-mode spy waits for B's answer: only B may act, with an answer; then B's turn."""
    game = table().do("spy", "A", target="B")
    assert game.state["turn"]["pending"] == {"attacker": "A", "defender": "B", "position": 4}
    assert ENGINE.to_move(game.state) == ["B"]
    assert game.rules("end_turn", "A") == {"SPY-P2"}
    assert game.rules("spy", "A", target="C") == {"SPY-P2"}
    assert game.rules("answer", "C", answer="safe") == {"SPY-P2"}
    game.do("answer", "B", answer="safe")
    assert game.answer() == {"type": "answer", "player": "B", "attacker": "A", "position": 4,
                             "answer": "safe"}
    assert game.state["turn"] == {"player": "B", "done": [], "pending": None}


def test_table_answers_possible_at_the_start_spy_r1_r4():
    """Nothing known, target Safe 1: "safe" (so Safe 2), "top_secret", "tsss" (an unlit bomb)
    or exposing Safe 1; no lit bomb, nothing already exposed, no other card exposed."""
    game = table().do("spy", "A", target="B")
    assert sorted(answers(game), key=str) == sorted(
        [("safe", None), ("top_secret", None), ("tsss", None), ("exposed", "safe_1")], key=str)
    assert game.rules("answer", "B", answer="exposed", card="top_secret_1") == {"SPY-R1"}
    assert game.rules("answer", "B", answer="exposed", card="bomb_3") == {"SPY-R3"}
    assert game.rules("answer", "B", answer="lit_bomb", card="bomb_1") == {"SPY-R5"}
    assert game.rules("answer", "B", answer="already_exposed") == {"SPY-R6"}


def test_table_answer_shapes_are_checked():
    """An unknown answer (SPY-R2), a card answer without its card (SPY-R3) or a card where no
    card is shown are violations naming the field."""
    game = table().do("spy", "A", target="B")
    found = ENGINE.violations(game.state, {"type": "answer", "player": "B", "answer": "maybe"})
    assert [(v.rule, v.field) for v in found] == [("SPY-R2", "action.answer")]
    found = ENGINE.violations(game.state, {"type": "answer", "player": "B", "answer": "exposed"})
    assert [(v.rule, v.field) for v in found] == [("SPY-R3", "action.card")]
    assert game.rules("answer", "B", answer="safe", card="safe_2") == {"SPY-R2"}
    assert game.rules("answer", "B", answer="exposed", card="joker") == {"SPY-R3"}


def test_table_answer_contradicting_an_earlier_answer_about_the_same_card_spy_r2():
    """B said "safe" about c4 (target Safe 1, so c4 is Safe 2); asked again about c4, "tsss"
    or "top_secret" contradict it."""
    game = table().do("spy", "A", target="B").do("answer", "B", answer="safe")
    assert game.base("B")["candidates"][4] == ["safe_2"]
    game.do("end_turn", "B").do("spy", "C", target="B")
    assert game.rules("answer", "B", answer="tsss") == {"SPY-R4"}
    assert game.rules("answer", "B", answer="top_secret") == {"SPY-R2"}
    assert answers(game) == [("safe", None)]


def test_table_two_cards_cannot_both_be_safe_2_spy_r2():
    """c4 answered "safe" while Safe 1 was the target: it is Safe 2; c3 cannot be "safe" too."""
    game = table(c_gap=2).do("spy", "A", target="B").do("answer", "B", answer="safe")
    game.do("end_turn", "B").do("spy", "C", target="B")  # C faces c2 → B's c3
    assert game.rules("answer", "B", answer="safe") == {"SPY-R2"}
    assert ("safe", None) not in answers(game)


def test_table_lit_bomb_and_exposed_card_force_their_answers_spy_r5_r6():
    """After "tsss" c4 is lit: the next spy on it must be answered lit_bomb with a bomb (the
    spy is out, SPY-R5); after an exposure only already_exposed (SPY-R6)."""
    game = table().do("spy", "A", target="B").do("answer", "B", answer="tsss")
    game.do("end_turn", "B").do("spy", "C", target="B")
    assert game.rules("answer", "B", answer="tsss") == {"SPY-R5"}
    assert game.rules("answer", "B", answer="lit_bomb", card="safe_2") == {"SPY-R5"}
    assert answers(game) == [("lit_bomb", "bomb_1"), ("lit_bomb", "bomb_3")]
    game.do("answer", "B", answer="lit_bomb", card="bomb_3")
    assert game.state["eliminated"] == ["C"] and game.base("B")["cards"][4] == "bomb_3"
    game = table().do("spy", "A", target="B").do("answer", "B", answer="exposed",
                                                  card="safe_1")
    game.do("end_turn", "B").do("spy", "C", target="B")
    assert answers(game) == [("already_exposed", None)]
    assert game.rules("answer", "B", answer="safe") == {"SPY-R6"}


def test_table_answer_contradicting_an_entered_card_spy_r2():
    """B entered its c4 (Top Secret 1): only "top_secret" is a true answer."""
    b_cards = ["unknown"] * 4 + ["top_secret_1", "unknown"]
    game = table(b_cards=b_cards).do("spy", "A", target="B")
    assert answers(game) == [("top_secret", None)]
    found = ENGINE.violations(game.state, {"type": "answer", "player": "B", "answer": "safe"})
    assert [v.rule for v in found] == ["SPY-R2"]
    assert "entered" in found[0].message


def test_table_top_secret_2_exposed_eliminates_spy_r7():
    """SPY-R7 at a table: B answers exposed Top Secret 2 only when it is the target; then B is
    out.  Here B entered Safe 1, Safe 2, Top Secret 1 at c0…c2 and they were exposed."""
    game = table(a_gap=5, c_gap=4, b_cards=["safe_1", "safe_2", "top_secret_1"] + ["unknown"] * 3)
    game.do("spy", "A", target="B").do("answer", "B", answer="exposed", card="safe_1")
    game.do("end_turn", "B").do("spy", "C", target="B")
    game.do("answer", "B", answer="exposed", card="safe_2")
    game.do("turn_round", "A").do("move", "A", steps=1)  # from gap 5 left to 4: faces c3
    game.do("spy", "A", target="B").do("answer", "B", answer="exposed", card="top_secret_1")
    game.do("end_turn", "B").do("turn_round", "C").do("move", "C", steps=1)  # faces c2
    game.do("spy", "C", target="B")  # B's c3
    game.do("answer", "B", answer="exposed", card="top_secret_2")
    assert game.state["eliminated"] == ["B"]
    assert game.base("B")["cards"][:4] == ["safe_1", "safe_2", "top_secret_1", "top_secret_2"]


def _cycle(game, mover: str = "A") -> None:
    """End the mover's turn and the two others' (3 players)."""
    game.do("end_turn", mover)
    for player in "BC":
        game.do("end_turn", player)


def test_table_same_hidden_card_always_declares_the_same_number_spy_c3():
    """SPY-C3 without card_moves: any number may be declared for a hidden card, but the same
    card always the same one.  A declares 3 off c0 (gap 0 → 3), 3 off c3 (back to gap 0), then
    may only declare 3 off c0 again."""
    game = table(a_gap=0)
    assert moves(ENGINE.legal_actions(game.state, "A")) == [1, 2, 3, 4, 5, 6]
    game.do("move", "A", steps=3)
    _cycle(game)
    game.do("move", "A", steps=3)
    _cycle(game)
    assert game.base("A")["declared"] == [3, None, None, 3, None, None]
    assert game.rules("move", "A", steps=2) == {"SPY-C3"}
    assert moves(ENGINE.legal_actions(game.state, "A")) == [3]


def test_table_without_card_moves_entered_cards_are_not_checked_against_numbers_spy_c3():
    """SPY-C3: without card_moves a real deck may print other numbers, so an entered Safe 1 may
    be declared to move 3."""
    game = table(a_gap=0, a_cards=["safe_1"] + ["unknown"] * 5)
    assert game.rules("move", "A", steps=3) == set()


def test_table_card_moves_check_a_declared_number_against_a_known_card_spy_m1():
    """With card_moves, a declared number must be the number of the card known at that place:
    A entered c0 = Safe 1 (moves 1)."""
    game = table(a_gap=0, a_cards=["safe_1"] + ["unknown"] * 5,
                 card_moves={"safe_1": 1, "safe_2": 2, "top_secret_1": 1, "top_secret_2": 2,
                             "bomb_1": 1, "bomb_3": 3})
    assert game.rules("move", "A", steps=2) == {"SPY-M1"}
    assert moves(ENGINE.legal_actions(game.state, "A")) == [1]


def test_table_declared_number_contradicted_by_the_card_later_revealed_spy_c3():
    """With card_moves (the defaults), A declares 2 off its hidden c0: c0 is a Safe 2 or a Top
    Secret 2.  When B's spy lands on A's c0, exposing Safe 1 or answering "tsss" (bombs move
    1 or 3) contradict it; "safe" (Safe 2) or "top_secret" (Top Secret 2) do not."""
    game = table(a_gap=0, card_moves={"safe_1": 1, "safe_2": 2, "top_secret_1": 1,
                                      "top_secret_2": 2, "bomb_1": 1, "bomb_3": 3})
    game.do("move", "A", steps=2)
    assert game.base("A")["candidates"][0] == ["safe_2", "top_secret_2"]
    game.do("end_turn", "A").do("turn_round", "B").do("move", "B", steps=1)  # B: gap 0 → 5
    game.do("turn_round", "B").do("spy", "B", target="A")  # B faces c5 → A's c0
    assert game.rules("answer", "A", answer="exposed", card="safe_1") == {"SPY-C3"}
    assert game.rules("answer", "A", answer="tsss") == {"SPY-R4"}
    assert sorted(answers(game)) == [("safe", None), ("top_secret", None)]


def test_table_card_moves_rule_out_impossible_numbers_spy_m1():
    """With every number given, a number no card has (4) cannot be declared."""
    game = table(a_gap=0, card_moves={"safe_1": 1, "safe_2": 2, "top_secret_1": 1,
                                      "top_secret_2": 2, "bomb_1": 1, "bomb_3": 3})
    assert game.rules("move", "A", steps=4) == {"SPY-M1"}
    assert moves(ENGINE.legal_actions(game.state, "A")) == [1, 2, 3]


def test_digital_mode_has_no_answer_action_spy_p2():
    """In digital mode the referee answers: an answer action is out of turn (SPY-P2)."""
    game = start({"A": base(ORDERED, 0), "B": base(ORDERED, 0), "C": base(ORDERED, 0)})
    assert game.rules("answer", "B", answer="safe") == {"SPY-P2"}
