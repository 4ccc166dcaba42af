"""20 clients race on one match served by gunicorn with 4 worker processes on a real Redis:
every accepted action is applied exactly once, the versions of the accepted actions are
consecutive and unique, retries with an Idempotency-Key get the first answer, and nothing
answers 5xx."""
from __future__ import annotations

import random
import threading
from collections import Counter

import pytest
import requests

from tests.gunicorn_server import gunicorn

CLIENTS = 20
MAX_POSTS = 500
"""The bound on racing POSTs (with the reads, well under a thousand requests)."""


@pytest.fixture
def server(redis_url, free_port):
    """``gunicorn -w 4`` (gevent workers) serving the app on a free loopback port, matches in
    the test Redis."""
    env = {"REDIS_URL": redis_url,
           "REDIS_WAIT_REPLICAS": "1" if redis_url.startswith("redis+sentinel") else "0"}
    with gunicorn(free_port(), env, workers=4) as base:
        yield base


class Race:
    """What the racing clients saw: every status, and every 200 by idempotency key."""

    def __init__(self, base: str, created: dict):
        self.base = base
        self.url = f"{base}/v1/matches/{created['id']}"
        self.created = created
        self.lock = threading.Lock()
        self.statuses: Counter = Counter()
        self.accepted: dict[str, dict] = {}   # key -> first 200 body (not a replay)
        self.actions: dict[str, dict] = {}    # key -> the action posted with it
        self.replays: list[tuple[str, dict]] = []
        self.posts = 0
        self.over = threading.Event()
        self.failures: list[BaseException] = []

    def auth(self, who: str) -> dict[str, str]:
        token = self.created["host_token"] if who == "host" else self.created["seats"][who]
        return {"Authorization": f"Bearer {token}"}

    def send(self, session, seat, action, version, key):
        """POST, resending the same request (same key) on a connection error."""
        for tries_left in reversed(range(5)):
            try:
                response = session.post(f"{self.url}/actions", json={"action": action},
                                        headers={**self.auth(seat), "If-Match": f'"{version}"',
                                                 "Idempotency-Key": key}, timeout=10)
            except requests.ConnectionError:
                if not tries_left:
                    raise
                continue
            with self.lock:
                self.posts += 1
                self.statuses[response.status_code] += 1
            return response

    def client(self, number: int) -> None:
        """Run :meth:`race` as client ``number``, keeping any failure for the test."""
        try:
            self.race(number)
        except BaseException as exc:  # a thread's failure must fail the test
            with self.lock:
                self.failures.append(exc)
            self.over.set()

    def race(self, number: int) -> None:
        """One racing client: read, pick a legal action of the seat to move, post it with
        If-Match and a fresh key; after a 200 sometimes send it again (a retry)."""
        rng = random.Random(number)
        session = requests.Session()
        attempt = 0
        while not self.over.is_set() and self.posts < MAX_POSTS:
            read = session.get(f"{self.url}/legal-actions", headers=self.auth("host"),
                               timeout=10)
            with self.lock:
                self.statuses[read.status_code] += 1
            body = read.json()
            if not body["to_move"]:
                self.over.set()
                return
            seat = body["to_move"][0]
            action = rng.choice([a for a in body["actions"] if a["player"] == seat])
            attempt += 1
            key = f"client-{number}-{attempt}"
            response = self.send(session, seat, action, body["version"], key)
            if response.status_code != 200:
                # Legal at the version read: the only refusal is that someone moved first.
                assert response.status_code == 409, response.text
                assert response.json()["current_version"] > body["version"]
                continue
            first = response.json()
            assert "Idempotent-Replayed" not in response.headers
            with self.lock:
                self.accepted[key] = first
                self.actions[key] = action
            if first["over"]:
                self.over.set()
            if rng.random() < 0.3:
                again = self.send(session, seat, action, body["version"], key)
                assert again.status_code == 200, again.text
                assert again.headers["Idempotent-Replayed"] == "true"
                with self.lock:
                    self.replays.append((key, again.json()))


def test_twenty_clients_racing_on_one_match_apply_each_action_once(server, table):
    created = requests.post(f"{server}/v1/matches", json={
        "game": "all-fours", "players": ["ana", "ben"], "dealer": "ana", "seed": 99,
        "options": {"target": 5}}, timeout=10)
    assert created.status_code == 201
    race = Race(server, created.json())
    threads = [threading.Thread(target=race.client, args=(n,)) for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert race.failures == []
    assert not any(status >= 500 for status in race.statuses), race.statuses
    assert race.statuses[200] >= len(race.accepted) > 0
    assert race.statuses[409] > 0  # the clients did race
    # Versions of the accepted actions: unique and consecutive from 2.
    versions = sorted(body["version"] for body in race.accepted.values())
    assert versions == list(range(2, len(versions) + 2))
    # A retry got the very first answer back.
    for key, body in race.replays:
        assert body == race.accepted[key]

    # Finish the match if the bound stopped the race, then read the audit.
    session = requests.Session()
    while True:
        state = session.get(f"{race.url}/legal-actions", headers=race.auth("host")).json()
        if not state["to_move"]:
            break
        action = next(a for a in state["actions"] if a["player"] == state["to_move"][0])
        assert race.send(session, action["player"], action, state["version"],
                         f"finish-{state['version']}").status_code == 200
    audit = session.get(f"{race.url}/audit").json()
    by_version = {body["version"]: race.actions[key] for key, body in race.accepted.items()}
    # Every accepted action is in the action list exactly once, at its version.
    assert audit["actions"][:len(versions)] == [by_version[v] for v in versions]
    assert audit["version"] == len(audit["actions"]) + 1
    events = session.get(f"{race.url}/events", headers=race.auth("host")).json()["events"]
    assert [ev["seq"] for ev in events] == list(range(1, len(events) + 1))
    assert {ev["version"] for ev in events} <= set(range(1, audit["version"] + 1))  # 1: deal
    assert session.delete(race.url, headers=race.auth("host")).status_code == 204
