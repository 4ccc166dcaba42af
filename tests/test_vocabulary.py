"""Each game's action vocabulary is declared once (issue #10 item 3, ``<game>/vocabulary.py``):
the API's ``ACTION_SCHEMAS``, the OpenAPI ``<Game>Action`` oneOf, the engine's declared
vocabulary and its dispatch table name the same action types; and a wrong-typed field is
refused by the API (422 naming ``action.<field>``) and by the engine (the same field)."""
from __future__ import annotations

import dataclasses

import pytest
from marshmallow import Schema

from referee.contract.openapi import camel, document
from referee.games.common.vocabulary import (ActionSpec, FieldSpec, Phrase, ShapeWords,
                                             Vocabulary, check_shape, dispatch)
from referee.registry import GAMES
from tests.test_conformance import _body as conformance_body

WRONG = {"player": 7, "character": 7, "card": 7, "card_or_unknown": 7, "str": 7,
         "choice": 7, "cards": "10H", "bool": "yes", "int": "1", "position": "a1",
         "pile": "0"}
"""A value of the wrong JSON type for each field kind (the API and the engine refuse it)."""


def vocabulary_sides(game: str, doc: dict) -> dict[str, tuple[str, ...]]:
    """The action types each side of ``game`` knows, sorted: schemas, OpenAPI, engine
    vocabulary, engine dispatch."""
    entry = GAMES[game]
    action = doc["components"]["schemas"][f"{camel(game)}Action"]
    return {"schemas": tuple(sorted(entry.schemas.ACTION_SCHEMAS)),
            "openapi": tuple(sorted(action["discriminator"]["mapping"])),
            "vocabulary": tuple(sorted(entry.engine.vocabulary.types)),
            "dispatch": tuple(sorted(entry.engine.dispatch))}


def disagreements(sides: dict[str, tuple[str, ...]]) -> list[str]:
    """The sides whose types differ from the vocabulary's, with what differs."""
    declared = set(sides["vocabulary"])
    return [f"{name}: {sorted(set(types) ^ declared)}" for name, types in sides.items()
            if set(types) != declared]


@pytest.fixture(scope="module")
def openapi_doc():
    from referee.serving.app import create_app
    return document(create_app({"TESTING": True, "REDIS_URL": None}))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_schemas_openapi_engine_vocabulary_and_dispatch_name_the_same_actions(game, openapi_doc):
    sides = vocabulary_sides(game, openapi_doc)
    assert disagreements(sides) == [], sides
    # the API lists them in the declared order
    assert list(GAMES[game].schemas.ACTION_SCHEMAS) == list(GAMES[game].engine.vocabulary.types)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_schema_has_exactly_the_declared_fields(game):
    for spec in GAMES[game].engine.vocabulary.actions:
        schema = GAMES[game].schemas.ACTION_SCHEMAS[spec.type]
        declared = schema._declared_fields
        assert list(declared) == ["type", "player", *spec.fields], spec.type
        for name, fspec in spec.fields.items():
            assert declared[name].required is fspec.required, (spec.type, name)
        assert schema.__doc__ == spec.doc


def test_the_agreement_check_fails_when_a_type_is_added_to_one_side_only(monkeypatch,
                                                                         openapi_doc):
    """Proof the check above can fail: an action in the schemas only, and one in the
    vocabulary without a handler (the engine cannot even be built: ``dispatch`` raises)."""
    class BogusSchema(Schema):
        pass
    monkeypatch.setitem(GAMES["coup"].schemas.ACTION_SCHEMAS, "bogus", BogusSchema)
    assert disagreements(vocabulary_sides("coup", openapi_doc)) == ["schemas: ['bogus']"]
    vocabulary = GAMES["coup"].engine.vocabulary
    more = dataclasses.replace(vocabulary, actions=(*vocabulary.actions,
                                                    ActionSpec("bogus", "Not a Coup action.")))
    with pytest.raises(ValueError, match="no handler for \\['bogus'\\]"):
        dispatch(more, GAMES["coup"].engine.dispatch)
    with pytest.raises(ValueError, match="undeclared \\['extra'\\]"):
        dispatch(vocabulary, {**GAMES["coup"].engine.dispatch, "extra": None})


def _examples(game: str, mode: str, steps: int = 400):
    """(state, legal action with fields) pairs met in a seeded playout of ``game``, each
    action type first met, with the type seen least often played at each step."""
    entry = GAMES[game]
    engine = entry.engine
    body = {**entry.example_setup,  # the players and mode of a conformance playout
            **conformance_body(entry, len(entry.example_setup["players"]), mode)}
    state = engine.setup(body, 11)
    seen: dict[str, int] = {}
    found = {}
    for _ in range(steps):
        legal = engine.legal_actions(state)
        if not legal:
            break
        for action in legal:
            if set(action) - {"type", "player"} and action["type"] not in found:
                found[action["type"]] = (state, action)
        action = min(legal, key=lambda a: seen.get(a["type"], 0))
        seen[action["type"]] = seen.get(action["type"], 0) + 1
        state, _ = engine.apply(state, action)
    return found


