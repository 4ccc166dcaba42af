"""Nothing is silently "fixed" (STANDARDS): a body object that names a key twice, and a query
parameter that is unknown or given twice, are 422 problem+json naming the field, whichever
path parsed the body (orjson, or the standard library for text with escapes)."""
from __future__ import annotations

import pytest

from referee.api.body_shape import repeated_key, tally

PROBLEM = "application/problem+json"


def post_raw(client, path, raw: str):
    return client.post(path, data=raw.encode(), content_type="application/json")


def field_of(answer) -> str:
    assert answer.status_code == 422 and answer.mimetype == PROBLEM, answer.data
    body = answer.get_json()
    assert body["type"] == "/problems/invalid-input"
    return body["errors"][0]["field"]


@pytest.mark.parametrize("raw, field", [
    ('{"game": "spy", "players": ["ana", "ben"], "game": "coup"}', "game"),
    ('{"game":"spy","players":["ana","ben"],"options":{"target":5,"target":7}}', "options.target"),
    ('{"game": "spy", "players": [{"n": 1, "n": 2}, "ben"]}', "players[0].n"),
    # a backslash escape sends the body to the standard library: same answer
    ('{"game": "spy", "players": ["an\\u0061", "ben"], "seed": 1, "seed": 2}', "seed"),
    # the repeated key spelt differently (an escape) is still the same key
    ('{"game": "spy", "players": ["ana", "ben"], "g\\u0061me": "coup"}', "game"),
])
def test_a_repeated_key_in_a_body_is_422_naming_it(client, raw, field):
    assert field_of(post_raw(client, "/v1/matches", raw)) == field


def test_a_repeated_key_in_an_action_is_refused_not_one_of_them_applied(client):
    # AF-B1: ana is on the dealer ben's right and may stand or beg; which one did she mean?
    match = client.post("/v1/matches", json={"game": "all-fours", "players": ["ana", "ben"],
                                             "dealer": "ben", "seed": 5}).get_json()
    raw = '{"action": {"type": "stand", "player": "ana", "type": "beg"}}'
    answer = client.post(f"/v1/matches/{match['id']}/actions", data=raw,
                         content_type="application/json",
                         headers={"Authorization": f"Bearer {match['seats']['ana']}",
                                  "If-Match": '"1"'})
    assert field_of(answer) == "action.type"
    assert client.get(f"/v1/matches/{match['id']}").headers["ETag"] == '"1"'  # nothing applied


def test_colons_inside_strings_are_not_keys(client):
    raw = '{"game": "spy", "players": ["a:b", "c\\":d"], "seed": 1}'
    assert post_raw(client, "/v1/matches", raw).status_code == 201
    assert post_raw(client, "/v1/matches",
                    '{"game":"spy","players":["x:y","z: w"]}').status_code == 201


@pytest.mark.parametrize("raw, field", [
    # small bodies with no backslash take the compact-dump comparison (colons in the dropped
    # value or in other strings cannot hide the lost pair)
    ('{"game":"spy","players":["a:b","c::d"],"seed":"x:1","seed":"y"}', "seed"),
    ('{"game":"spy","players":["ana","ben"],"seed":1,"seed":"a:b:c"}', "seed"),
])
def test_a_repeated_key_is_found_whatever_colons_the_strings_hold(client, raw, field):
    assert field_of(post_raw(client, "/v1/matches", raw)) == field


def test_a_long_body_takes_the_walk_and_still_finds_a_repeated_key(client):
    # past 2 * MAX_ITEMS bytes the body's arrays are measured and pairs counted one by one
    padding = ", ".join(f'"p{i}": {i}' for i in range(1000))
    raw = '{"game": "spy", "players": ["ana", "ben"], "options": {' + padding + '}, "game": "x"}'
    assert len(raw) > 2 * 4096
    assert field_of(post_raw(client, "/v1/matches", raw)) == "game"


def test_the_repeated_key_scan_and_tally():
    assert tally({"a": [1, {"b": 2, "c": [3, 4, 5]}], "d": {}}) == (4, 3, 2)
    assert repeated_key(b'{"a": {"b": 1, "b": 2}}') == "a.b"
    assert repeated_key(b'[{"x": 0}, {"y": 1, "y": 1}]') == "[1].y"
    assert repeated_key(b'{"a": 1}') is None


@pytest.mark.parametrize("query, field", [
    ("after=1&after=2", "query.after"),
    ("after=0&after=0", "query.after"),  # the same value twice is still twice
    ("aftr=3", "query.aftr"),
    ("after=0&wait=0&ticket=t&since=4", "query.since"),
])
def test_events_refuse_unknown_and_repeated_query_parameters(client, query, field):
    match = client.post("/v1/matches", json={"game": "spy", "players": ["ana", "ben"]}).get_json()
    answer = client.get(f"/v1/matches/{match['id']}/events?{query}")
    assert field_of(answer) == field
    assert client.get(f"/v1/matches/{match['id']}/events?after=0&wait=0").status_code == 200


