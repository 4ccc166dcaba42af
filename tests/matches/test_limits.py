"""Abuse limits (issue 12 item 5): the create, match and stateless budgets, per client IP and
per token, 429 problems with Retry-After and RateLimit headers, health exempt, the trusted
proxy setting, and the caps on live matches.  The suite runs with limits off (tests/conftest.py);
each test here turns them on with budgets of its own."""
from __future__ import annotations

import logging

import pytest

from referee.api.ratelimits import DEFAULTS, LocalBudget, settings
from referee.serving.app import create_app

SPY = {"game": "spy", "players": ["ana", "ben"]}


def limited(**config):
    """A test client of an app with limits on (the in-process store) and ``config``."""
    return create_app({"TESTING": True, "REDIS_URL": None, "RATE_LIMITS_ENABLED": True,
                       **config}).test_client()


def from_ip(ip: str) -> dict:
    return {"environ_base": {"REMOTE_ADDR": ip}}


def assert_429(response, budget: str, amount: int):
    assert response.status_code == 429, response.get_json()
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["type"] == "/problems/rate-limited" and budget in body["detail"]
    wait = int(response.headers["Retry-After"])
    assert 1 <= wait <= 60  # the time left in the window, rounded up (issue 21)
    assert response.headers["RateLimit-Limit"] == str(amount)
    assert response.headers["RateLimit-Remaining"] == "0"
    assert response.headers["RateLimit-Reset"] == str(wait)
    assert response.headers["RateLimit-Policy"] == f'"{budget}";q={amount};w=60'


def test_limits_are_on_by_default_with_budgets_a_table_can_play_within():
    config = settings({})
    assert config["RATE_LIMITS_ENABLED"] is True
    assert {name: config[name] for name in DEFAULTS} == DEFAULTS
    assert settings({"REFEREE_RATE_LIMITS": "off"})["RATE_LIMITS_ENABLED"] is False
    assert settings({"REFEREE_LIMIT_CREATE": "5/hour"})["LIMIT_CREATE"] == "5/hour"


def test_one_client_cannot_create_hundreds_of_matches_a_minute_with_the_defaults():
    client = limited()
    statuses = [client.post("/v1/matches", json=SPY).status_code for _ in range(25)]
    assert statuses == [201] * 20 + [429] * 5  # REFEREE_LIMIT_CREATE 20/minute


def test_the_create_budget_is_per_client_ip():
    client = limited(LIMIT_CREATE="3/minute")
    for _ in range(3):
        assert client.post("/v1/matches", json=SPY, **from_ip("10.0.0.1")).status_code == 201
    assert_429(client.post("/v1/matches", json=SPY, **from_ip("10.0.0.1")), "create", 3)
    assert client.post("/v1/matches", json=SPY, **from_ip("10.0.0.2")).status_code == 201


def test_the_match_budget_is_per_token_and_separate_from_creating():
    client = limited(LIMIT_CREATE="1/minute", LIMIT_MATCH_PER_TOKEN="3/minute")
    created = client.post("/v1/matches", json=SPY).get_json()
    url = f"/v1/matches/{created['id']}"
    ana = {"Authorization": f"Bearer {created['seats']['ana']}"}
    ben = {"Authorization": f"Bearer {created['seats']['ben']}"}
    for path in ("", "/legal-actions", "/events"):
        assert client.get(url + path, headers=ana).status_code == 200
    assert_429(client.get(url, headers=ana), "match-token", 3)
    assert client.get(url, headers=ben).status_code == 200  # another seat, same IP


def test_the_match_budget_per_ip_holds_whatever_the_tokens():
    client = limited(LIMIT_MATCH_PER_IP="2/minute")
    created = client.post("/v1/matches", json=SPY).get_json()
    url = f"/v1/matches/{created['id']}"
    for seat in ("ana", "ben"):
        assert client.get(url, headers={"Authorization":
                                        f"Bearer {created['seats'][seat]}"}).status_code == 200
    assert_429(client.get(url), "match-ip", 2)
    assert client.get(url, **from_ip("10.0.0.9")).status_code == 200


def _problem_field(response) -> str:
    return response.get_json()["errors"][0]["field"]


def test_public_reads_spend_their_own_budget_per_address_and_match():
    """Reads without a token (a scoreboard, phones without a seat) spend the match-public
    budget of their address and match — not a token's — and its 429 says so."""
    client = limited(LIMIT_MATCH_PUBLIC="3/minute", LIMIT_MATCH_PER_TOKEN="2/minute")
    created = client.post("/v1/matches", json=SPY).get_json()
    other = client.post("/v1/matches", json=SPY).get_json()
    url = f"/v1/matches/{created['id']}"
    for path in ("", "/events", "/events?after=0"):
        assert client.get(url + path).status_code == 200
    spent = client.get(url)
    assert_429(spent, "match-public", 3)
    assert _problem_field(spent) == "client"
    assert spent.get_json()["errors"][0]["message"] == "match-public budget spent"
    assert "without a token" in spent.get_json()["detail"]
    assert "stream" in spent.get_json()["detail"]  # live readers: follow the stream
    assert client.get(f"/v1/matches/{other['id']}").status_code == 200  # another match
    assert client.get(url, **from_ip("10.0.0.5")).status_code == 200  # another address
    ana = {"Authorization": f"Bearer {created['seats']['ana']}"}
    assert client.get(url, headers=ana).status_code == 200  # a seat has its own budget


