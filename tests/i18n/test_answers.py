"""Answers in the negotiated language: Accept-Language, Content-Language, problems, violations
and the rulebook endpoints, through the public HTTP API."""
from __future__ import annotations

import re

import pytest

from referee.i18n.negotiation import best_language
from referee.rulebook import book

MYANMAR = re.compile("[\u1000-\u109f]")
MY = {"Accept-Language": "my"}


@pytest.mark.parametrize("header, lang", [
    ("my", "my"), ("my-MM", "my"), ("en", "en"), ("fr", "en"), ("*", "en"), ("", "en"),
    ("fr, my;q=0.5", "my"), ("en;q=0.4, my;q=0.8", "my"), ("my;q=0.3, en;q=0.9", "en"),
    ("my;q=0, fr", "en"), ("de;q=1, my;q=0.01", "my"), ("garbage;;q=x", "en"),
    # a region counts for its language with its own quality (RFC 4647 filtering)
    ("my-MM;q=0.5, en;q=0.1", "my"), ("en;q=0.1, my-MM;q=0.5", "my"),
    ("my-MM;q=0.2, en-GB;q=0.6", "en"), ("MY-mm", "my"), ("my_MM;q=0.9, en;q=0.8", "my"),
    ("my, en", "my"), ("en, my", "en"), ("en-US, my;q=0.9", "en"),
    ("*;q=0.5, en;q=0.1", "my"), ("*, my;q=0", "en"), ("my;q=0, my-MM;q=0.9", "en"),
])
def test_accept_language_negotiation_with_quality_values(header, lang):
    assert best_language(header) == lang


@pytest.mark.parametrize("path", ["/livez", "/v1/games", "/v1/games/coup", "/v1/games/nope",
                                  "/v1/games/spy/rules", "/nowhere"])
def test_every_answer_says_its_language(client, path):
    assert client.get(path).headers["Content-Language"] == "en"
    response = client.get(path, headers={"Accept-Language": "fr;q=0.9, my;q=0.5"})
    assert response.headers["Content-Language"] == "my"
    assert "Accept-Language" in response.headers["Vary"]


def _texts(problem):
    yield problem["title"]
    yield problem["detail"]
    for error in problem.get("errors", []):
        yield error["message"]


BAD_REQUESTS = [
    ("get", "/v1/games/nope", None, {}),
    ("get", "/nowhere", None, {}),
    ("delete", "/v1/games", None, {}),
    ("post", "/v1/games/coup/setup", {"players": ["a"], "seed": -1}, {}),
    ("post", "/v1/games/coup/setup", {"players": ["a", "a"], "seed": True}, {}),
    ("post", "/v1/games/coup/setup", {"players": ["host", "b"]}, {}),
    ("post", "/v1/games/all-fours/validate", {"state": {}, "action": {"type": "fly"}}, {}),
    ("post", "/v1/games/all-fours/score", {"sheet": {"players": 3}}, {}),
    ("post", "/v1/games/gnoming/score-round", {"round": {"layouts": 5, "x": 1}}, {}),
    ("post", "/v1/games/spy/setup", "{", {"Content-Type": "application/json"}),
    ("post", "/v1/games/spy/setup", "x", {"Content-Type": "text/plain"}),
    ("post", "/v1/games/spy/setup", "[1]", {"Content-Type": "application/json"}),
    ("get", "/v1/matches/m-nope", None, {}),
    ("get", "/v1/games/coup/rules/COUP-Z9", None, {}),
]


@pytest.mark.parametrize("method, path, body, headers", BAD_REQUESTS)
def test_problems_are_burmese_with_the_same_type_status_and_fields(client, method, path, body,
                                                                   headers):
    """Every title, detail and field message of the HTTP layer has a Burmese text (engine
    sentences come with the engine step of issue 13); the machine parts (type, status, field names, rule IDs) are the same in both languages."""
    def send(extra):
        kwargs = {"headers": {**headers, **extra}}
        if isinstance(body, str):
            kwargs["data"] = body
        elif body is not None:
            kwargs["json"] = body
        return getattr(client, method)(path, **kwargs)

    english, burmese = send({}), send(MY)
    assert english.status_code == burmese.status_code >= 400
    assert burmese.mimetype == "application/problem+json"
    en, my = english.get_json(), burmese.get_json()
    assert (en["type"], en["status"]) == (my["type"], my["status"])
    assert [(e["field"], e.get("rule")) for e in en["errors"]] == [
        (e["field"], e.get("rule")) for e in my["errors"]]
    for text in _texts(my):
        assert MYANMAR.search(text), f"not translated: {text!r}"
    for text in _texts(en):
        assert not MYANMAR.search(text)


def _coup_state(client):
    return client.post("/v1/games/coup/setup", json={
        "players": ["a", "b", "c"], "deal": {
            "hands": {"a": ["duchess", "captain"], "b": ["assassin", "countess"],
                      "c": ["ambassador", "duchess"]},
            "court": ["captain", "assassin", "ambassador", "countess", "duchess", "captain",
                      "assassin", "ambassador", "countess"]}}).get_json()["state"]


