"""Live streams and long-polls under the abuse limits (referee.api.ratelimits): a stream or a
long-poll is one request, so it spends one unit of its token's budget when it opens, however
many events and heartbeats it then carries; a read with a stream ticket spends the ticket's
budget, not its IP's.  The suite runs with limits off; these tests turn them on."""
from __future__ import annotations

from referee.serving.app import create_app
from tests.matches.conftest import bearer

TARGET_ONE = {"game": "all-fours", "players": ["ana", "ben"], "dealer": "ana", "seed": 42,
              "options": {"target": 1}}


def _client(**config):
    return create_app({"TESTING": True, "REDIS_URL": None, "RATE_LIMITS_ENABLED": True,
                       "STREAM_HEARTBEAT_SECONDS": 0.02, **config}).test_client()


def test_a_stream_counts_once_however_many_heartbeats_and_events_it_carries(table, stream):
    client = _client(LIMIT_MATCH_PER_TOKEN="4/minute")
    game = table.create(client, **TARGET_ONE)
    ben = stream(client, game.url + "/stream", bearer(game.token("ben")))  # ben: 1 of 4
    assert ben.status == 200
    assert ben.until("view")[-1]["data"]["version"] == 1
    # AF-B1: the player on the dealer's (ana's) right, ben, stands or begs first
    stand = game.act("ben", {"type": "stand", "player": "ben"}, version=1)  # ben: 2 of 4
    assert stand.status_code == 200, stand.get_json()
    after = ben.until("view")
    assert after[-1]["data"]["version"] == 2
    assert any(m["event"] == "event" for m in after)
    ben.close()
    # many heartbeats went by (every 20 ms) and two messages; ben still has 2 calls left
    assert game.get("ben").status_code == 200  # 3 of 4
    assert game.get("ben", "/events?wait=1").status_code == 200  # 4 of 4: one long-poll
    assert game.get("ben").status_code == 429


def test_a_ticket_stream_spends_the_ticket_s_budget_not_the_ip_s(table, stream):
    client = _client(LIMIT_MATCH_PER_TOKEN="2/minute")
    game = table.create(client, **TARGET_ONE)
    tickets = []
    for who in ("ana", "ben"):  # 1 of 2 of each token
        answer = client.post(game.url + "/stream-tickets", headers=bearer(game.token(who)))
        assert answer.status_code == 201, answer.get_json()
        tickets.append(answer.get_json()["ticket"])
    # no Authorization header: keyed by the IP these would share one budget of 2
    opened = [stream(client, f"{game.url}/stream?ticket={t}") for t in tickets]
    again = [stream(client, f"{game.url}/stream?ticket={t}") for t in tickets]
    assert [s.status for s in opened + again] == [200] * 4
    for s in opened + again:
        s.close()
    third = client.get(f"{game.url}/stream?ticket={tickets[0]}")
    assert third.status_code == 429, third.get_json()
    assert client.get(game.url, headers=bearer(game.token("ana"))).status_code == 200
