"""``follow()``'s reconnection rules against a scripted session (no server): ``Last-Event-ID``
is the last event seen, the server's ``reconnect`` end is followed at once, a lost or cut
stream after a growing wait, an event sent twice is yielded once, too many losses in a row
raise, and a refusal is raised at once."""
from __future__ import annotations

import json

import pytest
import requests

from referee_client import RECONNECT_DELAYS, RefereeClient, RefereeError


def sse(event, data, event_id=None):
    head = [f"id: {event_id}"] if event_id is not None else []
    return head + [f"event: {event}", f"data: {json.dumps(data)}", ""]


def ev(seq, version):
    return sse("event", {"seq": seq, "version": version, "type": "play"}, seq)


def view(version, over=False):
    return sse("view", {"version": version, "over": over})


END_RECONNECT = sse("end", {"version": 1, "reason": "reconnect"})


class Streamed:
    """A streamed answer: ``lines`` then the end of the body (or ``cut``: an error)."""

    def __init__(self, lines, status=200, cut=None):
        self.lines, self.status_code, self.cut = lines, status, cut
        self.ok = status < 400
        self.reason = "Error"
        self.text = json.dumps({"type": "/problems/not-found", "title": "Not found",
                                "status": status})

    def json(self):
        return json.loads(self.text)

    def iter_lines(self, decode_unicode=True):
        yield from self.lines
        if self.cut:
            raise self.cut

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class Scripted(requests.Session):
    def __init__(self, script):
        super().__init__()
        self.script, self.sent = list(script), []

    def get(self, url, headers=None, **kwargs):
        self.sent.append(dict(headers or {}))
        step = self.script.pop(0)
        if isinstance(step, Exception):
            raise step
        return step


def client_of(script):
    session = Scripted(script)
    referee = RefereeClient("http://referee.test", session=session)
    waits = []
    referee.sleep = waits.append
    return referee, session, waits


def test_it_resumes_after_the_last_event_seen_and_yields_each_event_once():
    referee, session, waits = client_of([
        Streamed(ev(1, 1) + ev(2, 1) + view(1) + END_RECONNECT),
        Streamed(ev(2, 1) + ev(3, 2) + view(1) + view(2),  # seq 2 and view 1 again
                 cut=requests.exceptions.ChunkedEncodingError("cut")),
        requests.ConnectionError("refused"),
        Streamed(ev(4, 3) + view(3, True) + sse("end", {"version": 3, "reason": "over"})),
    ])
    got = list(referee.follow("m1", "seat-token"))
    assert [(m["event"], m["id"] or m["data"]["version"]) for m in got] == [
        ("event", 1), ("event", 2), ("view", 1), ("event", 3), ("view", 2), ("event", 4),
        ("view", 3), ("end", 3)]
    assert [h["Last-Event-ID"] for h in session.sent] == ["0", "2", "3", "3"]
    assert all(h["Authorization"] == "Bearer seat-token" for h in session.sent)
    assert waits == [RECONNECT_DELAYS[0], RECONNECT_DELAYS[1]]  # reconnect: at once


def test_too_many_losses_in_a_row_raise_and_a_503_counts_as_one():
    referee, _, waits = client_of([Streamed([], status=503), requests.ConnectionError("x"),
                                   Streamed([]), requests.Timeout("y")])
    with pytest.raises(requests.ConnectionError, match="lost 4 times in a row"):
        list(referee.follow("m2", reconnects=3))
    assert waits == list(RECONNECT_DELAYS[:3])


def test_a_refusal_is_raised_at_once():
    referee, _, waits = client_of([Streamed([], status=404)])
    with pytest.raises(RefereeError) as caught:
        list(referee.follow("m3"))
    assert (caught.value.status, caught.value.type, waits) == (404, "not-found", [])