def test_a_token_s_429_names_the_token_budget_and_authorization():
    client = limited(LIMIT_MATCH_PER_TOKEN="1/minute", LIMIT_MATCH_PUBLIC="1/minute")
    created = client.post("/v1/matches", json=SPY).get_json()
    url = f"/v1/matches/{created['id']}"
    ana = {"Authorization": f"Bearer {created['seats']['ana']}"}
    assert client.get(url, headers=ana).status_code == 200
    spent = client.get(url, headers=ana)
    assert_429(spent, "match-token", 1)
    assert _problem_field(spent) == "Authorization"
    assert spent.get_json()["detail"].startswith("Too many requests: the match-token budget")
    assert client.get(url).status_code == 200  # the public budget is another one


def test_a_ticket_s_429_names_the_ticket_and_a_forged_one_reads_as_public():
    client = limited(LIMIT_MATCH_PER_TOKEN="2/minute", LIMIT_MATCH_PUBLIC="1/minute")
    created = client.post("/v1/matches", json=SPY).get_json()
    url = f"/v1/matches/{created['id']}"
    ticket = client.post(url + "/stream-tickets", headers={  # ben's token: 1 of 2
        "Authorization": f"Bearer {created['seats']['ben']}"}).get_json()["ticket"]
    assert client.get(f"{url}/events?ticket={ticket}").status_code == 200  # ben's: 2 of 2
    spent = client.get(f"{url}/events?ticket={ticket}")
    assert_429(spent, "match-token", 2)
    assert _problem_field(spent) == "ticket"
    forged = f"{url}/events?ticket=h.9999999999.{'0' * 64}"  # no ticket of this match
    assert client.get(forged).status_code == 401  # public budget: 1 of 1 (then refused)
    assert_429(client.get(forged), "match-public", 1)


def test_the_default_public_budget_holds_a_scoreboard_and_four_phones_on_one_address():
    """A scoreboard reading the match once a second and four phones doing the same behind one
    home connection: 300 public reads of one match in a minute pass with the defaults; the
    next is the public budget's 429, while the seats still read (their own budgets)."""
    client = limited()
    created = client.post("/v1/matches", json=SPY).get_json()
    url = f"/v1/matches/{created['id']}"
    assert [client.get(url).status_code for _ in range(5 * 60)] == [200] * 300
    assert_429(client.get(url), "match-public", 300)
    assert client.get(url, headers={"Authorization": f"Bearer {created['seats']['ana']}"}
                      ).status_code == 200


def test_the_public_429_is_burmese_too():
    client = limited(LIMIT_MATCH_PUBLIC="1/minute")
    created = client.post("/v1/matches", json=SPY).get_json()
    url = f"/v1/matches/{created['id']}"
    assert client.get(url).status_code == 200
    spent = client.get(url, headers={"Accept-Language": "my"}).get_json()
    assert spent["detail"].startswith("token မပါသော တောင်းဆိုချက် များလွန်းသည်- match-public")


def test_the_stateless_budget_is_per_ip_and_health_is_exempt():
    client = limited(LIMIT_STATELESS_PER_IP="3/minute")
    assert [client.get("/v1/games/spy").status_code for _ in range(3)] == [200] * 3
    assert_429(client.post("/v1/games/spy/setup", json={"players": ["a", "b"]}), "stateless", 3)
    assert client.get("/v1/games", **from_ip("10.0.0.3")).status_code == 200
    for _ in range(10):
        assert client.get("/livez").status_code == 200
        assert client.get("/readyz").status_code == 200
    assert client.get("/openapi.json").status_code == 200


def test_forwarded_for_counts_only_behind_a_configured_trusted_proxy():
    spoofed = {"headers": {"X-Forwarded-For": "203.0.113.7"}}
    direct = limited(LIMIT_CREATE="1/minute")  # no trusted proxy: the header is ignored
    assert direct.post("/v1/matches", json=SPY, **spoofed).status_code == 201
    assert direct.post("/v1/matches", json=SPY, headers={
        "X-Forwarded-For": "203.0.113.8"}).status_code == 429
    proxied = limited(LIMIT_CREATE="1/minute", TRUSTED_PROXY_HOPS=1)
    assert proxied.post("/v1/matches", json=SPY, **spoofed).status_code == 201
    assert proxied.post("/v1/matches", json=SPY, **spoofed).status_code == 429
    assert proxied.post("/v1/matches", json=SPY, headers={
        "X-Forwarded-For": "203.0.113.8"}).status_code == 201