def test_a_verdict_in_both_languages_carries_rule_and_title(client):
    """Income then a challenge of it (COUP-A1 claims no character): the same rule and field in
    both languages, the rule's title from the rulebook in each."""
    state = _coup_state(client)
    state = client.post("/v1/games/coup/apply", json={
        "state": state, "action": {"type": "income", "player": "a"}}).get_json()["state"]
    body = {"state": state, "action": {"type": "challenge", "player": "b"}}
    en = client.post("/v1/games/coup/validate", json=body).get_json()
    my = client.post("/v1/games/coup/validate", json=body, headers=MY).get_json()
    assert en["legal"] is my["legal"] is False
    assert [v["rule"] for v in en["violations"]] == [v["rule"] for v in my["violations"]]
    for v_en, v_my in zip(en["violations"], my["violations"]):
        rule = book("coup").rule(v_en["rule"])
        assert (v_en["title"], v_my["title"]) == (rule.title["en"], rule.title["my"])


def test_illegal_action_problem_carries_titles_in_the_negotiated_language(client):
    """apply of the dealer begging (AF-B1: only the player on the dealer's right begs)."""
    state = client.post("/v1/games/all-fours/setup", json={
        "players": ["ana", "ben"], "dealer": "ben", "seed": 42}).get_json()["state"]
    response = client.post("/v1/games/all-fours/apply", headers=MY, json={
        "state": state, "action": {"type": "beg", "player": "ben"}})
    problem = response.get_json()
    assert response.status_code == 422 and problem["type"] == "/problems/illegal-action"
    assert problem["title"] == "စည်းမျဉ်းနှင့် မညီသော လုပ်ဆောင်ချက်"
    assert problem["violations"][0]["rule"] == "AF-B1"
    assert problem["violations"][0]["title"] == "မတ်တပ်ရပ် သို့မဟုတ် တောင်း"
    assert response.headers["Content-Language"] == "my"


def test_one_rule_in_both_languages(client):
    """GET /v1/games/coup/rules/COUP-A2 (foreign aid) answers its text in English and Burmese."""
    en = client.get("/v1/games/coup/rules/COUP-A2")
    my = client.get("/v1/games/coup/rules/COUP-A2", headers=MY)
    assert en.status_code == my.status_code == 200
    assert en.get_json()["title"] == "Foreign aid" and en.get_json()["language"] == "en"
    assert "take 2 coins" in en.get_json()["text"]
    assert my.get_json()["title"] == "နိုင်ငံခြားအကူအညီ" and my.get_json()["language"] == "my"
    assert MYANMAR.search(my.get_json()["text"])
    assert {k: v for k, v in en.get_json().items() if k not in (
        "title", "text", "section_title", "language")} == {
        "id": "COUP-A2", "section": "actions", "source": "seed", "also": ["official"],
        "options": [], "beyond_seed": None, "game": "coup"}


def test_a_rule_that_an_option_switches_names_it(client):
    rule = client.get("/v1/games/all-fours/rules/AF-S4").get_json()
    assert rule["options"] == ["game_value", "game_tie"]


@pytest.mark.parametrize("game", ["all-fours", "coup", "gnoming", "spy"])
def test_whole_rulebook_is_served(client, game):
    answer = client.get(f"/v1/games/{game}/rules", headers=MY).get_json()
    assert answer["language"] == "my" and answer["game"] == game
    assert [r["id"] for r in answer["rules"]] == list(book(game).rules)
    assert all(MYANMAR.search(r["text"]) for r in answer["rules"])


def test_unknown_rule_and_unknown_game_are_404_problems(client):
    response = client.get("/v1/games/coup/rules/AF-P3")
    assert response.status_code == 404 and response.mimetype == "application/problem+json"
    assert response.get_json()["errors"] == [{"field": "rule_id",
                                              "message": "no rule 'AF-P3' in this game"}]
    response = client.get("/v1/games/chess/rules")
    assert response.status_code == 404
    assert response.get_json()["type"] == "/problems/unknown-game"


def test_a_game_registered_without_a_rulebook_answers_404_not_500():
    """The toy game of the conformance self-test has no rulebook file."""
    from referee.serving.app import create_app
    from referee.registry import GAMES, GameEntry, register
    from tests.toy import schemas as toy_schemas
    from tests.toy.engine import ToyEngine

    register(GameEntry(ToyEngine(), toy_schemas, example_setup={"players": ["ana", "ben"]}))
    try:
        client = create_app({"TESTING": True, "REDIS_URL": None}).test_client()
        response = client.get("/v1/games/toy/rules", headers=MY)
        assert response.status_code == 404
        problem = response.get_json()
        assert problem["type"] == "/problems/not-found"
        assert problem["errors"][0]["field"] == "game" and MYANMAR.search(problem["detail"])
    finally:
        del GAMES["toy"]
