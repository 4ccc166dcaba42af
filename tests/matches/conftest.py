"""Fixtures of the match tests: a real Redis (``REFEREE_TEST_REDIS_URL``, set by ``./dev test``)
under a key prefix of its own, cleaned up afterwards, and :class:`Table`, which drives a match
through the API with a Flask test client.

``REFEREE_TEST_TOPOLOGIES`` (comma-separated, default ``single``) lists the Redis topologies
every test that needs Redis runs against: ``single`` is the test Redis above; ``cluster`` and
``sentinel`` are started here, once per session, from :mod:`tests.topologies` (``./dev
test-deploy`` runs them).  Tests that need Redis are marked ``redis``."""
from __future__ import annotations

import contextlib
import os
import queue
import threading
import uuid
from typing import Any

import pytest

from referee.serving.app import create_app
from referee_client import parse_sse
from referee.store.connect import redis_client
from tests import topologies



def pytest_collection_modifyitems(items):
    """Mark every test that needs a real Redis ``redis``."""
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if ({"redis_url", "private_redis"} & set(getattr(item, "fixturenames", ()))
                or any(str(value).startswith("redis-") for value in params.values())):
            item.add_marker(pytest.mark.redis)


@pytest.fixture(scope="session")
def shared_topologies(tmp_path_factory):
    """The cluster/sentinel topologies of this session, started on first use."""
    started: dict[str, topologies.Topology] = {}

    def get(kind: str) -> topologies.Topology:
        if kind not in started:
            why = topologies.missing_tools()
            if why:
                pytest.skip(why)
            started[kind] = topologies.TOPOLOGIES[kind](tmp_path_factory.mktemp(kind))
        return started[kind]
    yield get
    for topology in started.values():
        topology.close()


@pytest.fixture(scope="session")
def redis_url_of(shared_topologies):
    """A function: topology name → the URL of the test Redis of that topology; for ``single``
    it is ``REFEREE_TEST_REDIS_URL``, and the test is skipped (saying why) when that is
    unset."""
    def url_of(kind: str) -> str:
        if kind != "single":
            return shared_topologies(kind).url
        url = os.environ.get("REFEREE_TEST_REDIS_URL")
        if not url:
            pytest.skip("REFEREE_TEST_REDIS_URL is unset: run ./dev test, which starts a "
                        "private redis-server, or set it to a Redis the tests may write to")
        return url
    return url_of


@pytest.fixture(params=topologies.selected())
def redis_url(request, redis_url_of) -> str:
    """The test Redis of each topology of ``REFEREE_TEST_TOPOLOGIES`` in turn."""
    return redis_url_of(request.param)


@contextlib.contextmanager
def key_prefix(url: str):
    """A key prefix unique to one test on the Redis of ``url``; every key under it is deleted
    afterwards."""
    prefix = f"referee-test-{uuid.uuid4().hex[:12]}"
    yield prefix
    client = redis_client(url)
    for key in client.scan_iter(match=f"{prefix}:*", count=1000):
        client.delete(key)
    client.close()


@pytest.fixture
def redis_prefix(redis_url):
    """A key prefix unique to this test (:func:`key_prefix`)."""
    with key_prefix(redis_url) as prefix:
        yield prefix


@pytest.fixture
def redis_key_prefix():
    """:func:`key_prefix` (conftest functions cannot be imported under importlib mode)."""
    return key_prefix


@pytest.fixture
def redis_app(redis_url, redis_prefix):
    """An app whose matches live in the test Redis (with Sentinel, each update acknowledged
    by a replica)."""
    wait = 1 if redis_url.startswith("redis+sentinel") else 0
    return create_app({"TESTING": True, "REDIS_URL": redis_url, "REDIS_KEY_PREFIX": redis_prefix,
                       "REDIS_WAIT_REPLICAS": wait})


@pytest.fixture(params=["memory", *(f"redis-{t}" for t in topologies.selected())])
def clients(request):
    """Two test clients of one match store: one app (memory), or two apps on one Redis (every
    topology of REFEREE_TEST_TOPOLOGIES): what one writes the other reads."""
    if request.param == "memory":
        client = create_app({"TESTING": True, "REDIS_URL": None}).test_client()
        yield client, client
        return
    url = request.getfixturevalue("redis_url_of")(request.param.removeprefix("redis-"))
    with request.getfixturevalue("redis_key_prefix")(url) as prefix:
        config = {"TESTING": True, "REDIS_URL": url, "REDIS_KEY_PREFIX": prefix,
                  "REDIS_WAIT_REPLICAS": 1 if url.startswith("redis+sentinel") else 0}
        yield create_app(config).test_client(), create_app(config).test_client()


def bearer(token: str | None) -> dict[str, str]:
    """The Authorization header of ``token`` (none for ``None``)."""
    return {"Authorization": f"Bearer {token}"} if token else {}


