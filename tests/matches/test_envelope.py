"""The match view's envelope (issue 22 item 1), worked out by hand from the rules: phase,
to_move, awaiting (in the answer's language), score and outcome, in every game.

- All Fours, the README's short match (seed 42, target 1): ben stands or begs (AF-B1), ana
  answers (AF-B2), her give one puts ben's side at the target (AF-S6);
- All Fours, the hand of ``tests/cases/allfours/real-hand-1.json`` played as a match: the last
  hand's High, Low, Jack and Game, each with the side that won it (AF-S1…S4);
- Gnoming's final view: the round scores, the totals and the winners, and no ``turn.player``
  (GN-W1); Coup's and Spy's players still in, and their outcome (COUP-E1, SPY-E2).
"""
from __future__ import annotations

import json
import random

from referee.games.common.cards import PACK
from tests.conftest import CASES_DIR

README_MATCH = {"game": "all-fours", "players": ["ana", "ben"], "dealer": "ana", "seed": 42,
                "options": {"target": 1}}
MY = {"Accept-Language": "my"}


def test_af_s6_the_readme_match_from_its_deal_to_its_end(client, table):
    match = table.create(client, **README_MATCH)
    start = match.read("ben")
    # AF-B1: the player on the dealer's right (ben, next after ana) stands or begs; the kick
    # (9S, README) scores nothing (AF-K1: only an ace, a six or a jack does)
    assert (start["phase"], start["to_move"], start["outcome"]) == ("beg", ["ben"], None)
    assert start["awaiting"] == "ben must stand or beg."
    assert start["awaiting_message"] == {"code": "allfours.now.beg",
                                         "params": {"player": "ben"}}
    assert start["score"] == {
        "by": "side", "sides": {"ana": ["ana"], "ben": ["ben"]}, "totals": {"ana": 0, "ben": 0},
        "wins_by": "target", "target": 1, "in": ["ana", "ben"],
        "breakdown": {"hand_number": 1, "hand": {"ana": 0, "ben": 0}, "last_hand": None,
                      "hands": []}}
    assert match.read(None)["awaiting"] == start["awaiting"]  # the same for every reader
    burmese = client.get(match.url, headers=MY).get_json()
    assert burmese["awaiting"] == "ben သည် မတ်တပ်ရပ် သို့မဟုတ် တောင်းရမည်။"

    assert match.act("ben", {"type": "beg", "player": "ben"}, 1).status_code == 200
    begged = match.read("ana")
    assert (begged["phase"], begged["to_move"]) == ("answer", ["ana"])  # AF-B2: the dealer
    assert begged["awaiting"] == "ana must answer the beg: give one or run the pack."

    answered = match.act("ana", {"type": "give_one", "player": "ana"}, 2).get_json()
    # AF-B2: give one scores 1 to the beggar's side; AF-S6: 1 is the target, ben has won
    assert (answered["phase"], answered["to_move"], answered["over"]) == ("over", [], True)
    assert answered["score"]["totals"] == {"ana": 0, "ben": 1}
    assert answered["score"]["breakdown"]["hand"] == {"ana": 0, "ben": 1}
    # the game ended at the give one, before the hand's cards were played: no hand was scored
    assert answered["score"]["breakdown"]["hands"] == []
    assert answered["awaiting"] == "The game is over: ben won."
    reason = {"code": "allfours.game_over.target", "params": {"side": "ben",
                                                              "target_points": 1}}
    assert answered["outcome"] == {"winners": ["ben"], "sides": ["ben"], "reason": {
        **reason, "message": "ben reached 1 point: the game is won (AF-S6)."}}
    assert match.read(None)["outcome"] == answered["outcome"]
    told = client.get(match.url, headers=MY).get_json()["outcome"]["reason"]
    assert told == {**reason, "message": "ben သည် အမှတ် 1 ရောက်ပြီး ဂိမ်းကို အနိုင်ရသည် (AF-S6)။"}


def _real_hand() -> tuple[dict, list[tuple[str, str]]]:
    """The setup (an entered deal) and the plays of real-hand-1: each trick's cards in play
    order from its leader (players in play order, anticlockwise)."""
    sheet = json.loads((CASES_DIR / "allfours" / "real-hand-1.json").read_text())["sheet"]
    players = sheet["players"]
    plays = []
    for trick in sheet["tricks"]:
        first = players.index(trick["leader"])
        plays += [(players[(first + i) % len(players)], card)
                  for i, card in enumerate(trick["cards"])]
    hands = {p: [c for who, c in plays if who == p] for p in players}
    stock = sheet["kicks"] + [c for c in PACK if c not in sheet["kicks"]
                              and all(c not in h for h in hands.values())]
    setup = {"game": "all-fours", "players": players, "sides": sheet["sides"],
             "dealer": sheet["dealer"], "deal": {"hands": hands, "stock": stock}}
    return setup, plays


