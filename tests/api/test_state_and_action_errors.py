"""A /validate or /apply body with a wrong ``state`` and a wrong ``action`` names every wrong
field of both in one ``invalid-input`` problem, in the order the request holds the two: a
client fixes them all at once instead of learning of the action's only after fixing the
state.  Types come before possibility: a snapshot of the right types that no game reaches is
``impossible-state`` only beside a valid action."""
from __future__ import annotations

import pytest

from referee.registry import GAMES

ENTRY = GAMES["all-fours"]
STATE = ENTRY.engine.setup({**ENTRY.example_setup, "mode": "digital",
                            "options": ENTRY.engine.resolve_options({})}, 5)
WRONG_TYPE = {**STATE, "dealer": 7}  # the dealer is a player's name: a string
UNSEATED = {**STATE, "dealer": "zed"}  # the right type, nobody seated (impossible)
UNKNOWN_TYPE = {"type": "fly", "player": STATE["players"][0]}
STAND = {"type": "stand", "player": STATE["players"][0]}
MY = {"Accept-Language": "my"}


def _problem(client, path, body, headers=None):
    answer = client.post(f"/v1/games/all-fours/{path}", json=body, headers=headers or {})
    assert answer.status_code == 422
    return answer.get_json()


@pytest.mark.parametrize("path", ["validate", "apply"])
def test_a_wrong_state_and_an_unknown_action_type_are_both_named_in_the_request_s_order(
        client, path):
    problem = _problem(client, path, {"state": WRONG_TYPE, "action": UNKNOWN_TYPE})
    assert problem["type"] == "/problems/invalid-input"
    assert [e["field"] for e in problem["errors"]] == ["state.dealer", "action.type"]
    assert problem["errors"][0]["message"] == "Not a valid string."
    assert problem["errors"][1]["message"].startswith("Unknown action type 'fly' for all-fours")
    assert problem["detail"].startswith("state.dealer: Not a valid string.; action.type: ")
    backwards = _problem(client, path, {"action": UNKNOWN_TYPE, "state": WRONG_TYPE})
    assert [e["field"] for e in backwards["errors"]] == ["action.type", "state.dealer"]


@pytest.mark.parametrize("path", ["validate", "apply"])
def test_a_wrong_state_and_a_wrong_action_field_are_both_named(client, path):
    action = {**STAND, "player": 3}
    problem = _problem(client, path, {"state": WRONG_TYPE, "action": action})
    assert [e["field"] for e in problem["errors"]] == ["state.dealer", "action.player"]


@pytest.mark.parametrize("path", ["validate", "apply"])
def test_types_come_before_possibility(client, path):
    """An impossible snapshot (AF-D2: the dealer is one of the players) beside an unknown
    action type: the action's type is named; beside a valid action, the snapshot's rule."""
    problem = _problem(client, path, {"state": UNSEATED, "action": UNKNOWN_TYPE})
    assert problem["type"] == "/problems/invalid-input"
    assert [e["field"] for e in problem["errors"]] == ["action.type"]
    problem = _problem(client, path, {"state": UNSEATED, "action": STAND})
    assert problem["type"] == "/problems/impossible-state"
    assert [(e["field"], e["rule"]) for e in problem["errors"]] == [("state.dealer", "AF-D2")]


def test_the_detail_of_both_is_burmese_part_by_part(client):
    """The action type's message holds "; " itself ("…for all-fours; one of: …"): the detail
    is still cut at each field, so every part is translated."""
    problem = _problem(client, "validate", {"action": UNKNOWN_TYPE, "state": WRONG_TYPE}, MY)
    assert [e["field"] for e in problem["errors"]] == ["action.type", "state.dealer"]
    first, second = problem["errors"]
    assert problem["detail"] == (f"action.type: {first['message']}; "
                                 f"state.dealer: {second['message']}")
    assert "Unknown action type" not in problem["detail"]
    assert "Not a valid" not in problem["detail"]
