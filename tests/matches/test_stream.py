"""``GET /v1/matches/{id}/stream`` on the in-process store: the reader's events once each, its
view after every move, the end; resuming with ``Last-Event-ID``; stream tickets."""
from __future__ import annotations

import random

import pytest

from referee.games.base import event_visible
from tests.matches.conftest import bearer

TARGET_ONE = {"game": "all-fours", "players": ["ana", "ben"], "dealer": "ana", "seed": 42,
              "options": {"target": 1}}
"""A match that ends with its first hand (AF-S6: the first side to 1 point wins)."""

READERS = ["ana", "ben", "cy", None, "host"]


def _viewer(who):
    return "__referee__" if who == "host" else who


def test_af_s6_a_seat_follows_a_match_to_its_end(live_client, table, stream):
    game = table.create(live_client, **TARGET_ONE)
    ben = stream(live_client, game.url + "/stream", bearer(game.token("ben")))
    assert ben.status == 200 and ben.response.mimetype == "text/event-stream"
    first = ben.until("view")
    assert [m["event"] for m in first] == ["event", "event", "view"]  # the deal, the kick
    assert [m["data"]["type"] for m in first[:2]] == ["deal", "kick"]
    assert first[-1]["data"]["version"] == 1
    assert first[-1]["data"]["view"]["hand"] == ["QS", "AC", "4D", "5S", "5D", "KS"]
    rng = random.Random(42)
    moves = game.play_out(rng)
    rest = ben.until("end")
    ben.close()
    final = game.read("ben")
    assert final["over"] is True
    events = [m["data"] for m in rest if m["event"] == "event"]
    assert [m["id"] for m in rest if m["event"] == "event"] == [ev["seq"] for ev in events]
    assert events == [e for e in game.get("ben", "/events").get_json()["events"]
                      if e["version"] > 1]  # the first deal's came before the first view
    views = [m["data"] for m in rest if m["event"] == "view"]
    assert [v["version"] for v in views] == sorted({v["version"] for v in views})
    assert views[-1]["version"] == final["version"] == moves + 1
    assert views[-1]["view"] == final["view"] and views[-1]["over"] is True
    # the view event carries the match view's envelope (issue 22): nobody to move, the outcome
    assert {k: views[-1][k] for k in ("phase", "to_move", "score", "outcome")} == {
        k: final[k] for k in ("phase", "to_move", "score", "outcome")}
    assert views[-1]["to_move"] == [] and views[-1]["outcome"]["winners"]
    assert rest[-1] == {"event": "end", "id": None,
                        "data": {"version": final["version"], "reason": "over"}}


def test_resuming_with_last_event_id_misses_nothing_and_repeats_nothing(live_client, table,
                                                                        stream):
    """Coup (COUP-V1: a drawn card is seen by its drawer alone): five readers drop their
    streams at random and come back with ``Last-Event-ID``; each gets exactly its log."""
    game = table.create(live_client, game="coup", players=["ana", "ben", "cy"], seed=11)
    rng = random.Random(11)
    got = {who: [] for who in READERS}
    last = {who: 0 for who in READERS}
    views = {}
    open_ = {}

    def connect(who):
        headers = {**bearer(game.token(who)), "Last-Event-ID": str(last[who])}
        open_[who] = stream(live_client, game.url + "/stream", headers)

    def drain(who, version):
        while True:
            message = open_[who].get()
            if message["event"] == "event":
                got[who].append(message["data"])
                last[who] = message["id"]
            elif message["event"] == "view":
                views[who] = message["data"]
                if message["data"]["version"] >= version:
                    return
            elif message["event"] == "end":
                return

    for who in READERS:
        connect(who)
    while game.step(rng) is not None:
        version = game.read("host")["version"]
        for who in READERS:
            if rng.random() < 0.3:
                drain(who, version)
                open_[who].close()
                connect(who)
    version = game.read("host")["version"]
    for who in READERS:
        drain(who, version)
        open_[who].close()
    for who in READERS:
        log = game.get(who, "/events").get_json()["events"]
        assert got[who] == log, who
        assert len({ev["seq"] for ev in got[who]}) == len(got[who])
        assert views[who]["view"] == game.read(who)["view"]
        if who != "host":  # no reader gets an event it may not see
            assert all(event_visible(ev, _viewer(who)) for ev in got[who])
            assert all(ev.get("visible_to") in (None, [who]) for ev in got[who])
    # The check can fail: the host's stream does hold events some seats may not see.
    assert any(not event_visible(ev, "ana") for ev in got["host"])


