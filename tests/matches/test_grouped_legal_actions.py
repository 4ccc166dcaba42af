"""Legal actions for pickers (issue 22 item 3): ``?form=grouped`` on the stateless and the match
``legal-actions`` adds ``groups``, one entry per action type with each field's choices and the
illegal combinations; expanding it gives exactly the flat list (``actions``, the default form's
answer, which stays), in every game and both modes, over seeded random playouts like the
conformance suite's.
"""
from __future__ import annotations

import json
import random

import pytest

from referee.games.base import MODES
from referee.games.common.cards import PACK
from referee.games.common.grouping import MAX_ILLEGAL_SHARE, expand, group
from referee.registry import GAMES
from tests.test_conformance import _body

CASES = [(game, mode, count) for game, entry in sorted(GAMES.items()) for mode in MODES
         for count in entry.player_counts()]
SEEDS = 2


def canonical(actions: list[dict]) -> list[str]:
    return sorted(json.dumps(a, sort_keys=True) for a in actions)


def _check(flat: list[dict], groups: list[dict]) -> None:
    assert canonical(expand(groups)) == canonical(flat)
    assert len(expand(groups)) == len(flat)  # nothing twice
    for entry in groups:  # a picker's entry: never more illegal combinations than legal ones
        legal = len(expand([entry]))
        assert legal >= 1 and len(entry["illegal"]) <= MAX_ILLEGAL_SHARE * legal


@pytest.mark.parametrize("game, mode, count", CASES)
def test_expanding_the_grouped_form_gives_exactly_the_flat_list(game, mode, count):
    entry = GAMES[game].engine
    for seed in range(SEEDS):
        state, rng = entry.setup(_body(GAMES[game], count, mode), seed), random.Random(seed)
        for _ in range(150):
            if entry.is_over(state):
                break
            for player in (None, rng.choice(state["players"])):  # everyone's, and one seat's
                flat = entry.legal_actions(state, player)
                _check(flat, group(flat))
            state, _ = entry.apply(state, rng.choice(entry.legal_actions(state)))


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("mode", MODES)
def test_the_stateless_endpoint_answers_both_forms(client, game, mode):
    engine, rng = GAMES[game].engine, random.Random(game)
    state = engine.setup(_body(GAMES[game], GAMES[game].player_counts()[0], mode), 5)
    url = f"/v1/games/{game}/legal-actions"
    assert client.post(url + "?form=flat", json={"state": state}).get_json() == client.post(
        url, json={"state": state}).get_json()  # flat is the default
    for _ in range(12):
        flat = client.post(url, json={"state": state})
        grouped = client.post(url + "?form=grouped", json={"state": state})
        assert flat.status_code == grouped.status_code == 200, grouped.get_json()
        assert list(flat.get_json()) == ["actions", "to_move"]
        # grouped: the flat list stays (a client typed against it is not broken), plus groups
        assert list(grouped.get_json()) == ["actions", "groups", "to_move"]
        assert grouped.get_json()["actions"] == flat.get_json()["actions"]
        assert grouped.get_json()["to_move"] == flat.get_json()["to_move"]
        _check(flat.get_json()["actions"], grouped.get_json()["groups"])
        if engine.is_over(state):
            break
        state, _ = engine.apply(state, rng.choice(flat.get_json()["actions"]))


def test_af_p1_a_table_seat_s_unknown_hand_is_one_play_with_51_cards(client, table):
    """Table mode: the seat's hand is six unknowns, so every card not seen may be played
    (AF-P1) — 51 flat ``play`` entries (the kick, 9S, is seen), one grouped entry."""
    match = table.create(client, game="all-fours", players=["ana", "ben"], dealer="ana",
                         mode="table", kick="9S")
    assert match.act("host", {"type": "stand", "player": "ben"}, 1).status_code == 200
    flat = match.get("ben", "/legal-actions").get_json()
    assert len(flat["actions"]) == 51 and {a["type"] for a in flat["actions"]} == {"play"}
    grouped = match.get("ben", "/legal-actions?form=grouped")
    assert grouped.status_code == 200 and grouped.headers["ETag"] == '"2"'
    assert grouped.get_json() == {"version": 2, "actions": flat["actions"], "groups": [{
        "type": "play", "player": "ben", "choices": {"card": [c for c in PACK if c != "9S"]},
        "illegal": []}], "to_move": ["ben"]}


def test_coup_a_declaring_seat_s_targets_are_choices(client, table):
    """COUP-T1: at the start the first player declares; steal and assassinate take a target
    (COUP-A6, A5: any other player), coup needs 7 coins (COUP-A4) so is not there."""
    match = table.create(client, game="coup", players=["ana", "ben", "cy"], seed=1)
    groups = match.get("ana", "/legal-actions?form=grouped").get_json()["groups"]
    by_type = {g["type"]: g for g in groups}
    assert by_type["steal"]["choices"] == {"target": ["ben", "cy"]}
    assert by_type["income"]["choices"] == {} and by_type["income"]["illegal"] == []
    assert "coup" not in by_type and "assassinate" not in by_type  # 2 coins: not 3, not 7
    flat = match.legal("ana")
    assert canonical(expand(groups)) == canonical(flat)


@pytest.mark.parametrize("path", ["/v1/games/coup/legal-actions?form=compact",
                                  "/v1/games/coup/legal-actions?form=GROUPED"])
def test_a_bad_form_is_422_naming_the_query_field(client, path):
    state = GAMES["coup"].engine.setup({"players": ["ana", "ben"], "mode": "digital",
                                        "options": GAMES["coup"].engine.resolve_options({})}, 1)
    answer = client.post(path, json={"state": state})
    assert answer.status_code == 422
    assert answer.get_json()["errors"][0]["field"] == "query.form"


def test_a_bad_form_on_a_match_is_422_naming_the_query_field(client, table):
    match = table.create(client, game="coup", players=["ana", "ben"], seed=1)
    answer = match.get("ana", "/legal-actions?form=tree")
    assert answer.status_code == 422
    assert answer.get_json()["errors"][0]["field"] == "query.form"


def test_a_group_that_would_list_more_illegal_than_legal_combinations_is_split():
    """Five legal pairs on a diagonal: the product of the choices is 25, so one group would
    list 20 illegal ones; split by the first field, five groups list none."""
    flat = [{"type": "pair", "player": "ana", "a": i, "b": [i]} for i in range(5)]
    groups = group(flat)
    assert len(groups) == 5 and all(g["illegal"] == [] for g in groups)
    assert groups[0] == {"type": "pair", "player": "ana", "choices": {"a": [0], "b": [[0]]},
                         "illegal": []}
    _check(flat, groups)
    square = [{"type": "pair", "player": "ana", "a": i, "b": [j]} for i in range(3)
              for j in range(3) if (i, j) != (1, 2)]  # 8 of 9: one illegal combination
    assert group(square) == [{"type": "pair", "player": "ana",
                              "choices": {"a": [0, 1, 2], "b": [[0], [1], [2]]},
                              "illegal": [{"a": 1, "b": [2]}]}]
    _check(square, group(square))
