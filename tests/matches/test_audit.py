"""Verifiable dealing: a finished match's audit replays through the stateless endpoints to the
same final state, its seed matches the commitment given at creation, and the seed is shown to
nobody (not even the host) before the end."""
from __future__ import annotations

import hashlib
import json
import random

import pytest

from referee.registry import GAMES

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

    # The documented replay: setup with the audit's body, then apply every action in order.
    response = client.post(f"/v1/games/{game}/setup", json=audit["setup"])
    assert response.status_code == 200, response.get_json()
    state = response.get_json()["state"]
    for action in audit["actions"]:
        response = client.post(f"/v1/games/{game}/apply", json={"state": state,
                                                                 "action": action})
        assert response.status_code == 200, (action, response.get_json())
        state = response.get_json()["state"]
    assert state == audit["final_state"]
    assert response.get_json()["over"] is True
    assert len(audit["actions"]) == audit["version"] - 1 == len(seen_before_end) // 2


def test_a_host_supplied_seed_is_committed_to_in_the_same_way(client, table):
    match = table.create(client, game="coup", players=["ana", "ben"], seed="table-7")
    assert match.created["commitment"] == hashlib.sha256(
        f"table-7:{match.id}".encode()).hexdigest()
    match.play_out(random.Random(3))
    answer = match.get(None, "/audit")
    audit = answer.get_json()
    assert audit["seed"] == "table-7" and audit["setup"]["seed"] == "table-7"
    assert answer.headers["ETag"] == f'"{audit["version"]}"'  # the final version
