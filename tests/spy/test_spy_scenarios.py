"""The 11 scenarios of ``shared/cases/spy/scenarios.md``, each through the public HTTP API
(``POST /v1/games/spy/setup|validate|apply|legal-actions``).

3 players A, B, C (bases of 6 cards, Spy excluded) unless noted; default movement numbers
(SPY-C3: the number in the card's name).
"""
from __future__ import annotations

import pytest

from tests.spy.harness import ORDERED, Api, base, body, moves


@pytest.fixture
def api(client):
    return Api(client)


def act(kind: str, player: str, **fields) -> dict:
    return {"type": kind, "player": player, **fields}


def test_scenario_1_exact_move_spy_m1(api):
    """SPY-M1: g=2 facing right faces c2, a Safe 2 (number 2): only a move of 2 (to g=4)."""
    a = base(["safe_1", "top_secret_1", "safe_2", "bomb_3", "bomb_1", "top_secret_2"], 2)
    state = api.setup(body({"A": a, "B": base(a["cards"], 0), "C": base(a["cards"], 0)}))
    assert moves(api.legal(state, "A")) == [2]
    assert api.validate(state, act("move", "A", steps=1)) == {"SPY-M1"}
    assert api.validate(state, act("move", "A", steps=3)) == {"SPY-M1"}
    assert api.validate(state, act("move", "A", steps=2)) is None
    state, events, _ = api.apply(state, act("move", "A", steps=2))
    assert state["bases"]["A"]["spy_gap"] == 4
    assert events[0] == {"type": "move", "player": "A", "steps": 2, "facing": "right",
                         "from_gap": 2, "spy_gap": 4, "faced": 2}


def test_scenario_2_wrap_around_spy_m3(api):
    """SPY-M3: g=5 facing right faces c5, a Top Secret 2 (number 2): (5 + 2) mod 6 = g 1."""
    a = base(["safe_1", "top_secret_1", "bomb_3", "bomb_1", "safe_2", "top_secret_2"], 5)
    state = api.setup(body({"A": a, "B": base(a["cards"], 0), "C": base(a["cards"], 0)}))
    assert moves(api.legal(state, "A")) == [2]
    state, _, _ = api.apply(state, act("move", "A", steps=2))
    assert state["bases"]["A"]["spy_gap"] == 1


def test_scenario_3_facing_an_exposed_card_moves_1_or_2_spy_m2(api):
    """SPY-M2: B exposes A's Safe 1 at c2, which A's Spy faces: A may move 1 or 2, nothing else
    (its number, 1, would otherwise be the only move)."""
    a = base(["bomb_1", "top_secret_1", "safe_1", "bomb_3", "safe_2", "top_secret_2"], 2)
    b = base(["safe_1", "safe_2", "top_secret_1", "top_secret_2", "bomb_1", "bomb_3"], 3)
    c = base(b["cards"], 0)
    state = api.setup(body({"A": a, "B": b, "C": c}))
    state, _, _ = api.apply(state, act("end_turn", "A"))
    # B's Spy faces B's c3; mirror across: A's c(5-3) = c2, A's Safe 1, A's exposure target.
    state, events, score = api.apply(state, act("spy", "B", target="A"))
    assert {"type": "answer", "player": "A", "attacker": "B", "position": 2,
            "answer": "exposed", "card": "safe_1"} in events
    assert score["points"] == {"A": 1, "B": 0, "C": 0}
    state, _, _ = api.apply(state, act("end_turn", "C"))
    assert moves(api.legal(state, "A")) == [1, 2]
    assert api.validate(state, act("move", "A", steps=1)) is None
    assert api.validate(state, act("move", "A", steps=3)) == {"SPY-M2"}
    state, _, _ = api.apply(state, act("move", "A", steps=2))
    assert state["bases"]["A"]["spy_gap"] == 4


