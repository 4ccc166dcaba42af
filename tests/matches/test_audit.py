"""Verifiable dealing: a finished match's audit replays through the stateless endpoints to the
same final state (its rollbacks' reshuffles included), its seed matches the commitment given at
creation, and the seed is shown to nobody (not even the host) before the end."""
from __future__ import annotations

import hashlib
import json
import random

import pytest

from referee.registry import GAMES
from tests.matches.conftest import bearer

TABLES = [("all-fours", ["ana", "ben", "cy", "dee"]), ("all-fours", ["ana", "ben"]),
          ("coup", ["ana", "ben", "cy"]), ("spy", ["ana", "ben", "cy"]),
          ("gnoming", ["ana", "ben", "cy"])]


@pytest.mark.parametrize("game, players", TABLES)
def test_the_audit_of_a_finished_match_replays_to_its_final_state(client, table, game,
                                                                   players):
    if game not in GAMES:
        pytest.skip(f"{game} is not registered in this build")
    match = table.create(client, game=game, players=players)  # the service draws the seed
    commitment = match.created["commitment"]
    rng = random.Random(7)
    seen_before_end = []
    while (step := match.step(rng)) is not None:
        seen_before_end.append(json.dumps(step))
        seen_before_end.append(json.dumps(match.read("host")))
        assert match.get(None, "/audit").status_code == (200 if step["over"] else 403)
    seen_before_end.append(json.dumps(match.get("host", "/events").get_json()))

    audit = client.get(f"{match.url}/audit").get_json()
    seed = audit["seed"]
    # a service-drawn seed is 256 random bits written as 64 hex digits (a JSON string)
    assert isinstance(seed, str) and len(seed) == 64 and 0 <= int(seed, 16) < 2 ** 256
    assert audit["commitment"] == commitment
    assert hashlib.sha256(f"{seed}:{match.id}".encode()).hexdigest() == commitment
    assert not any(str(seed) in text for text in seen_before_end)
    assert audit["setup"]["seed"] == seed and audit["setup"]["players"] == players

    assert replayed(client, audit) == audit["final_state"]
    assert audit["steps"] == [{"version": v, "action": a}
                              for v, a in enumerate(audit["actions"], start=2)]
    assert len(audit["actions"]) == audit["version"] - 1 == len(seen_before_end) // 2


def replayed(client, audit: dict) -> dict:
    """The README's replay: setup with the audit's body, then each step in order — an action
    applied, a rollback's reshuffle made with its seed, checked to be
    ``sha256("<seed>:rollback:<version>")``; returns the last state."""
    game = audit["game"]
    response = client.post(f"/v1/games/{game}/setup", json=audit["setup"])
    assert response.status_code == 200, response.get_json()
    state = response.get_json()["state"]
    for step in audit["steps"]:
        if "reshuffle" in step:
            assert step["reshuffle"] == hashlib.sha256(
                f"{audit['seed']}:rollback:{step['version']}".encode()).hexdigest()
            response = client.post(f"/v1/games/{game}/reshuffle",
                                   json={"state": state, "seed": step["reshuffle"]})
        else:
            response = client.post(f"/v1/games/{game}/apply",
                                   json={"state": state, "action": step["action"]})
        assert response.status_code == 200, (step, response.get_json())
        state = response.get_json()["state"]
    return state


@pytest.mark.parametrize("game, players", TABLES)
def test_the_audit_of_a_match_with_rollbacks_replays_through_their_reshuffles(
        client, table, game, players):
    # Each digital rollback deals the hidden orders afresh (README "Disputes"): the audit's
    # steps hold that reshuffle, so the replay still reaches the final state exactly, and the
    # commitment still verifies.  Two rollbacks, the second to a version the first made.
    match = table.create(client, game=game, players=players)
    rng = random.Random(3)
    applied_at = []
    for to_version in (2, None):
        for _ in range(4):
            assert match.step(rng) is not None and not match.read("host")["over"]
        version = match.read("host")["version"]
        to_version = to_version or applied_at[0]
        proposed = client.post(f"{match.url}/rollback",
                               json={"to_version": to_version, "reason": "misdeal"},
                               headers={**bearer(match.token("host")),
                                        "If-Match": f'"{version}"'}).get_json()
        for seat in players:
            answer = client.post(f"{match.url}/rollback/votes", json={
                "proposal": proposed["rollback"]["proposal"], "approve": True},
                headers=bearer(match.token(seat))).get_json()
        assert answer["status"] == "applied", answer
        applied_at.append(answer["version"])
    match.play_out(rng)
    audit = client.get(f"{match.url}/audit").get_json()
    assert hashlib.sha256(f"{audit['seed']}:{match.id}".encode()).hexdigest() == \
        match.created["commitment"] == audit["commitment"]
    assert replayed(client, audit) == audit["final_state"]
    reshuffles = [s for s in audit["steps"] if "reshuffle" in s]
    assert [s["version"] for s in reshuffles] == applied_at  # the second kept the first's


def test_a_host_supplied_seed_is_committed_to_in_the_same_way(client, table):
    match = table.create(client, game="coup", players=["ana", "ben"], seed="table-7")
    assert match.created["commitment"] == hashlib.sha256(
        f"table-7:{match.id}".encode()).hexdigest()
    match.play_out(random.Random(3))
    answer = match.get(None, "/audit")
    audit = answer.get_json()
    assert audit["seed"] == "table-7" and audit["setup"]["seed"] == "table-7"
    assert answer.headers["ETag"] == f'"{audit["version"]}"'  # the final version
