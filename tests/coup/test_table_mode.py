"""Table mode: unknown face-down cards, proofs and losses checked against the known cards
(COUP-X1), coins always 54 (COUP-X2)."""
from __future__ import annotations

import pytest

from referee.games.base import ImpossibleState
from referee.games.coup.engine import ENGINE

U = "unknown"


def _table(hands, court, exchanger="ambassador", **options):
    body = {"players": list(hands), "mode": "table",
            "options": {"exchanger": exchanger, **options},
            "deal": {"hands": hands, "court": court}}
    return ENGINE.setup(body, 3)


def _do(state, kind, player, **fields):
    return ENGINE.apply(state, {"type": kind, "player": player, **fields})[0]


def _rules(state, kind, player, **fields):
    return {v.rule for v in ENGINE.violations(state, {"type": kind, "player": player,
                                                      **fields})}


def test_coup_x1_prove_must_name_the_card_at_a_table():
    state = _do(_table({"A": [U, U], "B": [U, U], "C": [U, U]}, [U] * 9), "tax", "A")
    state = _do(state, "challenge", "B")
    assert _rules(state, "prove", "A") == {"COUP-X1"}
    state = _do(state, "prove", "A", card="duchess")     # an unknown card may be a Duchess
    assert state["revealed"]["A"] == [] and state["hands"]["A"] == [U, U]
    assert state["loss"] == {"player": "B", "rule": "COUP-C4"}


def test_coup_x1_v1_hands_entered_at_setup_never_refuse_another_seat():
    """COUP-V1 over X1: A was never told B's and C's entered Duchesses, so A's proof is judged
    on what A knows (accepted) and the host's knowledge records the dispute."""
    hands = {"A": [U, U], "B": ["duchess", "duchess"], "C": ["duchess", U]}
    state = _do(_table(hands, [U] * 9), "tax", "A")
    state = _do(state, "challenge", "B")
    assert _rules(state, "prove", "A", card="duchess") == set()
    assert {"type": "prove", "player": "A", "card": "duchess"} in ENGINE.legal_actions(state)
    state = _do(state, "prove", "A", card="duchess")
    assert state["disputes"] == [{"turn": 1, "player": "A", "action": "prove", "card": "duchess",
                                  "place": "A", "reader": "host", "rule": "COUP-X1",
                                  "known": 3, "copies": 3}]   # B knows two, C one: no dispute
    assert "disputes" not in ENGINE.view(state, "A") and "disputes" not in ENGINE.view(state, None)


def test_coup_x1_face_up_cards_count_and_a_proven_card_stays_one_of_the_copies():
    """X1: what everyone saw counts — face-up cards and a proven card, which went into the
    court deck and so is in the court deck or with whoever drew from it since (C4)."""
    hands = {"A": [U, U], "B": [U, U], "C": [U, U], "D": [U, U]}
    state = _table(hands, [U] * 7)
    state["hands"]["D"], state["revealed"]["D"] = [U], ["captain"]   # turned up earlier
    state["hands"]["C"], state["revealed"]["C"] = [U], ["captain"]
    state = _do(_do(state, "steal", "A", target="B"), "challenge", "B")
    state = _do(state, "prove", "A", card="captain")                 # the third Captain
    assert state["knowledge"]["B"] == [{"card": "captain", "places": ["A", "court"]}]
    state = _do(state, "lose_influence", "B", card="duchess")
    state = _do(state, "pass", "B")                                  # B does not block
    for player in ("B", "C", "D"):
        state = _do(state, "income", player)
    state = _do(_do(state, "steal", "A", target="B"), "challenge", "B")
    # A's replacement may be that Captain: A may prove it again ...
    assert _rules(state, "prove", "A", card="captain") == set()
    state = _do(state, "concede", "A")
    state = _do(state, "lose_influence", "A", card="duchess")
    # ... but nobody else can hold a fourth Captain: B's proof or loss of one is refused.
    for player in ("B", "C", "D"):
        state = _do(state, "income", player)
    state = _do(state, "income", "A")
    state = _do(state, "steal", "B", target="A")
    state = _do(state, "challenge", "C")
    assert _rules(state, "prove", "B", card="captain") == {"COUP-X1"}
    assert ENGINE.legal_actions(state) == [{"type": "concede", "player": "B"}]


