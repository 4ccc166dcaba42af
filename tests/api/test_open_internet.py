"""Hardening for the open internet (issue 12, black-box findings F6, F9, F10 and the bounds):
free text under the seat-name rules, strict parsing of numbers, entity tags and body
encodings, the token checked before the body, a rematch before the end as a state conflict,
path segments and long integers bounded in problems, and 429 texts that are sentences."""
from __future__ import annotations

import json

import pytest
from flask import g

from referee.api.problem_bounds import QUOTE_CHARS, bound_problem
from referee.serving.app import create_app
from referee.schemas.fields import text_problem

MY = {"Accept-Language": "my"}
BAD_TEXT = {"bidi": "mis\u202etake", "nul": "a\u0000b", "esc": "a\u001b[31mb",
            "hangul-filler": "ok\u3164", "zero-width": "a\u200bb", "spaces": "   ",
            "newline": "line one\nline two", "padded": " reason", "mark-first": "\u0301x",
            "not-nfc": "Jose\u0301"}


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def match(client):
    """A digital All Fours match at version 1 (AF-S1: ben deals, ana stands or begs)."""
    created = client.post("/v1/matches", json={"game": "all-fours", "players": ["ana", "ben"],
                                               "dealer": "ben", "seed": 5})
    assert created.status_code == 201
    return created.get_json()


def _fields(answer) -> list[str]:
    return [e["field"] for e in answer.get_json()["errors"]]


# F6: free text follows the seat-name rules (one validator: text_problem).

@pytest.mark.parametrize("text", BAD_TEXT.values(), ids=BAD_TEXT.keys())
def test_a_rollback_reason_a_table_cannot_read_is_422_naming_reason(client, match, text):
    answer = client.post(f"/v1/matches/{match['id']}/rollback", headers={
        **_bearer(match["host_token"]), "If-Match": '"1"'},
        json={"to_version": 1, "reason": text})
    assert answer.status_code == 422, answer.get_json()
    assert _fields(answer) == ["reason"]
    assert answer.get_json()["errors"][0]["message"] == text_problem(text)


@pytest.mark.parametrize("text", BAD_TEXT.values(), ids=BAD_TEXT.keys())
def test_a_string_seed_a_table_cannot_read_is_422_naming_seed(client, text):
    for path, body in (("/v1/matches", {"game": "spy", "players": ["ana", "ben"]}),
                       ("/v1/games/coup/setup", {"players": ["ana", "ben"]})):
        answer = client.post(path, json={**body, "seed": text})
        assert answer.status_code == 422, (path, answer.get_json())
        assert _fields(answer) == ["seed"]


def test_readable_free_text_is_taken_as_sent(client, match):
    assert client.post("/v1/matches", json={"game": "spy", "players": ["ana", "ben"],
                                            "seed": "ခင်မောင် 42"}).status_code == 201
    answer = client.post(f"/v1/matches/{match['id']}/rollback", headers={
        **_bearer(match["host_token"]), "If-Match": '"1"'},
        json={"to_version": 1, "reason": "Zoë misread the kick"})
    assert answer.status_code != 422 or _fields(answer) != ["reason"], answer.get_json()


def test_the_seat_name_rules_begin_with_the_free_text_rules():
    # a seat's name is free text first (one check, text_problem), then Unicode TS #39's
    # checks of one name (issue 21: tests/api/test_confusable_names.py)
    from referee.schemas import fields
    assert all(text_problem(text) for text in BAD_TEXT.values())
    assert all(fields.name_problem(text) == text_problem(text) for text in BAD_TEXT.values())


# F9: strict parsing.

@pytest.mark.parametrize("after", ["\uff11", "+1", " 1", "1 ", "\u0661", "1e0", "0x1",
                                   "9" * 30])
def test_events_after_takes_ascii_digits_only(client, match, after):
    answer = client.get(f"/v1/matches/{match['id']}/events", query_string={"after": after})
    assert answer.status_code == 422, (after, answer.get_json())
    assert _fields(answer) == ["query.after"]


def test_events_after_in_ascii_digits_still_works(client, match):
    assert client.get(f"/v1/matches/{match['id']}/events?after=0").status_code == 200
    assert client.get(f"/v1/matches/{match['id']}/events?after=007").status_code == 200


@pytest.mark.parametrize("if_match, message", [
    ('W/"1"', "a weak entity tag"),  # RFC 9110 13.1.1: If-Match compares strongly
    ('"1', "not a version"), ('1"', "not a version"), ('""1""', "not a version"),
    ('"\uff11"', "not a version"), ('"1", "2"', "not a version"), ("*", "not a version"),
    ('"01"', "not a version"), ("01", "not a version"), ('"007"', "not a version"),
    ('"00"', "not a version"),  # a version tag is the ETag sent: canonical digits (RFC 9110 8.8.3)
    ('"0"', "out of range"), ('"9223372036854775808"', "out of range"),
    ('"' + "1" + "0" * 30 + '"', "out of range")])
