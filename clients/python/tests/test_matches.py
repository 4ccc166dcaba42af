"""Whole matches through ``referee_client`` on both stores (in-process; Redis with two
workers): an All Fours game played to its end while a seat and the public follow it, its audit
replayed, its rematch; and (Redis) a stream that survives its server's restart."""
from __future__ import annotations

import threading
import time

import pytest

from servers import Server, server_command
from referee_client import RefereeClient


def play(referee: RefereeClient, match: dict, count: int = 1000) -> int:
    """Up to ``count`` moves (fewer if the match ends): each the first legal action of a seat,
    sent at the version it was legal at; returns how many were made."""
    made = 0
    while made < count:
        now = referee.match_legal_actions(match["id"], match["host_token"])
        if not now["to_move"]:
            break
        action = next(a for a in now["actions"] if a["player"] in match["seats"])
        moved = referee.act(match["id"], match["seats"][action["player"]], action,
                            expected_version=now["version"])
        made += 1
        if moved["over"]:
            break
    return made


def follow_in_thread(referee: RefereeClient, match_id: str, token: str | None, **kwargs):
    """Follows in a thread of its own; returns ``(thread, messages)``."""
    messages: list[dict] = []
    thread = threading.Thread(target=lambda: messages.extend(
        referee.follow(match_id, token, **kwargs)) or None, daemon=True)
    thread.start()
    return thread, messages


def wait_until(check, what: str, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def assert_followed_whole(referee, match, token, messages, last_version) -> None:
    """Each event once, in order, exactly the reader's log; each view's version once, rising;
    the end last."""
    events = [m for m in messages if m["event"] == "event"]
    log, after = [], 0
    while after is not None:  # the reader's whole log, page after page (next)
        page = referee.events(match["id"], token, after)
        log, after = log + page["events"], page["next"]
    assert [m["id"] for m in events] == [e["seq"] for e in log]
    assert [m["data"] for m in events] == log
    versions = [m["data"]["version"] for m in messages if m["event"] == "view"]
    assert versions == sorted(set(versions)) and versions[-1] == last_version
    assert messages[-1] == {"event": "end", "id": None,
                            "data": {"version": last_version, "reason": "over"}}


def test_af_s6_a_whole_game_to_14_followed_live_then_audited_and_rematched(store_url):
    referee = RefereeClient(store_url)
    match = referee.create_match("all-fours", ["ana", "ben"], dealer="ana", seed=42)
    ben_thread, ben = follow_in_thread(referee, match["id"], match["seats"]["ben"])
    public_thread, public = follow_in_thread(referee, match["id"], None)
    for messages in (ben, public):
        wait_until(lambda: any(m["event"] == "view" for m in messages), "a first view")
    assert play(referee, match) == 69
    final = referee.match(match["id"])
    assert (final["version"], final["over"], final["to_move"]) == (70, True, [])
    assert (final["view"]["winner"], final["view"]["score"]) == ("ben", {"ana": 6, "ben": 14})
    for thread in (ben_thread, public_thread):
        thread.join(timeout=30)
        assert not thread.is_alive()
    assert_followed_whole(referee, match, match["seats"]["ben"], ben, 70)
    assert_followed_whole(referee, match, None, public, 70)

    audit = referee.audit(match["id"])
    setup = dict(audit["setup"])
    state = referee.setup("all-fours", setup.pop("players"), **setup)
    for action in audit["actions"]:
        state = referee.apply("all-fours", state, action)["state"]
    assert state == audit["final_state"] and len(audit["actions"]) == 69

    rematch = referee.rematch(match["id"], match["host_token"], {"dealer": "ben"})
    assert rematch["rematch_of"] == match["id"]
    assert referee.match_legal_actions(rematch["id"], match["seats"]["ana"])["to_move"] == ["ana"]
    assert referee.match(match["id"])["rematch"] == rematch["id"]


def test_follow_resumes_after_its_server_restarts_missing_and_repeating_no_event(
        redis_url, redis_server):
    """The follower's server (A) is stopped mid-match (open streams cut), moves go on through
    a second server on the same Redis, A starts again on the same port, and ``follow()``
    resumes after the last event it saw."""
    a = Server(server_command(), {"REDIS_URL": redis_url}, workers=1).start()
    try:
        on_a, on_b = RefereeClient(a.url), RefereeClient(redis_server.url)
        match = on_b.create_match("all-fours", ["ana", "ben"], dealer="ana", seed=42)
        thread, messages = follow_in_thread(on_a, match["id"], match["seats"]["ana"],
                                            reconnects=30)
        wait_until(lambda: any(m["event"] == "view" for m in messages), "the first view")
        play(on_b, match, 10)
        wait_until(lambda: any(m["event"] == "view" and m["data"]["version"] == 11
                               for m in messages), "version 11 on A's stream")
        a.stop()
        play(on_b, match, 10)  # versions 12-21 while A is down
        a.start()
        play(on_b, match)
        thread.join(timeout=60)
        assert not thread.is_alive()
    finally:
        a.stop()
    assert any(m["event"] == "event" and 11 < m["data"]["version"] <= 21 for m in messages)
    assert_followed_whole(on_b, match, match["seats"]["ana"], messages, 70)
