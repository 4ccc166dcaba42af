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


TABLE_JD = {"game": "all-fours", "players": ["ana", "ben"], "dealer": "ana", "mode": "table",
            "kick": "JD", "options": {"target": 3}}


def _rematch(client, game, body=None):
    return client.post(game.url + "/rematch", headers=bearer(game.token("host")),
                       **({} if body is None else {"json": body}))


def test_af_k1_a_table_rematch_does_not_copy_the_entered_kick(client, table):
    game = table.create(client, **TABLE_JD)  # the jack kicked: 3 points, target 3 (AF-K1)
    assert game.read(None)["over"] is True
    started = _rematch(client, game)
    assert started.status_code == 201, started.get_json()
    rematch = Table(client, {**game.created, "id": started.get_json()["id"]})
    view = rematch.read("host")
    assert view["over"] is False and view["to_move"] == ["ana"]  # the dealer deals (AF-D2)
    assert view["view"]["score"] == {"ana": 0, "ben": 0}
    assert client.get(rematch.url + "/events?after=0").get_json()["events"] == []
    deals = rematch.legal("ana")
    assert {"type": "deal", "player": "ana", "kick": "6H"} in deals and len(deals) == 52
    dealt = rematch.act("ana", {"type": "deal", "player": "ana", "kick": "6H"}, 1)
    assert dealt.status_code == 200 and rematch.read("host")["view"]["score"] == {
        "ana": 2, "ben": 0}  # a six kicked: 2 points to the dealer's side (AF-K1)


def test_af_k1_a_table_rematch_body_enters_the_new_kick_and_dealer(client, table):
    game = table.create(client, **TABLE_JD)
    started = _rematch(client, game, {"kick": "6H", "dealer": "ben"})
    assert started.status_code == 201, started.get_json()
    rematch = Table(client, {**game.created, "id": started.get_json()["id"]})
    view = rematch.read("host")
    assert view["over"] is False and view["view"]["score"] == {"ana": 0, "ben": 2}
    assert [(e["type"], e.get("side")) for e in client.get(
        rematch.url + "/events?after=0").get_json()["events"]] == [
            ("deal", None), ("kick", None), ("points", "ben")]
    again = Table(client, {**game.created, "id": started.get_json()["id"]})
    assert again.read(None)["rematch"] is None  # the rematch is a match of its own


def test_a_second_rematch_entering_another_deal_is_409_not_silently_the_first(client, table):
    # AF-K1: the rematch was dealt with 6H by ben; asking again with 2C by ana cannot deal it
    # again — it is refused naming what differs; the same body (or none) finds the rematch.
    game = table.create(client, **TABLE_JD)
    first = _rematch(client, game, {"kick": "6H", "dealer": "ben"}).get_json()
    other = _rematch(client, game, {"kick": "2C", "dealer": "ana"})
    assert other.status_code == 409
    problem = other.get_json()
    assert problem["type"] == "/problems/rematch-started"
    assert [e["field"] for e in problem["errors"]] == ["dealer", "kick"]
    assert first["id"] in problem["detail"]
    for body in ({"kick": "6H", "dealer": "ben"}, None):
        same = _rematch(client, game, body)
        assert same.status_code == 200 and same.get_json()["id"] == first["id"]


def test_a_rematch_body_names_only_the_new_deals_facts(client, table):
    game = table.create(client, **TABLE_JD)
    for body, where in (({"players": ["ana", "cy"]}, "players"),
                        ({"bases": {}}, "bases"), ({"options": {"target": 9}}, "options")):
        answer = _rematch(client, game, body)
        assert answer.status_code == 422, answer.get_json()
        problem = answer.get_json()
        assert problem["type"] == "/problems/invalid-input"
        assert [e["field"] for e in problem["errors"]] == [where]
    assert game.read(None)["rematch"] is None  # nothing was started


def test_the_rematch_setup_drops_every_games_dealt_fields():
    """AF-K1/AF-D3 kick and deal, COUP-S4 deal, GN-S* deal, SPY-S2 bases: facts of one deal."""
    from referee.matches.rematch import rematch_setup
    from referee.registry import GAMES
    setup = {"players": ["ana", "ben"], "mode": "table", "options": {}, "dealer": "ben",
             "deal": {"x": 1}, "kick": "JD", "bases": {}, "colours": {"ana": "red"}}
    assert rematch_setup(GAMES["all-fours"], setup, {}) == {
        "players": ["ana", "ben"], "mode": "table", "options": {}, "dealer": "ben",
        "bases": {}, "colours": {"ana": "red"}}
    assert "deal" not in rematch_setup(GAMES["coup"], setup, {})
    assert "deal" not in rematch_setup(GAMES["gnoming"], setup, {})
    spy = rematch_setup(GAMES["spy"], setup, {})
    assert "bases" not in spy and spy["colours"] == {"ana": "red"} and spy["deal"] == {"x": 1}


def test_spy_s2_a_table_rematch_without_bases_is_invalid_setup_naming_bases():
    from referee.games.base import InvalidSetup
    from referee.matches.loading import load_setup
    from referee.matches.rematch import rematch_setup
    from referee.registry import GAMES
    import pytest
    entry = GAMES["spy"]
    cards = ["unknown"] * 6
    setup, seed = load_setup(entry, {"players": ["ana", "ben", "cy"], "mode": "table",
                                     "bases": {p: {"cards": cards, "spy_gap": 0,
                                                   "facing": "left"}
                                               for p in ("ana", "ben", "cy")}})
    entry.engine.opening(setup, seed)  # the first match's setup is good
    again, seed = load_setup(entry, rematch_setup(entry, setup, {}))
    with pytest.raises(InvalidSetup) as refused:
        entry.engine.opening(again, seed)
    assert [(v.rule, v.field) for v in refused.value.violations] == [("SPY-S2", "bases")]
