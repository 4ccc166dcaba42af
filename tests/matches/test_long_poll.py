"""``GET /v1/matches/{id}/events?after=N&wait=S``: the long-poll, in-process store."""
from __future__ import annotations

import threading
import time

import pytest

from tests.matches.conftest import bearer

SETUP = {"game": "all-fours", "players": ["ana", "ben"], "dealer": "ana", "seed": 42}


def test_af_b1_a_long_poll_answers_with_the_move_made_while_it_waits(live_client, table):
    game = table.create(live_client, **SETUP)
    answers = []
    poll = threading.Thread(target=lambda: answers.append(
        live_client.get(game.url + "/events?after=2&wait=20")))  # after the deal and kick
    poll.start()
    feed = live_client.application.extensions["referee.store"].feed
    while poll.is_alive() and feed.watching() == 0:  # until the poll is waiting
        time.sleep(0.01)
    assert feed.watching() == 1
    # ben (on the dealer's right) stands (AF-B1) while the public long-poll is waiting
    assert game.act("ben", {"type": "stand", "player": "ben"}, version=1).status_code == 200
    poll.join(timeout=25)
    assert answers and answers[0].status_code == 200
    assert answers[0].get_json() == {"version": 2, "events": [
        {"type": "stand", "player": "ben", "seq": 3, "version": 2}], "next": None}


def test_a_long_poll_with_events_already_there_answers_at_once(live_client, table):
    game = table.create(live_client, **SETUP)
    game.act("ben", {"type": "stand", "player": "ben"}, version=1)
    answer = live_client.get(game.url + "/events?after=0&wait=25",
                             headers=bearer(game.token("ana")))
    assert [ev["type"] for ev in answer.get_json()["events"]] == ["deal", "kick", "stand"]


def test_a_long_poll_with_nothing_new_answers_empty_after_its_wait(live_client, table):
    game = table.create(live_client, **SETUP)
    answer = live_client.get(game.url + "/events?after=2&wait=1")  # the deal's 2 are older
    assert answer.status_code == 200 and answer.get_json() == {"version": 1, "events": [],
                                                               "next": None}


@pytest.mark.parametrize("wait", ["26", "-1", "ten", "2.5"])
def test_wait_is_0_to_25_whole_seconds(live_client, table, wait):
    game = table.create(live_client, **SETUP)
    answer = live_client.get(f"{game.url}/events?after=0&wait={wait}")
    assert answer.status_code == 422
    assert answer.get_json()["errors"][0]["field"] == "query.wait"
