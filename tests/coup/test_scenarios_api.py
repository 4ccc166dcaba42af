"""The twelve scenarios of ``shared/cases/coup/scenarios.md``, through the HTTP API (setup,
validate, apply, legal-actions).  Players A, B, C… in seat order; every expected value is
worked out by hand from ``shared/rules/coup.md``.
"""
from __future__ import annotations

from collections import Counter

from referee.games.coup.engine import ENGINE
from referee.games.coup.rules import TREASURY_VALUE

THREE = {"A": ["assassin", "duchess"], "B": ["captain", "countess"],
         "C": ["ambassador", "captain"]}


def _incomes(api, *players):
    for player in players:
        api.do("income", player)


def _passes(api, *players):
    for player in players:
        api.do("pass", player)


def _edit_coins(state, **coins):
    """A client-carried snapshot with other coins, the treasury keeping the total (COUP-S7)."""
    for player, amount in coins.items():
        state["treasury"] -= amount - state["coins"][player]
        state["coins"][player] = amount
    return state


def test_scenario_1_target_wrongly_challenges_assassin_coup_a5_c4_c5(api, deal_body):
    api.setup(deal_body(THREE))
    _incomes(api, "A", "B", "C")                      # A has 3 coins
    api.do("assassinate", "A", target="B")            # COUP-A5: pays 3
    assert api.state["coins"]["A"] == 0
    api.do("challenge", "B")
    api.do("prove", "A")                              # digital: the engine shows the Assassin
    revealed = [e for e in api.events if e["type"] == "card_revealed"]
    assert revealed == [{"type": "card_revealed", "player": "A", "card": "assassin",
                         "rule": "COUP-C4"}]
    # COUP-C4: the Assassin went into the court deck and A drew a replacement.
    assert len(api.state["hands"]["A"]) == 2 and "duchess" in api.state["hands"]["A"]
    assert (api.state["hands"]["A"] + api.state["court"]).count("assassin") == 3
    assert api.legal() == [{"type": "lose_influence", "player": "B", "card": "captain"},
                           {"type": "lose_influence", "player": "B", "card": "countess"}]
    api.do("lose_influence", "B", card="captain")     # C4: the challenger loses 1
    # B, still in, is offered the block window (COUP-B1 via C5).
    assert {"type": "block", "player": "B", "character": "countess"} in api.legal("B")
    api.do("pass", "B")                               # the assassination resolves: B's last card
    assert api.state["revealed"]["B"] == ["captain", "countess"]
    assert api.state["hands"]["B"] == [] and api.score["points"]["B"] == 0
    assert api.state["coins"]["A"] == 0
    assert api.state["turn"]["player"] == "C" and api.state["turn"]["stage"] == "declare"


def test_scenario_2_countess_bluff_caught_coup_b1_c3_c5(api, deal_body):
    api.setup(deal_body({"A": ["assassin", "duchess"], "B": ["captain", "duchess"],
                         "C": ["ambassador", "captain"]}))
    _incomes(api, "A", "B", "C")
    api.do("assassinate", "A", target="B")
    _passes(api, "B", "C")                            # nobody challenges the Assassin
    api.do("block", "B", character="countess")        # bluff: B holds no Countess
    api.do("challenge", "A")
    assert api.refused("prove", "B", card="countess") == {"COUP-C2"}
    api.do("concede", "B")                            # COUP-C3: B loses 1, the block fails
    api.do("lose_influence", "B", card="captain")
    # The assassination resolves (B1): B's other card, a different one, goes (C5).
    assert api.state["revealed"]["B"] == ["captain", "duchess"]
    assert api.state["hands"]["B"] == []
    assert api.state["coins"]["A"] == 0               # the 3 coins stay spent (A5)
    assert api.state["treasury"] == TREASURY_VALUE - 0 - 0 - 3


