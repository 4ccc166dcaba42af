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


def test_coup_x1_a_proof_the_known_cards_rule_out_is_rejected():
    hands = {"A": [U, U], "B": ["duchess", "duchess"], "C": ["duchess", U]}
    state = _do(_table(hands, [U] * 9), "tax", "A")
    state = _do(state, "challenge", "B")
    assert _rules(state, "prove", "A", card="duchess") == {"COUP-X1"}   # all 3 accounted for
    assert ENGINE.legal_actions(state) == [{"type": "concede", "player": "A"}]


def test_coup_x1_face_up_cards_count_and_a_proven_card_returns_to_the_pool():
    hands = {"A": [U, U], "B": ["captain", U], "C": ["captain", U], "D": [U, "captain"]}
    state = _table(hands, [U] * 7)
    state["hands"]["D"], state["revealed"]["D"] = [U], ["captain"]   # turned up earlier
    state = _do(_do(state, "steal", "A", target="B"), "challenge", "C")
    assert _rules(state, "prove", "A", card="captain") == {"COUP-X1"}   # B, C, D's face up
    # Three known Captains in hands: none can be A's ...
    state = _do(_do(_table(hands, [U] * 7), "steal", "A", target="B"), "challenge", "C")
    assert _rules(state, "prove", "A", card="captain") == {"COUP-X1"}
    # ... until B proves one: it goes back into the court deck, whose order nobody knows.
    state = _table(hands, [U] * 7, first_player="B")
    state = _do(_do(state, "steal", "B", target="C"), "challenge", "A")
    state = _do(state, "prove", "B", card="captain")
    assert state["hands"]["B"] == [U, U] and state["court"] == [U] * 7
    state = _do(_do(state, "lose_influence", "A", card="duchess"), "pass", "C")
    state = _do(_do(state, "income", "C"), "income", "D")
    state = _do(_do(state, "steal", "A", target="B"), "challenge", "B")
    assert _rules(state, "prove", "A", card="captain") == set()


def test_coup_x1_lose_influence_names_a_card_that_can_be_there():
    hands = {"A": [U, U], "B": ["countess", "countess"], "C": ["countess", U]}
    state = _do(_table(hands, [U] * 9), "tax", "A")
    state = _do(state, "challenge", "B")
    state = _do(state, "concede", "A")
    assert _rules(state, "lose_influence", "A", card="countess") == {"COUP-X1"}
    assert _rules(state, "lose_influence", "A", card=U) == {"COUP-L1"}    # face up: named
    assert {a["card"] for a in ENGINE.legal_actions(state)} == {
        "ambassador", "assassin", "captain", "duchess"}
    state = _do(state, "lose_influence", "A", card="assassin")
    assert state["revealed"]["A"] == ["assassin"] and state["hands"]["A"] == [U]


def test_coup_x1_an_examined_card_given_back_is_known():
    hands = {"A": ["inquisitor", U], "B": [U, U], "C": ["assassin", "assassin"]}
    state = _table(hands, [U] * 9, exchanger="inquisitor")
    state = _do(state, "examine", "A", target="B")
    state = _do(_do(state, "pass", "B"), "pass", "C")
    state = _do(state, "show_card", "B", card="assassin")
    state = _do(state, "examine_decide", "A", swap=False)
    assert sorted(state["hands"]["B"]) == ["assassin", U]
    # Three Assassins are now known: none can be in A's unknown card.
    state = _do(_do(state, "income", "B"), "income", "C")
    state = _do(_do(state, "tax", "A"), "challenge", "B")
    state = _do(state, "concede", "A")
    assert _rules(state, "lose_influence", "A", card="assassin") == {"COUP-X1"}


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
