"""A rollback reveals nothing (issue 21, README "Disputes"): in digital mode every face-down order
nobody may know is dealt afresh from SHA-256 hex of ``"<seed>:rollback:<version>"`` (the version
the rollback is applied at), so an order a seat saw in the undone moves tells it nothing about
the cards to come; table mode has nothing to reshuffle."""
from __future__ import annotations

import hashlib
import random

import pytest

from referee.registry import GAMES
from tests.matches.conftest import bearer

COUP = GAMES["coup"].engine


def derived(seed, version: int) -> str:
    """The reshuffle seed of README "Disputes", computed here on its own."""
    return hashlib.sha256(f"{seed}:rollback:{version}".encode()).hexdigest()


def propose(game, to_version, version, **body):
    return game.client.post(game.url + "/rollback", json={
        "to_version": to_version, "reason": "played out of turn", **body},
        headers={**bearer(game.token("host")), "If-Match": f'"{version}"'})


def vote(game, who, proposal):
    return game.client.post(game.url + "/rollback/votes",
                            json={"proposal": proposal, "approve": True},
                            headers=bearer(game.token(who))).get_json()


def rolled_back(game, to_version, voters, **body) -> dict:
    """Propose a rollback to ``to_version`` now and have ``voters`` approve it; return the
    applying answer."""
    version = game.read("host")["version"]
    pending = propose(game, to_version, version, **body).get_json()["rollback"]
    for who in voters:
        answer = vote(game, who, pending["proposal"])
    assert answer["status"] == "applied", answer
    return answer


def act(game, who, action):
    answer = game.act(who, action, game.read("host")["version"])
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def drawn(answer: dict) -> list[str]:
    """The cards of the exchange draw in an answer's events (the exchanger's own)."""
    return next(ev["cards"] for ev in answer["events"] if ev["type"] == "exchange_drawn")


def test_coup_seed_7_an_exchange_seen_in_undone_moves_is_not_drawn_again(client, table):
    # The finding: seat a exchanges and sees [duchess, ambassador] (COUP-A7), returns
    # them; the host and a majority roll back to version 1 without b's vote.  Before the fix b's
    # exchange then drew exactly [duchess, ambassador].
    game = table.create(client, game="coup", players=["a", "b", "c"], seed=7)
    at_start = game.read("host")["view"]
    assert at_start["court"][:2] == ["duchess", "ambassador"]
    act(game, "a", {"type": "exchange", "player": "a"})
    seen = drawn(act(game, "host", {"type": "close_window", "player": "host"}))
    assert seen == ["duchess", "ambassador"]
    act(game, "a", {"type": "return_cards", "player": "a", "cards": seen})
    applied = rolled_back(game, 1, ["a", "c"], approval="majority")  # applied at version 7
    assert applied["version"] == 7
    # The court deck of version 1 dealt afresh from sha256("7:rollback:7"); the rest as it was.
    court = COUP.reshuffle_hidden({**at_start, "seed": 7}, derived(7, 7))["court"]
    after = game.read("host")["view"]
    assert after == {**at_start, "court": court}
    assert sorted(court) == sorted(at_start["court"]) and court[:2] != seen
    act(game, "a", {"type": "income", "player": "a"})
    act(game, "b", {"type": "exchange", "player": "b"})
    assert drawn(act(game, "host", {"type": "close_window", "player": "host"})) == court[:2]


# --- the pair test -------------------------------------------------------------------------
# Two matches that differ only in the order of the cards nobody may know (entered deals): a
# scripted prefix of moves shows some of them (then undone), and after the rollback the same
# script is played again.  Every reader must get the same answers in both matches: what was
# seen in the undone moves must not show.

def _first(kind: str):
    return lambda actions: next(a for a in actions if a["type"] == kind)


def _coup_deals(rng):
    state = COUP.setup({"players": ["a", "b", "c"], "mode": "digital",
                        "options": COUP.resolve_options({})}, 3)
    court = list(state["court"])
    other = court[2:] + court[:2]  # the same cards, another order: other cards on top
    assert other[:2] != court[:2]
    return [{"hands": state["hands"], "court": order} for order in (court, other)]


def _allfours_deals(rng):
    engine = GAMES["all-fours"].engine
    state = engine.setup({"players": ["a", "b"], "dealer": "a", "mode": "digital",
                          "options": engine.resolve_options({})}, 3)
    kick, rest = state["kicks"][0], state["stock"]  # the kick is public: it stays on top

    def runs_once(order):  # the run's new kick (AF-B3) ends it and scores nothing (AF-K1)
        return order[6][-1] != kick[-1] and order[6][0] not in "A6J"
    other = next(order for order in iter(lambda: rng.sample(rest, len(rest)), None)
                 if runs_once(order) and order[:7] != rest[:7])
    assert runs_once(rest)  # so both logs keep in step (the same number of events)
    return [{"hands": state["hands"], "stock": [kick, *order]} for order in (rest, other)]


def _gnoming_deals(rng):
    engine = GAMES["gnoming"].engine
    state = engine.setup({"players": ["a", "b", "c"], "mode": "digital",
                          "options": engine.resolve_options({})}, 3)
    pool = [c["card"] for p in "abc" for row in state["layouts"][p] for c in row]
    pool += state["draw_pile"]
    deals = []
    for order in (pool, rng.sample(pool, len(pool))):
        layouts = {p: [order[i * 9 + r * 3:i * 9 + r * 3 + 3] for r in range(3)]
                   for i, p in enumerate("abc")}
        deals.append({"layouts": layouts, "draw_pile": order[27:],
                      "discard_piles": state["discard_piles"], "removed": state["removed"]})
    return deals


