"""README "Retries": the same ``Idempotency-Key`` with another action or another expected
version is 422 ``idempotency-key-reused`` and applies nothing — checked on a real Redis (every
topology of REFEREE_TEST_TOPOLOGIES, through the app) and through gunicorn with two worker
processes sharing it (the in-process store's case: tests/matches/test_match_api.py)."""
from __future__ import annotations

import requests

from tests.gunicorn_server import gunicorn

STAND = {"type": "stand", "player": "ben"}
BEG = {"type": "beg", "player": "ben"}
SETUP = {"game": "all-fours", "players": ["ana", "ben"], "dealer": "ana", "seed": 1}


def _reuse_is_refused(post, read_version) -> None:
    """ben stands at version 1 with key ``k`` (AF-B1: he is on the dealer's right); then the
    same key with a beg, and with the stand at version 2, is refused; the first is replayed."""
    first = post(STAND, 1, "k")
    assert first.status_code == 200 and first.json()["version"] == 2
    for action, version in ((BEG, 1), (STAND, 2)):
        refused = post(action, version, "k")
        assert refused.status_code == 422, refused.text
        assert refused.headers["Content-Type"] == "application/problem+json"
        assert refused.json()["type"] == "/problems/idempotency-key-reused"
    replayed = post(STAND, 1, "k")
    assert replayed.status_code == 200 and replayed.headers["Idempotent-Replayed"] == "true"
    assert replayed.json() == first.json()
    assert read_version() == 2  # nothing else was applied


class _Json:
    """A Flask test response with ``requests``' ``json()``/``text``."""

    def __init__(self, response):
        self.status_code, self.headers = response.status_code, response.headers
        self.json, self.text = response.get_json, response.get_data(as_text=True)


def test_a_reused_key_is_refused_on_redis(redis_app, table):
    match = table.create(redis_app.test_client(), **SETUP)
    _reuse_is_refused(lambda action, version, key: _Json(match.act("ben", action, version,
                                                                   key)),
                      lambda: match.read(None)["version"])


def test_a_reused_key_is_refused_through_gunicorn_workers_sharing_redis(redis_url, free_port):
    wait = "1" if redis_url.startswith("redis+sentinel") else "0"
    with gunicorn(free_port(), {"REDIS_URL": redis_url, "REDIS_WAIT_REPLICAS": wait},
                  workers=2) as base:
        created = requests.post(f"{base}/v1/matches", json=SETUP, timeout=10).json()
        match = f"{base}/v1/matches/{created['id']}"
        ben = {"Authorization": f"Bearer {created['seats']['ben']}"}

        def post(action, version, key):
            return requests.post(f"{match}/actions", json={"action": action}, timeout=10,
                                 headers={**ben, "If-Match": f'"{version}"',
                                          "Idempotency-Key": key})
        _reuse_is_refused(post, lambda: requests.get(match, timeout=10).json()["version"])