def test_scenario_3_bluffing_assassin_caught_coup_c3_a5(api, deal_body):
    api.setup(deal_body({"A": ["duchess", "captain"], "B": ["assassin", "countess"],
                         "C": ["ambassador", "captain"]}))
    _incomes(api, "A", "B", "C")
    api.do("assassinate", "A", target="B")
    assert api.state["coins"]["A"] == 0
    api.do("challenge", "B")
    assert api.refused("prove", "A") == {"COUP-C2"}   # A holds no Assassin
    api.do("concede", "A")
    assert api.state["coins"]["A"] == 3               # COUP-A5: the coins come back
    api.do("lose_influence", "A", card="captain")
    assert api.state["hands"]["B"] == ["assassin", "countess"]   # B loses nothing
    assert api.state["revealed"] == {"A": ["captain"], "B": [], "C": []}
    assert api.state["turn"]["player"] == "B"


def test_scenario_4_one_card_actor_caught_bluffing_tax_coup_c3_l2_t1(api, deal_body):
    api.setup(deal_body({"A": ["captain", "countess"], "B": ["assassin", "duchess"],
                         "C": ["ambassador", "captain"]}))
    api.do("tax", "A").do("challenge", "B").do("concede", "A")
    api.do("lose_influence", "A", card="captain")     # A has 1 influence left
    _incomes(api, "B", "C")
    api.do("tax", "A").do("challenge", "C").do("concede", "A")
    # COUP-L1/L2: the last card is turned up at once, A is out, coins back to the treasury.
    assert api.state["hands"]["A"] == [] and api.state["revealed"]["A"] == ["captain",
                                                                            "countess"]
    assert api.state["coins"] == {"A": 0, "B": 3, "C": 3}
    assert api.state["treasury"] == 48
    assert api.state["turn"]["player"] == "B" and api.state["turn"]["stage"] == "declare"
    # COUP-L2 "no more turns" is the rule A's income breaks (issue 13), before T1's turn order
    assert api.refused("income", "A") == {"COUP-L2"}


def test_scenario_5_failed_block_of_a_steal_coup_a6_b1(api, deal_body):
    api.setup(deal_body({"A": ["captain", "countess"], "B": ["duchess", "countess"],
                         "C": ["ambassador", "assassin"]}))
    api.do("income", "A")
    api.do("tax", "B")
    _passes(api, "A", "C")
    api.do("income", "C")
    assert api.state["coins"] == {"A": 3, "B": 5, "C": 3}
    api.do("steal", "A", target="B")
    _passes(api, "B", "C")
    api.do("block", "B", character="ambassador")
    api.do("challenge", "C")
    api.do("concede", "B")
    api.do("lose_influence", "B", card="countess")    # B loses 1 (C3)
    assert api.state["coins"] == {"A": 5, "B": 3, "C": 3}   # the steal resolves (B1)
    assert api.state["revealed"]["B"] == ["countess"]
    assert api.state["turn"]["player"] == "B"


def _steal_with_passes(api, thief, target, others):
    api.do("steal", thief, target=target)
    _passes(api, *others)                             # challenge window
    api.do("pass", target)                            # block window (target only)


def test_scenario_6_steal_from_one_coin_and_from_none_coup_a6(api, deal_body):
    hands = {"A": ["captain", "duchess"], "B": ["assassin", "countess"],
             "C": ["captain", "ambassador"]}
    for from_empty in (False, True):
        api.setup(deal_body(hands, steal_from_empty=from_empty))
        _steal_with_passes(api, "A", "B", ["B", "C"])         # B 2 → 0, A 4
        api.do("income", "B")                                  # B 1
        _steal_with_passes(api, "C", "B", ["A", "B"])         # takes the 1 coin left
        assert api.state["coins"] == {"A": 4, "B": 0, "C": 3}
        if not from_empty:
            assert api.refused("steal", "A", target="B") == {"COUP-A6"}
            assert {"type": "steal", "player": "A", "target": "B"} not in api.legal("A")
        else:
            _steal_with_passes(api, "A", "B", ["B", "C"])
            assert api.state["coins"] == {"A": 4, "B": 0, "C": 3}   # transfers 0