def test_match_budgets_are_shared_through_redis_by_every_worker(redis_url, redis_prefix):
    """On every topology (``./dev test-deploy`` runs it on a real Cluster and Sentinel): the
    budget's storage comes from REDIS_URL alone, and two apps share it."""
    config = {"TESTING": True, "REDIS_URL": redis_url, "REDIS_KEY_PREFIX": redis_prefix,
              "RATE_LIMITS_ENABLED": True, "LIMIT_CREATE": "2/minute"}
    one, two = create_app(config).test_client(), create_app(config).test_client()
    assert one.post("/v1/matches", json=SPY).status_code == 201
    assert two.post("/v1/matches", json=SPY).status_code == 201
    assert_429(one.post("/v1/matches", json=SPY), "create", 2)
    assert not one.application.config.get("RATELIMIT_STORAGE_URI")
    limiter = one.application.extensions["referee.limits"]["matches"]
    kind = redis_url.split("://")[0]
    assert limiter._storage_uri.split("://")[0] == kind  # the match store's Redis, not memory


def test_a_local_budget_starts_afresh_each_window():
    budget = LocalBudget("2/minute", "stateless")
    assert budget.hit("a", now=60.0) is None and budget.hit("a", now=61.0) is None
    item, wait = budget.hit("a", now=90.0)
    assert item.amount == 2 and wait == 30  # the window 60-120 s ends in 30 s
    assert budget.hit("b", now=90.0) is None
    assert budget.hit("a", now=120.0) is None


def _assert_full(response):
    assert response.status_code == 503, response.get_json()
    assert response.get_json()["type"] == "/problems/match-limit-reached"
    assert response.headers["Retry-After"] == "60"
    # a service condition, like store-unavailable: no request field is at fault (F6c)
    assert "errors" not in response.get_json() and "error_count" not in response.get_json()


def test_the_in_process_store_caps_live_matches_and_bytes():
    client = create_app({"TESTING": True, "REDIS_URL": None, "MAX_LIVE_MATCHES": 2}).test_client()
    first = client.post("/v1/matches", json=SPY).get_json()
    assert client.post("/v1/matches", json=SPY).status_code == 201
    _assert_full(client.post("/v1/matches", json=SPY))
    assert client.delete(f"/v1/matches/{first['id']}", headers={
        "Authorization": f"Bearer {first['host_token']}"}).status_code == 204
    assert client.post("/v1/matches", json=SPY).status_code == 201
    small = create_app({"TESTING": True, "REDIS_URL": None,
                        "MEMORY_STORE_MAX_BYTES": 1}).test_client()
    assert small.post("/v1/matches", json=SPY).status_code == 201  # the first fits (0 < 1)
    _assert_full(small.post("/v1/matches", json=SPY))


def test_the_redis_store_caps_live_matches(redis_url, redis_prefix):
    client = create_app({"TESTING": True, "REDIS_URL": redis_url, "REDIS_KEY_PREFIX":
                         redis_prefix, "MAX_LIVE_MATCHES": 2}).test_client()
    assert client.post("/v1/matches", json=SPY).status_code == 201
    second = client.post("/v1/matches", json=SPY).get_json()
    _assert_full(client.post("/v1/matches", json=SPY))
    client.delete(f"/v1/matches/{second['id']}",
                  headers={"Authorization": f"Bearer {second['host_token']}"})
    assert client.post("/v1/matches", json=SPY).status_code == 201


def test_with_the_store_down_the_limits_fail_open_and_the_match_calls_answer_503(caplog):
    """README "Limits": the match budgets live in the store's Redis; when it does not answer,
    Flask-Limiter lets the request through (``swallow_errors``) and the match endpoint's own
    503 ``store-unavailable`` is the answer — never a 429 or a 500 — while the stateless
    endpoints (their budget in the worker's memory) keep working."""
    import socket
    with socket.socket() as probe:  # a loopback port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    client = create_app({"TESTING": True, "REDIS_URL": f"redis://127.0.0.1:{port}/0",
                         "RATE_LIMITS_ENABLED": True, "LIMIT_CREATE": "2/minute"}).test_client()
    with caplog.at_level(logging.DEBUG, logger="flask-limiter"):
        answers = [client.post("/v1/matches", json=SPY) for _ in range(4)]  # past the 2/minute
    assert [(a.status_code, a.get_json()["type"]) for a in answers] == \
        [(503, "/problems/store-unavailable")] * 4
    # Each request's fail-open is one warning line, without Flask-Limiter's error traceback.
    said = [(r.levelname, r.getMessage(), r.exc_info) for r in caplog.records
            if r.name == "flask-limiter"]
    assert said == [("WARNING", "create budget not counted (limit storage: ConnectionError); "
                     "request let through", None)] * 4
    assert client.get("/v1/games").status_code == 200