class Table:
    """One match driven through the API: ``created`` is the 201 body (tokens included)."""

    def __init__(self, client, created: dict[str, Any]):
        self.client = client
        self.created = created
        self.id = created["id"]
        self.url = f"/v1/matches/{self.id}"
        self.last_actor: str | None = None

    @classmethod
    def create(cls, client, **body) -> "Table":
        """POST /v1/matches with ``body``; asserts 201."""
        response = client.post("/v1/matches", json=body)
        assert response.status_code == 201, response.get_json()
        return cls(client, response.get_json())

    def token(self, who: str | None) -> str | None:
        """``"host"`` → the host token, a player → the seat token, ``None`` → no token."""
        if who is None:
            return None
        return self.created["host_token"] if who == "host" else self.created["seats"][who]

    def get(self, who: str | None = None, path: str = ""):
        """GET the match (or ``path`` under it) as ``who``."""
        return self.client.get(self.url + path, headers=bearer(self.token(who)))

    def read(self, who: str | None = None) -> dict[str, Any]:
        """The match as ``who`` sees it (asserts 200)."""
        response = self.get(who)
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def act(self, who: str | None, action: dict[str, Any], version: int | None = None,
            key: str | None = None, **body):
        """POST an action as ``who`` with ``If-Match: "<version>"`` and an optional key."""
        headers = bearer(self.token(who))
        if version is not None:
            headers["If-Match"] = f'"{version}"'
        if key is not None:
            headers["Idempotency-Key"] = key
        return self.client.post(self.url + "/actions", json={"action": action, **body},
                                headers=headers)

    def events(self, who: str | None = None, after: int = 0) -> list[dict[str, Any]]:
        """Every event ``who`` may see after ``after``, page after page (``next``)."""
        seen: list[dict[str, Any]] = []
        while after is not None:
            response = self.get(who, f"/events?after={after}")
            assert response.status_code == 200, response.get_json()
            answer = response.get_json()
            seen += answer["events"]
            after = answer["next"]
        return seen

    def legal(self, who: str) -> list[dict[str, Any]]:
        """``who``'s legal actions now."""
        response = self.get(who, "/legal-actions")
        assert response.status_code == 200, response.get_json()
        return response.get_json()["actions"]

    def step(self, rng) -> dict[str, Any] | None:
        """Play one random legal action of a player to move (with that seat's token, or the
        host's for a host-only action); return the 200 body, or ``None`` when over.
        ``last_actor`` is then who acted (a player or ``"host"``)."""
        match = self.read("host")
        if match["over"]:
            return None
        choices = [(who, a) for who in match["to_move"] for a in self.legal(who)]
        if not choices:
            choices = [("host", a) for a in self.legal("host")
                       if a["player"] not in self.created["seats"]]
        assert choices, f"nobody can act at version {match['version']}"
        who, action = rng.choice(choices)
        self.last_actor = who
        response = self.act(who, action, match["version"])
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def play_out(self, rng, limit: int = 5000) -> int:
        """Play random legal actions until the match is over; return how many were played."""
        for count in range(limit):
            if self.step(rng) is None:
                return count
        raise AssertionError(f"not over after {limit} actions")


@pytest.fixture
def table():
    """The :class:`Table` class (conftest classes cannot be imported under importlib mode)."""
    return Table


class Stream:
    """An SSE stream read by a thread of its own from a Flask test client (or any iterable of
    bytes chunks): ``get()`` the next message ``{"event", "id", "data"}``; ``close()`` stops
    at the next chunk (the app's heartbeat keeps chunks coming)."""

    def __init__(self, client, url: str, headers: dict[str, str] | None = None):
        self.response = client.get(url, headers=headers or {}, buffered=False)
        self.status = self.response.status_code
        self.messages: queue.Queue = queue.Queue()
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        if self.status == 200:
            self.thread.start()

    def _lines(self):
        pending = ""
        for chunk in self.response.iter_encoded():
            if self._stop.is_set():
                return
            pending += chunk.decode()
            *lines, pending = pending.split("\n")
            yield from lines

    def _read(self) -> None:
        try:
            for message in parse_sse(self._lines()):
                self.messages.put(message)
        finally:
            self.response.close()
            self.messages.put(None)

    def get(self, timeout: float = 10.0) -> dict[str, Any] | None:
        """The next message (``None`` once the stream has closed)."""
        return self.messages.get(timeout=timeout)

    def until(self, event: str, timeout: float = 10.0) -> list[dict[str, Any]]:
        """Every message up to and including the next ``event`` message."""
        seen = []
        while True:
            message = self.get(timeout)
            assert message is not None, f"the stream closed before an {event!r} message"
            seen.append(message)
            if message["event"] == event:
                return seen

    def close(self) -> None:
        self._stop.set()
        self.thread.join(timeout=10)


@pytest.fixture
def stream():
    """The :class:`Stream` class."""
    return Stream


@pytest.fixture
def live_client():
    """A test client of an app (in-process store) whose streams beat every 50 ms."""
    return create_app({"TESTING": True, "REDIS_URL": None,
                       "STREAM_HEARTBEAT_SECONDS": 0.05}).test_client()