def test_scenario_7_forced_coup_coup_t2(api, deal_body):
    start = api.setup(deal_body(THREE))
    for coins in (10, 11, 12):
        api.state = _edit_coins(dict(start, coins=dict(start["coins"])), A=coins)
        assert {a["type"] for a in api.legal("A")} == {"coup"}
        assert api.refused("income", "A") == {"COUP-T2"}
        assert api.refused("tax", "A") == {"COUP-T2"}
    api.state = _edit_coins(dict(start, coins=dict(start["coins"])), A=9)
    api.do("tax", "A")                               # from 9, tax to 12 is legal
    _passes(api, "B", "C")
    assert api.state["coins"]["A"] == 12
    _incomes(api, "B", "C")
    assert api.legal("A") == [{"type": "coup", "player": "A", "target": "B"},
                              {"type": "coup", "player": "A", "target": "C"}]
    api.do("coup", "A", target="B")
    assert api.state["coins"]["A"] == 5
    # Robbed from 11 to 9 before the turn: no coup is forced.
    robbed = api.setup(deal_body(THREE, first_player="C"))
    api.state = _edit_coins(robbed, A=11)
    _steal_with_passes(api, "C", "A", ["A", "B"])
    assert api.state["coins"]["A"] == 9 and api.state["turn"]["player"] == "A"
    assert {"type": "income", "player": "A"} in api.legal("A")
    api.do("income", "A")
    assert api.state["coins"]["A"] == 10


def _lose_one_by_bluff(api, player, challenger, card):
    api.do("tax", player).do("challenge", challenger).do("concede", player)
    api.do("lose_influence", player, card=card)


def test_scenario_8_exchange_with_one_influence_coup_a7_a8a(api, deal_body):
    for exchanger, draws in (("ambassador", 2), ("inquisitor", 1)):
        hands = {"A": [exchanger, "captain"], "B": ["assassin", "countess"],
                 "C": ["captain", "countess"]}
        api.setup(deal_body(hands, exchanger, top=("assassin", "duchess")))
        _lose_one_by_bluff(api, "A", "B", "captain")      # A keeps one influence
        _incomes(api, "B", "C")
        api.do("exchange", "A")
        _passes(api, "B", "C")
        seen = ENGINE.view(api.state, "A")
        assert seen["hands"]["A"] == [exchanger]
        assert seen["turn"]["drawn"] == ["assassin", "duchess"][:draws]   # top of the court
        assert len(seen["hands"]["A"]) + len(seen["turn"]["drawn"]) == draws + 1
        rule = "COUP-A7" if exchanger == "ambassador" else "COUP-A8a"
        assert api.refused("return_cards", "A", cards=[]) == {rule}
        assert api.refused("return_cards", "A",
                           cards=[exchanger, "assassin", "duchess"][:draws + 1]) == {rule}
        api.do("return_cards", "A", cards=[exchanger, "duchess"][:draws])
        assert api.state["hands"]["A"] == ["assassin"]   # keeps 1, as many as before
        assert len(api.state["court"]) == 9 and api.state["turn"]["player"] == "B"


def test_scenario_9_examine_only_inquisitor_and_owner_see_the_card_coup_a8b_v1(api,
                                                                               deal_body):
    hands = {"A": ["inquisitor", "duchess"], "B": ["captain", "countess"],
             "C": ["assassin", "duchess"], "D": ["inquisitor", "captain"]}
    api.setup(deal_body(hands, "inquisitor"))
    api.do("examine", "A", target="B")
    _passes(api, "B", "C", "D")
    # B chooses which card to show; nobody else can.
    assert api.legal() == [{"type": "show_card", "player": "B", "card": "captain"},
                           {"type": "show_card", "player": "B", "card": "countess"}]
    assert api.refused("show_card", "A", card="captain") == {"COUP-A8b"}
    api.do("show_card", "B", card="countess")
    for seat in ("A", "B"):
        assert ENGINE.view(api.state, seat)["turn"]["shown"] == "countess"
    for seat in ("C", "D", None):
        assert "shown" not in ENGINE.view(api.state, seat)["turn"]
    before = Counter(api.state["hands"]["B"] + api.state["court"])
    api.do("examine_decide", "A", swap=True)
    after = api.state
    assert Counter(after["hands"]["B"] + after["court"]) == before
    assert len(after["hands"]["B"]) == 2 and "captain" in after["hands"]["B"]
    assert after["turn"]["player"] == "B"
    # The public log never names the examined card; the private events name only the seats.
    shown = [e for e in api.events if e["type"] == "card_shown"]
    assert shown == [{"type": "card_shown", "player": "B", "to": "A", "rule": "COUP-A8b"},
                     {"type": "card_shown", "player": "B", "to": "A", "rule": "COUP-A8b",
                      "card": "countess", "visible_to": ["A", "B"]}]
    swapped = [e for e in api.events if e["type"] == "examined_card_swapped"]
    assert "card" not in swapped[0] and swapped[1]["visible_to"] == ["B"]
    assert all("card" not in e for e in api.events if e.get("visible_to") is None
               and e["type"] not in ("card_revealed", "influence_lost"))


