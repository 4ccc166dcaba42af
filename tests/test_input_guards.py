"""Input guards shared by every endpoint: text that is not Unicode, coerced types."""
import pytest

PROBLEM = "application/problem+json"


@pytest.mark.parametrize("game", ["all-fours", "coup", "spy", "gnoming"])
def test_a_lone_surrogate_is_422_naming_the_field_not_500(client, game):
    raw = '{"players": ["\\ud800", "b", "c", "d"], "seed": 1}'
    response = client.post(f"/v1/games/{game}/setup", data=raw,
                           content_type="application/json")
    assert response.status_code == 422 and response.mimetype == PROBLEM
    assert response.get_json()["errors"][0]["field"] == "players[0]"
    raw = '{"players": ["a", "b", "c"], "seed": "\\ud800"}'
    response = client.post(f"/v1/games/{game}/setup", data=raw,
                           content_type="application/json")
    assert response.get_json()["errors"][0]["field"] == "seed"


def test_a_paired_surrogate_emoji_is_fine(client):
    raw = '{"players": ["\\ud83d\\ude00", "b", "c"], "seed": 1}'
    assert client.post("/v1/games/coup/setup", data=raw,
                       content_type="application/json").status_code == 200


@pytest.mark.parametrize("swap", ["yes", "true", 1, 0, None])
def test_coup_a8b_examine_decide_swap_must_be_a_json_boolean(client, swap):
    state = client.post("/v1/games/coup/setup",
                        json={"players": ["a", "b", "c"], "seed": 1}).get_json()["state"]
    response = client.post("/v1/games/coup/validate", json={
        "state": state, "action": {"type": "examine_decide", "player": "a", "swap": swap}})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["field"] == "action.swap"


@pytest.mark.parametrize("version", [1.5, "1", True])
def test_match_expected_version_must_be_an_integer(client, version):
    created = client.post("/v1/matches", json={"game": "coup", "players": ["a", "b", "c"]})
    match = created.get_json()
    response = client.post(f"/v1/matches/{match['id']}/actions",
                           headers={"Authorization": f"Bearer {match['seats']['a']}"},
                           json={"action": {"type": "income", "player": "a"},
                                 "expected_version": version})
    assert response.status_code == 422
    assert any(e["field"] == "expected_version" for e in response.get_json()["errors"])


def test_an_array_past_4096_items_is_422_naming_it_before_any_schema_walks_it(client):
    """Issue 12 item 3: 65,000 empty tricks took seconds of CPU in the schema; now refused at
    once (the All Fours sheet allows 21 tricks, AF-X1)."""
    sheet = {"players": ["ana", "ben"], "dealer": "ana", "kicks": ["4H"], "beg": "stand",
             "tricks": [0] * 4097}  # (4,097 empty lists: too many arrays, refused before)
    answer = client.post("/v1/games/all-fours/score", json={"sheet": sheet})
    assert answer.status_code == 422
    assert answer.get_json()["errors"] == [{"field": "sheet.tricks",
                                            "message": "more than 4096 items"}]
    sheet["tricks"] = [0] * 4096  # at the cap: the schema decides, by the list's length first
    answer = client.post("/v1/games/all-fours/score", json={"sheet": sheet})
    body = answer.get_json()
    assert answer.status_code == 422 and body["error_count"] == 1
    assert body["errors"] == [{"field": "sheet.tricks",
                               "message": "Length must be between 1 and 21."}]
    sheet["tricks"] = [[]] * 21  # a legal length: each trick that is not an object is listed
    body = client.post("/v1/games/all-fours/score", json={"sheet": sheet}).get_json()
    assert body["error_count"] == 21 and len(body["errors"]) == 21


@pytest.mark.parametrize("kind", [["x"], {"a": 1}, 5, None, True])
@pytest.mark.parametrize("endpoint", ["validate", "apply"])
def test_an_action_type_that_is_not_a_string_is_422_naming_it_in_every_game(client, kind,
                                                                            endpoint):
    """A list or object as ``action.type`` was a 500 (unhashable); every game answers 422
    invalid-input naming ``action.type``."""
    from referee.registry import GAMES
    for name, entry in GAMES.items():
        setup = client.post(f"/v1/games/{name}/setup", json=entry.example_setup)
        assert setup.status_code == 200, name
        answer = client.post(f"/v1/games/{name}/{endpoint}", json={
            "state": setup.get_json()["state"], "action": {"type": kind, "player": "x"}})
        assert answer.status_code == 422, (name, answer.get_json())
        assert answer.get_json()["errors"][0]["field"] == "action.type"
