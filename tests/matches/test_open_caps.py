"""Caps on open streams and long-polls (issue 21 item 2, :mod:`referee.api.open_caps`), the
in-process count: at most 8 per token (a ticket counts as its token) and 64 per client address
at once, whatever the rate budgets allow; the next is 429 ``too-many-streams`` naming the cap
and its size, with ``Retry-After``; a slot comes back when its stream or long-poll ends, and
stays taken while it is open however long that is (its lease is renewed).

The finding: one address opened 1,999 streams over the 9 tokens of one 8-seat match (a new
budget window after 60 s let it go on).  The suite runs with limits off; these turn them on,
with the default caps."""
from __future__ import annotations

import re
import threading
import time

import pytest

from referee.serving.app import create_app
from tests.matches.conftest import bearer

SEATS = ["ana", "ben", "cy", "dee", "eve", "fay", "gus", "hal"]
COUP_8 = {"game": "coup", "players": SEATS, "seed": 7}
"""Coup seats 3 to 8 players (COUP-S1): 8 seats and the host are 9 tokens."""
MYANMAR = re.compile("[\u1000-\u109f]")
ALL_FOURS = {"game": "all-fours", "players": ["ana", "ben"], "dealer": "ana", "seed": 42}


def _client(address: str = "10.0.0.1", **config):
    app = create_app({"TESTING": True, "REDIS_URL": None, "RATE_LIMITS_ENABLED": True,
                      "STREAM_HEARTBEAT_SECONDS": 0.2, **config})
    return _at(app, address)


def _at(app, address: str):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def _opened(streams):
    return [s.status for s in streams]


def _refusal(response) -> dict:
    if response.status_code != 429:
        response.close()  # an open stream: never read it whole
        pytest.fail(f"{response.status_code}, not 429 too-many-streams")
    assert response.mimetype == "application/problem+json"
    assert int(response.headers["Retry-After"]) >= 1
    return response.get_json()


def test_a_token_holds_at_most_8_streams_and_long_polls_a_ticket_counting_as_its_token(
        table, stream):
    client = _client()
    game = table.create(client, **ALL_FOURS)
    ana = bearer(game.token("ana"))
    held = [stream(client, game.url + "/stream", ana) for _ in range(8)]
    try:
        assert _opened(held) == [200] * 8
        ninth = client.get(game.url + "/stream", headers=ana)
        problem = _refusal(ninth)
        assert problem["type"] == "/problems/too-many-streams"
        assert (problem["cap"], problem["limit"]) == ("streams-per-token", 8)
        assert problem["errors"][0]["field"] == "Authorization"
        assert "8 streams" in problem["detail"]
        burmese = _refusal(client.get(game.url + "/stream",
                                      headers={**ana, "Accept-Language": "my"}))
        assert all(MYANMAR.search(text) for text in (
            burmese["title"], burmese["detail"], burmese["errors"][0]["message"]))
        assert client.get(game.url + "/events?after=0&wait=5", headers=ana).status_code == 429
        ticket = client.post(game.url + "/stream-tickets", headers=ana).get_json()["ticket"]
        by_ticket = client.get(f"{game.url}/stream?ticket={ticket}")
        assert _refusal(by_ticket)["cap"] == "streams-per-token"
        # reads that hold nothing open are not capped; another token is not either
        assert client.get(game.url, headers=ana).status_code == 200
        assert client.get(game.url + "/events?after=0", headers=ana).status_code == 200
        ben = stream(client, game.url + "/stream", bearer(game.token("ben")))
        assert ben.status == 200
        ben.close()
        # a stream that ends gives its slot back
        held.pop().close()
        again = stream(client, game.url + "/stream", ana)
        assert again.status == 200
        held.append(again)
    finally:
        for s in held:
            s.close()