def test_scenario_4_turn_round_before_moving_spy_m4(api):
    """SPY-M4: g=2 facing right faces c2 (Safe 2, number 2); turned left it faces c1 (Bomb 3)
    and must move 3 to the left: g = (2 - 3) mod 6 = 5.  Turning round in the middle of the
    move (moving part of it, turning, moving on) is refused."""
    a = base(["safe_1", "bomb_3", "safe_2", "top_secret_1", "bomb_1", "top_secret_2"], 2)
    state = api.setup(body({"A": a, "B": base(a["cards"], 0), "C": base(a["cards"], 0)}))
    assert moves(api.legal(state, "A")) == [2]
    state, _, _ = api.apply(state, act("turn_round", "A"))
    assert state["bases"]["A"]["facing"] == "left"
    assert moves(api.legal(state, "A")) == [3]
    assert api.validate(state, act("move", "A", steps=2)) == {"SPY-M1"}
    assert api.validate(state, act("move", "A", steps=1)) == {"SPY-M1"}  # part of the move
    state, _, _ = api.apply(state, act("move", "A", steps=3))
    assert state["bases"]["A"]["spy_gap"] == 5
    state, _, _ = api.apply(state, act("turn_round", "A"))  # after the move: allowed
    assert api.refused(state, act("move", "A", steps=2)) == {"SPY-P2", "SPY-M4"}


@pytest.mark.parametrize("mirror, position, answer", [("across", 4, "top_secret"),
                                                      ("same", 1, "tsss")])
def test_scenario_5_mirror_spy_p1(api, mirror, position, answer):
    """SPY-P1: A's Spy faces A's c1; spying on B hits B's c4 (n-1-1) with mirror "across",
    B's c1 with "same".  B's c4 is Top Secret 1 (not the target: "top secret"), c1 a bomb."""
    a = base(ORDERED, 1)
    b = base(["safe_1", "bomb_1", "safe_2", "bomb_3", "top_secret_1", "top_secret_2"], 0)
    state = api.setup(body({"A": a, "B": b, "C": base(ORDERED, 0)}, mirror=mirror))
    state, events, _ = api.apply(state, act("spy", "A", target="B"))
    assert events[0] == {"type": "spy", "player": "A", "target": "B", "position": position}
    assert events[1]["answer"] == answer


def test_scenario_6_not_the_target_names_the_type_spy_r2(api):
    """SPY-R2: B's target is Safe 1; A spies B's Top Secret 1 (c4): the answer is "top secret",
    nothing else changes and the card (its number) is never revealed to A or C."""
    a = base(["safe_1", "safe_2", "top_secret_1", "top_secret_2", "bomb_1", "bomb_3"], 1)
    b = base(["safe_1", "bomb_1", "safe_2", "bomb_3", "top_secret_1", "top_secret_2"], 0)
    state = api.setup(body({"A": a, "B": b, "C": base(a["cards"], 0)}))
    before = state["bases"]["B"]
    state, events, score = api.apply(state, act("spy", "A", target="B"))
    public = [e for e in events if "visible_to" not in e]
    assert public[1] == {"type": "answer", "player": "B", "attacker": "A", "position": 4,
                         "answer": "top_secret"}
    assert "top_secret_1" not in repr(public) and "top_secret_1" not in repr(state["log"])
    private = [e for e in events if "visible_to" in e]
    assert private == [{"type": "spied_card", "player": "B", "attacker": "A", "position": 4,
                        "card": "top_secret_1", "visible_to": ["B"]}]
    after = state["bases"]["B"]
    assert (after["exposed"], after["lit"], after["cards"]) == ([], [], before["cards"])
    assert score["points"] == {"A": 0, "B": 0, "C": 0}
    # Public knowledge: c4 is a Top Secret, and not Top Secret... of either number yet.
    assert after["candidates"][4] == ["top_secret_1", "top_secret_2"]