@pytest.mark.parametrize("mode", ["digital", "table"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_wrong_typed_field_is_refused_by_the_api_and_the_engine_naming_it(game, mode, client):
    """Every declared field of every action met in a playout, given a value of the wrong JSON
    type: the API answers 422 naming ``action.<field>``; the engine's own judgement of the
    same action names that field too (its shape check, or the rule that reads the value:
    AF-D1 for a card, AF-K1 for a kick in digital mode, SPY-M1 for steps)."""
    entry = GAMES[game]
    examples = _examples(game, mode)
    assert examples, game
    checked = 0
    for kind, (state, action) in examples.items():
        spec = entry.engine.vocabulary.spec(kind)
        for name in spec.fields:
            bad = {**action, name: WRONG[spec.fields[name].kind]}
            answer = client.post(f"/v1/games/{game}/validate", json={"state": state,
                                                                     "action": bad})
            assert answer.status_code == 422, (kind, name, answer.get_json())
            fields = [e["field"] for e in answer.get_json()["errors"]]
            assert f"action.{name}" in fields, (kind, name, fields)
            refused = [v.field for v in entry.engine.violations(state, bad)]
            assert any(f == f"action.{name}" or f.startswith(f"action.{name}[")
                       for f in refused), (kind, name, refused)
            checked += 1
    assert checked >= 1


def test_the_shape_checker_words_each_flaw_with_the_game_codes():
    """COUP-S1/W1/T1 and the action's rule, as coup.md's Vocabulary: a seat or the host sends
    each action; an unknown field and a wrong type cite the action's rule (COUP-B1 for a
    block), a missing required field counts as null."""
    coup = GAMES["coup"].engine.vocabulary
    players = ["ana", "ben"]
    found = check_shape(coup, {"type": "block", "player": "zed", "character": 3, "x": 1},
                        players)
    assert [(v.rule, v.code, v.field) for v in found] == [
        ("COUP-S1", "coup.action.not_a_player", "action.player"),
        ("COUP-B1", "coup.action.unknown_field", "action.x"),
        ("COUP-B1", "coup.action.field_type", "action.character")]
    assert found[2].params == {"action": "block", "key": "'character'", "types": "str"}
    assert [(v.rule, v.code) for v in check_shape(
        coup, {"type": "close_window", "player": "zed"}, players)] == [
        ("COUP-W1", "coup.action.close_window_by_host")]
    assert check_shape(coup, {"type": "close_window", "player": "host"}, players) == []
    missing = check_shape(coup, {"type": "examine_decide", "player": "ana"}, players)
    assert [(v.rule, v.field) for v in missing] == [("COUP-A8b", "action.swap")]
    assert check_shape(coup, {"type": "examine_decide", "player": "ana", "swap": 1},
                       players)[0].params["types"] == "bool"  # 1 is no boolean
    assert check_shape(coup, {"type": "examine_decide", "player": "ana", "swap": True},
                       players) == []


def test_a_game_without_a_value_phrase_leaves_values_to_its_rules():
    """All Fours words no wrong value at shape level: its rules cite AF-D1 for a card."""
    words = ShapeWords(unknown_type=Phrase("T-1", "t.type", {"kind": "value"}),
                       not_a_player=Phrase("T-2", "t.player"))
    toy = Vocabulary((ActionSpec("play", "Play.", {"card": FieldSpec("card", True)}),), words)
    assert check_shape(toy, {"type": "play", "player": "ana", "card": 7}, ["ana"]) == []
    assert [(v.rule, v.params) for v in check_shape(toy, ["play"], ["ana"])] == [
        ("T-1", {"kind": "None"})]


def _phrases(vocabulary: Vocabulary):
    words = vocabulary.words
    yield from (getattr(words, f.name) for f in dataclasses.fields(words)
                if isinstance(getattr(words, f.name), Phrase))
    yield from (fspec.refusal for spec in vocabulary.actions for fspec in spec.fields.values()
                if fspec.refusal is not None)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_shape_phrase_passes_exactly_the_params_its_catalog_texts_name(game):
    """A phrase's params (facts and constants) are the placeholders of its code's English and
    Burmese texts: a renamed param in a catalog fails here, not as a half-rendered refusal."""
    from referee.i18n.catalogs import placeholders
    from referee.i18n.verdicts import text
    phrases = list(_phrases(GAMES[game].engine.vocabulary))
    assert phrases
    for phrase in phrases:
        for lang in ("en", "my"):
            assert set(placeholders(text(phrase.code, lang))) == {
                *phrase.params, *phrase.constants}, (phrase.code, lang)
