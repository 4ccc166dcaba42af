"""Bounded work per request (issue 12, item 3): a list longer than its schema allows is refused
before any item is read, and a list stops checking its items after 50 bad ones, so a body of
thousands of bad items costs about what one of fifty does."""
from __future__ import annotations

import json

import pytest
from marshmallow import Schema, ValidationError, fields

from referee.api.body_shape import MAX_CONTAINERS, MAX_MEMBERS, SMALL, _least_object_bytes
from referee.schemas.fields import MAX_ITEM_ERRORS, List, PlayerName

SHEET = {"players": ["a", "b", "c", "d"], "sides": {"X": ["a", "c"], "Y": ["b", "d"]},
         "dealer": "a", "kicks": ["QD"], "beg": "stand"}


def test_af_x1_a_sheet_of_2000_tricks_is_refused_by_its_length_alone(client):
    """A hand has at most 21 tricks (6, or up to 12 more when the pack is run: AF-X1's sheet
    schema); 2000 bad tricks get one error on the list, not 8,000 on its items."""
    tricks = [{"leader": "zz", "cards": ["1X"] * 4} for _ in range(2000)]  # 4000 containers
    answer = client.post("/v1/games/all-fours/score", json={"sheet": {**SHEET, "tricks": tricks}})
    assert answer.status_code == 422
    body = answer.get_json()
    assert body["errors"] == [{"field": "sheet.tricks",
                               "message": "Length must be between 1 and 21."}]
    assert body["error_count"] == 1


def test_a_stock_of_4000_bad_cards_reports_the_first_50_and_stops(client):
    """A snapshot's stock of 4000 "1X" (not an All Fours card) stops at 50 item errors."""
    setup = client.post("/v1/games/all-fours/setup",
                        json={"players": ["a", "b"], "dealer": "b", "seed": 1}).get_json()
    state = {**setup["state"], "stock": ["1X"] * 4000}
    answer = client.post("/v1/games/all-fours/validate",
                         json={"state": state, "action": {"type": "stand", "player": "a"}})
    assert answer.status_code == 422
    body = answer.get_json()
    fields = [e["field"] for e in body["errors"]]
    assert fields == [f"state.stock[{i}]" for i in range(MAX_ITEM_ERRORS)]
    assert body["error_count"] == MAX_ITEM_ERRORS


class _Names(Schema):
    names = List(PlayerName())


@pytest.mark.parametrize("bad, reported", [(3, 3), (50, 50), (3000, 50)])
def test_the_bound_counts_bad_items_only(bad, reported):
    """Good items never count towards the bound; bad ones stop at MAX_ITEM_ERRORS (a plain
    marshmallow List would report all 3000: the bound is what this test can fail on)."""
    names = ["ok"] * 10 + [""] * bad
    with pytest.raises(ValidationError) as caught:
        _Names().load({"names": names})
    errors = caught.value.messages["names"]
    assert len(errors) == reported
    assert min(errors) == 10


def test_a_good_list_loads_as_before():
    assert _Names().load({"names": ["ana", "ben"]}) == {"names": ["ana", "ben"]}


# --- issue 21 item 1: the request guard's counts, and lists and objects that stop early ---

def _raw(value) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def test_a_body_of_more_than_4096_arrays_and_objects_is_refused_before_it_is_parsed(
        client, monkeypatch):
    from referee.api import limits
    parsed = []
    real = limits.fast_loads
    monkeypatch.setattr(limits, "fast_loads", lambda *a: parsed.append(a) or real(*a))
    answer = client.post("/v1/games/coup/setup", data=_raw({"players": [[]] * 4096}),
                         content_type="application/json")  # 4097 with the body itself
    assert answer.status_code == 422 and parsed == []
    assert answer.get_json()["errors"] == [
        {"field": "body", "message": f"more than {MAX_CONTAINERS} arrays and objects"}]
    # brackets inside strings are not arrays: the exact count decides (here 2 containers)
    answer = client.post("/v1/games/coup/setup", data=_raw({"players": ["[" * 5000, "b"]}),
                         content_type="application/json")
    assert answer.status_code == 422 and len(parsed) == 1
    assert "arrays and objects" not in answer.get_data(as_text=True)
    # too deep is still the 400 it was, whatever the count
    answer = client.post("/v1/games/coup/setup", data=b"[" * 5000 + b"]" * 5000,
                         content_type="application/json")
    assert answer.status_code == 400