def test_a_ticket_opens_the_stream_of_its_seat_and_no_other(live_client, table, stream):
    game = table.create(live_client, **TARGET_ONE)
    answer = live_client.post(game.url + "/stream-tickets", headers=bearer(game.token("ben")))
    assert answer.status_code == 201
    ticket = answer.get_json()["ticket"]
    assert game.token("ben") not in ticket
    ben = stream(live_client, f"{game.url}/stream?ticket={ticket}")
    view = ben.until("view")[-1]["data"]
    ben.close()
    assert view["view"]["hand"] == game.read("ben")["view"]["hand"]  # ben's own view
    polled = live_client.get(f"{game.url}/events?ticket={ticket}")
    assert polled.status_code == 200
    other = table.create(live_client, **TARGET_ONE)
    for url in (f"{other.url}/stream?ticket={ticket}",  # another match's ticket
                f"{game.url}/stream?ticket={ticket[:-1]}x",  # forged
                f"{game.url}/stream?ticket=h.99999999999.00"):
        refused = live_client.get(url)
        assert refused.status_code == 401, url
        assert refused.get_json()["errors"][0]["field"] == "ticket"


def test_an_expired_ticket_is_401(live_client, table, monkeypatch):
    import referee.matches.live
    game = table.create(live_client, **TARGET_ONE)
    ticket = live_client.post(game.url + "/stream-tickets",
                              headers=bearer(game.token("host"))).get_json()["ticket"]
    later = referee.matches.live.time.time() + referee.matches.live.TICKET_SECONDS + 1
    monkeypatch.setattr(referee.matches.live.time, "time", lambda: later)
    refused = live_client.get(f"{game.url}/stream?ticket={ticket}")
    assert refused.status_code == 401 and "expired" in refused.get_json()["detail"]


@pytest.mark.parametrize("query, headers, field", [
    ("?ticket=x", "token", "ticket"),        # a token and a ticket at once
    ("", {"Last-Event-ID": "seven"}, "Last-Event-ID"),
    ("?after=-1", {}, "query.after"),
])
def test_bad_stream_requests_are_422_naming_the_field(live_client, table, query, headers,
                                                      field):
    game = table.create(live_client, **TARGET_ONE)
    if headers == "token":
        headers = bearer(game.token("ben"))
    refused = live_client.get(f"{game.url}/stream{query}", headers=headers)
    assert refused.status_code == 422
    assert refused.get_json()["errors"][0]["field"] == field  # a header by its bare name,
    # as Idempotency-Key and If-Match are named; the query's parameter as query.after


def test_the_public_needs_no_ticket_and_cannot_get_one(live_client, table):
    game = table.create(live_client, **TARGET_ONE)
    assert live_client.post(game.url + "/stream-tickets").status_code == 401


def test_a_deleted_match_ends_its_streams_and_quiet_streams_beat(live_client, table, stream):
    game = table.create(live_client, **TARGET_ONE)
    raw = live_client.get(game.url + "/stream", buffered=False)
    chunks = raw.iter_encoded()
    seen = b""
    while b": heartbeat" not in seen:
        seen += next(chunks)
    raw.close()
    public = stream(live_client, game.url + "/stream")
    public.until("view")
    assert live_client.delete(game.url, headers=bearer(game.token("host"))).status_code == 204
    assert public.until("end")[-1]["data"] == {"version": 1, "reason": "gone"}
    public.close()


def _burmese(text: str) -> bool:
    return any("\u1000" <= ch <= "\u109f" for ch in text)


def test_a_stream_speaks_the_negotiated_language_as_the_other_reads(live_client, table,
                                                                   stream):
    # Accept-Language: my — the stream's views (Coup's awaiting sentence) and events (All
    # Fours' game_over reason, AF-S6) are Burmese, as GET …/events and GET … answer them.
    coup = table.create(live_client, game="coup", players=["ana", "ben"], seed=3)
    ana = stream(live_client, coup.url + "/stream",
                 {**bearer(coup.token("ana")), "Accept-Language": "my"})
    view = ana.until("view")[-1]["data"]["view"]
    ana.close()
    assert _burmese(view["awaiting"]) and view["awaiting"] == coup.client.get(
        coup.url, headers={**bearer(coup.token("ana")), "Accept-Language": "my"}
    ).get_json()["view"]["awaiting"]
    game = table.create(live_client, **TARGET_ONE)
    ben = stream(live_client, game.url + "/stream",
                 {**bearer(game.token("ben")), "Accept-Language": "my"})
    ben.until("view")
    game.play_out(random.Random(42))
    events = [m["data"] for m in ben.until("end") if m["event"] == "event"]
    ben.close()
    over = next(ev for ev in events if ev["type"] == "game_over")
    assert _burmese(over["reason"])
    assert events == [e for e in game.client.get(game.url + "/events", headers={
        **bearer(game.token("ben")), "Accept-Language": "my"}).get_json()["events"]
        if e["version"] > 1]  # the first deal's came before the first view
