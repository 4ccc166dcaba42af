"""Claims and idempotent creation through gunicorn with two worker processes sharing a real Redis
(every topology of REFEREE_TEST_TOPOLOGIES): requests racing in both processes make one match
per ``Idempotency-Key`` and give a seat to one claim per invite code; a re-issued token is
refused by both processes at once (issue 22 item 2, "tested on real Redis with two workers")."""
from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor

import requests

from tests.gunicorn_server import gunicorn

BODY = {"game": "all-fours", "players": ["ana", "ben", "cy", "dee"], "dealer": "ana",
        "open_seats": ["ben", "cy", "dee"]}
RACERS = 8
"""Concurrent requests per race (each pair of them likely lands in both workers)."""


def test_claims_and_creations_racing_in_two_workers_each_win_once(redis_url, free_port):
    wait = "1" if redis_url.startswith("redis+sentinel") else "0"
    with gunicorn(free_port(), {"REDIS_URL": redis_url, "REDIS_WAIT_REPLICAS": wait},
                  workers=2) as base, ThreadPoolExecutor(RACERS) as pool:
        key = {"Idempotency-Key": str(uuid.uuid4())}
        created = list(pool.map(lambda _: requests.post(
            f"{base}/v1/matches", json=BODY, headers=key, timeout=10), range(RACERS)))
        assert [r.status_code for r in created] == [201] * RACERS
        assert len({r.text for r in created}) == 1  # one match, one answer
        assert sum(r.headers.get("Idempotent-Replayed") == "true" for r in created) == \
            RACERS - 1
        match = created[0].json()
        url = f"{base}/v1/matches/{match['id']}"
        for seat in ("ben", "cy"):
            code = match["invites"][seat]["code"]
            claims = list(pool.map(lambda i: requests.post(
                url + ("/claim" if i % 2 else f"/seats/{seat}/claim"), json={"code": code},
                timeout=10), range(RACERS)))
            statuses = sorted(r.status_code for r in claims)
            assert statuses == [200] + [409] * (RACERS - 1), [r.text for r in claims]
        public = requests.get(url, timeout=10).json()
        assert public["open_seats"] == ["dee"] and public["version"] == 3
        host = {"Authorization": f"Bearer {match['host_token']}"}
        old = {"Authorization": f"Bearer {match['seats']['ana']}"}
        assert requests.post(url + "/seats/ana/token", headers=host,
                             timeout=10).status_code == 200
        refused = list(pool.map(lambda _: requests.get(url, headers=old, timeout=10),
                                range(RACERS)))
        assert [r.status_code for r in refused] == [401] * RACERS
