"""Operations, in process: /metrics (requests by endpoint and status, latency, verdicts by game
and rule ID, matches created and active, store errors; served only with the metrics token, and
never a match refusal's rule), the JSON access log with its request id, match id and version
(never a token or a card), and X-Request-ID."""
from __future__ import annotations

import json
import re

from prometheus_client.parser import text_string_to_metric_families

from referee.serving.app import create_app
from referee.ops.metrics import settings

TOKEN = "scrape-me-0123456789"


def samples(client) -> dict[tuple, float]:
    """``{(sample name, sorted labels): value}`` of GET /metrics (the test app is given the
    metrics token first)."""
    client.application.config["METRICS_TOKEN"] = TOKEN
    response = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/plain; version=")
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(response.get_data(as_text=True))
            for s in family.samples}


def delta(before, after, name, **labels) -> float:
    key = (name, tuple(sorted(labels.items())))
    return after.get(key, 0.0) - before.get(key, 0.0)


def setup_state(client, **body):
    response = client.post("/v1/games/all-fours/setup", json=body)
    assert response.status_code == 200
    return response.get_json()["state"]


def test_metrics_count_requests_latency_and_verdicts_by_rule_af_b1(client):
    state = setup_state(client, players=["ana", "ben"], dealer="ben", seed=42)
    before = samples(client)
    # AF-B1: only the player on the dealer's right (ana) may stand or beg.
    beg = client.post("/v1/games/all-fours/validate",
                      json={"state": state, "action": {"type": "beg", "player": "ben"}})
    assert beg.get_json()["legal"] is False
    stand = client.post("/v1/games/all-fours/apply",
                        json={"state": state, "action": {"type": "stand", "player": "ana"}})
    assert stand.status_code == 200
    refused = client.post("/v1/games/all-fours/apply",
                          json={"state": state, "action": {"type": "beg", "player": "ben"}})
    assert refused.status_code == 422
    client.get("/no/such/path")
    after = samples(client)
    assert delta(before, after, "referee_verdicts_total", game="all-fours",
                 outcome="illegal", rule="AF-B1") == 2
    assert delta(before, after, "referee_verdicts_total", game="all-fours",
                 outcome="legal", rule="") == 1
    validate = "/v1/games/<game>/validate"
    assert delta(before, after, "referee_http_requests_total", endpoint=validate,
                 method="POST", status="200") == 1
    assert delta(before, after, "referee_http_requests_total", endpoint="/v1/games/<game>/apply",
                 method="POST", status="422") == 1
    assert delta(before, after, "referee_http_requests_total", endpoint="unmatched",
                 method="GET", status="404") == 1
    assert delta(before, after, "referee_http_request_duration_seconds_count",
                 endpoint=validate) == 1
    assert delta(before, after, "referee_http_request_duration_seconds_bucket",
                 endpoint=validate, le="+Inf") == 1


def test_non_standard_methods_are_one_other_series_not_one_each(client):
    """``BREW1``, ``BREW2``… (405 each) add to ``method="other"``, never a series of their own."""
    before = samples(client)
    for method in ("BREW1", "BREW2", "BREW3"):
        assert client.open("/v1/games", method=method).status_code == 405
    client.get("/v1/games")
    after = samples(client)
    assert delta(before, after, "referee_http_requests_total", endpoint="unmatched",
                 method="other", status="405") == 3
    assert delta(before, after, "referee_http_requests_total", endpoint="/v1/games",
                 method="GET", status="200") == 1
    assert not [key for key in after if dict(key[1]).get("method", "").startswith("BREW")]


def test_metrics_count_matches_created_active_and_their_verdicts(client):
    before = samples(client)
    created = [client.post("/v1/matches", json={"game": "all-fours", "players": ["ana", "ben"],
                                                "dealer": "ana", "seed": n}) for n in (1, 2)]
    match = created[0].get_json()
    moved = client.post(f"/v1/matches/{match['id']}/actions",
                        json={"action": {"type": "stand", "player": "ben"}},
                        headers={"Authorization": f"Bearer {match['seats']['ben']}",
                                 "If-Match": '"1"'})
    assert moved.status_code == 200
    after = samples(client)
    assert delta(before, after, "referee_matches_created_total", game="all-fours") == 2
    assert after[("referee_matches_active", ())] == 2  # this app's in-process store
    assert delta(before, after, "referee_verdicts_total", game="all-fours", outcome="legal",
                 rule="") == 1
    client.delete(f"/v1/matches/{match['id']}",
                  headers={"Authorization": f"Bearer {match['host_token']}"})
    assert samples(client)[("referee_matches_active", ())] == 1


def test_metrics_are_served_only_with_the_configured_token(client):
    assert settings({})["METRICS_TOKEN"] is None
    assert settings({"REFEREE_METRICS_TOKEN": TOKEN})["METRICS_TOKEN"] == TOKEN
    # No token configured (the default): /metrics is not there at all.
    absent = client.get("/metrics")
    assert absent.status_code == 404 and absent.mimetype == "application/problem+json"
    assert b"referee_" not in absent.data
    client.application.config["METRICS_TOKEN"] = TOKEN
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN},
                    {"Authorization": f"Basic {TOKEN}"}):
        refused = client.get("/metrics", headers=headers)
        assert refused.status_code == 401, headers
        assert refused.get_json()["errors"][0]["field"] == "Authorization"
        assert b"referee_http" not in refused.data
    served = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert served.status_code == 200 and b"referee_http_requests_total" in served.data