PAIRS = {  # game: (players, the two deals, the script: (who, chooser))
    "coup": (["a", "b", "c"], _coup_deals,  # an exchange shows the top two (COUP-A7)
             [("a", _first("exchange")), ("host", _first("close_window")),
              ("a", _first("return_cards"))]),
    "all-fours": (["a", "b"], _allfours_deals,  # running the pack deals from it (AF-B3)
                  [("b", _first("beg")), ("a", _first("run_pack"))]),
    "gnoming": (["a", "b", "c"], _gnoming_deals,  # flips (GN-S2) and a draw (GN-T1)
                [(p, _first("flip")) for p in "aabbcc"] + [("a", _first("draw"))]),
}


def _answers(game, readers, after_seq: int) -> dict:
    """What every reader is told now: the match (without its id and commitment), its legal
    actions, and the events logged after ``after_seq`` as it reads them."""
    told = {}
    for who in readers:
        read = game.read(who)
        told[who] = {
            "match": {k: v for k, v in read.items() if k not in ("id", "commitment")},
            "legal": game.legal(who) if who is not None else None,
            "events": game.get(who, f"/events?after={after_seq}").get_json()["events"]}
    return told


def _play(game, script) -> None:
    for who, choose in script:
        act(game, who, choose(game.legal(who)))


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_pair_two_matches_differing_only_in_what_undone_moves_showed_answer_alike(
        client, table, name):
    players, deals, script = PAIRS[name]
    games = []
    for deal in deals(random.Random(1)):
        body = {"game": name, "players": players, "seed": "pair", "deal": deal}
        if name == "all-fours":
            body["dealer"] = "a"
        games.append(table.create(client, **body))
    readers = [*players, None]
    assert _answers(games[0], readers, 0) == _answers(games[1], readers, 0)
    for game in games:
        _play(game, script)  # shows cards of the hidden orders, to some seats or to all
        rolled_back(game, 1, players)
    seq = [g.get("host", "/events").get_json()["events"][-1]["seq"] for g in games]
    assert seq[0] == seq[1]
    assert _answers(games[0], readers, seq[0]) == _answers(games[1], readers, seq[1])
    for step in range(len(script)):  # the same moves again show the same cards in both
        for game in games:
            _play(game, script[step:step + 1])
        assert _answers(games[0], readers, seq[0]) == _answers(games[1], readers, seq[1]), step


# --- several rollbacks ---------------------------------------------------------------------

def test_two_rollbacks_to_one_version_and_a_rollback_of_a_rollback_each_deal_afresh(
        client, table):
    game = table.create(client, game="coup", players=["a", "b", "c"], seed=7)
    at_start = game.read("host")["view"]
    act(game, "a", {"type": "income", "player": "a"})                       # 2
    first = rolled_back(game, 1, ["a", "b", "c"])                           # 3 4 5 6
    act(game, "a", {"type": "income", "player": "a"})                       # 7
    second = rolled_back(game, 1, ["a", "b", "c"])                          # 8 9 10 11
    assert (first["version"], second["version"]) == (6, 11)
    court = {v: COUP.reshuffle_hidden({**at_start, "seed": 7}, derived(7, v))["court"]
             for v in (6, 11)}
    assert court[6] != court[11]  # two rollbacks to version 1, two seeds, two orders
    assert game.read("host")["view"]["court"] == court[11]
    # A rollback of the rollback: back to version 7 (version 6's court, a's income) — its
    # state replayed through the first reshuffle, then dealt afresh once more.
    third = rolled_back(game, 7, ["a", "b", "c"])                          # 12 13 14 15
    assert third["version"] == 15
    at_7 = COUP.apply(COUP.reshuffle_hidden({**at_start, "seed": 7}, derived(7, 6)),
                      {"type": "income", "player": "a"})[0]
    now = game.read("host")["view"]
    assert now["court"] == COUP.reshuffle_hidden(at_7, derived(7, 15))["court"]
    assert now["coins"]["a"] == 3
    # Play it out; the audit replays through all three reshuffles to the final state.
    game.play_out(random.Random(2))
    audit = client.get(game.url + "/audit").get_json()
    assert [s for s in audit["steps"] if "reshuffle" in s] == [
        {"version": 6, "reshuffle": derived(7, 6)}, {"version": 15, "reshuffle": derived(7, 15)}]
    assert audit["steps"][:3] == [{"version": 6, "reshuffle": derived(7, 6)},
                                  {"version": 7, "action": {"type": "income", "player": "a"}},
                                  {"version": 15, "reshuffle": derived(7, 15)}]
    applied = [e["rollback"]["reshuffle"] for e in audit["history"]
               if e.get("rollback", {}).get("step") == "applied"]
    assert applied == [derived(7, 6), derived(7, 11), derived(7, 15)]
    state = COUP.setup(audit["setup"], audit["seed"])
    for step in audit["steps"]:
        state = (COUP.reshuffle_hidden(state, step["reshuffle"]) if "reshuffle" in step
                 else COUP.apply(state, step["action"])[0])
    assert state == audit["final_state"]


def test_table_mode_reshuffles_nothing(client, table):
    # The service never knows a table's face-down orders (COUP-X1: the court deck is
    # "unknown"): the rollback restores version 1 exactly, and no reshuffle step is made.
    game = table.create(client, game="coup", players=["a", "b", "c"], mode="table")
    at_start = game.read("host")["view"]
    assert set(at_start["court"]) == {"unknown"}
    act(game, "host", {"type": "income", "player": "a"})
    answer = propose(game, 1, 2).get_json()
    assert answer["status"] == "applied"
    assert game.read("host")["view"] == at_start
    game.play_out(random.Random(5))
    audit = client.get(game.url + "/audit").get_json()
    applied = next(e["rollback"] for e in audit["history"] if "rollback" in e)
    assert "reshuffle" not in applied
    assert all("action" in step for step in audit["steps"])