def test_scenario_7_exposure_order_spy_r1_r3(api):
    """SPY-R1/R3: A exposes B's Safe 1; B's target becomes Safe 2 for every attacker, so C
    finding B's Top Secret 1 only hears "top secret".  A then exposes Safe 2, and C's next look
    at Top Secret 1 exposes it."""
    a = base(["safe_1", "top_secret_1", "bomb_3", "bomb_1", "top_secret_2", "safe_2"], 0,
             "left")  # faces c5 (Safe 2, number 2)
    b = base(["safe_1", "top_secret_1", "safe_2", "bomb_1", "bomb_3", "top_secret_2"], 0)
    c = base(["safe_1", "safe_2", "top_secret_1", "top_secret_2", "bomb_1", "bomb_3"], 4)
    state = api.setup(body({"A": a, "B": b, "C": c}))
    state, events, _ = api.apply(state, act("spy", "A", target="B"))  # B's c0
    assert events[1]["answer"] == "exposed" and events[1]["card"] == "safe_1"
    state, _, _ = api.apply(state, act("end_turn", "B"))
    state, events, _ = api.apply(state, act("spy", "C", target="B"))  # B's c1: Top Secret 1
    assert events[1]["answer"] == "top_secret" and "card" not in events[1]
    assert state["bases"]["B"]["exposed"] == [0]
    state, _, _ = api.apply(state, act("move", "A", steps=2))  # left from g0 to g4: faces c3
    state, events, _ = api.apply(state, act("spy", "A", target="B"))  # B's c2: Safe 2
    assert events[1]["answer"] == "exposed" and events[1]["card"] == "safe_2"
    state, _, _ = api.apply(state, act("end_turn", "B"))
    state, events, score = api.apply(state, act("spy", "C", target="B"))
    assert events[1]["answer"] == "exposed" and events[1]["card"] == "top_secret_1"
    assert state["bases"]["B"]["exposed"] == [0, 2, 1]
    assert score["points"]["B"] == 3


def _bomb_game(api):
    """B's c3 is a Bomb 1; A's and C's Spies both face their c2, the mirror of B's c3."""
    b = base(["safe_1", "top_secret_1", "safe_2", "bomb_1", "bomb_3", "top_secret_2"], 0)
    a = base(["safe_1", "safe_2", "top_secret_1", "top_secret_2", "bomb_1", "bomb_3"], 2)
    return api.setup(body({"A": a, "B": b, "C": dict(a)}))


def test_scenario_8_bombs_spy_r4_r5_e1(api):
    """SPY-R4: A spies B's unlit bomb: "tsss", it is lit, A stays in.  SPY-R5: C spies the lit
    bomb: it is shown, C is eliminated, the bomb stays lit in place.  SPY-E1: turns skip C."""
    state = _bomb_game(api)
    state, events, _ = api.apply(state, act("spy", "A", target="B"))
    assert events[1] == {"type": "answer", "player": "B", "attacker": "A", "position": 3,
                         "answer": "tsss"}
    assert state["bases"]["B"]["lit"] == [3] and state["eliminated"] == []
    state, _, _ = api.apply(state, act("end_turn", "B"))
    state, events, score = api.apply(state, act("spy", "C", target="B"))
    assert events[1] == {"type": "answer", "player": "B", "attacker": "C", "position": 3,
                         "answer": "lit_bomb", "card": "bomb_1"}
    assert {"type": "eliminated", "player": "C", "rule": "SPY-R5"} in events
    assert state["eliminated"] == ["C"] and score["winner"] is None
    assert state["bases"]["B"]["lit"] == [3] and state["bases"]["B"]["cards"][3] == "bomb_1"
    assert state["turn"]["player"] == "A"
    state, _, _ = api.apply(state, act("end_turn", "A"))
    state, _, _ = api.apply(state, act("end_turn", "B"))
    assert state["turn"]["player"] == "A"  # C is skipped
    assert api.legal(state, "C") == []


def _top_secret_2_game(api, **options):
    """2 players (7 cards).  A's Spy faces c0, c1, c2, c3 on successive turns (each a number 1
    card, facing right); mirrored across they are B's c6, c5, c4, c3: Safe 1, Safe 2, Top
    Secret 1, Top Secret 2, exposed in that order."""
    a = base(["bomb_1", "safe_1", "top_secret_1", "safe_2", "top_secret_2", "bomb_2",
              "bomb_3"], 0)
    b = base(["bomb_1", "bomb_2", "bomb_3", "top_secret_2", "top_secret_1", "safe_2",
              "safe_1"], 0)
    state = api.setup(body({"A": a, "B": b}, **options))
    state, events, score = api.apply(state, act("spy", "A", target="B"))
    exposed = [events[1]["card"]]
    for _ in range(3):
        state, _, _ = api.apply(state, act("end_turn", "B"))
        state, _, _ = api.apply(state, act("move", "A", steps=1))
        state, events, score = api.apply(state, act("spy", "A", target="B"))
        exposed.append(events[1]["card"])
    assert exposed == ["safe_1", "safe_2", "top_secret_1", "top_secret_2"]
    return state, events, score