def test_scenario_9_examine_reformation_order_draws_first_coup_a8b(api, deal_body):
    hands = {"A": ["inquisitor", "duchess"], "B": ["captain", "countess"],
             "C": ["assassin", "duchess"]}
    api.setup(deal_body(hands, "inquisitor", top=("assassin",),
                        examine_order="reformation"))
    api.do("examine", "A", target="B")
    _passes(api, "B", "C")
    api.do("show_card", "B", card="countess").do("examine_decide", "A", swap=True)
    assert sorted(api.state["hands"]["B"]) == ["assassin", "captain"]   # drew the top card
    assert "countess" in api.state["court"]


def test_scenario_10_conceding_while_holding_the_card_coup_c2(api, deal_body):
    api.setup(deal_body({"A": ["duchess", "captain"], "B": ["assassin", "countess"],
                         "C": ["ambassador", "captain"]}))
    api.do("tax", "A").do("challenge", "B")
    assert {a["type"] for a in api.legal("A")} == {"prove", "concede"}
    api.do("concede", "A")
    assert api.legal() == [{"type": "lose_influence", "player": "A", "card": "captain"},
                           {"type": "lose_influence", "player": "A", "card": "duchess"}]
    api.do("lose_influence", "A", card="duchess")     # the choice is A's (COUP-L1)
    assert api.state["coins"]["A"] == 2               # no coins gained (C3)
    assert api.state["hands"]["A"] == ["captain"] and api.state["revealed"]["A"] == ["duchess"]


def test_scenario_11_absent_character_cannot_be_claimed_coup_b2(api, deal_body):
    for exchanger, absent in (("inquisitor", "ambassador"), ("ambassador", "inquisitor")):
        hands = {"A": ["captain", "duchess"], "B": ["assassin", "countess"],
                 "C": ["duchess", "captain"]}
        api.setup(deal_body(hands, exchanger))
        api.do("steal", "A", target="B")
        _passes(api, "B", "C")
        assert api.refused("block", "B", character=absent) == {"COUP-B2"}
        api.do("block", "B", character=exchanger)     # the game's own exchanger blocks (A6)
        assert api.state["turn"]["stage"] == "block_challenge"


def test_scenario_12_court_deck_sizes_coup_s3_s5(api):
    api.setup({"players": ["A", "B"], "seed": 12})
    assert len(api.state["court"]) == 3
    for player in ("A", "B"):
        card = api.state["piles"][player][0]
        api.do("choose_card", player, card=card)
    api.do("exchange", "A").do("pass", "B")
    assert len(api.state["court"]) == 1 and len(api.state["turn"]["drawn"]) == 2
    pool = api.state["hands"]["A"] + api.state["turn"]["drawn"]
    api.do("return_cards", "A", cards=pool[:2])
    assert len(api.state["court"]) == 3               # drew 2, returned 2
    for n, court in ((6, 3), (7, 6), (8, 4)):
        state = api.setup({"players": [chr(65 + i) for i in range(n)], "seed": n})
        cards = sum(len(h) for h in state["hands"].values()) + len(state["court"])
        assert (cards, len(state["court"])) == ((15 if n < 7 else 20), court)
