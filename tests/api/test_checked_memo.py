"""The memo of snapshots already checked (``referee.matches.checked_memo``, issue 11): a snapshot
sent again gets the verdict it got the first time, without its check being run, and only that
snapshot: the same JSON, for the same game.  A refused snapshot is never remembered.

The memo may change speed and nothing else, so every answer is compared with the memo off
(every snapshot checked) over played-out snapshots of every game."""
from __future__ import annotations

import copy
import json

import pytest

from bench.payloads import playout, setup_body
from referee.matches.checked_memo import MEMO, CheckedMemo
from referee.registry import GAMES


def requests_of(game: str) -> list[tuple[str, dict]]:
    """``(path, body)`` of legal-actions, validate and apply at a dozen states of a seeded
    playout of ``game`` (each with the action the playout took there)."""
    _, steps = playout(game, 3, limit=60, setup=setup_body(game, GAMES[game].engine.min_players))
    out = []
    for state, action in steps[:: max(1, len(steps) // 12)]:
        out += [(f"/v1/games/{game}/legal-actions", {"state": state}),
                (f"/v1/games/{game}/validate", {"state": state, "action": action}),
                (f"/v1/games/{game}/apply", {"state": state, "action": action})]
    return out


def answers(client, requests) -> list[tuple[int, bytes]]:
    return [(r.status_code, r.data) for r in (client.post(path, json=body)
                                              for path, body in requests)]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_answers_with_the_memo_warm_are_those_with_it_off(client, monkeypatch, game):
    """Every legal-actions/validate/apply answer, byte for byte, is the same whether its
    snapshot was checked (memo off), checked now, or remembered from an earlier request."""
    requests = requests_of(game)
    monkeypatch.setattr(MEMO, "size", 0)
    off = answers(client, requests)
    monkeypatch.setattr(MEMO, "size", 4096)
    cold, warm = answers(client, requests), answers(client, requests)
    assert all(status == 200 for status, _ in off)
    assert cold == off and warm == off


def tampered(state: dict) -> dict:
    """``state`` with one more coin or card than the rules allow somewhere (a snapshot that
    is the same but for one value)."""
    out = copy.deepcopy(state)
    out["players"] = out["players"] + out["players"][:1]  # a seat twice: impossible
    return out


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_snapshot_differing_in_one_value_from_a_passed_one_is_checked(client, game):
    entry = GAMES[game]
    state = entry.engine.setup({**entry.example_setup, "mode": "digital",
                                "options": entry.engine.resolve_options({})}, 5)
    url = f"/v1/games/{game}/legal-actions"
    assert client.post(url, json={"state": state}).status_code == 200
    refused = client.post(url, json={"state": tampered(state)})
    assert refused.status_code == 422, refused.get_json()


def test_a_memo_keyed_loosely_would_pass_the_tampered_snapshot(client, monkeypatch):
    """The test above can fail: keyed by the game alone, the memo passes the tampered
    snapshot after the real one."""
    monkeypatch.setattr(CheckedMemo, "key", lambda self, game, state: game.encode())
    test_game = "all-fours"
    with pytest.raises(AssertionError):
        test_a_snapshot_differing_in_one_value_from_a_passed_one_is_checked(client, test_game)


def test_the_same_json_for_another_game_is_another_key():
    state = {"players": ["ana", "ben"]}
    assert MEMO.key("coup", state) != MEMO.key("spy", state)
    assert MEMO.key("coup", state) == MEMO.key("coup", copy.deepcopy(state))
    # JSON values that Python compares equal are different JSON, so different keys
    assert MEMO.key("coup", {"coins": 1}) != MEMO.key("coup", {"coins": 1.0})
    assert MEMO.key("coup", {"coins": 1}) != MEMO.key("coup", {"coins": True})


def test_a_refused_snapshot_is_refused_every_time(client):
    entry = GAMES["coup"]
    state = tampered(entry.engine.setup({**entry.example_setup, "mode": "digital",
                                         "options": entry.engine.resolve_options({})}, 5))
    for _ in range(3):
        assert client.post("/v1/games/coup/legal-actions",
                           json={"state": state}).status_code == 422
    assert MEMO._seen == {}


def test_an_integer_past_64_bits_is_not_remembered_and_still_checked():
    assert MEMO.key("coup", {"coins": 2**70}) is None
    assert 2**70 not in MEMO and None not in MEMO


def test_the_memo_is_bounded_and_off_at_size_0():
    memo = CheckedMemo(3)
    keys = [memo.key("coup", {"n": n}) for n in range(4)]
    for key in keys[:3]:
        memo.add(key)
    assert all(key in memo for key in keys[:3])
    memo.add(keys[3])  # full: emptied, then the new one
    assert [key in memo for key in keys] == [False, False, False, True]
    assert CheckedMemo(0).key("coup", {"n": 1}) is None


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_a_non_finite_number_where_a_passed_snapshot_held_null_is_checked(client, number):
    """orjson writes NaN and the infinities as ``null``, so a snapshot holding one (which the
    request guard lets through as Python's parser reads it) must not share the key of the
    passed snapshot holding ``null`` there: ``"winner": NaN`` is refused (a winner is a
    side's name) whether or not ``"winner": null`` passed before."""
    state = GAMES["all-fours"].engine.setup({"players": ["ana", "ben"], "dealer": "ben",
                                             "mode": "digital", "options": GAMES[
                                                 "all-fours"].engine.resolve_options({})}, 42)
    assert state["winner"] is None
    url = "/v1/games/all-fours/legal-actions"
    body = json.dumps({"state": state})
    odd = body.replace('"winner": null', f'"winner": {number}')
    assert odd != body
    fresh = client.post(url, data=odd, content_type="application/json")
    assert fresh.status_code == 422, fresh.get_json()
    assert client.post(url, data=body, content_type="application/json").status_code == 200
    again = client.post(url, data=odd, content_type="application/json")
    assert (again.status_code, again.data) == (fresh.status_code, fresh.data)
    assert MEMO.key("all-fours", {**state, "winner": float("nan")}) is None
    assert MEMO.key("all-fours", state, finite=False) is None  # the guard saw a NaN
