"""The events of a match's first deal are logged at version 1 (``Engine.opening``): All Fours
scores the kick at once (AF-K1) and may end the game there (AF-S6)."""
from __future__ import annotations

import random

import pytest

from referee.registry import GAMES

TWO = {"game": "all-fours", "players": ["ana", "ben"], "dealer": "ana", "seed": 4}
FOUR = {"game": "all-fours", "players": ["ana", "ben", "cy", "dee"], "seed": 2,
        "options": {"target": 2}}


def test_af_k1_the_first_kick_scored_at_creation_is_logged_at_version_1(client, table):
    game = table.create(client, **TWO)  # seed 4 turns the ace of diamonds: 1 point (AF-K1)
    assert game.read("host")["view"]["score"] == {"ana": 1, "ben": 0}
    answer = client.get(game.url + "/events?after=0").get_json()
    assert answer == {"version": 1, "events": [
        {"type": "deal", "dealer": "ana", "hand_number": 1, "cards_each": 6, "seq": 1,
         "version": 1},
        {"type": "kick", "card": "AD", "points": 1, "seq": 2, "version": 1},
        {"type": "points", "award": "kick", "side": "ana", "points": 1,
         "score": {"ana": 1, "ben": 0}, "seq": 3, "version": 1}], "next": None}


def test_af_s6_a_first_kick_that_reaches_the_target_logs_points_and_game_over(client, table):
    game = table.create(client, **FOUR)  # seed 2 kicks the six of spades: 2 points, target 2
    match = game.read(None)
    assert match["over"] is True and match["version"] == 1
    events = client.get(game.url + "/events?after=0").get_json()["events"]
    assert [(e["type"], e["seq"], e["version"]) for e in events] == [
        ("deal", 1, 1), ("kick", 2, 1), ("points", 3, 1), ("game_over", 4, 1)]
    assert events[1]["card"] == "6S" and events[2]["points"] == 2 and events[2]["side"] == "A"
    assert events[3]["winner"] == "A"
    assert client.get(game.url + "/events?after=4").get_json()["events"] == []


def _kick_points_logged(client, game) -> dict[str, int]:
    totals: dict[str, int] = {}
    for ev in client.get(game.url + "/events?after=0").get_json()["events"]:
        if ev["type"] == "points":
            totals[ev["side"]] = totals.get(ev["side"], 0) + ev["points"]
    return totals


@pytest.mark.parametrize("seed", [4, 7])
def test_af_s6_the_points_events_add_up_to_the_final_score(client, table, seed):
    game = table.create(client, **{**TWO, "seed": seed, "options": {"target": 5}})
    game.play_out(random.Random(seed))
    score = game.read("host")["view"]["score"]
    logged = _kick_points_logged(client, game)
    assert {side: logged.get(side, 0) for side in score} == score
    # The check can fail: without the events of version 1 seed 4 misses its first kick point.
    later = [e for e in client.get(game.url + "/events?after=0").get_json()["events"]
             if e["type"] == "points" and e["version"] > 1]
    if seed == 4:
        assert sum(e["points"] for e in later) == sum(score.values()) - 1


def test_af_k1_the_stateless_setup_answers_the_first_deals_events(client):
    body = {key: TWO[key] for key in ("players", "dealer", "seed")}
    answer = client.post("/v1/games/all-fours/setup", json=body).get_json()
    assert [e["type"] for e in answer["events"]] == ["deal", "kick", "points"]
    assert answer["events"][2] == {"type": "points", "award": "kick", "side": "ana",
                                   "points": 1, "score": {"ana": 1, "ben": 0}}
    assert answer["state"]["score"] == {"ana": 1, "ben": 0}


@pytest.mark.parametrize("name", sorted(set(GAMES) - {"all-fours"}))
def test_the_other_games_setups_score_and_end_nothing(client, name):
    """COUP-S*, GN-S*, SPY-S*: dealing scores nothing, so no event; the match logs none."""
    entry = GAMES[name]
    answer = client.post(f"/v1/games/{name}/setup", json={**entry.example_setup, "seed": 1})
    assert answer.status_code == 200 and answer.get_json()["events"] == []
    created = client.post("/v1/matches", json={"game": name, **entry.example_setup}).get_json()
    assert client.get(f"/v1/matches/{created['id']}/events?after=0").get_json() == {
        "version": 1, "events": [], "next": None}