def test_one_address_holds_at_most_64_over_the_9_tokens_of_an_8_seat_match(table, stream):
    client = _client()
    game = table.create(client, **COUP_8)
    tokens = [game.token(who) for who in SEATS]  # 8 seats × 8 = 64
    held = [stream(client, game.url + "/stream", bearer(t)) for t in tokens for _ in range(8)]
    try:
        assert _opened(held) == [200] * 64
        host = client.get(game.url + "/stream", headers=bearer(game.token("host")))
        problem = _refusal(host)
        assert (problem["cap"], problem["limit"]) == ("streams-per-address", 64)
        assert problem["errors"][0]["field"] == "client"
        public = client.get(game.url + "/events?after=0&wait=3")  # no token: the address cap
        assert _refusal(public)["cap"] == "streams-per-address"
        # another address is not held back by this one
        other = stream(_at(client.application, "10.0.0.2"), game.url + "/stream",
                       bearer(game.token("host")))
        assert other.status == 200
        other.close()
    finally:
        for s in held:
            s.close()


def test_an_open_stream_keeps_its_slot_past_its_lease_renewed_and_frees_it_when_closed(
        table, stream):
    """No window to wait out: a slot is held while its stream is open (the lease of 0.3 s is
    renewed every 0.1 s), and given back the moment it closes."""
    client = _client(STREAMS_PER_TOKEN=2, STREAM_LEASE_SECONDS=0.3)
    game = table.create(client, **ALL_FOURS)
    ana = bearer(game.token("ana"))
    held = [stream(client, game.url + "/stream", ana) for _ in range(2)]
    try:
        assert _opened(held) == [200, 200]
        time.sleep(1.0)  # more than three lease lengths
        assert _refusal(client.get(game.url + "/stream", headers=ana))["limit"] == 2
        caps = client.application.extensions["referee.open_caps"]
        token_key = f"token:{_token_hash(client, game, 'ana')}"
        assert caps.leases.count(token_key) == 2
    finally:
        for s in held:
            s.close()
    assert caps.leases.count(token_key) == 0
    assert caps.leases.count("ip:10.0.0.1") == 0
    again = stream(client, game.url + "/stream", ana)
    assert again.status == 200
    again.close()


def test_a_long_poll_holds_its_slot_while_it_waits_and_gives_it_back(table):
    client = _client(STREAMS_PER_TOKEN=1)
    game = table.create(client, **ALL_FOURS)
    ana = bearer(game.token("ana"))
    caps = client.application.extensions["referee.open_caps"]
    answers = []
    poll = threading.Thread(target=lambda: answers.append(
        client.get(game.url + "/events?after=2&wait=2", headers=ana)))
    poll.start()
    deadline = time.monotonic() + 5
    while caps.leases.count("ip:10.0.0.1") == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _refusal(client.get(game.url + "/stream", headers=ana))["limit"] == 1
    poll.join(10)
    assert answers[0].status_code == 200
    assert caps.leases.count("ip:10.0.0.1") == 0


def test_the_caps_are_off_with_the_rate_limits(table, stream):
    client = _client(RATE_LIMITS_ENABLED=False, STREAMS_PER_TOKEN=1)
    game = table.create(client, **ALL_FOURS)
    ana = bearer(game.token("ana"))
    held = [stream(client, game.url + "/stream", ana) for _ in range(3)]
    assert _opened(held) == [200] * 3
    for s in held:
        s.close()


def _token_hash(client, game, who: str) -> str:
    store = client.application.extensions["referee.store"]
    return store.load(game.id)["seats"][who][:32]


def test_a_lease_the_storage_failed_to_release_is_given_back_at_the_next_opening():
    # a black-box run: each Redis restart ended a seat's stream while the limit storage was
    # down, its lease stayed counted, and after 8 such restarts the seat's next stream was
    # 429 until the leases lapsed.  The next stream opened in the process gives them back.
    from referee.api.open_caps import OpenCaps
    from referee.store.leases import MemoryLeases
    leases = MemoryLeases(60)
    caps = OpenCaps(leases, per_token=2, per_address=64)
    real, down = leases.release, [True]

    def release(lease, keys):
        if down[0]:
            raise ConnectionError("the limit storage is down")
        real(lease, keys)
    leases.release = release
    for _ in range(2):  # two streams end while the storage is down: both stay counted
        caps.open("a" * 64, "127.0.0.1").release()
    assert leases.count("token:" + "a" * 32) == 2
    down[0] = False  # the storage is back: the seat reconnects, within its cap of 2
    first, second = caps.open("a" * 64, "127.0.0.1"), caps.open("a" * 64, "127.0.0.1")
    assert leases.count("token:" + "a" * 32) == 2
    first.release(), second.release()
    assert leases.count("token:" + "a" * 32) == 0
