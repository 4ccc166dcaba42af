"""CORS (issue 12 item 6): no other origin by default; configured origins get preflights that
allow the API's headers, and answers that expose ETag."""
from __future__ import annotations

from referee.api.cross_origin import settings
from referee.serving.app import create_app

ORIGIN = "https://table.example"


def cors_client(origins: list[str]):
    return create_app({"TESTING": True, "REDIS_URL": None,
                       "CORS_ALLOWED_ORIGINS": origins}).test_client()


def test_no_origin_is_allowed_by_default():
    assert settings({})["CORS_ALLOWED_ORIGINS"] == []
    client = create_app({"TESTING": True, "REDIS_URL": None}).test_client()
    answer = client.get("/v1/games", headers={"Origin": ORIGIN})
    assert answer.status_code == 200 and "Access-Control-Allow-Origin" not in answer.headers


def test_origins_come_from_the_environment():
    config = settings({"REFEREE_CORS_ORIGINS": f"{ORIGIN}, https://other.example"})
    assert config["CORS_ALLOWED_ORIGINS"] == [ORIGIN, "https://other.example"]


def test_a_preflight_for_a_match_action_allows_the_api_headers():
    client = cors_client([ORIGIN])
    answer = client.options("/v1/matches/abcdefghijklmnop/actions", headers={
        "Origin": ORIGIN, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, if-match, idempotency-key, "
                                          "content-type"})
    assert answer.status_code == 200
    assert answer.headers["Access-Control-Allow-Origin"] == ORIGIN
    allowed = {h.strip().lower() for h in
               answer.headers["Access-Control-Allow-Headers"].split(",")}
    assert allowed == {"authorization", "if-match", "idempotency-key", "content-type"}
    assert "POST" in answer.headers["Access-Control-Allow-Methods"]
    assert answer.headers["Access-Control-Max-Age"] == "600"
    assert "Access-Control-Allow-Credentials" not in answer.headers


def test_answers_to_an_allowed_origin_expose_etag_and_others_get_nothing():
    client = cors_client([ORIGIN])
    created = client.post("/v1/matches", json={"game": "spy", "players": ["ana", "ben"]},
                          headers={"Origin": ORIGIN})
    assert created.status_code == 201
    assert created.headers["Access-Control-Allow-Origin"] == ORIGIN
    exposed = {h.strip() for h in created.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"ETag", "Location", "Retry-After"} <= exposed
    stranger = client.get("/v1/games", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in stranger.headers
    preflight = client.options("/v1/games", headers={
        "Origin": "https://evil.example", "Access-Control-Request-Method": "GET"})
    assert "Access-Control-Allow-Origin" not in preflight.headers


def vary(answer) -> set[str]:
    return {name.strip().lower() for line in answer.headers.getlist("Vary")
            for name in line.split(",")}


def test_answers_that_depend_on_origin_say_vary_origin():
    # The same URL answers an allowed origin with Access-Control-Allow-Origin and a stranger
    # (or a request with no Origin) without: a shared cache must key on Origin.
    client = cors_client([ORIGIN])
    allowed = client.get("/v1/games", headers={"Origin": ORIGIN})
    stranger = client.get("/v1/games", headers={"Origin": "https://evil.example"})
    plain = client.get("/v1/games")
    assert allowed.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert "Access-Control-Allow-Origin" not in stranger.headers
    for answer in (allowed, stranger, plain):
        assert "origin" in vary(answer)
        assert "accept-language" in vary(answer)  # the negotiation's Vary is kept
        assert len(answer.headers.getlist("Vary")) == 1
    missing = client.get("/v1/matches/abcdefghijklmnop", headers={"Origin": ORIGIN})
    assert missing.status_code == 404 and "origin" in vary(missing)  # problems too
    preflight = client.options("/v1/games", headers={
        "Origin": ORIGIN, "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "authorization"})
    assert {"origin", "access-control-request-method",
            "access-control-request-headers"} <= vary(preflight)


def test_two_allowed_origins_get_one_vary_origin():
    # flask-cors writes its own Vary: Origin with several origins; it is not doubled.
    client = cors_client([ORIGIN, "https://other.example"])
    answer = client.get("/v1/games", headers={"Origin": "https://other.example"})
    assert answer.headers["Access-Control-Allow-Origin"] == "https://other.example"
    names = [n.strip().lower() for n in answer.headers["Vary"].split(",")]
    assert names.count("origin") == 1 and len(answer.headers.getlist("Vary")) == 1


def test_any_origin_does_not_vary_on_origin():
    # With "*" every origin gets the same answer, so caches need not split on it.
    client = cors_client(["*"])
    answer = client.get("/v1/games", headers={"Origin": ORIGIN})
    assert answer.headers["Access-Control-Allow-Origin"] == "*"
    assert "origin" not in vary(answer)
