"""Whole matches through ``referee_client`` on both stores (in-process; Redis with two
workers): an All Fours game played to its end while a seat and the public follow it, its audit
replayed, its rematch; and (Redis) a stream that survives its server's restart."""
from __future__ import annotations

from playing import assert_followed_whole, follow_in_thread, play, wait_until
from referee_client import RefereeClient
from servers import Server, server_command


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
