"""Each address's turns at a worker (issue 21 item 2, :mod:`referee.api.fair_share`): at most
``REQUESTS_PER_ADDRESS`` of one address's requests with a body do their work at once; the others
of that address wait, another address's do not; a request without a body (``/livez``, a match
read, a long-poll) takes no turn, so it never waits behind a body's."""
from __future__ import annotations

import threading
import time

from referee.api.fair_share import Turns
from referee.serving.app import create_app

SETUP = {"game": "all-fours", "players": ["ana", "ben"], "dealer": "ana", "seed": 42}
STATELESS = {k: v for k, v in SETUP.items() if k != "game"}


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


def _app(per_address: int = 1, **config):
    return create_app({"TESTING": True, "REDIS_URL": None, "RATE_LIMITS_ENABLED": True,
                       "REQUESTS_PER_ADDRESS": per_address, **config})


def test_a_request_without_a_body_never_waits_behind_a_body_s_turn():
    app = _app()
    client = app.test_client()
    created = client.post("/v1/matches", json=SETUP).get_json()
    url = f"/v1/matches/{created['id']}"
    token = {"Authorization": f"Bearer {created['seats']['ana']}"}
    turns = app.extensions["referee.turns"]
    turns.take("127.0.0.1")  # a body of this address holds its only turn (its work under way)
    try:
        answers = {}
        reads = _started(lambda: answers.update(
            livez=client.get("/livez"), read=client.get(url, headers=token),
            events=client.get(url + "/events?after=0", headers=token)))
        reads.join(10)
        assert not reads.is_alive()  # answered while the turn is held, not after it
        assert {k: r.status_code for k, r in answers.items()} == {
            "livez": 200, "read": 200, "events": 200}
        assert turns.waiting("127.0.0.1") == 1  # none of them took or waited for a turn
        # a body of the same address still waits for the turn (the rule is not loosened)
        posted = []
        body = _started(lambda: posted.append(client.post("/v1/games/all-fours/setup",
                                                          json=STATELESS)))
        body.join(0.3)
        assert body.is_alive() and turns.waiting("127.0.0.1") == 2
    finally:
        turns.give("127.0.0.1")
    body.join(10)
    assert not body.is_alive() and posted[0].status_code == 200


def test_a_long_poll_holds_no_turn_while_it_waits():
    app = _app()
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
    assert app.extensions["referee.turns"].waiting("127.0.0.1") == 0
    assert app.extensions["referee.light"].count == 0  # its wait holds no body back either
    # the address's only turn is free while the poll waits: a body is answered meanwhile
    assert client.post("/v1/games/all-fours/setup", json=STATELESS).status_code == 200
    assert poll.is_alive() and feed.watching() == 1
    poll.join(10)
    assert answers[0].status_code == 200


def test_a_body_waits_for_the_requests_without_one_under_way_for_a_bounded_time():
    app = _app(LIGHT_FIRST_SECONDS=30)
    client = app.test_client()
    for url in ("/livez", "/v1/games"):  # each counts while under way, and no longer after
        assert client.get(url).status_code == 200
    light = app.extensions["referee.light"]
    assert light.count == 0
    light.enter()  # another client's match read is under way (waiting on the store)
    posted = []
    body = _started(lambda: posted.append(client.post("/v1/games/all-fours/setup",
                                                      json=STATELESS)))
    body.join(0.3)
    assert body.is_alive() and not posted  # the body's work waits for the read
    light.leave()
    body.join(10)
    assert not body.is_alive() and posted[0].status_code == 200

    bounded = _app(LIGHT_FIRST_SECONDS=0.05)
    bounded.extensions["referee.light"].enter()  # a read that never ends holds it back
    answer = []
    body = _started(lambda: answer.append(bounded.test_client().post(
        "/v1/games/all-fours/setup", json=STATELESS)))
    body.join(10)
    assert not body.is_alive() and answer[0].status_code == 200


def test_no_turns_with_the_rate_limits_off():
    app = create_app({"TESTING": True, "REDIS_URL": None, "RATE_LIMITS_ENABLED": False})
    assert "referee.turns" not in app.extensions


def test_a_stream_reads_under_its_address_s_turn_and_holds_none_between_parts(monkeypatch):
    # one address's 64 streams reconnecting from the start of a long match took their parts
    # all at once (a black-box run: another client's /livez waited up to 1 s): each read and
    # its rendering now takes the address's turn, and gives it back before writing or waiting
    from referee.matches import pauses
    monkeypatch.setattr(pauses, "CHUNK", 4)
    app = _app()
    client = app.test_client()
    created = client.post("/v1/matches", json={"game": "coup", "seed": 42,
                                               "players": ["ana", "ben", "cy"]}).get_json()
    url = f"/v1/matches/{created['id']}"
    seat = {"Authorization": f"Bearer {created['seats']['ana']}"}
    for _ in range(6):  # income, income…: a log longer than one part
        match = client.get(url, headers=seat).get_json()
        who = match["to_move"][0]
        client.post(url + "/actions", json={"action": {"type": "income", "player": who}},
                    headers={"Authorization": f"Bearer {created['seats'][who]}",
                             "If-Match": f'"{match["version"]}"'})
    turns = app.extensions["referee.turns"]
    store = app.extensions["referee.store"]
    held = []
    real = store.read
    monkeypatch.setattr(store, "read", lambda *a: held.append(turns.waiting("127.0.0.1"))
                        or real(*a))
    stream = client.get(url + "/stream?after=0", headers=seat, buffered=False)
    chunks = iter(stream.response)
    text = ""
    while "event: view" not in text:
        text += next(chunks).decode()
    assert len(held) >= 3 and all(count == 1 for count in held), held  # each read: the turn
    assert turns.waiting("127.0.0.1") == 0  # a quiet stream holds none
    # while a body of the address holds its only turn, the stream's next read waits for it
    turns.take("127.0.0.1")
    got = []
    reader = _started(lambda: got.append(next(chunks)))
    mover = client.get(url, headers=seat).get_json()["to_move"][0]
    # an action through the API carries a body and would wait for the turn too: the change
    # is made through the match service
    from referee.matches.service import MatchService
    svc = MatchService(store, 3600)
    record = svc.load(created["id"])
    svc.act(record, svc.caller(record, f"Bearer {created['seats'][mover]}"),
            {"action": {"type": "income", "player": mover}}, f'"{record["version"]}"', None)
    reader.join(0.5)
    assert reader.is_alive() and not got  # the change is waiting for the turn
    turns.give("127.0.0.1")
    reader.join(10)
    assert got and b"income" in got[0]
    stream.close()
