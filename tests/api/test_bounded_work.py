"""Bounded work per request (issue 12, item 3): a list longer than its schema allows is refused
before any item is read, and a list stops checking its items after 50 bad ones, so a body of
thousands of bad items costs about what one of fifty does."""
from __future__ import annotations

import pytest
from marshmallow import Schema, ValidationError

from referee.schemas.fields import MAX_ITEM_ERRORS, List, PlayerName

SHEET = {"players": ["a", "b", "c", "d"], "sides": {"X": ["a", "c"], "Y": ["b", "d"]},
         "dealer": "a", "kicks": ["QD"], "beg": "stand"}


def test_af_x1_a_sheet_of_4000_tricks_is_refused_by_its_length_alone(client):
    """A hand has at most 21 tricks (6, or up to 12 more when the pack is run: AF-X1's sheet
    schema); 4000 bad tricks get one error on the list, not 16,000 on its items."""
    tricks = [{"leader": "zz", "cards": ["1X"] * 4} for _ in range(4000)]
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
