"""Each address's turns at a worker (issue 21 item 2, :mod:`referee.api.fair_share`): at most
``REQUESTS_PER_ADDRESS`` of one address's requests do their work at once; the others of that
address wait, another address's do not; a long-poll gives its turn back while it waits."""
from __future__ import annotations

import threading
import time

from referee.api.fair_share import Turns
from referee.serving.app import create_app

SETUP = {"game": "all-fours", "players": ["ana", "ben"], "dealer": "ana", "seed": 42}


def _started(target) -> threading.Thread:
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread


def test_an_address_waits_for_its_own_turns_never_another_s():
    turns = Turns(2)
    turns.take("a")
    turns.take("a")
    third = _started(lambda: turns.take("a"))
    third.join(0.3)
    assert third.is_alive()  # a's third waits
    turns.take("b")  # b does not wait behind a
    assert turns.waiting("a") == 3 and turns.waiting("b") == 1
    turns.give("a")
    third.join(5)
    assert not third.is_alive()
    for address in ("a", "a", "b"):
        turns.give(address)
    assert turns.waiting("a") == turns.waiting("b") == 0


def test_a_long_poll_gives_its_turn_back_while_it_waits():
    app = create_app({"TESTING": True, "REDIS_URL": None, "RATE_LIMITS_ENABLED": True,
                      "REQUESTS_PER_ADDRESS": 1})
    client = app.test_client()
    created = client.post("/v1/matches", json=SETUP).get_json()
    url = f"/v1/matches/{created['id']}"
    answers = []
    poll = _started(lambda: answers.append(client.get(url + "/events?after=2&wait=5")))
    feed = app.extensions["referee.store"].feed
    deadline = time.monotonic() + 5
    while feed.watching() == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert feed.watching() == 1
    # the address's only turn is free while the poll waits: a read is answered meanwhile
    assert client.get(url).status_code == 200
    assert poll.is_alive() and feed.watching() == 1
    assert app.extensions["referee.turns"].waiting("127.0.0.1") == 0
    poll.join(10)
    assert answers[0].status_code == 200


def test_no_turns_with_the_rate_limits_off():
    app = create_app({"TESTING": True, "REDIS_URL": None, "RATE_LIMITS_ENABLED": False})
    assert "referee.turns" not in app.extensions