def test_an_object_of_more_than_1024_members_is_refused_naming_it(client):
    options = {f"k{i}": 0 for i in range(MAX_MEMBERS + 1)}
    answer = client.post("/v1/games/coup/setup", json={"players": ["a", "b"],
                                                        "options": options})
    assert answer.status_code == 422
    assert answer.get_json()["errors"] == [
        {"field": "options", "message": f"more than {MAX_MEMBERS} members"}]
    del options["k0"]  # at the cap: the game's options check decides
    answer = client.post("/v1/games/coup/setup", json={"players": ["a", "b"],
                                                        "options": options})
    assert answer.status_code == 422 and "members" not in answer.get_data(as_text=True)
    assert answer.get_json()["error_count"] == MAX_MEMBERS  # each unknown option, counted


def test_a_body_too_small_for_the_walk_cannot_hold_an_object_past_the_cap():
    """Bodies of at most SMALL bytes skip the walk that measures objects: the smallest JSON
    text of an object of MAX_MEMBERS + 1 distinct members is longer than that."""
    keys = [""] + [chr(c) for c in range(0x20, 0x80) if chr(c) not in '"\\']
    assert len(keys) == 95
    two = (a + b for a in map(chr, range(0x21, 0x7F)) for b in map(chr, range(0x21, 0x7F))
           if '"' not in a + b and "\\" not in a + b)
    while len(keys) < MAX_MEMBERS + 1:
        keys.append(next(two))
    smallest = _raw({key: 0 for key in keys})
    assert len(smallest) == _least_object_bytes(MAX_MEMBERS + 1) > SMALL
    assert SMALL >= 4096  # the common body (a snapshot, an action) is not walked


class _Rows(Schema):
    rows = List(List(fields.String()))


def test_good_items_of_a_list_cost_the_compiled_check_not_marshmallow(monkeypatch):
    """4,000 good rows and a bad one: marshmallow reads the bad one only (it read all 4,001);
    the answer is marshmallow's, the good rows loaded as they were."""
    schema = _Rows()
    inner = schema.fields["rows"].inner
    calls = []
    real = inner.deserialize
    monkeypatch.setattr(inner, "deserialize", lambda value, **kw: calls.append(value) or real(
        value, **kw))
    rows = [["a", "b", "c"]] * 4000 + [["a", 1, "c"]]
    with pytest.raises(ValidationError) as caught:
        schema.load({"rows": rows})
    assert caught.value.messages == {"rows": {4000: {1: ["Not a valid string."]}}}
    assert caught.value.valid_data["rows"][:2] == [["a", "b", "c"]] * 2
    assert calls == [["a", 1, "c"]]
    assert schema.load({"rows": [["x"]] * 3}) == {"rows": [["x"]] * 3}


def test_an_object_keyed_by_players_is_refused_by_its_size_before_any_key_is_read(monkeypatch):
    from referee.schemas.coup import StateSchema
    schema = StateSchema()
    keys = schema.fields["coins"].key_field
    calls = []
    monkeypatch.setattr(keys, "deserialize", lambda *a, **kw: calls.append(a))
    errors = schema.validate({"coins": {f"p{i}": 2 for i in range(9)}})
    assert errors["coins"] == ["Longer than maximum length 8."] and calls == []
    assert "coins" not in schema.validate({"coins": {f"p{i}": 2 for i in range(8)}})


def test_a_body_past_the_limit_is_413_and_its_problem_never_reads_it_again(client):
    """The problem's bounds look for the request's long strings in the body the guard read;
    a body refused unread (413) is not read to find them (a second read raised the 413 again,
    inside its own answer: found by bench/worst_inputs.py)."""
    answer = client.post("/v1/games/coup/setup", data=b"[" + b"0," * 140_000 + b"0]",
                         content_type="application/json")
    assert answer.status_code == 413
    assert answer.get_json()["type"] == "/problems/payload-too-large"
