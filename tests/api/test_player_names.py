"""Seat names (issue 12 item 7): printable, trimmed, NFC, nothing that shows nothing, not
starting with a combining mark, unique after case folding — a name a table cannot read or
tell apart is refused with 422 naming the field, never "fixed"."""
from __future__ import annotations

import pytest

from referee.schemas.fields import name_problem

INVISIBLE = ["\u3164", "ana\u3164", "\u115f", "\u1160ben", "\uffa0", "\u2800", "a\u2800b",
             "ana\u034f", "ana\ufe0f", "ana\u180b", "ana\U000e0100"]
CONTROL_OR_BIDI = ["a\u0000", "a\u202eb", "\u200b", "a\u200d", "\u2060", "ana\u00ad", "a\ufeff"]
MARKS = ["\u0301", "\u0301\u0302\u0303", "\u0301ana", "\u20dd", "\u093fक"]
PADDED = [" ana", "ana ", "   ", "\u3000ana"]
FINE = ["ana", "Zoë", "José", "ခင်မောင်", "नमस्ते", "ناصر", "김민준", "\u2764\ufe0f", "A-1 b.c"]


def create(client, players):
    return client.post("/v1/matches", json={"game": "spy", "players": players})


@pytest.mark.parametrize("bad", INVISIBLE + CONTROL_OR_BIDI + MARKS + PADDED)
def test_a_name_that_cannot_be_read_is_422_naming_the_seat(client, bad):
    answer = create(client, ["ben", bad])
    assert answer.status_code == 422, repr(bad)
    assert answer.mimetype == "application/problem+json"
    fields = [e["field"] for e in answer.get_json()["errors"]]
    assert fields == ["players[1]"], (repr(bad), fields)
    assert name_problem(bad) is not None


@pytest.mark.parametrize("bad", ["\u3164", "\u0301", "x\u2800"])
def test_the_same_names_are_refused_in_stateless_setup_and_in_an_action(client, bad):
    for game in ("coup", "gnoming"):
        answer = client.post(f"/v1/games/{game}/setup",
                             json={"players": ["a", bad, "c"], "seed": 1})
        assert answer.status_code == 422
        assert [e["field"] for e in answer.get_json()["errors"]] == ["players[1]"]
    state = client.post("/v1/games/coup/setup",
                        json={"players": ["a", "b", "c"], "seed": 1}).get_json()["state"]
    answer = client.post("/v1/games/coup/validate", json={
        "state": state, "action": {"type": "income", "player": bad}})
    assert answer.status_code == 422
    assert [e["field"] for e in answer.get_json()["errors"]] == ["action.player"]


@pytest.mark.parametrize("good", FINE)
def test_names_in_any_script_are_fine(client, good):
    assert name_problem(good) is None
    assert create(client, ["ben", good]).status_code == 201


def test_the_problem_says_which_character_and_why(client):
    message = create(client, ["ben", "ana\u3164"]).get_json()["errors"][0]["message"]
    assert "U+3164" in message and "HANGUL FILLER" in message
    message = create(client, ["ben", "\u0301ana"]).get_json()["errors"][0]["message"]
    assert "U+0301" in message and "combining mark" in message


def test_names_that_differ_only_in_case_are_one_name(client):
    answer = create(client, ["Ana", "ANA"])
    assert answer.status_code == 422
    assert answer.get_json()["errors"][0]["field"] == "players"
    assert create(client, ["STRASSE", "straße"]).status_code == 422  # full case folding
