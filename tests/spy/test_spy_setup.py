"""Setup of Spy (SPY-C1…C3, SPY-S1…S3): decks, colours, base sizes, entered and dealt bases."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from referee.games.base import ImpossibleState, InvalidSetup
from referee.games.spy.engine import ENGINE
from referee.games.spy.rules import DEFAULT_MOVES, allowed_colours, base_cards
from tests.spy.harness import ORDERED, base, body

SEVEN = ORDERED + ["bomb_2"]


def setup_rules(payload: dict) -> set[tuple[str, str]]:
    """The ``(rule, field)`` pairs of a refused setup."""
    with pytest.raises(InvalidSetup) as error:
        ENGINE.setup(payload, seed=1)
    return {(v.rule, v.field) for v in error.value.violations}


def test_spy_c1_c2_thirty_cards_in_four_colours():
    """SPY-C1/C2: each colour has a Spy, Safe 1–2, Top Secret 1–2, Bomb 1 and 3; green and red
    also a Bomb 2: 4 Spies + 8 Safes + 8 Top Secrets + 10 Bombs = 30."""
    per_colour = {"green": base_cards(2), "red": base_cards(2), "blue": base_cards(3),
                  "yellow": base_cards(4)}
    kinds = Counter(card.rsplit("_", 1)[0] for cards in per_colour.values() for card in cards)
    assert kinds == {"safe": 8, "top_secret": 8, "bomb": 10}
    assert sum(kinds.values()) + 4 == 30  # and one Spy per colour


def test_spy_c3_default_movement_numbers_are_the_numbers_in_the_names():
    """SPY-C3: Safe 1 → 1, Safe 2 → 2, Top Secret 1 → 1, Top Secret 2 → 2, Bomb 1/2/3 → 1/2/3."""
    assert DEFAULT_MOVES == {"safe_1": 1, "safe_2": 2, "top_secret_1": 1, "top_secret_2": 2,
                             "bomb_1": 1, "bomb_2": 2, "bomb_3": 3}


@pytest.mark.parametrize("players", [["A"], ["A", "B", "C", "D", "E"]])
def test_spy_s1_two_to_four_players(players):
    """SPY-S1: 2 to 4 players."""
    assert setup_rules({"players": players}) == {("SPY-S1", "players")}


def test_spy_s1_colours_by_seat_and_two_player_colours():
    """SPY-S1: one colour each, by default green, red, blue, yellow in seat order; with 2
    players only green and red."""
    state = ENGINE.setup({"players": ["A", "B", "C", "D"]}, seed=3)
    assert state["colours"] == {"A": "green", "B": "red", "C": "blue", "D": "yellow"}
    assert allowed_colours(2) == ("green", "red")
    state = ENGINE.setup({"players": ["A", "B"], "colours": {"A": "red", "B": "green"}}, seed=3)
    assert state["colours"] == {"A": "red", "B": "green"}
    assert setup_rules({"players": ["A", "B", "C"],
                        "colours": {"A": "red", "B": "red", "C": "blue"}}) == {
        ("SPY-S1", "colours")}
    assert setup_rules({"players": ["A", "B", "C"], "colours": {"A": "red", "B": "blue",
                                                                "C": "pink"}}) == {
        ("SPY-S1", "colours.C")}


def test_spy_s1_base_sizes_7_and_6_and_no_bomb_2_with_three():
    """SPY-S1: 7 cards (Spy excluded) with 2 players, including the Bomb 2; 6 with 3–4."""
    assert setup_rules(body({"A": base(ORDERED, 0), "B": base(SEVEN, 0)})) == {
        ("SPY-S1", "bases.A.cards")}
    assert setup_rules(body({p: base(SEVEN, 0) for p in "ABC"})) == {
        ("SPY-S1", f"bases.{p}.cards") for p in "ABC"} | {
        ("SPY-S1", f"bases.{p}.cards[6]") for p in "ABC"}
    state = ENGINE.setup(body({"A": base(SEVEN, 6, "left"), "B": base(SEVEN[::-1], 0)}), seed=1)
    assert state["bases"]["A"]["cards"] == SEVEN and state["bases"]["A"]["spy_gap"] == 6


def test_spy_s2_entered_base_problems_name_the_field():
    """SPY-S2/C1: the Spy is not a base card, a card appears once, the gap is 0…n-1, facing is
    left or right, "unknown" only in table mode, bases for exactly the players."""
    bad = {"A": base(["spy"] + ORDERED[1:], 0), "B": base(ORDERED[:5] + ["safe_1"], 6),
           "C": {"cards": ORDERED[:5] + ["unknown"], "spy_gap": True, "facing": "up",
                 "exposed": []}}
    assert setup_rules(body(bad)) == {
        ("SPY-C1", "bases.A.cards[0]"), ("SPY-C1", "bases.B.cards[5]"),
        ("SPY-S2", "bases.B.spy_gap"), ("SPY-C1", "bases.C.cards[5]"),
        ("SPY-S2", "bases.C.spy_gap"), ("SPY-S2", "bases.C.facing")}
    extra = {p: base(ORDERED, 0) for p in "ABC"}
    extra["C"]["exposed"] = [0]
    assert setup_rules(body(extra)) == {("SPY-S2", "bases.C.exposed")}
    missing = body({p: base(ORDERED, 0) for p in "AB"})
    missing["players"] = ["A", "B", "C"]
    assert setup_rules(missing) == {("SPY-S2", "bases")}
    assert setup_rules(body({p: [1, 2] for p in "AB"})) == {
        ("SPY-S2", "bases.A"), ("SPY-S2", "bases.B")}


def test_spy_s2_table_mode_accepts_unknown_cards():
    """Table mode (spy.md "Setup body"): cards may be "unknown"; known ones still count once."""
    hidden = base(["unknown"] * 5 + ["bomb_3"], 2, "left")
    state = ENGINE.setup(body({"A": hidden, "B": base(["unknown"] * 6, 0),
                               "C": base(ORDERED, 1)}, mode="table"), seed=1)
    assert state["bases"]["A"]["cards"] == ["unknown"] * 5 + ["bomb_3"]
    twice = base(["unknown"] * 4 + ["bomb_3", "bomb_3"], 0)
    assert setup_rules(body({"A": twice, "B": base(["unknown"] * 6, 0),
                             "C": base(ORDERED, 1)}, mode="table")) == {
        ("SPY-C1", "bases.A.cards[5]")}


def test_spy_s2_dealt_bases_follow_the_seed():
    """SPY-S2 dealt by the service: each base a shuffle of the colour's cards, a random gap and
    facing; the same seed deals the same bases, another seed other ones."""
    one = ENGINE.setup({"players": ["A", "B", "C"]}, seed=11)
    assert one == ENGINE.setup({"players": ["A", "B", "C"]}, seed=11)
    assert one["bases"] != ENGINE.setup({"players": ["A", "B", "C"]}, seed=12)["bases"]
    seen_gaps, seen_facings, seen_orders = set(), set(), set()
    for seed in range(40):
        state = ENGINE.setup({"players": ["A", "B"]}, seed=seed)
        for b in state["bases"].values():
            assert sorted(b["cards"]) == sorted(SEVEN)
            seen_gaps.add(b["spy_gap"])
            seen_facings.add(b["facing"])
            seen_orders.add(tuple(b["cards"]))
            assert (b["exposed"], b["lit"]) == ([], [])  # SPY-S2: every bomb starts unlit
    assert seen_gaps == set(range(7)) and seen_facings == {"left", "right"}
    assert len(seen_orders) == 80


def test_spy_s2_bases_or_a_seed():
    """SPY-S2: without entered bases the service needs a seed to deal them."""
    with pytest.raises(InvalidSetup) as error:
        ENGINE.setup({"players": ["A", "B"]}, seed=None)
    assert {(v.rule, v.field) for v in error.value.violations} == {("SPY-S2", "seed")}
    state = ENGINE.setup({"players": ["A", "B"], "seed": "table-7"}, seed=None)
    assert state["seed"] == "table-7"


def test_spy_s3_first_player_option():
    """SPY-S3: the first seat starts unless options.first_player names another player."""
    assert ENGINE.setup({"players": ["A", "B", "C"]}, seed=1)["turn"]["player"] == "A"
    state = ENGINE.setup({"players": ["A", "B", "C"], "options": {"first_player": "C"}}, seed=1)
    assert state["turn"] == {"player": "C", "done": [], "pending": None}
    assert setup_rules({"players": ["A", "B"], "options": {"first_player": "Z"}}) == {
        ("SPY-S3", "options.first_player")}


def test_spy_options_are_checked_by_name_and_type():
    """Options: mirror across|same (SPY-P1), card_moves card → number ≥ 1 (SPY-C3),
    top_secret_2_eliminates a bool (SPY-R7); unknown names refused."""
    assert setup_rules({"players": ["A", "B"], "options": {"mirror": "diagonal"}}) == {
        ("SPY-P1", "options.mirror")}
    assert setup_rules({"players": ["A", "B"], "options": {"top_secret_2_eliminates": 1}}) == {
        ("SPY-R7", "options.top_secret_2_eliminates")}
    assert setup_rules({"players": ["A", "B"], "options": {
        "card_moves": {"spy": 1, "safe_1": 0, "bomb_3": "3", "safe_2": True}}}) == {
        ("SPY-C3", "options.card_moves.spy"), ("SPY-C3", "options.card_moves.safe_1"),
        ("SPY-C3", "options.card_moves.bomb_3"), ("SPY-C3", "options.card_moves.safe_2")}
    assert setup_rules({"players": ["A", "B"], "options": {"speed": 2}}) == {
        ("OPTIONS", "options.speed")}


def test_spy_setup_refuses_bodies_of_any_shape():
    """Bad input of any shape is an InvalidSetup naming the field, never a crash."""
    assert setup_rules({"players": "AB"}) == {("SPY-S1", "players")}
    assert setup_rules({"players": ["A", "A"]}) == {("SPY-S1", "players")}
    assert setup_rules({"players": ["A", "B"], "mode": "online"}) == {("SPY-S2", "mode")}
    assert setup_rules({"players": ["A", "B"], "bases": []}) == {("SPY-S2", "bases")}
    assert setup_rules({"players": ["A", "B"], "colours": ["green"]}) == {("SPY-S1", "colours")}
    with pytest.raises(InvalidSetup):
        ENGINE.setup(["A", "B"], seed=1)


def test_spy_c3_card_moves_are_bounded_by_the_base_size():
    """SPY-C3: "A match may give other numbers in options.card_moves (card → number)."  A move
    of k wraps round the cyclic base (SPY-M3), so numbers above the base size (6 with 3–4
    players, 7 with 2) mean nothing and 10**30 once hung the legal-action listing: 1…n only."""
    assert setup_rules({"players": ["A", "B", "C"],
                        "options": {"card_moves": {"safe_1": 10 ** 30, "bomb_3": 7}}}) == {
        ("SPY-C3", "options.card_moves.safe_1"), ("SPY-C3", "options.card_moves.bomb_3")}
    two = ENGINE.setup({"players": ["A", "B"], "options": {"card_moves": {"bomb_3": 7}}},
                       seed=1)
    assert two["options"]["card_moves"] == {"bomb_3": 7}  # a 2-player base holds 7 cards
    state = ENGINE.setup({"players": ["A", "B", "C"], "options": {"card_moves": {"safe_1": 6}}},
                         seed=1)
    assert ENGINE.legal_actions(state)
    bad = {**state, "options": {**state["options"], "card_moves": {"safe_1": 10 ** 30}}}
    with pytest.raises(ImpossibleState) as error:
        ENGINE.legal_actions(bad)
    assert {(v.rule, v.field) for v in error.value.violations} == {
        ("SPY-C3", "state.options.card_moves.safe_1")}


def test_spy_s2_table_mode_needs_the_bases_the_players_arranged(client):
    # at a real table the referee cannot deal: without bases it would invent cards and then
    # hold the defenders' answers to them (README: "in table mode it deals nothing")
    response = client.post("/v1/games/spy/setup",
                           json={"players": ["a", "b", "c"], "mode": "table", "seed": 3})
    assert response.status_code == 422
    problem = response.get_json()
    assert problem["type"] == "/problems/invalid-setup"
    assert [(e["field"], e["rule"]) for e in problem["errors"]] == [("bases", "SPY-S2")]


def test_spy_messages_quote_a_value_as_every_message_does():
    """A value quoted in a Spy sentence (SPY-S1/S2 messages) is cut as README "Errors" says of
    every quoted value: its first 64 characters, then "…" (it was 37 + "..." in Spy alone)."""
    from referee.games.spy.rules import short_repr
    assert short_repr("green") == "'green'"
    assert short_repr("q" * 100) == "'" + "q" * 64 + "…'"
    assert short_repr(None) == "null" and short_repr(True) == "true"
    assert short_repr(list(range(40))) == str(list(range(40)))[:64] + "…"


def test_a_spy_snapshot_message_quotes_64_characters_of_the_value(client):
    """SPY-S2: an unknown log entry type is quoted in the verdict with its first 64 characters
    then "…", as README "Errors" says of every quoted value (the engine quotes it once and the
    answer's bounds, ``bounded_params``, must not cut it again: it showed 63)."""
    state = client.post("/v1/games/spy/setup", json={"players": ["ana", "ben"], "seed": 3}
                        ).get_json()["state"]
    state["log"] = [{"type": "q" * 100}]
    answer = client.post("/v1/games/spy/validate", json={
        "state": state, "action": {"type": "end_turn", "player": "ana"}}).get_json()
    text = json.dumps(answer, ensure_ascii=False)
    assert "'" + "q" * 64 + "…'" in text, text[:400]
