"""The caps on open streams and long-polls hold across workers and pods (issue 21 item 2): their
leases are counted in the Redis of ``REDIS_URL`` (:class:`referee.store.leases.RedisLeases`),
so two gunicorn servers on one Redis share them; a worker killed with its streams open leaves
leases that lapse after ``REFEREE_STREAM_LEASE_SECONDS``, not slots lost for ever.

Each test's client speaks from a loopback address of its own (``127.x.y.z``: all of 127/8 is
loopback on Linux), so the per-address counts of tests sharing the test Redis never meet."""
from __future__ import annotations

import http.client
import json
import os
import random
import signal
import time
from pathlib import Path

import pytest
import redis

from referee.store.leases import Full, RedisLeases
from referee.store.connect import redis_client
from tests.gunicorn_server import gunicorn

LIMITS_ON = {"REFEREE_RATE_LIMITS": "on", "REFEREE_STREAM_HEARTBEAT_SECONDS": "0.5"}


def _address() -> str:
    return f"127.{random.randint(1, 254)}.{random.randint(1, 254)}.{random.randint(2, 254)}"


class Client:
    """HTTP on one connection per call from ``source`` to ``127.0.0.1:port``."""

    def __init__(self, port: int, source: str):
        self.port, self.source = port, source

    def call(self, method: str, path: str, token: str | None = None, body=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10,
                                          source_address=(self.source, 0))
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if body is not None:
            headers["Content-Type"] = "application/json"
        conn.request(method, path, body=json.dumps(body) if body is not None else None,
                     headers=headers)
        return conn, conn.getresponse()

    def json(self, method: str, path: str, token: str | None = None, body=None):
        conn, response = self.call(method, path, token, body)
        data = json.loads(response.read() or b"null")
        conn.close()
        return response.status, data, response

    def stream(self, path: str, token: str):
        """Open a stream: ``(status, connection)``; a 200's connection stays open."""
        conn, response = self.call("GET", path, token)
        if response.status != 200:
            body = json.loads(response.read())
            conn.close()
            return response.status, body
        return 200, conn


def _match(client: Client) -> dict:
    status, created, _ = client.json("POST", "/v1/matches", body={
        "game": "all-fours", "players": ["ana", "ben"], "dealer": "ana", "seed": 42})
    assert status == 201, created
    return created


@pytest.fixture
def two_pods(redis_url, free_port):
    """Two servers on one Redis (one of 2 workers, one of 1), caps of 4 per token and 6 per
    address."""
    env = {**LIMITS_ON, "REDIS_URL": redis_url, "REFEREE_STREAMS_PER_TOKEN": "4",
           "REFEREE_STREAMS_PER_ADDRESS": "6"}
    with gunicorn(free_port(), env, workers=2) as a, gunicorn(free_port(), env) as b:
        yield int(a.rsplit(":", 1)[1]), int(b.rsplit(":", 1)[1])


def _on_both_pods(two_pods) -> tuple[Client, Client, dict]:
    """A client of each pod from one address, and a match made on the first."""
    source = _address()
    a, b = (Client(port, source) for port in two_pods)
    return a, b, _match(a)


def test_the_caps_hold_across_two_pods_on_one_redis(two_pods):
    a, b, created = _on_both_pods(two_pods)
    path, seats = f"/v1/matches/{created['id']}/stream", created["seats"]
    held = []
    try:
        for client in (a, b, a, b):  # ana: 4, on both pods
            status, conn = client.stream(path, seats["ana"])
            assert status == 200, conn
            held.append(conn)
        for client in (a, b):
            status, problem = client.stream(path, seats["ana"])
            assert status == 429 and (problem["cap"], problem["limit"]) == (
                "streams-per-token", 4), problem
        for client in (a, b):  # ben: the address's 5th and 6th
            status, conn = client.stream(path, seats["ben"])
            assert status == 200, conn
            held.append(conn)
        status, problem = b.stream(path, seats["ben"])
        assert status == 429 and (problem["cap"], problem["limit"]) == (
            "streams-per-address", 6), problem
        elsewhere = Client(two_pods[0], _address())
        status, conn = elsewhere.stream(path, seats["ben"])
        assert status == 200, conn
        conn.close()
        # a stream closed on pod a frees its slot for pod b (once the server sees it closed)
        held.pop(0).close()
        assert _opens_within(b, path, seats["ana"], held, seconds=10)
    finally:
        for conn in held:
            conn.close()


def test_the_host_sees_each_seat_s_streams_on_every_pod(two_pods):
    """issue 23 item 1: the host's read on one pod counts the seats' streams open on both
    (their leases are in the one Redis), and a stream closed on the other pod stops counting
    once that server sees it closed (its next heartbeat, 0.5 s)."""
    a, b, created = _on_both_pods(two_pods)
    url, host = f"/v1/matches/{created['id']}", created["host_token"]
    held = []
    try:
        for client in (a, b):
            status, conn = client.stream(url + "/stream", created["seats"]["ana"])
            assert status == 200, conn
            held.append(conn)
        status, answer, _ = a.json("GET", url, host)
        assert status == 200 and answer["connections"] == {"ana": 2, "ben": 0}
        status, answer, _ = b.json("GET", url, created["seats"]["ana"])
        assert status == 200 and "connections" not in answer
        held.pop().close()  # the one on pod b
        deadline = time.monotonic() + 10
        while a.json("GET", url, host)[1]["connections"]["ana"] != 1:
            assert time.monotonic() < deadline, "the closed stream still counts"
            time.sleep(0.2)
    finally:
        for conn in held:
            conn.close()


