"""A stream catching up from far behind goes through at most ``CATCH_UP_EVENTS`` logged events
(issue 21 item 1: every request's CPU under 25 ms; 19,000 events of the longest match cost
~86 ms in one stream), then ends with ``reconnect`` right after the last event it sent; each
reader resuming with ``Last-Event-ID`` gets every event it may see once, in order: the same
events as its ``GET …/events`` walk, then the view and the end ``over``.  On the in-process
store and on Redis, the cap lowered to 10 so that the 196 events of the fixture's match need
many streams."""
from __future__ import annotations

from urllib.parse import urlsplit

import pytest
import requests

from referee.matches import live, pauses
from referee_client import RefereeClient, parse_sse
from tests.matches.conftest import bearer
from tests.matches.test_long_reads import finished, store  # noqa: F401 - fixtures

CAP = 10
"""The cap in these tests.  The fixture's log: seq 9 ``window_closed``, 10 ``exchange_drawn``,
11 its private twin for ana: ana (and the host, who sees every twin) get the twin alone, after
the cut, so their first stream's last event is seq 9; hal and the public get seq 10."""

FIRST_LAST = {"ana": 9, "host": 9, "hal": 10, None: 10}


def _messages(game, who, after):
    """The messages of ``who``'s stream resumed after ``after`` (a finished match's stream
    ends by itself)."""
    answer = game.client.get(game.url + "/stream",
                             headers={**bearer(game.token(who)), "Last-Event-ID": str(after)})
    assert answer.status_code == 200
    return list(parse_sse(answer.get_data(as_text=True).split("\n")))


def _walk(game, who):
    """Every event ``who`` may see, page by page of ``GET …/events`` (``next``)."""
    events, after = [], 0
    while after is not None:
        page = game.get(who, f"/events?after={after}").get_json()
        events, after = events + page["events"], page["next"]
    return events


@pytest.mark.parametrize("chunk", [4, 50])  # parts smaller than the cap, or one part
def test_a_stream_behind_ends_after_the_cap_and_resuming_yields_each_event_once(
        finished, monkeypatch, chunk):
    game = finished
    monkeypatch.setattr(live, "CATCH_UP_EVENTS", CAP)
    monkeypatch.setattr(pauses, "CHUNK", chunk)
    final = game.read("host")
    for who in ("ana", "host", "hal", None):
        first = _messages(game, who, 0)
        # the events of seq 1-10 it may see, then at once the end (no view)
        assert [m["event"] for m in first[:-1]] == ["event"] * (len(first) - 1), who
        assert first[-2]["id"] == FIRST_LAST[who], who
        assert first[-1] == {"event": "end", "id": None,
                             "data": {"version": None, "reason": "reconnect"}}, who
        got, streams, last, messages = [], 0, 0, first
        while True:
            streams += 1
            events = [m for m in messages if m["event"] == "event"]
            got += [m["data"] for m in events]
            assert [m["id"] for m in events] == [m["data"]["seq"] for m in events]
            assert all(m["id"] > last for m in events), who  # nothing twice
            if messages[-1]["data"]["reason"] == "over":
                break
            assert messages[-1]["data"]["reason"] == "reconnect"
            assert messages[-2]["event"] == "event"  # right after the last event sent
            last = messages[-2]["id"]
            assert streams < 100, who
            messages = _messages(game, who, last)
        assert got == _walk(game, who), who
        assert [m["event"] for m in messages[-2:]] == ["view", "end"]
        assert messages[-2]["data"]["version"] == final["version"]
        assert messages[-2]["data"]["view"] == game.read(who)["view"]
        assert streams >= 196 // CAP, who


def test_a_catch_up_that_sent_nothing_goes_on_until_it_sends_an_event(finished, monkeypatch):
    # ana after seq 9 with a cap of 1: seq 10 (the public exchange_drawn) is not hers (her
    # twin, seq 11, replaces it).  Ending there would send her back to resume after seq 9
    # again, for ever; the stream goes on to the end of the next part (seq 11-13; 12 is the
    # public cards_returned, 13 her twin of it).
    game = finished
    monkeypatch.setattr(live, "CATCH_UP_EVENTS", 1)
    monkeypatch.setattr(pauses, "CHUNK", 4)
    messages = _messages(game, "ana", 9)
    assert [(m["event"], m["id"]) for m in messages] == [("event", 11), ("event", 13),
                                                         ("end", None)]
    assert messages[-1]["data"]["reason"] == "reconnect"
    assert messages[0]["data"]["visible_to"] == ["ana"]


class _ToApp(requests.Session):
    """A ``requests`` session that sends each GET to a Flask test client (a finished match's
    stream ends by itself, so its whole answer is read at once); the headers it was sent."""

    def __init__(self, client):
        super().__init__()
        self.client, self.sent = client, []

    def get(self, url, headers=None, **kwargs):
        self.sent.append(dict(headers or {}))
        parts = urlsplit(url)
        answer = self.client.get(parts.path, query_string=parts.query, headers=headers)
        response = requests.Response()
        response.status_code, response.url, response.reason = answer.status_code, url, "?"
        response.headers.update(answer.headers)
        response._content, response._content_consumed = answer.get_data(), True
        response.encoding = "utf-8"
        return response


def test_the_python_client_follows_through_the_forced_reconnects(finished, monkeypatch):
    game = finished
    monkeypatch.setattr(live, "CATCH_UP_EVENTS", CAP)
    session = _ToApp(game.client)
    referee = RefereeClient("http://referee.test", session=session)
    referee.sleep = lambda seconds: pytest.fail("a reconnect end is followed at once")
    got = list(referee.follow(game.id, game.token("ana")))
    assert [m["data"] for m in got if m["event"] == "event"] == _walk(game, "ana")
    assert [m["event"] for m in got[-2:]] == ["view", "end"]
    assert got[-1]["data"]["reason"] == "over"
    resumed = [int(h["Last-Event-ID"]) for h in session.sent]
    assert resumed[:3] == [0, 9, 19]  # 10 is not ana's; 11-19 are (twins 11, 13)
    assert resumed == sorted(set(resumed)) and len(resumed) >= 196 // CAP