def test_af_s1_s4_the_last_hand_s_high_low_jack_and_game_with_the_side_of_each(client, table):
    setup, plays = _real_hand()
    match = table.create(client, **setup)
    version = 1
    for who, action in (("tano", "beg"), ("kiri", "give_one")):  # AF-B2: Y scores 1
        assert match.act(who, {"type": action, "player": who}, version).status_code == 200
        version += 1
    for who, card in plays:
        done = match.act(who, {"type": "play", "player": who, "card": card}, version)
        assert done.status_code == 200, done.get_json()
        version += 1
    score = match.read("omar")["score"]
    # the README's Quick start: High JD (A, K undealt, Q kicked) and Low 2D to X (lena,
    # kiri); Jack kept by lena; Game 30 to 6 to X; the hand 4 to 1 with give one
    assert score["breakdown"]["last_hand"] == {
        "high": {"card": "JD", "player": "lena", "side": "X"},
        "low": {"card": "2D", "player": "kiri", "side": "X"},
        "jack": {"player": "lena", "won_by": "lena", "points": 1, "hanged": False,
                 "side": "X"},
        "game": {"totals": {"X": 30, "Y": 6}, "side": "X"},
        "points": {"X": 4, "Y": 1}, "reneges": 0}
    assert score["totals"] == {"X": 4, "Y": 1} and score["target"] == 14
    # the score sheet's line of the hand: each award in AF-S6's order with the side that won
    # it, the hand's points with Y's give one (AF-B2), and the match score after it
    assert score["breakdown"]["hands"] == [{
        "hand": 1, "awards": [{"award": kind, "side": "X", "points": 1}
                              for kind in ("high", "low", "jack", "game")],
        "points": {"X": 4, "Y": 1}, "score": {"X": 4, "Y": 1},
        "deal_points": {"X": 0, "Y": 1}}]  # the give one
    assert score["sides"] == {"X": ["kiri", "lena"], "Y": ["tano", "omar"]}
    waiting = match.read("omar")
    # AF-D2: the deal passes to the right (tano, next after kiri)
    assert (waiting["phase"], waiting["to_move"]) == ("hand_over", ["tano"])
    assert waiting["awaiting"] == "tano must deal."


def test_gn_w1_the_final_view_has_the_scores_the_winners_and_nobody_s_turn(client, table):
    match = table.create(client, game="gnoming", players=["ana", "ben", "cy"], seed=11,
                         options={"rounds": 1})
    match.play_out(random.Random(3))
    events, page = [], {"next": 0}
    while page["next"] is not None:  # GET …/events answers a page at a time (issue 21 item 4)
        page = match.get("host", f"/events?after={page['next']}").get_json()
        events += page["events"]
    scored = next(e for e in events if e["type"] == "round_ended")["scores"]
    over = next(e for e in events if e["type"] == "game_over")
    for reader in ("ana", "host", None):
        final = match.read(reader)
        assert (final["phase"], final["to_move"], final["over"]) == ("over", [], True)
        assert final["view"]["turn"]["player"] is None or reader == "host"
        assert final["score"]["breakdown"] == {"round": 1, "rounds": 1,
                                               "round_scores": [scored],
                                               "running_totals": [scored], "round_points": None}
        assert final["score"]["totals"] == scored == over["totals"]  # one round: its score
        assert final["score"]["wins_by"] == "lowest"
        assert final["outcome"]["winners"] == over["winners"]
        best = min(scored.values())
        assert all(scored[w] == best for w in over["winners"])  # GN-W1: the lowest total
        assert f"{best} point" in final["outcome"]["reason"]["message"]


def test_gn_w1_the_totals_after_each_round_add_up_the_round_scores(client, table):
    match = table.create(client, game="gnoming", players=["ana", "ben", "cy"], seed=5,
                         options={"rounds": 2})
    match.play_out(random.Random(8))
    breakdown = match.read("ben")["score"]["breakdown"]
    first, second = breakdown["round_scores"]
    # GN-W1: a player's total is the sum of its round scores, round after round
    assert breakdown["running_totals"] == [first, {p: first[p] + second[p] for p in first}]
    assert breakdown["running_totals"][-1] == match.read("ben")["score"]["totals"]


def test_coup_e1_and_spy_e2_the_players_still_in_and_the_last_one_wins(client, table):
    for game, setup, code in (("coup", {}, "coup.outcome.last_in"),
                              ("spy", {}, "spy.outcome.last_in")):
        match = table.create(client, game=game, players=["ana", "ben", "cy"], seed=4, **setup)
        match.play_out(random.Random(5))
        final = match.read("ana")
        winner = final["view"]["winner"]  # the deprecated field, still there for a release
        assert final["score"]["in"] == [winner] and final["outcome"]["winners"] == [winner]
        assert final["outcome"]["reason"]["code"] == code
        assert final["outcome"]["reason"]["message"].startswith(f"{winner} is the last player")
        if game == "coup":  # COUP-E1: influence is the face-down cards left
            assert [p for p, n in final["score"]["totals"].items() if n] == [winner]
        else:  # SPY-E1: the others are out, in the order they went
            assert sorted(final["score"]["breakdown"]["eliminated"]) == sorted(
                p for p in ("ana", "ben", "cy") if p != winner)


def test_coup_s5_the_two_player_deal_awaits_the_second_card_by_the_action_s_name(client, table):
    """COUP-S5: with 2 players each chooses a second card first; the envelope names the action
    as the glossary and the table page's button do ("choose a card", "ကတ် ရွေးခြင်း"), never
    by the API's identifier."""
    match = table.create(client, game="coup", players=["ana", "ben"], seed=5)
    start = match.read("ana")
    assert start["to_move"] == ["ana", "ben"]
    assert start["awaiting"] == "Each player must first choose their second card (choose a card)."
    assert start["awaiting_message"] == {"code": "coup.now.choose_card",
                                         "params": {"actor": "ana"}}
    burmese = client.get(match.url, headers=MY).get_json()["awaiting"]
    assert burmese == "ကစားသမားတစ်ဦးစီ ဒုတိယကတ်ကို ဦးစွာ ရွေးရမည် (ကတ် ရွေးခြင်း)။"
