"""Helpers of the live tests: playing a match through the client, following it in a thread,
and checking what a follower saw."""
from __future__ import annotations

import threading
import time

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


def whole_log(referee, match_id: str, token: str | None = None) -> list[dict]:
    """Every event the token may see, page after page (``next`` until ``None``)."""
    log, after = [], 0
    while after is not None:
        page = referee.events(match_id, token, after=after)
        log += page["events"]
        after = page["next"]
    return log


def assert_followed_whole(referee, match, token, messages, last_version) -> None:
    """Each event once, in order, exactly the reader's log; each view's version once, rising;
    the end last."""
    events = [m for m in messages if m["event"] == "event"]
    log = whole_log(referee, match["id"], token)
    assert [m["id"] for m in events] == [e["seq"] for e in log]
    assert [m["data"] for m in events] == log
    versions = [m["data"]["version"] for m in messages if m["event"] == "view"]
    assert versions == sorted(set(versions)) and versions[-1] == last_version
    assert messages[-1] == {"event": "end", "id": None,
                            "data": {"version": last_version, "reason": "over"}}
