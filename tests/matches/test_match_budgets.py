"""The two budgets of a match call (per token, per IP: ``referee.api.ratelimits.SharedBudgets``)
counted in one round trip: shared by every worker through the store's Redis on every topology
(``./dev test-deploy`` runs these on a real Cluster and Sentinel), a counter script a Redis
node has not loaded still counts, and a limit storage that does not answer lets calls
through."""
from __future__ import annotations

from referee.serving.app import create_app
from tests.matches.test_limits import assert_429

SPY = {"game": "spy", "players": ["ana", "ben"]}


def _apps(redis_url: str, redis_prefix: str, **budgets):
    config = {"TESTING": True, "REDIS_URL": redis_url, "REDIS_KEY_PREFIX": redis_prefix,
              "RATE_LIMITS_ENABLED": True, **budgets}
    return create_app(config).test_client(), create_app(config).test_client()


def test_the_token_budget_is_one_count_shared_by_every_worker(redis_url, redis_prefix):
    one, two = _apps(redis_url, redis_prefix, LIMIT_MATCH_PER_TOKEN="3/minute")
    created = one.post("/v1/matches", json=SPY).get_json()
    url = f"/v1/matches/{created['id']}"
    ana = {"Authorization": f"Bearer {created['seats']['ana']}"}
    assert one.get(url, headers=ana).status_code == 200
    assert two.get(url + "/legal-actions", headers=ana).status_code == 200
    assert one.get(url + "/events", headers=ana).status_code == 200
    assert_429(two.get(url, headers=ana), "match-token", 3)
    assert_429(one.get(url, headers=ana), "match-token", 3)
    ben = {"Authorization": f"Bearer {created['seats']['ben']}"}
    assert two.get(url, headers=ben).status_code == 200  # another token, the same IP


def test_the_ip_budget_is_one_count_shared_by_every_worker(redis_url, redis_prefix):
    one, two = _apps(redis_url, redis_prefix, LIMIT_MATCH_PER_IP="2/minute")
    created = one.post("/v1/matches", json=SPY).get_json()
    url = f"/v1/matches/{created['id']}"
    assert one.get(url).status_code == 200
    assert two.get(url, headers={"Authorization": f"Bearer {created['seats']['ana']}"}
                   ).status_code == 200
    assert_429(one.get(url, headers={"Authorization": f"Bearer {created['seats']['ben']}"}),
                "match-ip", 2)
    assert two.get(url, environ_base={"REMOTE_ADDR": "10.0.0.7"}).status_code == 200


def test_a_counter_script_the_node_has_not_loaded_still_counts(redis_url, redis_prefix):
    """A node that lost its scripts (a restart, a failover, ``SCRIPT FLUSH``) answers the
    pipelined EVALSHA with NOSCRIPT: that counter is counted again through ``limits``, which
    loads the script — not let through uncounted.  The script's name is made one no node
    knows, which is what such a node sees."""
    one, _ = _apps(redis_url, redis_prefix, LIMIT_MATCH_PER_TOKEN="1/minute")
    created = one.post("/v1/matches", json=SPY).get_json()  # (its budget loads the script)
    playing = one.application.extensions["referee.limits"]["playing"]
    playing.storage.lua_incr_expire.sha = "0" * 40
    url = f"/v1/matches/{created['id']}"
    ana = {"Authorization": f"Bearer {created['seats']['ana']}"}
    assert one.get(url, headers=ana).status_code == 200
    assert_429(one.get(url, headers=ana), "match-token", 1)


def test_a_limit_storage_that_does_not_answer_lets_match_calls_through():
    client = create_app({"TESTING": True, "REDIS_URL": None, "RATE_LIMITS_ENABLED": True,
                         "RATELIMIT_STORAGE_URI": "redis://127.0.0.1:1/0",
                         "LIMIT_MATCH_PER_TOKEN": "1/minute"}).test_client()
    created = client.post("/v1/matches", json=SPY).get_json()
    url = f"/v1/matches/{created['id']}"
    ana = {"Authorization": f"Bearer {created['seats']['ana']}"}
    assert [client.get(url, headers=ana).status_code for _ in range(3)] == [200] * 3


def test_a_match_call_reads_its_record_in_the_budgets_round_trip(redis_url, redis_prefix,
                                                                  monkeypatch):
    """With the budgets in the match store's Redis, the record is read in their pipeline
    (``RedisStore.load_along``): no second read; the version check still refuses a stale
    If-Match, and an unknown match is still 404."""
    client, _ = _apps(redis_url, redis_prefix)
    created = client.post("/v1/matches", json=SPY).get_json()
    store = client.application.extensions["referee.store"]

    def no_second_read(match_id):
        raise AssertionError(f"{match_id} read again")
    monkeypatch.setattr(store, "load", no_second_read)
    url = f"/v1/matches/{created['id']}"
    to_move = client.get(url, headers={"Authorization": f"Bearer {created['seats']['ana']}"}
                         ).get_json()["to_move"]
    act = {"Authorization": f"Bearer {created['seats'][to_move[0]]}", "If-Match": '"1"'}
    legal = client.get(url + "/legal-actions", headers=act).get_json()["actions"]
    action = {"action": legal[0]}
    answer = client.post(url + "/actions", json=action, headers=act)
    assert answer.status_code == 200, answer.get_json()
    assert answer.headers["ETag"] == '"2"'
    stale = client.post(url + "/actions", json=action, headers=act)
    assert stale.status_code == 409 and stale.get_json()["current_version"] == 2
    monkeypatch.undo()
    assert client.get("/v1/matches/" + "x" * 22).status_code == 404
