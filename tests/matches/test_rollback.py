"""Disputes (``POST …/rollback``, ``…/rollback/votes``, ``DELETE …/rollback``) on the
in-process store: proposals, approval, the logged undo, and the audit that replays it."""
from __future__ import annotations

import hashlib
import random

import pytest

from referee.registry import GAMES
from tests.matches.conftest import bearer

FOUR = ["ana", "ben", "cy", "dee"]
FOUR_SETUP = {"game": "all-fours", "players": FOUR, "dealer": "ana", "seed": 42,
              "sides": {"X": ["ana", "cy"], "Y": ["ben", "dee"]}}


def propose(game, to_version, version, who="host", **body):
    return game.client.post(game.url + "/rollback", json={
        "to_version": to_version, "reason": "that card was played by mistake", **body},
        headers={**bearer(game.token(who)), "If-Match": f'"{version}"'})


def vote(game, who, proposal, approve=True):
    return game.client.post(game.url + "/rollback/votes",
                            json={"proposal": proposal, "approve": approve},
                            headers=bearer(game.token(who)))


def reshuffled(view: dict, seed, version: int) -> dict:
    """The host's view of an All Fours match after a digital rollback applied at ``version``
    to the state whose host view is ``view`` (a match dealt from ``seed``): its stock dealt
    afresh from the seed README "Disputes" gives, SHA-256 hex of
    ``"<seed>:rollback:<version>"`` (the host view never shows the seed)."""
    derived = hashlib.sha256(f"{seed}:rollback:{version}".encode()).hexdigest()
    state = GAMES["all-fours"].engine.reshuffle_hidden({**view, "seed": seed}, derived)
    assert state["seed"] == derived
    return {**view, "stock": state["stock"]}


def played(client, table, setup, moves, seed=1):
    """A match with ``moves`` random legal moves made; returns it and the referee view at each
    version."""
    game = table.create(client, **setup)
    rng = random.Random(seed)
    views = {1: game.read("host")["view"]}
    for _ in range(moves):
        game.step(rng)
        read = game.read("host")
        views[read["version"]] = read["view"]
    return game, views


def test_digital_every_seat_approves_then_the_state_of_the_version_returns(client, table):
    game, views = played(client, table, FOUR_SETUP, 6)
    who, action = next((p, a) for p in game.read("host")["to_move"] for a in game.legal(p))
    proposed = propose(game, 3, 7)
    assert proposed.status_code == 200, proposed.get_json()
    body = proposed.get_json()
    assert body["status"] == "pending" and body["version"] == 8
    pending = body["rollback"]
    assert pending["to_version"] == 3 and pending["approval"] == "all"
    assert [u["version"] for u in pending["undone"]] == [4, 5, 6, 7]
    assert all(set(u) == {"version", "type", "player"} for u in pending["undone"])  # no cards
    # While it is pending nobody moves: no action is listed as legal, nobody is to move
    # (issue 22: the view, the proposal's answer and legal-actions agree), the match waits
    # for the vote; a client still at version 7 is stale.
    seen = game.read(who)
    assert game.legal(who) == [] and seen["to_move"] == [] and body["to_move"] == []
    assert seen["awaiting"] == ("A return to version 3 is proposed: no move is made until "
                                "the seats decide it.")
    assert seen["awaiting_message"] == {"code": "match.now.rollback",
                                        "params": {"to_version": 3}}
    assert game.act(who, action, version=8).get_json()["type"] == "/problems/rollback-pending"
    assert game.act(who, action, version=7).status_code == 409
    for n, seat in enumerate(FOUR[:3]):
        answer = vote(game, seat, pending["proposal"]).get_json()
        assert answer["status"] == "pending" and answer["version"] == 9 + n
    assert vote(game, "ana", pending["proposal"]).get_json()["version"] == 11  # same vote again
    applied = vote(game, "dee", pending["proposal"]).get_json()
    assert applied["status"] == "applied" and applied["version"] == 12
    assert [ev["type"] for ev in applied["events"]] == ["rollback_vote", "rollback_applied"]
    done = applied["events"][1]
    assert done["approved_by"] == FOUR and done["from_version"] == 11 and done["to_version"] == 3
    # Version 3 again, its stock dealt afresh (the rollback is applied at version 12): every
    # seat sees what it saw at version 3.
    after = game.read("host")["view"]
    assert after == reshuffled(views[3], 42, 12) != views[3]
    assert sorted(after["stock"]) == sorted(views[3]["stock"])
    assert game.read("host")["rollback"] is None
    assert game.act(who, action, version=11).status_code == 409  # versions only go up