def test_a_refused_match_action_is_counted_without_its_rule(client):
    # In a match, ana moving out of turn is refused with a rule
    # (AF-B1 here: only the player on the dealer's right, ben, may stand or beg); the metric
    # says only that a move was refused, never which rule (hidden information stays hidden).
    match = client.post("/v1/matches", json={"game": "all-fours", "players": ["ana", "ben"],
                                             "dealer": "ana", "seed": 3}).get_json()
    before = samples(client)
    refused = client.post(f"/v1/matches/{match['id']}/actions",
                          json={"action": {"type": "beg", "player": "ana"}},
                          headers={"Authorization": f"Bearer {match['seats']['ana']}",
                                   "If-Match": '"1"'})
    assert refused.status_code == 422
    assert {v["rule"] for v in refused.get_json()["violations"]} == {"AF-B1"}
    after = samples(client)
    assert delta(before, after, "referee_verdicts_total", game="all-fours", outcome="illegal",
                 rule="") == 1
    assert not any(name == "referee_verdicts_total" and ("rule", "AF-B1") in labels
                   and delta(before, after, name, **dict(labels))
                   for name, labels in after)
    assert not any(match["id"] in str(labels) for _, labels in after)


def test_metrics_count_store_errors_by_operation():
    # Port 1 on the loopback: nothing listens, every store call is refused at once.
    client = create_app({"TESTING": True, "REDIS_URL": "redis://127.0.0.1:1/0"}).test_client()
    before = samples(client)
    assert client.get("/v1/matches/aaaaaaaaaaaaaaaaaaaaaa").status_code == 503
    assert client.get("/readyz").status_code == 503
    after = samples(client)
    assert delta(before, after, "referee_store_errors_total", operation="load") == 1
    assert delta(before, after, "referee_store_errors_total", operation="ready") == 1  # /readyz writes
    assert ("referee_matches_active", ()) not in after  # unknown while the store is down


def access_lines(output: str) -> list[dict]:
    """The JSON access lines among captured stdout."""
    lines = [json.loads(line) for line in output.splitlines() if line.startswith("{")]
    return [line for line in lines if line.get("event") == "request"]


def test_access_log_is_json_with_request_id_match_id_and_version_never_a_token_or_card(
        client, capfd):
    capfd.readouterr()
    created = client.post("/v1/matches", json={"game": "all-fours", "players": ["ana", "ben"],
                                                "dealer": "ana", "seed": 42}).get_json()
    ben = {"Authorization": f"Bearer {created['seats']['ben']}"}
    view = client.get(f"/v1/matches/{created['id']}", headers={**ben, "X-Request-ID": "trace-7"})
    assert view.headers["X-Request-ID"] == "trace-7"
    moved = client.post(f"/v1/matches/{created['id']}/actions", headers={**ben, "If-Match": '"1"'},
                        json={"action": {"type": "stand", "player": "ben"}})
    assert moved.status_code == 200
    output = capfd.readouterr().out
    create_line, view_line, move_line = access_lines(output)
    assert view_line["request_id"] == "trace-7"
    assert re.fullmatch(r"[0-9a-f]{16}", create_line["request_id"])
    assert create_line["request_id"] != move_line["request_id"]
    assert (view_line["match_id"], view_line["version"]) == (created["id"], 1)
    assert (move_line["match_id"], move_line["version"], move_line["status"]) == (created["id"], 2, 200)
    assert view_line["endpoint"] == "/v1/matches/<match_id>" and view_line["method"] == "GET"
    for token in [created["host_token"], *created["seats"].values()]:
        assert token not in output
    for card in view.get_json()["view"]["hand"]:  # ben's hidden hand
        assert f'"{card}"' not in output


def test_a_bad_x_request_id_is_replaced_by_a_generated_one(client):
    for bad in ["", "x" * 129, "has space", "quote\"s"]:
        answer = client.get("/livez", headers={"X-Request-ID": bad})
        assert re.fullmatch(r"[0-9a-f]{16}", answer.headers["X-Request-ID"]), bad
    first, second = (client.get("/livez").headers["X-Request-ID"] for _ in range(2))
    assert first != second


def test_gunicorn_builds_no_access_line_of_its_own():
    """The app writes the access line (referee.ops.hooks); gunicorn's logger, configured by a
    logconfig_dict, would build one more per request (atoms, a record) for no handler."""
    from gunicorn.config import Config
    from gunicorn.glogging import Logger

    from referee.serving import gunicorn_conf

    cfg = Config()
    cfg.set("logconfig_dict", gunicorn_conf.logconfig_dict)
    assert Logger(cfg).access_log_enabled is True  # what gunicorn alone would do
    logger = gunicorn_conf.logger_class(cfg)
    assert logger.access_log_enabled is False

    def no_atoms(*args):
        raise AssertionError("gunicorn built an access line")

    logger.atoms = no_atoms
    logger.access(None, None, {}, 0.001)  # returns before building anything


def test_every_store_operation_is_counted_when_the_store_fails():
    # a store method left out of ops.store.OPERATIONS would fail without counting in
    # referee_store_errors_total (the kept states' checkpoint read, the stream's read)
    from referee.ops.store import OPERATIONS
    from referee.store import MatchStore
    assert set(MatchStore.__abstractmethods__) <= set(OPERATIONS)
