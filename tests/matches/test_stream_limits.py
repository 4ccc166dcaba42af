"""Live streams and long-polls under the abuse limits (referee.api.ratelimits): a stream or a
long-poll is one request, so it spends one unit of its token's budget when it opens, however
many events and heartbeats it then carries; a read with a stream ticket spends the budget of
the token that minted it (one per seat, however many tickets), not its IP's.  The suite runs
with limits off; these tests turn them on."""
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


def test_a_seat_s_tickets_spend_its_token_s_one_budget(table, stream, monkeypatch):
    """Issue 21: every ticket a token mints, in whichever second (each second makes another
    ticket), spends that token's one budget with it; not a budget per ticket, nor the IP's
    (a read with no token would be keyed by the IP)."""
    import referee.matches.live
    client = _client(LIMIT_MATCH_PER_TOKEN="4/minute")
    game = table.create(client, **TARGET_ONE)

    def mint(who):
        answer = client.post(game.url + "/stream-tickets", headers=bearer(game.token(who)))
        assert answer.status_code == 201, answer.get_json()
        return answer.get_json()["ticket"]
    first = mint("ana")  # ana: 1 of 4
    ben = mint("ben")  # ben: 1 of 4
    now = referee.matches.live.time.time()
    monkeypatch.setattr(referee.matches.live.time, "time", lambda: now + 7)
    second = mint("ana")  # ana: 2 of 4, another second: another ticket
    assert second != first
    opened = stream(client, f"{game.url}/stream?ticket={first}")  # ana: 3 of 4
    assert opened.status == 200
    opened.close()
    assert client.get(f"{game.url}/events?ticket={second}").status_code == 200  # 4 of 4
    for spent, field in ((client.get(f"{game.url}/stream?ticket={second}"), "ticket"),
                         (client.get(f"{game.url}/events?ticket={first}"), "ticket"),
                         (client.get(game.url, headers=bearer(game.token("ana"))),
                          "Authorization")):  # issue 22: the 429 names what it is keyed by
        assert spent.status_code == 429, spent.get_json()
        assert spent.get_json()["errors"] == [{"field": field,
                                               "message": "match-token budget spent"}]
    polled = client.get(f"{game.url}/events?ticket={ben}")  # ben: 2 of 4, the same IP
    assert polled.status_code == 200
    assert client.get(game.url, headers=bearer(game.token("ben"))).status_code == 200


def test_a_ticket_that_is_not_the_match_s_spends_the_public_budget(table):
    """A forged or reworded ticket is keyed as a call with no token (issue 22: the public
    budget of its address and match), so rewording a ticket buys no budget of its own."""
    client = _client(LIMIT_MATCH_PER_TOKEN="3/minute", LIMIT_MATCH_PUBLIC="3/minute")
    game = table.create(client, **TARGET_ONE)
    ticket = client.post(game.url + "/stream-tickets",
                         headers=bearer(game.token("ana"))).get_json()["ticket"]
    role, expiry, mac = ticket.split(".")
    for reworded in (f"{role}.0{expiry}.{mac}", f"{role}.00{expiry}.{mac}",
                     f"{role}.{expiry}.{mac.upper()}"):
        assert client.get(f"{game.url}/events?ticket={reworded}").status_code == 401
    # the public 3 of this address and match are spent, ana's ticket is untouched
    spent = client.get(game.url)
    assert spent.status_code == 429 and "match-public" in spent.get_json()["detail"]
    assert client.get(f"{game.url}/events?ticket={ticket}").status_code == 200