def test_digital_majority_applies_with_three_of_four(client, table):
    game, views = played(client, table, FOUR_SETUP, 3)
    pending = propose(game, 2, 4, approval="majority").get_json()["rollback"]
    assert vote(game, "ana", pending["proposal"]).get_json()["status"] == "pending"
    assert vote(game, "ben", pending["proposal"], approve=False).get_json()["status"] == "pending"
    assert vote(game, "cy", pending["proposal"]).get_json()["status"] == "pending"
    assert vote(game, "dee", pending["proposal"]).get_json()["status"] == "applied"
    assert game.read("host")["view"] == reshuffled(views[2], 42, 9)


def test_one_rejection_rejects_an_all_proposal_and_play_goes_on(client, table):
    game, views = played(client, table, FOUR_SETUP, 3)
    pending = propose(game, 2, 4).get_json()["rollback"]
    rejected = vote(game, "cy", pending["proposal"], approve=False).get_json()
    assert rejected["status"] == "rejected" and rejected["rollback"] is None
    assert game.read("host")["view"] == views[4]
    assert game.step(random.Random(3)) is not None
    # A vote on the decided proposal: 409 no-rollback.
    late = vote(game, "ana", pending["proposal"])
    assert late.status_code == 409 and late.get_json()["type"] == "/problems/no-rollback"


def test_the_host_withdraws_a_proposal(client, table):
    game, _ = played(client, table, FOUR_SETUP, 2)
    propose(game, 2, 3)
    answer = client.delete(game.url + "/rollback", headers=bearer(game.token("host")))
    assert answer.get_json()["status"] == "withdrawn" and answer.get_json()["version"] == 5
    again = client.delete(game.url + "/rollback", headers=bearer(game.token("host")))
    assert again.status_code == 409


def test_table_mode_the_host_decides_at_once(client, table):
    game = table.create(client, game="all-fours", players=["a", "b"], dealer="a",
                        mode="table")
    assert game.act("host", {"type": "deal", "player": "a", "kick": "5S"}, version=1
                    ).status_code == 200
    assert game.act("host", {"type": "stand", "player": "b"}, version=2).status_code == 200
    answer = propose(game, 2, 3).get_json()
    assert answer["status"] == "applied" and answer["version"] == 4
    assert answer["events"][0]["decided_by"] == "host"
    assert game.read("host")["view"]["phase"] == "beg"  # b has not stood yet (AF-B1)
    assert game.act("host", {"type": "beg", "player": "b"}, version=4).status_code == 200


def test_coup_x1_table_mode_rollback_restores_each_seats_knowledge_of_that_version(
        client, table):
    # A table-mode rollback restores the state of to_version, each seat's knowledge records
    # (COUP-X1) included: what was seen only in the undone moves (here a proven card shuffled
    # into the court deck, COUP-C4) is not used to judge later moves, because the referee cannot
    # tell where the table put those cards back (README, "Disputes").
    game = table.create(client, game="coup", players=["a", "b", "c"], mode="table")
    rng, views = random.Random(0), {}
    while True:
        version = game.read("host")["version"]
        views[version] = {p: game.read(p)["view"] for p in "abc"}
        if any(v.get("known") for v in views[version].values()):
            break
        assert game.step(rng) is not None and version < 80
    before = max(v for v in views if not any(s.get("known") for s in views[v].values()))
    answer = propose(game, before, version).get_json()
    assert answer["status"] == "applied"
    assert {p: game.read(p)["view"] for p in "abc"} == views[before]


def _until_a_hand_is_scored(client, table):
    game = table.create(client, game="all-fours", players=["ana", "ben"], dealer="ana",
                        seed=7)
    rng = random.Random(7)
    while True:
        body = game.step(rng)
        assert body is not None and not body["over"]
        if any(ev["type"] == "hand_scored" for ev in body["events"]):
            return game, body["version"]


def test_af_s_a_rollback_across_a_scored_hand_needs_every_seat(client, table):
    game, scored = _until_a_hand_is_scored(client, table)
    pending = propose(game, scored - 1, scored, approval="majority").get_json()["rollback"]
    assert pending["crosses_scoring"] is True and pending["approval"] == "all"
    assert vote(game, "ana", pending["proposal"]).get_json()["status"] == "pending"
    assert vote(game, "ben", pending["proposal"]).get_json()["status"] == "applied"


