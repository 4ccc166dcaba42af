"""The match API on the in-process store: creation, tokens and views, acting with versions,
every error of the contract (401/403/404/409/422/428), idempotency, events, legal actions,
delete.  All Fours hands are dealt from seed 42; expected cards come from the referee view."""
from __future__ import annotations

import hashlib
import json

import pytest

FOUR = ["ana", "ben", "cy", "dee"]


@pytest.fixture
def match(client, table):
    """A 4-player All Fours match dealt by ana from seed 42: ben (on her right) stands or begs."""
    return table.create(client, game="all-fours", players=FOUR, dealer="ana", seed=42)


def test_af_d3_create_answers_201_with_tokens_commitment_and_version_1(client, match):
    created = match.created
    assert created["version"] == 1 and created["game"] == "all-fours"
    assert created["mode"] == "digital" and created["players"] == FOUR
    assert created["ttl"] == 86400
    assert set(created["seats"]) == set(FOUR)
    tokens = list(created["seats"].values()) + [created["host_token"]]
    assert len(set(tokens)) == 5 and all(len(t) >= 43 for t in tokens)
    assert created["commitment"] == hashlib.sha256(f"42:{match.id}".encode()).hexdigest()
    # Only hashes are kept: no token is in the stored record.
    stored = json.dumps(client.application.extensions["referee.store"].load(match.id))
    assert not any(token in stored for token in tokens)
    assert hashlib.sha256(created["host_token"].encode()).hexdigest() in stored


def test_create_sends_location_and_etag(client):
    response = client.post("/v1/matches", json={"game": "all-fours", "players": ["a", "b"]})
    assert response.status_code == 201
    assert response.headers["Location"] == f"/v1/matches/{response.get_json()['id']}"
    assert response.headers["ETag"] == '"1"'


def test_without_a_seed_each_match_draws_its_own(client, table):
    one = table.create(client, game="all-fours", players=["a", "b"]).read("host")["view"]
    two = table.create(client, game="all-fours", players=["a", "b"]).read("host")["view"]
    assert one["hands"] != two["hands"]


@pytest.mark.parametrize("body, status, slug", [
    ({"players": ["a", "b"]}, 422, "invalid-input"),
    ({"game": "chess", "players": ["a", "b"]}, 404, "unknown-game"),
    ({"game": "all-fours", "players": ["a", "b", "c"]}, 422, "invalid-setup"),
    ({"game": "all-fours", "players": ["a", "b"], "dealer": "zed"}, 422, "invalid-setup"),
    ({"game": "all-fours", "players": ["a", "b"], "colour": "red"}, 422, "invalid-input"),
    ({"game": "all-fours", "players": ["a", "b"], "mode": "online"}, 422, "invalid-input"),
])
def test_a_bad_create_body_is_a_problem(client, body, status, slug):
    response = client.post("/v1/matches", json=body)
    assert response.status_code == status
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["type"] == f"/problems/{slug}"


def test_af_v_each_token_reads_its_own_view(match):
    referee = match.read("host")
    hands = referee["view"]["hands"]
    assert referee["role"] == "host" and referee["seat"] is None
    assert "seed" not in referee["view"] and len(hands["ben"]) == 6
    ben = match.read("ben")
    assert ben["role"] == "seat" and ben["seat"] == "ben"
    assert ben["view"]["hand"] == hands["ben"]
    assert "hands" not in ben["view"] and "stock" not in ben["view"]
    assert ben["view"]["hand_sizes"] == {p: 6 for p in FOUR}
    public = match.read(None)
    assert public["role"] == "public" and "hand" not in public["view"]
    assert public["to_move"] == ["ben"] and public["over"] is False
    assert match.get("ben").headers["ETag"] == '"1"'


@pytest.mark.parametrize("authorization", ["Bearer not-a-token", "Basic abc", "Bearer "])
def test_an_unknown_or_malformed_token_is_401(match, authorization):
    response = match.client.get(match.url, headers={"Authorization": authorization})
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == "Bearer"
    assert response.get_json()["type"] == "/problems/unauthorized"


