"""A whole All Fours match to 14 points played through the match API on a real Redis: four
seats, each acting with its own token, each move a legal action read from
``GET /legal-actions`` at the version it is posted with (AF-D2, AF-S6)."""
from __future__ import annotations

import random

FOUR = ["ana", "ben", "cy", "dee"]


def test_af_s6_four_seat_tokens_play_a_match_to_14_on_redis(redis_app, table):
    client = redis_app.test_client()
    match = table.create(client, game="all-fours", players=FOUR, dealer="ana", seed=2024)
    rng = random.Random(2024)
    versions = [1]
    while True:
        seen = match.read(None)
        if seen["over"]:
            break
        assert len(seen["to_move"]) == 1
        seat = seen["to_move"][0]
        for other in FOUR:  # nobody else has a legal action
            assert other == seat or match.legal(other) == []
        action = rng.choice(match.legal(seat))
        assert action["player"] == seat
        response = match.act(seat, action, version=seen["version"])
        assert response.status_code == 200, response.get_json()
        assert response.get_json()["view"]["viewer"] == seat
        versions.append(response.get_json()["version"])

    assert versions == list(range(1, len(versions) + 1))
    final = match.read("host")
    score = final["view"]["score"]
    winner = final["view"]["winner"]
    assert score[winner] >= 14 and all(points < 14 for side, points in score.items()
                                       if side != winner)
    assert final["view"]["phase"] == "game_over"
    # The deal passed to the right (the next player in play order) every hand: AF-D2.
    deals = [ev for ev in match.get(None, "/events").get_json()["events"]
             if ev["type"] == "deal"]
    assert len({ev["hand_number"] for ev in deals}) >= 3
    for ev in deals:
        assert ev["dealer"] == FOUR[(ev["hand_number"] - 1) % 4], ev
    # Every applied action is logged once, in order, and the audit now opens.
    audit = client.get(f"{match.url}/audit").get_json()
    assert len(audit["actions"]) == len(versions) - 1
    assert audit["final_state"]["score"] == score