def test_af_s_in_table_mode_too_a_scored_hand_waits_for_the_seats(client, table):
    for seed in range(30):  # random table play often ends in a renege (AF-I1) first
        game = table.create(client, game="all-fours", players=["a", "b"], dealer="a",
                            mode="table", kick="5S")
        rng = random.Random(seed)
        body = game.step(rng)
        while body is not None and not body["over"] and not any(
                ev["type"] == "hand_scored" for ev in body["events"]):
            body = game.step(rng)
        if body is not None and not body["over"]:
            break
    answer = propose(game, body["version"] - 1, body["version"]).get_json()
    assert answer["status"] == "pending" and answer["rollback"]["crosses_scoring"] is True
    assert vote(game, "a", answer["rollback"]["proposal"]).get_json()["status"] == "pending"
    assert vote(game, "b", answer["rollback"]["proposal"]).get_json()["status"] == "applied"


def test_af_s_a_rollback_that_brings_a_scored_hand_back_says_so_and_needs_every_seat(
        client, table):
    # a black-box run: after every seat approved undoing a scored hand (AF-S1-S6), a
    # proposal to a version of the undone line (the first proposal's own) said "undone: [],
    # crosses_scoring: false" and passed by a majority, bringing the scored hand back.  It
    # undoes that rollback: it names the move it brings back, and needs every seat.
    game, scored = _until_a_hand_is_scored(client, table)
    before = game.read("host")["score"]
    pending = propose(game, scored - 1, scored).get_json()["rollback"]
    vote(game, "ana", pending["proposal"])
    applied = vote(game, "ben", pending["proposal"]).get_json()
    assert applied["status"] == "applied" and applied["version"] == scored + 3
    answer = propose(game, scored + 1, applied["version"], approval="majority").get_json()
    proposal = answer["rollback"]
    assert answer["status"] == "pending"
    assert (proposal["crosses_scoring"], proposal["approval"]) == (True, "all")
    assert (proposal["undone"], proposal["undone_count"]) == ([], 0)
    assert proposal["redone_count"] == 1
    assert [move["version"] for move in proposal["redone"]] == [scored]
    assert vote(game, "ana", proposal["proposal"]).get_json()["status"] == "pending"
    assert vote(game, "ben", proposal["proposal"]).get_json()["status"] == "applied"
    assert game.read("host")["score"] == before  # the scored hand is back


def _host_plays_until_a_hand_is_scored(client, table, open_seats=("a", "b")):
    """A table-mode All Fours match with ``open_seats`` (all: one phone keeps the record):
    the host enters random legal moves until a hand is scored."""
    for seed in range(40):  # random table play often ends in a renege (AF-I1) first
        game = table.create(client, game="all-fours", players=["a", "b"], dealer="a",
                            mode="table", kick="5S", open_seats=list(open_seats))
        rng = random.Random(seed)
        for _ in range(200):
            match = game.read("host")
            if match["over"]:
                break
            body = game.act("host", rng.choice(game.legal("host")), match["version"])
            assert body.status_code == 200, body.get_json()
            if any(ev["type"] == "hand_scored" for ev in body.get_json()["events"]):
                return game, body.get_json()["version"]
    raise AssertionError("no hand scored")


def test_af_s_with_every_seat_open_the_host_decides_even_across_a_scored_hand(client, table):
    # a black-box run: one phone keeping a table's record (every seat open) proposed undoing
    # a scored hand; it needed every seat's vote, and an open seat has nobody to vote, so
    # it could never pass.  The seats that vote are those someone holds: here none, so the
    # host decides, as for any table-mode rollback.
    game, scored = _host_plays_until_a_hand_is_scored(client, table)
    answer = propose(game, scored - 1, scored).get_json()
    assert answer["status"] == "applied", answer
    assert answer["events"][0]["decided_by"] == "host"
    assert answer["events"][0]["crosses_scoring"] is True
    assert game.read("host")["view"]["scored_hands"] == []


def test_af_s_an_open_seat_has_no_vote_the_held_ones_decide(client, table):
    # b's seat open, a's held: undoing a scored hand needs every seat someone holds, a's
    game, scored = _host_plays_until_a_hand_is_scored(client, table, open_seats=["b"])
    pending = propose(game, scored - 1, scored).get_json()["rollback"]
    assert pending["crosses_scoring"] is True and pending["approval"] == "all"
    assert vote(game, "a", pending["proposal"]).get_json()["status"] == "applied"


