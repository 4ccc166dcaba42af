"""A finished match starts a rematch with the same seats (``POST …/rematch``)."""
from __future__ import annotations

import random

from tests.matches.conftest import Table, bearer

TARGET_ONE = {"game": "all-fours", "players": ["ana", "ben"], "dealer": "ana", "seed": 42,
              "options": {"target": 1}}


def test_af_s6_a_finished_match_rematches_with_the_same_seats_and_a_fresh_seed(client,
                                                                               table):
    game = table.create(client, **TARGET_ONE)
    early = client.post(game.url + "/rematch", headers=bearer(game.token("host")))
    assert early.status_code == 409  # not over yet: a state conflict, not a permission
    assert early.get_json()["type"] == "/problems/match-not-over"
    game.play_out(random.Random(1))
    assert client.post(game.url + "/rematch", headers=bearer(game.token("ben"))
                       ).status_code == 403  # the host starts it
    started = client.post(game.url + "/rematch", headers=bearer(game.token("host")))
    assert started.status_code == 201
    body = started.get_json()
    assert body["rematch_of"] == game.id and body["players"] == ["ana", "ben"]
    assert body["version"] == 1 and body["commitment"] != game.created["commitment"]
    assert started.headers["Location"] == f"/v1/matches/{body['id']}"
    assert "seats" not in body  # the tokens are the old ones: nothing new to hand out
    rematch = Table(client, {**game.created, "id": body["id"]})
    view = rematch.read("ben")  # ben's old token reads his seat of the rematch
    assert view["seat"] == "ben" and view["version"] == 1 and "hand" in view["view"]
    assert rematch.get("ben", "/legal-actions").status_code == 200
    # (a fresh seed: the kick may already win a target-1 game, AF-K1, so no move is assumed)
    assert game.read(None)["rematch"] == body["id"]
    again = client.post(game.url + "/rematch", headers=bearer(game.token("host")))
    assert again.status_code == 200 and again.get_json()["id"] == body["id"]
    # The audit of the first match still replays: the rematch entry adds no action.
    audit = client.get(game.url + "/audit").get_json()
    assert audit["history"][-1] == {"version": audit["version"], "rematch": body["id"]}
