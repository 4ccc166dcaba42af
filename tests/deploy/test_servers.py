"""No state in a worker, metrics across workers, JSON logs and a graceful SIGTERM, with real
gunicorn masters on loopback ports (the packaged settings module)."""
from __future__ import annotations

import json
import os
import random
import signal
import threading
import time

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families

from tests.deploy.servers import Gunicorn

WORKER_CLASSES = ["gthread", "gevent"]


@pytest.fixture
def redis_url():
    url = os.environ.get("REFEREE_TEST_REDIS_URL")
    if not url:
        pytest.skip("REFEREE_TEST_REDIS_URL is unset: ./dev test-deploy starts a private Redis")
    return url


@pytest.fixture
def masters(redis_url, free_port, tmp_path):
    """Two separate gunicorn masters (2 workers each) sharing one Redis."""
    started = []
    try:
        for n in range(2):
            started.append(Gunicorn(free_port(), tmp_path / f"master-{n}.log",
                                    extra=["--workers", "2", "--threads", "2"],
                                    env={"REDIS_URL": redis_url,
                                         "REFEREE_METRICS_TOKEN": METRICS_TOKEN,
                                         "REDIS_KEY_PREFIX": f"referee-two-{os.getpid()}"}))
        yield started
    finally:
        for master in started:
            master.stop()


def test_a_match_alternating_between_two_gunicorn_masters_on_one_redis_loses_nothing(masters):
    """AF-S6 scoring is the engine's; here: every move lands whichever master takes it."""
    a, b = (m.base for m in masters)
    created = requests.post(f"{a}/v1/matches", json={
        "game": "all-fours", "players": ["ana", "ben"], "dealer": "ana", "seed": 7,
        "options": {"target": 3}}, timeout=10).json()
    host = {"Authorization": f"Bearer {created['host_token']}"}
    rng = random.Random(7)
    applied = []
    for turn in range(400):
        base = (a, b)[turn % 2]
        legal = requests.get(f"{base}/v1/matches/{created['id']}/legal-actions", headers=host,
                             timeout=10).json()
        if not legal["to_move"]:
            break
        seat = legal["to_move"][0]
        action = rng.choice([x for x in legal["actions"] if x["player"] == seat])
        moved = requests.post(f"{base}/v1/matches/{created['id']}/actions",
                              json={"action": action}, timeout=10, headers={
                                  "Authorization": f"Bearer {created['seats'][seat]}",
                                  "If-Match": f'"{legal["version"]}"'})
        assert moved.status_code == 200, moved.text
        assert moved.json()["version"] == len(applied) + 2
        applied.append(action)
    else:
        pytest.fail("the match did not end in 400 moves")
    for base in (a, b):
        audit = requests.get(f"{base}/v1/matches/{created['id']}/audit", timeout=10).json()
        assert audit["actions"] == applied and audit["version"] == len(applied) + 1
    requests.delete(f"{a}/v1/matches/{created['id']}", headers=host, timeout=10)


METRICS_TOKEN = "deploy-scrape-token"


def scrape(base: str) -> dict[tuple, float]:
    text = requests.get(f"{base}/metrics", timeout=10,
                        headers={"Authorization": f"Bearer {METRICS_TOKEN}"}).text
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def test_metrics_add_up_every_worker_and_logs_are_json_lines(masters):
    master = masters[0]
    key = ("referee_http_requests_total",
           (("endpoint", "/livez"), ("method", "GET"), ("status", "200")))
    before = scrape(master.base)[key]  # the start-up probes
    for _ in range(30):
        assert requests.get(f"{master.base}/livez", timeout=10).status_code == 200
    # Whichever of the two workers answers the scrape, it counts both workers' requests.
    assert {scrape(master.base)[key] - before for _ in range(6)} == {30.0}
    requests.get(f"{master.base}/livez", headers={"X-Request-ID": "probe-1"}, timeout=10)
    time.sleep(0.3)
    lines = [json.loads(line) for line in master.output().splitlines() if line.strip()]
    assert any(line.get("logger") == "gunicorn.error" and "Booting worker" in line["event"]
               for line in lines)
    probe = [line for line in lines if line.get("request_id") == "probe-1"]
    assert probe and probe[0]["path"] == "/livez" and probe[0]["status"] == 200


@pytest.mark.parametrize("worker_class", WORKER_CLASSES)
def test_sigterm_lets_the_request_in_flight_finish_then_exits_cleanly(worker_class, free_port,
                                                                     tmp_path):
    if worker_class == "gevent":
        pytest.importorskip("gevent", reason="gevent is not installed")
    server = Gunicorn(free_port(), tmp_path / "gunicorn.log", app="tests.deploy.slow_app:app",
                      extra=["--worker-class", worker_class, "--workers", "1"])
    answer = {}

    def slow_request():
        try:
            answer["response"] = requests.get(f"{server.base}/slow?seconds=4", timeout=20)
        except requests.RequestException as exc:
            answer["error"] = exc

    thread = threading.Thread(target=slow_request)
    thread.start()
    time.sleep(1)  # the request is being served
    server.proc.send_signal(signal.SIGTERM)
    time.sleep(1.5)  # a gevent worker looks at its stop flag once a second
    with pytest.raises(requests.RequestException):  # nothing new is served once stopping
        requests.get(f"{server.base}/livez", timeout=1)
    thread.join(timeout=20)
    assert "error" not in answer, answer
    assert answer["response"].status_code == 200
    assert answer["response"].json() == {"status": "ok"}
    assert server.proc.wait(timeout=15) == 0, server.output()