def _opens_within(client: Client, path: str, token: str, held: list, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status, conn = client.stream(path, token)
        if status == 200:
            held.append(conn)
            return True
        time.sleep(0.2)
    return False


def _worker_pid(master_port: int) -> int:
    """The pid of the gunicorn worker listening on ``master_port`` (a child of its master)."""
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().split(b"\0")
            status = (proc / "status").read_text()
        except OSError:
            continue
        if f"127.0.0.1:{master_port}".encode() in cmdline:
            ppid = int(status.split("PPid:")[1].split()[0])
            parent = Path(f"/proc/{ppid}/cmdline").read_bytes()
            if f"127.0.0.1:{master_port}".encode() in parent:
                return int(proc.name)
    raise AssertionError("no worker found")


def test_a_killed_worker_s_leases_lapse_instead_of_holding_their_slots(redis_url, free_port):
    env = {**LIMITS_ON, "REDIS_URL": redis_url, "REFEREE_STREAMS_PER_TOKEN": "2",
           "REFEREE_STREAM_LEASE_SECONDS": "3"}
    port = free_port()
    with gunicorn(port, env):
        client = Client(port, _address())
        created = _match(client)
        path, ana = f"/v1/matches/{created['id']}/stream", created["seats"]["ana"]
        held = [client.stream(path, ana) for _ in range(2)]
        assert [status for status, _ in held] == [200, 200]
        status, problem = client.stream(path, ana)
        assert status == 429 and problem["cap"] == "streams-per-token"
        leases = RedisLeases(lambda: redis_client(redis_url), "referee:limits", 3)
        token_key = f"token:{_stored_hash(redis_url, created['id'], 'ana')}"
        assert leases.count(token_key) == 2
        os.kill(_worker_pid(port), signal.SIGKILL)  # its streams never say they ended
        for _, conn in held:
            conn.close()
        # nobody released them: they are still counted until they lapse, then free
        assert leases.count(token_key) == 2
        deadline = time.monotonic() + 30
        while leases.count(token_key) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert leases.count(token_key) == 0
        reopened = []
        assert _opens_within(client, path, ana, reopened, seconds=30)  # the new worker
        for conn in reopened:
            conn.close()


def _stored_hash(redis_url: str, match_id: str, seat: str) -> str:
    """The stored hash of ``seat``'s token (the cap's key), read back through the store."""
    from referee.store.redis_store import RedisStore
    return RedisStore(redis_url).load(match_id)["seats"][seat][:32]


def test_redis_leases_take_all_caps_or_none_and_lapse_unless_renewed(redis_url, redis_prefix):
    client = redis_client(redis_url)
    leases = RedisLeases(lambda: client, f"{redis_prefix}:limits", 0.5)
    leases.acquire("one", [("token:t", 2), ("ip:a", 3)])
    leases.acquire("two", [("token:t", 2), ("ip:a", 3)])
    with pytest.raises(Full) as full:
        leases.acquire("three", [("token:t", 2), ("ip:a", 3)])
    assert full.value.index == 0 and full.value.retry_after == 1
    assert leases.count("ip:a") == 2  # none taken: all or none
    leases.acquire("four", [("token:u", 2), ("ip:a", 3)])
    with pytest.raises(Full) as full:
        leases.acquire("five", [("token:u", 2), ("ip:a", 3)])
    assert full.value.index == 1
    leases.release("one", ["token:t", "ip:a"])
    assert (leases.count("token:t"), leases.count("ip:a")) == (1, 2)
    time.sleep(0.3)
    leases.renew({"two": ["token:t", "ip:a"]})
    time.sleep(0.35)  # "four" lapsed (0.65 s), "two" was renewed at 0.3 s
    assert (leases.count("token:t"), leases.count("token:u"), leases.count("ip:a")) == (1, 0, 1)
    client.close()


def test_a_redis_that_does_not_answer_lets_a_stream_open_uncounted():
    """As the budgets: a limit storage that does not answer fails open (logged)."""
    from referee.serving.app import create_app
    app = create_app({"TESTING": True, "REDIS_URL": None, "RATE_LIMITS_ENABLED": True,
                      "RATELIMIT_STORAGE_URI": "redis://127.0.0.1:9/0"})
    caps = app.extensions["referee.open_caps"]
    assert isinstance(caps.leases, RedisLeases)
    lease = caps.open("ab" * 16, "10.0.0.1")
    assert lease.keys == ()  # nothing held, nothing to release
    lease.release()
    with pytest.raises(redis.ConnectionError):
        caps.leases.acquire("x", [("ip:10.0.0.1", 1)])
