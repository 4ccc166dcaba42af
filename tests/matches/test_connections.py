"""The host sees each seat's connection (issue 23 item 1): the host's read of a match carries
``connections``, how many streams and long-polls each seat holds open now, counted from the
leases of the caps on open streams (:meth:`referee.api.open_caps.OpenCaps.connections`, here
in-process; tests/matches/test_open_caps_redis.py counts them in Redis across two servers).
A seat's read and the public read never carry it."""
from __future__ import annotations

import threading
import time

from tests.matches.conftest import bearer
from tests.matches.test_open_caps import ALL_FOURS, _client


def test_the_host_s_read_counts_each_seat_s_open_streams_and_long_polls(table, stream):
    client = _client()
    game = table.create(client, **ALL_FOURS)
    host, ana = bearer(game.token("host")), bearer(game.token("ana"))
    assert client.get(game.url, headers=host).get_json()["connections"] == {"ana": 0, "ben": 0}
    ticket = client.post(game.url + "/stream-tickets", headers=ana).get_json()["ticket"]
    held = [stream(client, game.url + "/stream", ana),
            stream(client, f"{game.url}/stream?ticket={ticket}")]  # a ticket counts as ana
    host_stream = stream(client, game.url + "/stream", host)  # the host's own: no seat's
    try:
        assert [s.status for s in held + [host_stream]] == [200, 200, 200]
        assert client.get(game.url, headers=host).get_json()["connections"] == {
            "ana": 2, "ben": 0}
        polls = []
        poll = threading.Thread(target=lambda: polls.append(client.get(
            game.url + "/events?after=2&wait=2", headers=bearer(game.token("ben")))))
        poll.start()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and client.get(game.url, headers=host).get_json()[
                "connections"]["ben"] == 0:
            time.sleep(0.02)
        assert client.get(game.url, headers=host).get_json()["connections"]["ben"] == 1
        poll.join(10)
        assert polls[0].status_code == 200
    finally:
        for s in held:
            s.close()
        host_stream.close()
    # a stream closed gives its lease back at once, a long-poll answered likewise
    assert client.get(game.url, headers=host).get_json()["connections"] == {"ana": 0, "ben": 0}


def test_only_the_host_s_read_carries_connections(table):
    client = _client()
    game = table.create(client, **ALL_FOURS)
    for who in ("ana", "ben", None):
        answer = client.get(game.url, headers=bearer(game.token(who)) if who else {})
        assert answer.status_code == 200 and "connections" not in answer.get_json(), who
    assert "connections" in client.get(game.url, headers=bearer(game.token("host"))).get_json()


def test_an_open_seat_counts_none_and_uncounted_connections_are_null(table):
    client = _client()
    game = table.create(client, game="all-fours", players=["ana", "ben"], open_seats=["ben"])
    host = bearer(game.token("host"))
    assert client.get(game.url, headers=host).get_json()["connections"] == {"ana": 0, "ben": 0}
    for config in ({"RATE_LIMITS_ENABLED": False}, {"STREAMS_PER_TOKEN": 0}):
        off = _client(**config)
        game = table.create(off, **ALL_FOURS)
        answer = off.get(game.url, headers=bearer(game.token("host"))).get_json()
        assert answer["connections"] is None, config