def test_an_if_match_that_is_not_one_strong_version_is_422_naming_if_match(
        client, match, if_match, message):
    answer = client.post(f"/v1/matches/{match['id']}/actions", headers={
        **_bearer(match["seats"]["ana"]), "If-Match": if_match},
        json={"action": {"type": "stand", "player": "ana"}})
    assert answer.status_code == 422, (if_match, answer.get_json())
    assert answer.get_json()["errors"] == [{"field": "If-Match", "message": message}]


@pytest.mark.parametrize("version", [10**30, 2**63, 0])
def test_an_out_of_range_expected_version_is_422_as_in_if_match(client, match, version):
    """The same number in the body and in If-Match gets the same answer (no 409 for one and
    422 for the other)."""
    for path, body in (("/actions", {"action": {"type": "stand", "player": "ana"}}),
                       ("/rollback", {"to_version": 1, "reason": "redo"})):
        token = match["seats"]["ana"] if path == "/actions" else match["host_token"]
        in_body = client.post(f"/v1/matches/{match['id']}{path}", headers=_bearer(token),
                              json={**body, "expected_version": version})
        in_header = client.post(f"/v1/matches/{match['id']}{path}", headers={
            **_bearer(token), "If-Match": f'"{version}"'}, json=body)
        assert in_body.status_code == in_header.status_code == 422, (path, version)
        assert _fields(in_body) == ["expected_version"] and _fields(in_header) == ["If-Match"]


@pytest.mark.parametrize("data, status, field", [
    (b"\xef\xbb\xbf{}", 400, "body"),                  # a UTF-8 byte order mark
    ("{}".encode("utf-16"), 400, "body"),              # UTF-16 (json.loads would guess it)
    ('{"game": "Jos\u00e9"}'.encode("latin-1"), 400, "body"),  # not UTF-8
])
def test_a_body_that_is_not_plain_utf8_is_refused_not_guessed(client, data, status, field):
    answer = client.post("/v1/matches", data=data, content_type="application/json")
    assert answer.status_code == status, answer.get_json()
    assert answer.mimetype == "application/problem+json"
    assert _fields(answer) == [field]


@pytest.mark.parametrize("charset", ["latin-1", "utf-16", "iso-8859-1"])
def test_a_charset_other_than_utf8_is_415_naming_content_type(client, charset):
    answer = client.post("/v1/matches", data=b'{"game": "spy", "players": ["a", "b"]}',
                         content_type=f"application/json; charset={charset}")
    assert answer.status_code == 415
    assert _fields(answer) == ["Content-Type"]
    assert client.post("/v1/matches", data=b'{"game": "spy", "players": ["a", "b"]}',
                       content_type="application/json; charset=UTF-8").status_code == 201


def test_malformed_json_is_a_sentence_in_each_language_with_the_position(client):
    en, my = (client.post("/v1/matches", data=b'{"game": "spy",}', headers={
        "Content-Type": "application/json", **extra}) for extra in ({}, MY))
    assert en.status_code == my.status_code == 400
    assert en.get_json()["errors"][0]["message"] == ("Not valid JSON at line 1, column 16 "
                                                     "(character 15).")
    message = my.get_json()["errors"][0]["message"]
    assert "Expecting" not in message and "16" in message and "\u1000" <= message[0] <= "\u109f"


def test_options_is_204_with_allow_and_no_body(client):
    answer = client.options("/v1/games")
    assert answer.status_code == 204
    assert {m.strip() for m in answer.headers["Allow"].split(",")} == {"GET", "HEAD",
                                                                       "OPTIONS"}
    assert answer.data == b"" and "Content-Type" not in answer.headers


# F10: the token before the body; a rematch before the end is a state conflict.

@pytest.mark.parametrize("path, data", [
    ("/actions", b"{"), ("/actions", b'{"x": 1}'), ("/actions", b'{"a": 1, "a": 2}'),
    ("/rollback", b'{"to_version": "x"}'), ("/rollback/votes", b"[" * 100),
    ("/actions", b"\xef\xbb\xbf{}")])
@pytest.mark.parametrize("token", [None, "not-a-token"])
def test_without_a_valid_token_a_match_write_is_401_before_any_body_check(
        client, match, path, data, token):
    headers = {"Content-Type": "application/json", **(_bearer(token) if token else {})}
    answer = client.post(f"/v1/matches/{match['id']}{path}", data=data, headers=headers)
    assert answer.status_code == 401, answer.get_json()
    assert _fields(answer) == ["Authorization"]
    assert answer.headers["WWW-Authenticate"] == "Bearer"


