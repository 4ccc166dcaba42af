"""``Retry-After`` of a 429 is the time left in the spent window, rounded up (issue 21 item 6):
a 60-second budget says 60 at most — not 61, as Flask-Limiter's ``reset_at`` (the expiry
rounded down, plus 1) made the create budget say — and with 0.8 s left it says 1, not 2; on
Redis the counter's milliseconds (``PTTL``) are read, not ``TTL``'s rounded seconds
(``referee.api.ratelimits.seconds_left``)."""
from __future__ import annotations

import math
import time

from referee.serving.app import create_app

SPY = {"game": "spy", "players": ["ana", "ben"]}


def _client(**config):
    return create_app({"TESTING": True, "REDIS_URL": None, "RATE_LIMITS_ENABLED": True,
                       **config}).test_client()


def _waits(answer) -> tuple[int, int]:
    assert answer.status_code == 429, answer.get_json()
    return int(answer.headers["Retry-After"]), int(answer.headers["RateLimit-Reset"])


def test_retry_after_is_the_time_left_in_the_window_at_most_its_length(monkeypatch):
    clock = [1_000_000.3]  # a window that starts a third of a second into a second
    monkeypatch.setattr(time, "time", lambda: clock[0])
    client = _client(LIMIT_CREATE="1/minute", LIMIT_MATCH_PER_TOKEN="1/minute",
                     LIMIT_STATELESS_PER_IP="1/minute")
    created = client.post("/v1/matches", json=SPY)  # the create window: 1000000.3 + 60
    assert created.status_code == 201
    assert _waits(client.post("/v1/matches", json=SPY)) == (60, 60)  # 60.0 s left
    clock[0] += 0.5
    assert _waits(client.post("/v1/matches", json=SPY)) == (60, 60)  # 59.5 s left
    clock[0] = 1_000_059.5
    assert _waits(client.post("/v1/matches", json=SPY)) == (1, 1)  # 0.8 s left

    url = f"/v1/matches/{created.get_json()['id']}"
    ana = {"Authorization": f"Bearer {created.get_json()['seats']['ana']}"}
    clock[0] = 1_000_100.3  # the token's window: 1000100.3 + 60
    assert client.get(url, headers=ana).status_code == 200
    assert _waits(client.get(url, headers=ana)) == (60, 60)
    clock[0] = 1_000_160.0
    assert _waits(client.get(url, headers=ana)) == (1, 1)  # 0.3 s left

    # the stateless budget's windows are aligned to the minute: 1000220.3 is 20.3 s into
    # one (1000220.3 // 60 = 16670: from 1000200 to 1000260)
    clock[0] = 1_000_220.3
    setup = {"players": ["ana", "ben"], "seed": 1}
    assert client.post("/v1/games/spy/setup", json=setup).status_code == 200
    assert _waits(client.post("/v1/games/spy/setup", json=setup)) == (
        math.ceil(1_000_260 - 1_000_220.3),) * 2 == (40, 40)


def test_on_redis_retry_after_reads_the_counter_s_milliseconds(redis_url, redis_prefix):
    """``TTL`` rounds to the nearest second: with 59.4 s left it says 59, and a client
    retrying then is refused again; the counter's ``PTTL`` says 59.4, so 60."""
    app = create_app({"TESTING": True, "REDIS_URL": redis_url, "REDIS_KEY_PREFIX": redis_prefix,
                      "RATE_LIMITS_ENABLED": True, "LIMIT_CREATE": "1/minute",
                      "LIMIT_MATCH_PER_TOKEN": "1/minute"})
    client = app.test_client()
    storage = app.extensions["referee.limits"]["playing"].storage
    redis = storage.get_connection()

    def left_ms(scope: str, millis: int) -> None:
        keys = list(redis.scan_iter(match=f"*{redis_prefix}:limits/*/{scope}/*"))
        assert keys, scope
        for key in keys:
            redis.pexpire(key, millis)

    created = client.post("/v1/matches", json=SPY)
    assert created.status_code == 201
    left_ms("create", 59_400)
    assert _waits(client.post("/v1/matches", json=SPY)) == (60, 60)
    left_ms("create", 600)
    assert _waits(client.post("/v1/matches", json=SPY)) == (1, 1)

    url = f"/v1/matches/{created.get_json()['id']}"
    ana = {"Authorization": f"Bearer {created.get_json()['seats']['ana']}"}
    assert client.get(url, headers=ana).status_code == 200
    left_ms("match-token", 59_400)
    assert _waits(client.get(url, headers=ana)) == (60, 60)