def test_coup_x1_lose_influence_names_a_card_that_can_be_there():
    hands = {"A": [U, U], "B": [U, U], "C": [U, U], "D": [U, U]}
    state = _table(hands, [U] * 7)
    for player in ("B", "C", "D"):
        state["hands"][player], state["revealed"][player] = [U], ["countess"]
    state = _do(_do(state, "tax", "A"), "challenge", "B")
    state = _do(state, "concede", "A")
    assert _rules(state, "lose_influence", "A", card="countess") == {"COUP-X1"}
    assert _rules(state, "lose_influence", "A", card=U) == {"COUP-L1"}    # face up: named
    assert {a["card"] for a in ENGINE.legal_actions(state)} == {
        "ambassador", "assassin", "captain", "duchess"}
    state = _do(state, "lose_influence", "A", card="assassin")
    assert state["revealed"]["A"] == ["assassin"] and state["hands"]["A"] == [U]


def test_coup_x1_an_examined_card_given_back_is_known_to_the_inquisitor_only():
    hands = {"A": ["inquisitor", U], "B": [U, U], "C": [U, U], "D": [U, U]}
    state = _table(hands, [U] * 7, exchanger="inquisitor")
    for player in ("C", "D"):
        state["hands"][player], state["revealed"][player] = [U], ["assassin"]
    state = _do(state, "examine", "A", target="B")
    state = _do(_do(_do(state, "pass", "B"), "pass", "C"), "pass", "D")
    state = _do(state, "show_card", "B", card="assassin")
    state = _do(state, "examine_decide", "A", swap=False)
    assert sorted(state["hands"]["B"]) == ["assassin", U]
    assert state["knowledge"]["A"] == [{"card": "assassin", "places": ["B"]}]
    assert state["knowledge"]["C"] == [] == state["knowledge"]["D"]
    # Three Assassins are now known to A: none can be in A's unknown card ...
    for player in ("B", "C", "D"):
        state = _do(state, "income", player)
    state = _do(_do(state, "tax", "A"), "challenge", "B")
    state = _do(state, "concede", "A")
    assert _rules(state, "lose_influence", "A", card="assassin") == {"COUP-X1"}
    state = _do(state, "lose_influence", "A", card="duchess")
    # ... while C, who did not see it, may still lose one (the host sees the dispute).
    state = _do(_do(state, "tax", "B"), "challenge", "C")
    state = _do(state, "prove", "B", card="duchess")
    assert _rules(state, "lose_influence", "C", card="assassin") == set()
    state = _do(state, "lose_influence", "C", card="assassin")
    # A (who saw B's), B (its own) and the host each knew three Assassins elsewhere
    assert [(d["reader"], d["card"]) for d in state["disputes"]] == [
        ("A", "assassin"), ("B", "assassin"), ("host", "assassin")]


def test_coup_x2_coins_obey_s7_at_a_table_too():
    state = _table({"A": [U, U], "B": [U, U], "C": [U, U]}, [U] * 9)
    state["coins"]["A"] = 5
    with pytest.raises(ImpossibleState) as error:
        ENGINE.check_snapshot(state)
    assert {v.rule for v in error.value.violations} == {"COUP-S7"}


def test_table_exchange_returns_unknown_cards_or_named_ones():
    state = _table({"A": ["ambassador", U], "B": [U, U], "C": [U, U]}, [U] * 9)
    state = _do(state, "exchange", "A")
    state = _do(_do(state, "pass", "B"), "pass", "C")
    assert state["turn"]["drawn"] == [U, U]
    assert _rules(state, "return_cards", "A", cards=["ambassador", "ambassador"]) == set()
    state = _do(state, "return_cards", "A", cards=[U, "ambassador"])
    assert state["hands"]["A"] == [U, U] and state["court"] == [U] * 9