@pytest.mark.parametrize("who, to_version, status, slug", [
    ("ben", 1, 403, "forbidden"),          # only the host proposes
    ("host", 3, 422, "invalid-input"),     # not an earlier version
    ("host", 0, 422, "invalid-input"),
])
def test_bad_proposals(client, table, who, to_version, status, slug):
    game, _ = played(client, table, FOUR_SETUP, 2)
    answer = propose(game, to_version, 3, who=who)
    assert answer.status_code == status and answer.get_json()["type"] == f"/problems/{slug}"


def test_at_version_1_the_refusal_says_there_is_no_earlier_version(client, table):
    # Not "1 to 0": a match that has not moved has nothing to go back to.
    game, _ = played(client, table, FOUR_SETUP, 0)
    answer = propose(game, 1, 1).get_json()
    assert answer["type"] == "/problems/invalid-input"
    assert answer["detail"] == ("The match is at version 1, its start: there is no earlier "
                                "version to go back to.")
    mine = game.client.post(game.url + "/rollback", json={"to_version": 1, "reason": "oops"},
                            headers={**bearer(game.token("host")), "If-Match": '"1"',
                                     "Accept-Language": "my"}).get_json()
    assert "ယခင်ဗားရှင်း မရှိပါ" in mine["detail"]


def test_a_vote_needs_a_seat_and_a_pending_proposal(client, table):
    game, _ = played(client, table, FOUR_SETUP, 2)
    assert vote(game, "ana", 3).status_code == 409
    pending = propose(game, 1, 3).get_json()["rollback"]
    assert vote(game, "host", pending["proposal"]).status_code == 403
    assert vote(game, "ana", pending["proposal"] + 1).status_code == 409
    vote(game, "ana", pending["proposal"], approve=False)
    assert propose(game, 1, 5).status_code == 200  # rejected: a new proposal may follow


def test_the_audit_keeps_undone_moves_and_approvers_and_replays_to_the_final_state(
        client, table):
    game = table.create(client, game="all-fours", players=["ana", "ben"], dealer="ana",
                        seed=42, options={"target": 1})
    rng = random.Random(4)
    for _ in range(4):
        game.step(rng)
    pending = propose(game, 2, 5).get_json()["rollback"]
    vote(game, "ana", pending["proposal"])
    vote(game, "ben", pending["proposal"])
    game.play_out(rng)
    assert propose(game, 2, game.read("host")["version"]).status_code == 403  # it is over
    audit = client.get(game.url + "/audit").get_json()
    steps = [entry["rollback"]["step"] for entry in audit["history"] if "rollback" in entry]
    assert steps == ["proposed", "vote", "applied"]
    applied = next(e["rollback"] for e in audit["history"]
                   if e.get("rollback", {}).get("step") == "applied")
    assert applied["approved_by"] == ["ana", "ben"] and applied["reason"]
    undone = [e["action"] for e in audit["history"] if e["version"] in (3, 4, 5)
              and "action" in e]
    assert len(undone) == 3 and [u["version"] for u in applied["undone"]] == [3, 4, 5]
    assert [e["version"] for e in audit["history"]] == list(range(2, audit["version"] + 1))
    # The rollback, applied at version 8, dealt the stock afresh: a step of the replay.
    derived = hashlib.sha256(b"42:rollback:8").hexdigest()
    assert applied["reshuffle"] == derived
    assert audit["steps"][:2] == [{"version": 2, "action": audit["actions"][0]},
                                  {"version": 8, "reshuffle": derived}]
    state = client.post("/v1/games/all-fours/setup", json=audit["setup"]).get_json()["state"]
    for step in audit["steps"]:
        if "reshuffle" in step:
            state = client.post("/v1/games/all-fours/reshuffle", json={
                "state": state, "seed": step["reshuffle"]}).get_json()["state"]
        else:
            state = client.post("/v1/games/all-fours/apply", json={
                "state": state, "action": step["action"]}).get_json()["state"]
    assert state == audit["final_state"]
    assert len(audit["actions"]) == len(audit["history"]) - 3 - 3  # 3 undone, 3 steps
    assert [s["action"] for s in audit["steps"] if "action" in s] == audit["actions"]
