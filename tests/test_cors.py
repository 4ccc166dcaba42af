"""CORS (issue 12 item 6): no other origin by default; configured origins get preflights that
allow the API's headers, and answers that expose ETag."""
from __future__ import annotations

from referee.api.cross_origin import settings
from referee.app import create_app

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
