"""Coup's bad input through the HTTP API: a 422 problem naming the rule and the field, never a
500 (COUP-S1, S3, S7, X1, W1)."""
from __future__ import annotations


def _problem(response, kind):
    assert response.status_code == 422, response.get_json()
    assert response.mimetype == "application/problem+json"
    problem = response.get_json()
    assert problem["type"].endswith(kind), problem
    return problem


def test_invalid_setup_names_the_rule_and_field(client, deal_body):
    hands = {"A": ["duchess", "duchess"], "B": ["duchess", "captain"],
             "C": ["captain", "captain"]}
    body = deal_body({"A": ["captain", "countess"], "B": ["assassin", "duchess"],
                      "C": ["ambassador", "captain"]})
    body["deal"]["hands"] = hands                         # four Duchesses, two Countesses
    problem = _problem(client.post("/v1/games/coup/setup", json=body), "invalid-setup")
    assert "COUP-S3" in {v["rule"] for v in problem["errors"]}
    table = {"players": ["A", "B"], "options": {"first_player": "Z"}}
    problem = _problem(client.post("/v1/games/coup/setup", json=table), "invalid-setup")
    assert [v["rule"] for v in problem["errors"]] == ["COUP-S8"]
    _problem(client.post("/v1/games/coup/setup", json={"players": ["A"]}), "invalid-input")


def test_impossible_state_names_the_field(api, deal_body):
    state = api.setup(deal_body({"A": ["captain", "countess"], "B": ["assassin", "duchess"],
                                 "C": ["ambassador", "captain"]}))
    state["coins"]["A"] = 9                               # 54 coins no more (COUP-S7, X2)
    body = {"state": state, "action": {"type": "income", "player": "A"}}
    problem = _problem(api.client.post("/v1/games/coup/apply", json=body), "impossible-state")
    assert problem["errors"][0]["rule"] == "COUP-S7"
    assert problem["errors"][0]["field"] == "state.treasury"
    state["coins"]["A"] = "nine"
    _problem(api.client.post("/v1/games/coup/validate", json=body), "invalid-input")


def test_unknown_player_target_and_host_are_violations_not_errors(api, deal_body):
    api.setup(deal_body({"A": ["captain", "countess"], "B": ["assassin", "duchess"],
                         "C": ["ambassador", "captain"]}))
    assert api.refused("income", "Z") == {"COUP-S1"}
    assert api.refused("steal", "A", target="Z") == {"COUP-A9"}
    assert api.refused("close_window", "host") == {"COUP-W1"}   # no window open (W1, not T1)
    api.do("tax", "A")
    assert api.legal("host") == [{"type": "close_window", "player": "host"}]
    api.do("close_window", "host")
    assert api.state["coins"]["A"] == 5
