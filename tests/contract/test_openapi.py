"""The committed ``openapi.yaml``: up to date with the code, valid OpenAPI 3.1, served by the
app, with per-game ``oneOf``/``discriminator`` actions and problem+json on every error."""
from __future__ import annotations

import json

import pytest
import yaml
from openapi_spec_validator import validate

from referee.contract.files import drift
from referee.contract.openapi import HTTP_METHODS
from referee.registry import GAMES
from tests.contract.helpers import FAST_YAML, REPO, committed_openapi


def test_contract_files_are_up_to_date_with_the_code():
    """openapi.yaml and schemas/ are what `referee contract` writes from the code now."""
    assert drift() == [], ("contract files out of date: run `referee contract` (or `python -m "
                           "referee.contract`) and commit openapi.yaml and schemas/")


def test_openapi_yaml_is_valid_openapi_3_1():
    doc = committed_openapi()
    assert doc["openapi"] == "3.1.0"
    validate(doc)  # openapi-spec-validator; raises on any problem


def test_the_app_serves_the_committed_document(client):
    yaml_answer = client.get("/openapi.yaml")
    assert yaml_answer.status_code == 200 and yaml_answer.mimetype == "application/yaml"
    assert yaml_answer.get_data(as_text=True) == (REPO / "openapi.yaml").read_text()
    json_answer = client.get("/openapi.json")
    assert json_answer.status_code == 200 and json_answer.mimetype == "application/json"
    assert json.loads(json_answer.get_data(as_text=True)) == committed_openapi()


def _operations(doc):
    for path, item in doc["paths"].items():
        for method in HTTP_METHODS:
            if method in item:
                yield path, method, item[method]


def _resolve(doc, node):
    while "$ref" in node:
        kind, name = node["$ref"].split("/")[2:4]
        node = doc["components"][kind][name]
    return node


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_game_has_concrete_paths_with_its_own_schemas(game):
    doc = committed_openapi()
    prefix = "".join(w.title() for w in game.split("-"))
    assert doc["components"]["schemas"]
    for op in ("setup", "legal-actions", "validate", "apply", "reshuffle"):
        post = doc["paths"][f"/v1/games/{game}/{op}"]["post"]
        # the game is in the path; legal-actions alone takes a query parameter (?form=)
        assert post["tags"] == [game] and [p["name"] for p in post.get("parameters", [])] == (
            ["form"] if op == "legal-actions" else [])
    apply_body = doc["paths"][f"/v1/games/{game}/apply"]["post"]["requestBody"]
    envelope = _resolve(doc, apply_body["content"]["application/json"]["schema"])
    assert envelope["properties"]["state"] == {"$ref": f"#/components/schemas/{prefix}State"}
    assert envelope["properties"]["action"] == {"$ref": f"#/components/schemas/{prefix}Action"}
    assert "/v1/games/{game}/apply" not in doc["paths"]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_actions_are_one_of_with_a_discriminator_on_type(game):
    doc = committed_openapi()
    prefix = "".join(w.title() for w in game.split("-"))
    action = doc["components"]["schemas"][f"{prefix}Action"]
    kinds = list(GAMES[game].schemas.ACTION_SCHEMAS)
    assert action["discriminator"]["propertyName"] == "type"
    assert sorted(action["discriminator"]["mapping"]) == sorted(kinds)
    assert sorted(r["$ref"] for r in action["oneOf"]) == sorted(
        action["discriminator"]["mapping"].values())
    for kind, target in action["discriminator"]["mapping"].items():
        member = _resolve(doc, {"$ref": target})
        assert member["properties"]["type"]["enum"] == [kind]
        assert {"type", "player"} <= set(member["required"])
        assert member["additionalProperties"] is False


def test_every_error_response_is_problem_json():
    doc = committed_openapi()
    seen = 0
    for path, method, operation in _operations(doc):
        responses = operation["responses"]
        assert "default" not in responses, (path, method)
        assert "500" in responses, (path, method)
        if "requestBody" in operation:
            assert {"400", "413", "415", "422"} <= set(responses), (path, method)
        for status, response in responses.items():
            if status[0] in "45":
                content = _resolve(doc, response)["content"]
                assert list(content) == ["application/problem+json"], (path, method, status)
                assert content["application/problem+json"]["schema"] == {
                    "$ref": "#/components/schemas/Problem"}
                seen += 1
    assert seen > 100


def test_nullable_fields_are_openapi_3_1_type_lists():
    schemas = committed_openapi()["components"]["schemas"]
    trump = schemas["AllFoursState"]["properties"]["trump"]
    assert trump["type"] == ["string", "null"] and trump["enum"] == ["C", "D", "H", "S", None]
    loss = schemas["CoupState"]["properties"]["loss"]
    assert loss == {"anyOf": [{"$ref": "#/components/schemas/CoupLoss"}, {"type": "null"}]}
    assert not any("nullable" in json.dumps(s) for s in schemas.values())


def test_operation_ids_are_unique():
    ids = [op["operationId"] for _, _, op in _operations(committed_openapi())]
    assert len(ids) == len(set(ids)) and "postGamesAllFoursApply" in ids


def test_yaml_and_json_renderings_agree(client):
    text = client.get("/openapi.yaml").get_data(as_text=True)
    assert yaml.load(text, Loader=FAST_YAML) == client.get("/openapi.json").get_json()


def test_setup_options_are_documented_from_the_engines_option_table():
    options = committed_openapi()["components"]["schemas"]["AllFoursSetup"]["properties"][
        "options"]
    assert options["additionalProperties"] is False
    assert options["properties"]["target"] == {
        "type": "integer", "default": 14, "minimum": 1, "maximum": 1000,
        "description": "Points that win the game. (AF-S6)"}
    assert options["properties"]["game_tie"]["enum"] == ["none", "non_dealer", "dealer"]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_player_lists_say_their_names_are_unique(game):
    """Names in one game differ after case and compatibility folding (README "Match errors"):
    the setup's and the match creation's player arrays say ``uniqueItems`` and, in words, the
    folding that JSON Schema cannot (F6e)."""
    doc = committed_openapi()
    setup = doc["paths"][f"/v1/games/{game}/setup"]["post"]["requestBody"]
    create = doc["paths"]["/v1/matches"]["post"]["requestBody"]
    for body in (setup, create):
        players = _resolve(doc, body["content"]["application/json"]["schema"])
        players = players["properties"]["players"]
        assert players["uniqueItems"] is True and players["type"] == "array"
        assert "differ after case and compatibility (NFKC) folding" in players["description"]