def test_with_a_seat_token_the_body_is_checked_as_before(client, match):
    answer = client.post(f"/v1/matches/{match['id']}/actions", data=b'{"x": 1}', headers={
        "Content-Type": "application/json", **_bearer(match["seats"]["ana"])})
    assert answer.status_code == 422 and "x" in _fields(answer)


def test_a_rematch_before_the_end_is_409_match_not_over(client, match):
    for extra in ({}, MY):
        answer = client.post(f"/v1/matches/{match['id']}/rematch",
                             headers={**_bearer(match["host_token"]), **extra})
        assert answer.status_code == 409
        body = answer.get_json()
        assert body["type"] == "/problems/match-not-over"
        assert body["errors"][0]["field"] == "path"
    assert client.post(f"/v1/matches/{match['id']}/rematch", headers=_bearer(
        match["host_token"])).get_json()["detail"] == (
        "A rematch starts once the match is over; this one is still being played.")


# Bounds: path segments and long integers are quoted at most QUOTE_CHARS characters.

@pytest.mark.parametrize("path", ["/v1/matches/" + "m" * 5000, "/v1/games/" + "g" * 5000,
                                  "/v1/games/" + "g" * 5000 + "/rules",
                                  "/v1/games/spy/rules/" + "R" * 5000])
def test_a_long_path_segment_is_quoted_cut(client, path):
    for extra in ({}, MY):
        answer = client.get(path, headers=extra)
        assert answer.status_code == 404
        body = answer.get_json()
        texts = [body["detail"], body["instance"], *(e["message"] for e in body["errors"])]
        assert all(len(text) < 400 for text in texts), texts
        long = path.rstrip("/rules").rsplit("/", 1)[-1]
        assert long[:QUOTE_CHARS + 1] not in answer.get_data(as_text=True)


def test_a_long_integer_quoted_in_a_problem_is_cut():
    app = create_app({"TESTING": True, "REDIS_URL": None})
    number = 10**200
    with app.test_request_context("/v1/games/spy/setup", method="POST"):
        g.json_body = {"seed": number}
        body = bound_problem({"title": "Invalid input", "detail": f"seed {number} is wrong",
                              "errors": [{"field": "seed", "message": f"{number} is wrong"}]})
    assert body["detail"] == f"seed {str(number)[:QUOTE_CHARS]}… is wrong"
    assert body["errors"][0]["message"] == f"{str(number)[:QUOTE_CHARS]}… is wrong"


# 429: a sentence, not Flask-Limiter's "20 per 1 minute", in both languages.

def test_a_rate_limited_answer_says_its_budget_in_a_sentence_in_both_languages():
    app = create_app({"TESTING": True, "REDIS_URL": None, "LIMIT_CREATE": "1/minute",
                      "RATE_LIMITS_ENABLED": True})
    client = app.test_client()
    body = {"game": "spy", "players": ["a", "b"]}
    assert client.post("/v1/matches", json=body).status_code == 201
    en = client.post("/v1/matches", json=body)
    my = client.post("/v1/matches", json=body, headers=MY)
    assert en.status_code == my.status_code == 429
    detail = en.get_json()["detail"]
    assert detail.startswith("Too many requests: the create budget allows 1 requests every "
                             "60 seconds; retry in ")
    assert " per " not in detail and " per " not in my.get_json()["detail"]
    assert "Too many" not in my.get_json()["detail"]
    assert "60" in my.get_json()["detail"]


@pytest.mark.parametrize("path, instance", [
    ("/v1/matches/%E2%80%AE", "/v1/matches/%E2%80%AE"),     # U+202E right-to-left override
    ("/v1/games/%00", "/v1/games/%00"),                      # NUL
    ("/v1/games/chess", "/v1/games/chess"),
])
def test_a_problem_instance_is_the_path_percent_encoded(client, path, instance):
    # RFC 9457 instance is a URI reference: a decoded bidi or NUL character in it would reach
    # the reader's screen; it is sent percent-encoded
    assert client.get(path).get_json()["instance"] == instance


def test_a_problem_detail_says_each_sentence_once_and_errors_name_each_field(client):
    # SPY-S2: two bases of 6 cards where 2 players need 7: the same sentence for both bases is
    # said once in `detail`; `errors` names bases.ana.cards and bases.ben.cards
    base = {"cards": ["unknown"] * 6, "spy_gap": 0, "facing": "right"}
    answer = client.post("/v1/games/spy/setup", json={
        "players": ["ana", "ben"], "mode": "table", "bases": {"ana": base, "ben": base}})
    problem = answer.get_json()
    assert answer.status_code == 422, problem
    fields = [e["field"] for e in problem["errors"]]
    assert "bases.ana.cards" in fields and "bases.ben.cards" in fields
    sentence = next(e["message"] for e in problem["errors"] if e["field"] == "bases.ana.cards")
    assert problem["detail"].count(sentence) == 1