def test_af_b1_a_legal_action_moves_the_version_and_returns_events_and_view(match):
    response = match.act("ben", {"type": "stand", "player": "ben"}, version=1)
    assert response.status_code == 200
    assert response.headers["ETag"] == '"2"'
    body = response.get_json()
    assert body["version"] == 2 and body["over"] is False
    assert body["events"] == [{"type": "stand", "player": "ben", "seq": 3, "version": 2}]
    # (seq 1 and 2: the first deal and its kick, logged at version 1, AF-K1)
    assert body["view"]["viewer"] == "ben" and body["view"]["phase"] == "play"
    assert body["to_move"] == ["ben"]
    assert match.read(None)["version"] == 2


def test_every_read_carries_the_version_as_its_etag(match):
    # The README: reads carry ETag: "<version>" (legal actions, events and the audit too), so a
    # client can send the legal actions' ETag back as If-Match.
    ben = {"Authorization": f"Bearer {match.token('ben')}"}
    legal = match.client.get(match.url + "/legal-actions", headers=ben)
    assert legal.headers["ETag"] == '"1"' and legal.get_json()["version"] == 1
    assert match.act("ben", {"type": "stand", "player": "ben"}, version=1).status_code == 200
    assert match.client.get(match.url + "/events").headers["ETag"] == '"2"'
    assert match.client.get(match.url + "/legal-actions", headers=ben).headers["ETag"] == '"2"'
    polled = match.client.get(match.url + "/events?after=0&wait=1")
    assert polled.headers["ETag"] == '"2"' and polled.get_json()["events"][0]["seq"] == 1


def test_expected_version_may_come_in_the_body(match):
    response = match.act("ben", {"type": "stand", "player": "ben"}, expected_version=1)
    assert response.status_code == 200 and response.get_json()["version"] == 2


def test_posting_an_action_without_a_token_is_401(match):
    response = match.act(None, {"type": "stand", "player": "ben"}, version=1)
    assert response.status_code == 401
    assert match.read(None)["version"] == 1


def test_acting_as_another_seat_is_403(match):
    response = match.act("cy", {"type": "stand", "player": "ben"}, version=1)
    assert response.status_code == 403
    problem = response.get_json()
    assert problem["type"] == "/problems/forbidden"
    assert problem["errors"] == [{"field": "action.player", "message": "must be cy"}]
    assert match.read(None)["version"] == 1


def test_the_host_may_not_act_for_a_seat_in_digital_mode(match):
    response = match.act("host", {"type": "stand", "player": "ben"}, version=1)
    assert response.status_code == 403


def test_af_d3_the_host_enters_a_table_games_facts_for_any_player(client, table):
    # Table mode deals nothing: the dealer's kick is entered by the host's phone.
    game = table.create(client, game="all-fours", players=["a", "b"], dealer="a",
                        mode="table")
    assert game.read("host")["view"]["phase"] == "deal"
    response = game.act("host", {"type": "deal", "player": "a", "kick": "5S"}, version=1)
    assert response.status_code == 200
    assert response.get_json()["view"]["kicks"] == ["5S"]
    assert game.act("host", {"type": "stand", "player": "b"}, version=2).status_code == 200


def test_coup_w1_the_host_token_closes_a_window_with_player_host(client, table):
    game = table.create(client, game="coup", players=["ana", "ben", "cy"], seed=7)
    assert game.act("ana", {"type": "tax", "player": "ana"}, version=1).status_code == 200
    assert game.read(None)["to_move"] == ["ben", "cy"]
    assert game.act("ben", {"type": "close_window", "player": "host"},
                    version=2).status_code == 403
    response = game.act("host", {"type": "close_window", "player": "host"}, version=2)
    assert response.status_code == 200
    closed = [ev for ev in response.get_json()["events"] if ev["type"] == "window_closed_by_host"]
    # COUP-W1: ben and cy did not pass; they were taken to pass when the host closed it.
    assert closed == [{"type": "window_closed_by_host", "taken_to_pass": ["ben", "cy"],
                       "rule": "COUP-W1", "seq": closed[0]["seq"], "version": 3}]


