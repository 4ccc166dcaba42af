"""Every problem answer is small whatever the request quotes (issue F2): a user value or key a
text quotes is cut to 64 characters plus "…", a list of places names 10 and counts the rest,
a trick sheet's trick is refused past 4 cards before its items are read, and the whole body
never passes MAX_PROBLEM_BYTES."""
from __future__ import annotations

import json

import pytest

from referee.api.problem_bounds import MAX_PROBLEM_BYTES, QUOTE_CHARS, bound_problem, clip

LONG = "x" * 200_000
SMALL = 2048
"""Every answer below stays under this many bytes (each quotes one or two values)."""

SHEET = {"players": ["a", "b"], "dealer": "a", "kicks": ["2C"], "beg": "stand"}
CASES = {
    "spy first_player": ("/v1/games/spy/setup",
                         {"players": ["a", "b"], "options": {"first_player": LONG}}),
    "spy option value in a dict": ("/v1/games/spy/setup",
                                   {"players": ["a", "b"], "options": {"colours": {
                                       "a": LONG, "b": "red"}}}),
    "all-fours unknown option key": ("/v1/games/all-fours/setup",
                                     {"players": ["a", "b"], "options": {"y" * 200_000: 1}}),
    "unknown top-level key": ("/v1/games/all-fours/setup",
                              {"players": ["a", "b"], "z" * 200_000: 1}),
    "player name": ("/v1/games/all-fours/setup", {"players": ["a", LONG]}),
    "trick of 4000 cards": ("/v1/games/all-fours/score",
                            {"sheet": {**SHEET, "tricks": [{"leader": "a",
                                                            "cards": ["2C"] * 4000}]}}),
}


@pytest.mark.parametrize("lang", ["en", "my"])
@pytest.mark.parametrize("case", list(CASES))
def test_an_answer_quoting_a_long_value_stays_small(client, case, lang):
    path, body = CASES[case]
    response = client.post(path, json=body, headers={"Accept-Language": lang})
    assert response.status_code == 422, response.get_data()[:300]
    assert response.mimetype == "application/problem+json"
    assert len(response.get_data()) < SMALL
    answer = response.get_json()
    assert answer["errors"]
    for text in [answer["detail"], *(e["message"] for e in answer["errors"]),
                 *(e["field"] for e in answer["errors"])]:
        assert "x" * (QUOTE_CHARS + 1) not in text and "y" * (QUOTE_CHARS + 1) not in text
        assert "z" * (QUOTE_CHARS + 1) not in text


def test_a_quoted_value_keeps_64_characters_and_an_ellipsis(client):
    path, body = CASES["all-fours unknown option key"]
    answer = client.post(path, json=body).get_json()
    clipped = "y" * QUOTE_CHARS + "…"
    assert answer["errors"][0]["field"] == f"options.{clipped}"
    assert f"'{clipped}'" in answer["detail"]  # the closing quote is kept


def test_a_trick_holds_at_most_four_cards_refused_before_its_items_are_read(client):
    """The most players All Fours has is 4, so a trick has at most 4 cards; 4000 unknown cards
    give one error (the length), not 4000 (no item is read)."""
    body = {"sheet": {**SHEET, "tricks": [{"leader": "a", "cards": ["ZZ"] * 4000}]}}
    answer = client.post("/v1/games/all-fours/score", json=body).get_json()
    assert answer["type"] == "/problems/invalid-input"
    assert answer["errors"] == [{"field": "sheet.tricks[0].cards",
                                 "message": "Longer than maximum length 4."}]
    assert answer["error_count"] == 1


def test_a_list_of_places_names_ten_and_counts_the_rest_af_x1(client):
    """AF-X1: the 2 of clubs kicked and then played in every one of 21 tricks of 4 is out of
    play 85 times; the sentence names the first 10 places and "… and 75 more"."""
    sheet = {**SHEET, "players": ["a", "b", "c", "d"],
             "tricks": [{"leader": "a", "cards": ["2C"] * 4}] * 21}
    answer = client.post("/v1/games/all-fours/score", json={"sheet": sheet}).get_json()
    [message] = [e["message"] for e in answer["errors"] if "85 times" in e["message"]]
    places = message[message.index("(") + 1:message.index(")")]
    assert places.split(", ") == ["sheet.kicks", *(f"sheet.tricks[0].cards[{i}]"
                                                   for i in range(4)),
                                  *(f"sheet.tricks[1].cards[{i}]" for i in range(4)),
                                  "sheet.tricks[2].cards[0]", "… and 75 more"]


def test_the_whole_problem_body_is_bounded(app):
    """50 errors of long messages (after every text cut) still give at most MAX_PROBLEM_BYTES;
    error_count keeps the true count."""
    body = {"type": "/problems/invalid-input", "title": "Invalid input", "status": 422,
            "detail": "d" * 5000, "errors": [{"field": "f" * 1000, "message": "m" * 1000}
                                             for _ in range(50)], "error_count": 50}
    with app.test_request_context("/v1/games"):
        bounded = bound_problem(body)
    assert len(json.dumps(bounded, separators=(",", ":"))) <= MAX_PROBLEM_BYTES
    assert bounded["detail"] == "d" * 1024 + "…"
    assert bounded["errors"][0] == {"field": "f" * 256 + "…", "message": "m" * 512 + "…"}
    assert 1 <= len(bounded["errors"]) < 50 and bounded["error_count"] == 50


def test_clip():
    assert clip("abc") == "abc"
    assert clip("a" * 65) == "a" * 64 + "…"
    # a quoted value keeps its first 64 characters inside its quotes (README "Errors"), and a
    # value quoted and cut once is not cut again (an engine's message passes bounded_params)
    assert clip("'" + "a" * 70 + "'") == "'" + "a" * 64 + "…'"
    assert clip(clip("'" + "a" * 70 + "'")) == "'" + "a" * 64 + "…'"
    assert clip("'" + "a" * 64 + "'") == "'" + "a" * 64 + "'"
