"""Answers to a spy in digital mode, where the engine answers (SPY-R1…R7, SPY-E1, SPY-E2)."""
from __future__ import annotations

from referee.games.spy.engine import ENGINE
from tests.spy.harness import ORDERED, base, start

# B: c0 Safe 1, c1 Bomb 1, c2 Safe 2, c3 Bomb 3, c4 Top Secret 1, c5 Top Secret 2.
B_CARDS = ["safe_1", "bomb_1", "safe_2", "bomb_3", "top_secret_1", "top_secret_2"]


def spying(faces: dict[str, int], b_cards=B_CARDS, **options):
    """A 3-player game where A and C face the given own positions (facing right) and B holds
    ``b_cards``; mirror across, so facing i spies B's c(5 - i)."""
    return start({"A": base(ORDERED, faces["A"]), "B": base(b_cards, 0),
                  "C": base(ORDERED, faces["C"])}, **options)


def test_already_exposed_card_has_no_effect_spy_r6():
    """SPY-R6: B's Safe 1 (c0), exposed by A, spied on again by C: no effect."""
    game = spying({"A": 5, "C": 5}).do("spy", "A", target="B").do("end_turn", "B")
    before = game.base("B")
    game.do("spy", "C", target="B")
    assert game.answer() == {"type": "answer", "player": "B", "attacker": "C", "position": 0,
                             "answer": "already_exposed"}
    assert game.base("B") == before and game.state["eliminated"] == []


def test_exposure_target_is_shared_and_exposed_cards_are_public_spy_r1_r3():
    """SPY-R1/R3: exposing Safe 1 makes Safe 2 the target for everyone; the exposed card is
    public (candidates of c0 = Safe 1 only, and no other position may be Safe 1)."""
    game = spying({"A": 5, "C": 3}).do("spy", "A", target="B")
    view = ENGINE.view(game.state, "C")["bases"]["B"]
    assert view["cards"] == ["safe_1"] + ["hidden"] * 5 and view["target"] == "safe_2"
    assert view["candidates"][0] == ["safe_1"]
    assert all("safe_1" not in c for c in view["candidates"][1:])
    game.do("end_turn", "B").do("spy", "C", target="B")  # C faces c3 → B's c2: Safe 2
    assert game.answer()["answer"] == "exposed" and game.answer()["card"] == "safe_2"
    assert game.base("B")["exposed"] == [0, 2]
    assert ENGINE.score(game.state)["points"] == {"A": 0, "B": 2, "C": 0}


def test_unlit_bomb_tsss_then_lit_bomb_eliminates_spy_r4_r5():
    """SPY-R4: "tsss", the bomb is lit (position public, card hidden); SPY-R5: the next spy on
    it shows it to everyone and eliminates the spy; it stays lit and in place."""
    game = spying({"A": 4, "C": 4}).do("spy", "A", target="B")  # B's c1: Bomb 1
    assert game.answer()["answer"] == "tsss" and "card" not in game.answer()
    assert game.base("B")["lit"] == [1]
    assert game.base("B")["candidates"][1] == ["bomb_1", "bomb_3"]
    assert ENGINE.view(game.state, "C")["bases"]["B"]["cards"][1] == "hidden"
    game.do("end_turn", "B").do("spy", "C", target="B")
    assert game.answer()["card"] == "bomb_1" and game.state["eliminated"] == ["C"]
    assert game.base("B")["lit"] == [1] and game.base("B")["exposed"] == []
    assert ENGINE.view(game.state, "A")["bases"]["B"]["cards"][1] == "hidden"


def test_eliminated_player_is_skipped_and_cannot_act_or_be_spied_on_spy_e1():
    """SPY-E1: C (eliminated) takes no turns, cannot act, cannot be spied on."""
    game = spying({"A": 4, "C": 4}).do("spy", "A", target="B").do("end_turn", "B")
    game.do("spy", "C", target="B")
    assert game.rules("end_turn", "C") == {"SPY-E1"}
    assert game.rules("spy", "A", target="C") == {"SPY-P2"}
    assert [a for a in ENGINE.legal_actions(game.state) if a.get("target") == "C"] == []
    game.do("end_turn", "A").do("end_turn", "B")
    assert game.state["turn"]["player"] == "A"


def test_lit_bomb_leaves_one_player_who_wins_spy_e2():
    """SPY-E2: with 2 players, the spy who finds a lit bomb is out and the other wins."""
    a = base(ORDERED + ["bomb_2"], 6)  # faces c6, mirror of B's c0
    b = base(["bomb_2"] + ORDERED, 1)  # faces c1, mirror of A's c5: Bomb 1
    game = start({"A": a, "B": b}).do("spy", "A", target="B").do("end_turn", "B")
    assert game.base("B")["lit"] == [0]
    game.do("spy", "A", target="B")
    assert game.state["eliminated"] == ["A"] and game.state["winner"] == "B"
    assert ENGINE.is_over(game.state) and ENGINE.to_move(game.state) == []
    assert ENGINE.score(game.state)["winner"] == "B"


def test_top_secret_2_eliminates_defender_game_goes_on_with_three_spy_r7():
    """SPY-R7 with 3 players: B is out when its Top Secret 2 is exposed; A and C play on.
    B holds Safe 1, Safe 2, Top Secret 1, Top Secret 2 at c0…c3, the mirrors of c5…c2."""
    found = ["safe_1", "safe_2", "top_secret_1", "top_secret_2", "bomb_1", "bomb_3"]
    game = spying({"A": 5, "C": 4}, b_cards=found)
    game.do("spy", "A", target="B").do("end_turn", "B")  # A faces c5 → B's c0
    game.do("spy", "C", target="B")  # C faces c4 → B's c1
    # A turns left (faces c4, Bomb 1), moves 1 to gap 4 and faces c3 → B's c2.
    game.do("turn_round", "A").do("move", "A", steps=1).do("spy", "A", target="B")
    game.do("end_turn", "B")
    # C turns left (faces c3, Top Secret 2), moves 2 to gap 2, turns right: faces c2 → B's c3.
    game.do("turn_round", "C").do("move", "C", steps=2).do("turn_round", "C")
    game.do("spy", "C", target="B")
    answers = [e["card"] for e in game.events if e["type"] == "answer"]
    assert answers == ["safe_1", "safe_2", "top_secret_1", "top_secret_2"]
    assert game.state["eliminated"] == ["B"] and game.state["winner"] is None
    assert game.state["turn"]["player"] == "A"
    assert {"type": "eliminated", "player": "B", "rule": "SPY-R7"} in game.last