def test_without_an_expected_version_the_action_is_428(match):
    response = match.act("ben", {"type": "stand", "player": "ben"})
    assert response.status_code == 428
    assert response.get_json()["type"] == "/problems/precondition-required"
    assert match.read(None)["version"] == 1


@pytest.mark.parametrize("if_match", ['"1"', "1", ' "1" '])
def test_if_match_is_read_quoted_or_not(match, if_match):
    response = match.client.post(match.url + "/actions",
                                 json={"action": {"type": "stand", "player": "ben"}},
                                 headers={**_auth(match, "ben"), "If-Match": if_match})
    assert response.status_code == 200


def test_if_match_and_expected_version_that_disagree_are_422(match):
    response = match.act("ben", {"type": "stand", "player": "ben"}, version=1,
                         expected_version=2)
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["field"] == "expected_version"


def test_a_stale_version_is_409_with_the_current_version(match):
    assert match.act("ben", {"type": "stand", "player": "ben"}, version=1).status_code == 200
    response = match.act("ben", {"type": "beg", "player": "ben"}, version=1)
    assert response.status_code == 409
    problem = response.get_json()
    assert problem["type"] == "/problems/version-conflict"
    assert problem["current_version"] == 2
    assert response.headers["ETag"] == '"2"'


def test_af_b1_an_illegal_action_is_422_with_the_rule_and_changes_nothing(match):
    response = match.act("ana", {"type": "beg", "player": "ana"}, version=1)
    assert response.status_code == 422
    problem = response.get_json()
    assert problem["type"] == "/problems/illegal-action"
    assert [v["rule"] for v in problem["violations"]] == ["AF-B1"]
    assert match.read(None)["version"] == 1
    assert {e["version"] for e in match.get(None, "/events").get_json()["events"]} == {1}


def test_an_action_of_an_unknown_type_is_422_invalid_input(match):
    response = match.act("ben", {"type": "fold", "player": "ben"}, version=1)
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["field"] == "action.type"


def test_a_retry_with_the_same_idempotency_key_returns_the_first_response(match):
    action = {"type": "stand", "player": "ben"}
    first = match.act("ben", action, version=1, key="ben-1")
    again = match.act("ben", action, version=1, key="ben-1")
    assert first.status_code == again.status_code == 200
    assert again.get_json() == first.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    assert again.headers["ETag"] == '"2"'
    assert match.read(None)["version"] == 2
    assert [e["version"] for e in match.get("host", "/events").get_json()["events"]] == [
        1, 1, 2]  # the deal and kick (version 1), the one action


def test_the_same_key_with_another_body_is_422_and_applies_nothing(match):
    assert match.act("ben", {"type": "stand", "player": "ben"}, version=1,
                     key="k").status_code == 200
    response = match.act("ben", {"type": "beg", "player": "ben"}, version=1, key="k")
    assert response.status_code == 422
    assert response.get_json()["type"] == "/problems/idempotency-key-reused"
    # Another expected version is another request too.
    assert match.act("ben", {"type": "stand", "player": "ben"}, version=2,
                     key="k").status_code == 422
    assert match.read(None)["version"] == 2


def test_idempotency_keys_are_scoped_to_the_seat(match):
    assert match.act("ben", {"type": "stand", "player": "ben"}, version=1,
                     key="same").status_code == 200
    assert match.act("ben", match.legal("ben")[0], version=2).status_code == 200
    # cy's "same" is not ben's "same": cy's play is applied, not answered with ben's stand.
    assert match.read(None)["to_move"] == ["cy"]
    response = match.act("cy", match.legal("cy")[0], version=3, key="same")
    assert response.status_code == 200
    assert response.get_json()["version"] == 4
    assert "Idempotent-Replayed" not in response.headers


