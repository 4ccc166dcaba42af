"""Seat names (issue 12 item 7): printable, trimmed, NFC, nothing that shows nothing, not
starting with a combining mark, unique after case folding — a name a table cannot read or
tell apart is refused with 422 naming the field, never "fixed"."""
from __future__ import annotations

import pytest

from referee.schemas.fields import name_problem

INVISIBLE = ["\u3164", "ana\u3164", "\u115f", "\u1160ben", "\uffa0", "\u2800", "a\u2800b",
             "ana\u034f", "ana\ufe0f", "ana\u180b", "ana\U000e0100"]
CONTROL_OR_BIDI = ["a\u0000", "a\u202eb", "\u200b", "a\u200d", "\u2060", "ana\u00ad", "a\ufeff",
                   # a joiner outside an emoji sequence shows nothing: refused
                   "a\u200db", "\U0001f469\u200d", "\u200d\U0001f469",
                   "\U0001f469\u200d\u200d\U0001f469", "ana\u200d\U0001f469"]
MARKS = ["\u0301", "\u0301\u0302\u0303", "\u0301ana", "\u20dd", "\u093fक"]
PADDED = [" ana", "ana ", "   ", "\u3000ana"]
FINE = ["ana", "Zoë", "José", "ခင်မောင်", "नमस्ते", "ناصر", "김민준", "\u2764\ufe0f", "A-1 b.c",
        # emoji ZWJ sequences (Unicode TS #51) show one symbol: a family, a coder with a skin
        # tone, the rainbow flag (its white flag with U+FE0F before the joiner)
        "\U0001f469\u200d\U0001f469\u200d\U0001f467", "ana \U0001f468\U0001f3fd\u200d\U0001f4bb",
        "\U0001f3f3\ufe0f\u200d\U0001f308"]


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


def test_a_joined_emoji_and_its_parts_side_by_side_look_alike(client):
    # TS #39: the skeleton drops the joiner, so the family and the three people clash
    answer = create(client, ["\U0001f469\u200d\U0001f469\u200d\U0001f467",
                             "\U0001f469\U0001f469\U0001f467"])
    assert answer.status_code == 422
    assert answer.get_json()["errors"][0]["field"] == "players"


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


@pytest.mark.parametrize("names", [
    ["ana", "\uff41\uff4e\uff41"],  # full-width ａｎａ
    ["ANA", "\uff41\uff4e\uff41"],  # and case at once
    ["\u216b", "xii"],  # the Roman numeral twelve Ⅻ (folds to ⅻ, U+217B)
    ["\u2460", "1"],  # circled digit one
    ["ǅana", "DŽana"],  # U+01C5 (title case) against D + Ž (NFC of Z + caron)
])
def test_names_that_differ_only_in_compatibility_forms_are_one_name(client, names):
    """README "Match errors": names are compared by Unicode's compatibility caseless match
    (NFKC with case folding), so full-width ａｎａ and ana are one name; each is kept as sent
    when it stands alone."""
    answer = create(client, names)
    assert answer.status_code == 422, names
    assert answer.get_json()["errors"] == [{
        "field": "players", "message": "Each player must be named once (names that differ "
        "only in case or in compatibility forms, such as full-width ＡＮＡ and ana, count as "
        "one)."}]
    alone = create(client, [names[1], "ben"])
    assert alone.status_code == 201
    assert alone.get_json()["players"] == [names[1], "ben"]


@pytest.mark.parametrize("name", ["Host", "HOST", "host", "__Referee__", "__REFEREE__",
                                  "\uff28\uff2f\uff33\uff34",  # full-width ＨＯＳＴ
                                  "\uff48ost", "__\uff32eferee__"])
def test_reserved_names_are_compared_after_case_and_compatibility_folding(client, name):
    # README "Match errors": names differ after case and compatibility (NFKC) folding, so a
    # reserved name does too: full-width ＨＯＳＴ reads as host
    # (COUP-W1 "host" is the host; COUP-V1 "__referee__" is the referee's view)
    for path, body in (("/v1/games/all-fours/setup", {"players": [name, "ben"]}),
                       ("/v1/matches", {"game": "coup", "players": ["ana", name]})):
        answer = client.post(path, json=body)
        assert answer.status_code == 422, (path, name)
        problem = answer.get_json()
        assert problem["type"] == "/problems/invalid-input"
        assert problem["errors"] == [{"field": "players", "message": f"{name!r} is reserved"}]
        assert problem["detail"] == (f"{name!r} is reserved (\"host\" names the host and "
                                     "\"__referee__\" the referee's view, in any case, "
                                     "width or look-alike form) and "
                                     "cannot name a player.")
    assert client.post("/v1/games/all-fours/setup",  # a near name is a name like any other
                       json={"players": ["hosts", "referee"], "seed": 1}).status_code == 200


@pytest.mark.parametrize("name", ["court", "Court", "COURT"])
def test_coup_reserves_court_the_place_of_the_court_deck_in_knowledge_records(client, name):
    # COUP-X1: table-mode knowledge lists the places a card may be (["ana", "court"]); a seat
    # named "court" would make them ambiguous.  Only Coup reserves it.
    for path in ("/v1/games/coup/setup", "/v1/matches"):
        answer = client.post(path, json={"game": "coup", "players": ["ana", name, "ben"],
                                         "mode": "table"} if path == "/v1/matches" else
                             {"players": ["ana", name, "ben"], "mode": "table"})
        assert answer.status_code == 422, path
        problem = answer.get_json()
        assert problem["type"] == "/problems/invalid-setup"
        assert [(e["field"], e["rule"]) for e in problem["errors"]] == [("players[1]", "COUP-X1")]
        assert problem["errors"][0]["message"] == (
            f"{name!r} cannot name a player: \"court\" is the court deck's place in what the "
            "referee knows of each card (COUP-X1), so a seat so named would be ambiguous.")
    burmese = client.post("/v1/games/coup/setup", json={"players": ["ana", name]},
                          headers={"Accept-Language": "my"}).get_json()
    assert burmese["errors"][0]["message"].startswith(f"{name!r} ကို ကစားသမားအမည်အဖြစ်")
    assert client.post("/v1/games/spy/setup",
                       json={"players": ["ana", name], "seed": 1}).status_code == 200