@pytest.mark.parametrize("game, path", [("coup", ("treasury",)), ("coup", ("coins", "ana")),
                                        ("all-fours", ("hand_points", "ana"))])
def test_an_integer_too_long_for_any_game_is_422_before_an_engine_adds_it_up(client, game,
                                                                           path):
    # 4300 nines passed the parser; Coup's coin sum (COUP-S7) or All Fours' hand points then
    # made a 4301-digit number Python cannot write: a 500.  Past 80 digits the body is refused.
    body = {"players": ["ana", "ben"], "seed": 7, **({"dealer": "ana"} if game == "all-fours"
                                                       else {})}
    state = client.post(f"/v1/games/{game}/setup", json=body).get_json()["state"]
    for digits, status, slug in ((4300, 422, "invalid-input"), (81, 422, "invalid-input"),
                                 (80, 422, "impossible-state")):
        holder = state
        for key in path[:-1]:
            holder = holder[key]
        holder[path[-1]] = int("9" * digits)
        answer = client.post(f"/v1/games/{game}/legal-actions", json={"state": state})
        problem = answer.get_json()
        assert (answer.status_code, problem["type"]) == (status, f"/problems/{slug}"), problem
        assert len(answer.data) < 16 * 1024
        if digits > 80:  # the guard names the number's field, as the schemas would
            assert [e["field"] for e in problem["errors"]] == [".".join(("state", *path))]


@pytest.mark.parametrize("path, body", [
    ("/v1/matches", {"game": "all-fours", "players": ["ana", "ben"]}),
    ("/v1/games/all-fours/setup", {"players": ["ana", "ben"]}),
    ("/v1/games/coup/setup", {"players": ["ana", "ben"]})])
@pytest.mark.parametrize("seed", ["7" * 5000, "-" + "7" * 81])
def test_a_seed_of_thousands_of_digits_is_422_naming_seed(client, path, body, seed):
    """The request guard refuses an integer of more than 80 digits before any schema reads
    it; the problem names the field that holds it (``seed``), not the whole ``body``."""
    raw = json.dumps(body)[:-1] + f', "seed": {seed}}}'
    for language in ("en", "my"):
        answer = client.post(path, data=raw, content_type="application/json",
                             headers={"Accept-Language": language})
        problem = answer.get_json()
        assert (answer.status_code, problem["type"]) == (422, "/problems/invalid-input")
        assert [e["field"] for e in problem["errors"]] == ["seed"], problem


def test_af_k1_a_tampered_hand_points_is_422_naming_both_tallies_as_json_not_a_500(client):
    # AF-K1: after the first kick the hand's points are known; a snapshot saying otherwise is
    # impossible.  Its message quotes two tallies (objects): written as JSON, in each language.
    state = client.post("/v1/games/all-fours/setup", json={
        "players": ["ana", "ben"], "dealer": "ana", "seed": 7}).get_json()["state"]
    real = dict(state["hand_points"])
    state["hand_points"]["ana"] = real["ana"] + 1
    for language in ("en", "my"):
        answer = client.post("/v1/games/all-fours/legal-actions", json={"state": state},
                             headers={"Accept-Language": language})
        problem = answer.get_json()
        assert answer.status_code == 422 and problem["type"] == "/problems/impossible-state"
        message = next(e["message"] for e in problem["errors"]
                       if e["field"] == "state.hand_points")
        assert f'"ana": {real["ana"]}' in message and "{'ana'" not in message


@pytest.mark.parametrize("content_type", [
    "application/merge-patch+json", "application/json-patch+json", "application/problem+json",
    "application/vnd.api+json", "application/ld+json", "text/json", "text/plain",
    "application/jsonx"])
def test_a_body_of_another_media_type_is_415_naming_it(client, content_type):
    """README "Errors": every body is application/json; a +json type names another document
    (a merge patch is not a match body), so it is refused like any other type, not read."""
    answer = client.post("/v1/matches", data=b'{"game": "spy", "players": ["a", "b"]}',
                         content_type=content_type)
    assert answer.status_code == 415
    problem = answer.get_json()
    assert problem["type"] == "/problems/unsupported-media-type"
    assert problem["detail"] == f"Send the body as application/json, not {content_type}."
    assert problem["errors"] == [{"field": "Content-Type",
                                  "message": "must be application/json"}]


@pytest.mark.parametrize("content_type", [
    "application/json", "Application/JSON", "application/json; charset=utf-8",
    "application/json;charset=UTF-8;profile=x", "application/json; v=1"])
def test_application_json_is_read_whatever_its_parameters(client, content_type):
    answer = client.post("/v1/matches", data=b'{"game": "spy", "players": ["a", "b"]}',
                         content_type=content_type)
    assert answer.status_code == 201, answer.get_json()