def test_a_failed_attempt_is_not_recorded_so_a_corrected_retry_passes(match):
    assert match.act("ben", {"type": "stand", "player": "ben"}, version=5,
                     key="k").status_code == 409
    assert match.act("ben", {"type": "stand", "player": "ben"},
                     key="k").status_code == 428
    assert match.act("ben", {"type": "stand", "player": "ben"}, version=1,
                     key="k").status_code == 200


def test_a_malformed_idempotency_key_is_422(match):
    response = match.act("ben", {"type": "stand", "player": "ben"}, version=1, key="a b")
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["field"] == "Idempotency-Key"


def test_coup_v1_events_after_n_are_numbered_and_filtered_per_reader(client, table):
    # A Coup exchange: the cards drawn are told to the exchanger alone (COUP-V1).
    game = table.create(client, game="coup", players=["ana", "ben", "cy"], seed=7)
    assert game.act("ana", {"type": "exchange", "player": "ana"}, version=1).status_code == 200
    assert game.act("ben", {"type": "pass", "player": "ben"}, version=2).status_code == 200
    cy_acts = game.act("cy", {"type": "pass", "player": "cy"}, version=3).get_json()
    everything = game.get("host", "/events").get_json()["events"]
    # Event 5 is the public exchange_drawn; 6 its twin with the cards: who sees 6 gets it alone.
    assert [ev["seq"] for ev in everything] == [1, 2, 3, 4, 6]
    drawn = game.read("host")["view"]["turn"]["drawn"]
    private = [ev for ev in everything if "visible_to" in ev]
    assert private == [{"type": "exchange_drawn", "player": "ana", "count": 2,
                        "visible_to": ["ana"], "cards": drawn, "seq": private[0]["seq"],
                        "version": 4}]
    ana = game.get("ana", "/events").get_json()["events"]
    assert ana == everything
    for reader in ("ben", "cy", None):
        seen = game.get(reader, "/events").get_json()["events"]
        assert seen == everything[:4] + [{"type": "exchange_drawn", "player": "ana",
                                          "count": 2, "seq": 5, "version": 4}]
    assert private[0] not in cy_acts["events"]  # the acting seat gets its visible events only
    last = everything[-1]["seq"]
    assert game.get("host", f"/events?after={last - 1}").get_json()["events"] == everything[-1:]
    assert game.get("host", f"/events?after={last}").get_json() == {"version": 4, "events": [],
                                                                  "next": None}
    assert game.get(None, "/events?after=-1").status_code == 422


def test_legal_actions_are_the_calling_seats(match):
    assert match.legal("ben") == [{"type": "stand", "player": "ben"},
                                  {"type": "beg", "player": "ben"}]
    assert match.legal("ana") == []
    assert match.legal("host") == match.legal("ben")
    assert match.get(None, "/legal-actions").status_code == 401


def test_delete_needs_the_host_token(match):
    assert match.client.delete(match.url).status_code == 401
    assert match.client.delete(match.url, headers=_auth(match, "ben")).status_code == 403
    deleted = match.client.delete(match.url, headers=_auth(match, "host"))
    assert deleted.status_code == 204
    assert deleted.data == b""
    assert "Content-Type" not in deleted.headers  # a 204 has no content, so no content type
    assert match.get(None).status_code == 404


@pytest.mark.parametrize("match_id", ["AAAAAAAAAAAAAAAAAAAAAA", "bad{id}", "x"])
def test_an_unknown_match_is_404(client, match_id):
    response = client.get(f"/v1/matches/{match_id}")
    assert response.status_code == 404
    assert response.get_json()["type"] == "/problems/not-found"


def test_the_audit_is_refused_while_the_match_is_played(match):
    response = match.get(None, "/audit")
    assert response.status_code == 403
    assert response.get_json()["type"] == "/problems/forbidden"


def test_the_idle_ttl_setting_reaches_the_matches(table):
    from referee.serving.app import create_app
    app = create_app({"TESTING": True, "REDIS_URL": None, "MATCH_TTL_SECONDS": 60})
    game = table.create(app.test_client(), game="all-fours", players=["a", "b"])
    assert game.created["ttl"] == 60


def _auth(match, who):
    return {"Authorization": f"Bearer {match.token(who)}"}