def test_endpoints_without_query_parameters_take_none(client):
    match = client.post("/v1/matches", json={"game": "spy", "players": ["ana", "ben"]}).get_json()
    assert field_of(client.get(f"/v1/matches/{match['id']}?view=host")) == "query.view"
    assert field_of(client.get("/v1/games?page=2")) == "query.page"
    assert field_of(client.post("/v1/matches?game=coup", json={
        "game": "spy", "players": ["ana", "ben"]})) == "query.game"
    assert field_of(client.get(f"/v1/matches/{match['id']}/stream?after=0&after=1")) == \
        "query.after"
    every = client.get("/v1/games?a=1&b=2&b=3").get_json()["errors"]
    assert [e["field"] for e in every] == ["query.a", "query.b"]
    # README "Errors": only /v1/... endpoints are guarded; probes and docs are not the API
    for path in ("/livez", "/readyz", "/openapi.json", "/openapi.yaml"):
        assert client.get(f"{path}?probe=1&probe=2").status_code == 200, path


@pytest.mark.parametrize("path", ["setup", "legal-actions", "validate", "apply"])
@pytest.mark.parametrize("body", [{}, "{not json"])
def test_an_unknown_game_is_404_on_every_endpoint_whatever_the_body(client, path, body):
    """A game not registered is 404 unknown-game before the body is read: an empty body was
    a 422 on legal-actions and validate (the body checked first), a 404 on setup."""
    if isinstance(body, str):
        answer = client.post(f"/v1/games/nope/{path}", data=body,
                             content_type="application/json")
    else:
        answer = client.post(f"/v1/games/nope/{path}", json=body)
    assert answer.status_code == 404
    assert answer.get_json()["type"].endswith("/unknown-game")


@pytest.mark.parametrize("kind, shown", [
    (None, "null"), (True, "true"), ([1, 2], "[1, 2]"), ("plya", "'plya'"),
    # README "Errors": a quoted value keeps its first 64 characters and then "…" (reprlib
    # showed 'QQQQQQQQQQQQ...QQQQQQQQQQQQQ', and a list was cut at 40)
    ("Q" * 5000, "'" + "Q" * 64 + "…'"), (list(range(100)), str(list(range(100)))[:64] + "…")])
def test_an_unknown_action_type_is_quoted_as_json_not_python(client, kind, shown):
    from referee.registry import GAMES
    entry = GAMES["all-fours"]
    state = entry.engine.setup({**entry.example_setup, "mode": "digital",
                                "options": entry.engine.resolve_options({})}, 5)
    answer = client.post("/v1/games/all-fours/validate",
                         json={"state": state, "action": {"type": kind, "player": "ana"}})
    assert answer.status_code == 422
    body = answer.get_json()
    assert body["detail"].startswith(f"Unknown action type {shown} for all-fours; one of: ")
    assert body["errors"] == [{"field": "action.type", "message": body["detail"]}]


SEED_RULE = ("The seed must be an integer from 0 to 2**256 - 1 (such as 42, not 42.0) or a "
             "string of 1-128 characters.")


@pytest.mark.parametrize("seed", [42.0, True, False, -1, 2**256, "", "s" * 129, [42], {"n": 42},
                                  None])
@pytest.mark.parametrize("path", ["/v1/games/all-fours/setup", "/v1/matches"])
def test_a_seed_of_another_type_or_size_gets_one_sentence_naming_it(client, path, seed):
    """README "Match errors": 42.0 and true were two sentences ("… or a string." and "… or a
    string of 1-128 characters."), -1 a third and null marshmallow's "Field may not be
    null."; each is the one sentence saying what a seed may be."""
    body = {"players": ["ana", "ben"], "dealer": "ben", "seed": seed}
    answer = client.post(path, json={"game": "all-fours", **body} if "matches" in path else body)
    assert answer.status_code == 422
    problem = answer.get_json()
    assert problem["type"] == "/problems/invalid-input"
    assert problem["errors"] == [{"field": "seed", "message": SEED_RULE}]


@pytest.mark.parametrize("seed", [0, 2**256 - 1, "x", "s" * 128])
def test_a_seed_at_either_end_of_its_range_deals(client, seed):
    """The bounds of SEED_RULE are accepted: the state keeps the seed as sent."""
    answer = client.post("/v1/games/all-fours/setup",
                         json={"players": ["ana", "ben"], "dealer": "ben", "seed": seed})
    assert answer.status_code == 200
    assert answer.get_json()["state"]["seed"] == seed
