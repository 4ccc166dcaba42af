"""The live table on a real Redis, through ``referee_client``: one gunicorn (gevent worker
class, 2 workers) takes the moves, and streams and long-polls are read from it and from a
second gunicorn (another "pod") on the same Redis, so every notice crosses processes through
Redis pub/sub.  Rollback and rematch are driven through the client too."""
from __future__ import annotations

import random
import threading
import time

import pytest

from referee_client import RefereeClient
from referee.games.base import REFEREE, event_visible
from tests.gunicorn_server import gunicorn

READERS = ["ana", "ben", None, "host"]
TARGET_ONE = {"dealer": "ana", "seed": 42, "options": {"target": 1}}


@pytest.fixture
def pods(redis_url, free_port):
    """Two servers on one Redis with the shipped gunicorn settings (referee.serving.worker's gevent
    workers): ``(A with 2 workers, B with 1)``; beats every 0.5 s."""
    env = {"REDIS_URL": redis_url, "REFEREE_STREAM_HEARTBEAT_SECONDS": "0.5"}
    with gunicorn(free_port(), env, workers=2) as a, gunicorn(free_port(), env, workers=1) as b:
        clients = RefereeClient(a), RefereeClient(b)
        yield clients
        for client in clients:  # no keep-alive connection holds up the servers' shutdown
            client.session.close()


def _token(match, who):
    return None if who is None else match["host_token"] if who == "host" else match["seats"][who]


def _play(client, match, rng) -> None:
    """Random legal moves with the seats' tokens until the match is over."""
    while True:
        now = client.match_legal_actions(match["id"], match["host_token"])
        if not now["to_move"]:
            return
        action = rng.choice([a for a in now["actions"] if a["player"] in match["seats"]])
        moved = client.act(match["id"], match["seats"][action["player"]], action,
                           expected_version=now["version"])
        if moved["over"]:
            return


def _follow_all(client, match, after=0):
    """Follow the match as every reader, each in a thread; returns ``(threads, messages)``."""
    got = {who: [] for who in READERS}

    def follow(who):
        got[who].extend(client.follow(match["id"], _token(match, who), after=after))

    threads = [threading.Thread(target=follow, args=(who,), daemon=True) for who in READERS]
    for thread in threads:
        thread.start()
    return threads, got


def _wait_for_views(got):
    """Until every reader has had its first view (its stream is open and watching)."""
    deadline = time.monotonic() + 20
    while not all(any(m["event"] == "view" for m in msgs) for msgs in got.values()):
        assert time.monotonic() < deadline, "a stream never opened"
        time.sleep(0.05)


def test_af_s6_streams_on_both_pods_follow_a_match_to_its_end(pods):
    a, b = pods
    match = a.create_match("all-fours", ["ana", "ben"], **TARGET_ONE)
    on_b, got_b = _follow_all(b, match)
    on_a, got_a = _follow_all(a, match)
    _wait_for_views(got_a)
    _wait_for_views(got_b)
    _play(a, match, random.Random(42))
    for thread in on_a + on_b:
        thread.join(timeout=30)
    final = a.match(match["id"])
    for got in (got_a, got_b):
        for who in READERS:
            messages = got[who]
            events = [m["data"] for m in messages if m["event"] == "event"]
            assert events == a.events(match["id"], _token(match, who))["events"], who
            viewer = REFEREE if who == "host" else who
            assert all(event_visible(ev, viewer) for ev in events)
            views = [m["data"] for m in messages if m["event"] == "view"]
            assert views[-1]["version"] == final["version"] and views[-1]["over"]
            assert views[-1]["view"] == a.match(match["id"], _token(match, who))["view"]
            assert messages[-1]["data"] == {"version": final["version"], "reason": "over"}
    # Resuming after event 3 gives exactly the events after it.
    resumed = [m["data"] for m in b.follow(match["id"], match["seats"]["ben"], after=3)
               if m["event"] == "event"]
    assert resumed == b.events(match["id"], match["seats"]["ben"], after=3)["events"]


def test_af_b1_a_long_poll_on_one_pod_answers_a_move_made_on_the_other(pods):
    a, b = pods
    match = a.create_match("all-fours", ["ana", "ben"], **TARGET_ONE)
    answers = []
    poll = threading.Thread(target=lambda: answers.append(
        b.events(match["id"], match["seats"]["ana"], after=2, wait=20)))  # after deal, kick
    poll.start()
    time.sleep(1.0)  # the poll is waiting (if not, it answers at once: same result)
    a.act(match["id"], match["seats"]["ben"], {"type": "stand", "player": "ben"})
    poll.join(timeout=25)
    assert answers == [{"version": 2, "events": [  # one page: next is None (issue 21 item 4)
        {"type": "stand", "player": "ben", "seq": 3, "version": 2}], "next": None}]


def test_a_rollback_approved_on_both_pods_reaches_the_streams_then_a_rematch(pods):
    a, b = pods
    match = a.create_match("all-fours", ["ana", "ben"], **TARGET_ONE)
    ben = match["seats"]["ben"]
    a.act(match["id"], ben, {"type": "stand", "player": "ben"})  # AF-B1: version 2
    view = a.match(match["id"], ben)
    card = view["view"]["hand"][0]
    a.act(match["id"], ben, {"type": "play", "player": "ben", "card": card})  # version 3
    messages = []
    follower = threading.Thread(target=lambda: messages.extend(
        b.follow(match["id"], match["seats"]["ana"], after=3)), daemon=True)  # after deal, kick, stand
    follower.start()
    proposed = a.propose_rollback(match["id"], match["host_token"], 2, "ben misplayed")
    assert proposed["status"] == "pending" and proposed["version"] == 4
    proposal = proposed["rollback"]["proposal"]
    assert b.vote_rollback(match["id"], match["seats"]["ana"], proposal)["status"] == "pending"
    applied = a.vote_rollback(match["id"], ben, proposal)
    assert applied["status"] == "applied" and applied["version"] == 6
    assert card in a.match(match["id"], ben)["view"]["hand"]  # the card is back in his hand
    _play(a, match, random.Random(9))
    follower.join(timeout=30)
    types = [m["data"]["type"] for m in messages if m["event"] == "event"]
    assert types[:4] == ["play", "rollback_proposed", "rollback_vote", "rollback_vote"]
    assert "rollback_applied" in types and messages[-1]["data"]["reason"] == "over"
    audit = b.audit(match["id"])
    assert [e["rollback"]["step"] for e in audit["history"] if "rollback" in e] == [
        "proposed", "vote", "applied"]
    rematch = b.rematch(match["id"], match["host_token"])
    assert rematch["rematch_of"] == match["id"]
    assert a.match(rematch["id"], ben)["seat"] == "ben"  # the same seat token