def test_scenario_9_top_secret_2_eliminates_spy_r7_e2(api):
    """SPY-R7: exposing B's Top Secret 2 eliminates B; SPY-E2: A, the last left, wins."""
    state, events, score = _top_secret_2_game(api)
    assert {"type": "eliminated", "player": "B", "rule": "SPY-R7"} in events
    assert {"type": "game_over", "winner": "A", "rule": "SPY-E2"} in events
    assert score == {"points": {"A": 0, "B": 4}, "totals": {"A": 0, "B": 4}, "winner": "A",
                     "eliminated": ["B"]}
    assert state["turn"] is None and api.legal(state) == []
    assert api.validate(state, act("end_turn", "A")) == {"SPY-E2"}


def test_scenario_9_top_secret_2_eliminates_false_spy_r7(api):
    """SPY-R7 with ``top_secret_2_eliminates: false``: B stays in, play goes on with B."""
    state, events, score = _top_secret_2_game(api, top_secret_2_eliminates=False)
    assert [e["type"] for e in events] == ["spy", "answer", "turn"]
    assert score["winner"] is None and state["eliminated"] == []
    assert state["turn"]["player"] == "B"
    assert state["bases"]["B"]["exposed"] == [6, 5, 4, 3]


def test_scenario_10_setup_checks_spy_s1(api):
    """SPY-S1: 2 players use only green and red; 3–4 players remove the Bomb 2; a base holds 7
    cards (Spy excluded) with 2 players, 6 with 3–4."""
    problem = api.setup_problem({"players": ["A", "B"], "colours": {"A": "green", "B": "blue"},
                                 "seed": 1})
    assert problem["type"].endswith("invalid-setup")
    assert {(v["rule"], v["field"]) for v in problem["errors"]} == {("SPY-S1", "colours.B")}
    six = ["safe_1", "safe_2", "top_secret_1", "top_secret_2", "bomb_1", "bomb_3"]
    with_bomb_2 = ["safe_1", "safe_2", "top_secret_1", "top_secret_2", "bomb_1", "bomb_2"]
    problem = api.setup_problem(body({"A": base(six, 0), "B": base(with_bomb_2, 0),
                                      "C": base(six, 0)}))
    assert {(v["rule"], v["field"]) for v in problem["errors"]} == {
        ("SPY-S1", "bases.B.cards[5]")}
    problem = api.setup_problem(body({"A": base(six, 0), "B": base(six, 0)}))  # 2 players
    assert {(v["rule"], v["field"]) for v in problem["errors"]} == {
        ("SPY-S1", "bases.A.cards"), ("SPY-S1", "bases.B.cards")}
    problem = api.setup_problem(body({p: base(six + ["bomb_2"], 0) for p in "ABC"}))
    assert {v["rule"] for v in problem["errors"]} == {"SPY-S1"}
    for players, size in ((["A", "B"], 7), (["A", "B", "C"], 6), (["A", "B", "C", "D"], 6)):
        state = api.setup({"players": players, "seed": 5})
        assert {len(b["cards"]) for b in state["bases"].values()} == {size}
        assert ("bomb_2" in state["bases"]["A"]["cards"]) == (size == 7)


def test_scenario_11_illegal_targets_spy_p2(api):
    """SPY-P2: spying on yourself, on an eliminated player, a second spy or a second move in
    one turn are refused."""
    state = _bomb_game(api)
    assert api.refused(state, act("spy", "A", target="A")) == {"SPY-P2"}
    state, _, _ = api.apply(state, act("spy", "A", target="B"))  # lights B's c3
    assert api.refused(state, act("spy", "A", target="C")) == {"SPY-P2"}  # a second spy
    state, _, _ = api.apply(state, act("end_turn", "B"))
    state, _, _ = api.apply(state, act("spy", "C", target="B"))  # the lit bomb: C is out
    assert state["eliminated"] == ["C"] and state["turn"]["player"] == "A"
    assert api.refused(state, act("spy", "A", target="C")) == {"SPY-P2"}
    state, _, _ = api.apply(state, act("move", "A", steps=1))  # A faces c2, Top Secret 1
    assert api.refused(state, act("move", "A", steps=1)) == {"SPY-P2"}  # a second move
    assert api.validate(state, act("spy", "A", target="B")) is None
