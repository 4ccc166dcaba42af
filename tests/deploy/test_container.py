"""The container, for real: deploy/Dockerfile built with no network on a base image made
without a registry (debootstrap + docker import), run with ``--network host`` on 127.0.0.1;
the installed wheel serves (``referee serve`` from /tmp, no source tree), as a non-root user,
/livez and a trick-sheet score answer (AF-S1…S4), the HEALTHCHECK turns healthy and SIGTERM
(``docker stop``) ends it cleanly."""
from __future__ import annotations

import json
import time
import uuid

import pytest
import requests

from tests.conftest import CASES_DIR
from tests.deploy import engine

START_WAIT_SECONDS = 60


@pytest.fixture(scope="module")
def image(tmp_path_factory):
    """The image built from deploy/Dockerfile on the debootstrap base, ``--network none``."""
    why = engine.why_no_engine()
    if why:
        pytest.skip(why)
    base = engine.base_image()
    context = engine.build_context(tmp_path_factory.mktemp("context"))
    tag = f"referee-test:{uuid.uuid4().hex[:8]}"
    engine.docker("build", "--network", "none", "--build-arg", f"BASE_IMAGE={base}",
                  "--build-arg", "PIP_NO_INDEX=1", "-f", str(context / "deploy" / "Dockerfile"),
                  "-t", tag, str(context), timeout=900)
    yield tag
    engine.docker("rmi", "-f", tag, check=False)


@pytest.fixture
def container(image, free_port):
    """``(name, base URL)`` of the image running on a free loopback port (host network)."""
    port = free_port()
    name = f"referee-test-{uuid.uuid4().hex[:8]}"
    engine.docker("run", "-d", "--name", name, "--network", "host", "--health-interval", "1s",
                  "-e", "REFEREE_HOST=127.0.0.1", "-e", f"REFEREE_PORT={port}", image)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_WAIT_SECONDS
        while True:
            try:
                if requests.get(f"{base}/livez", timeout=2).status_code == 200:
                    break
            except requests.RequestException:
                pass
            state = engine.docker("inspect", "-f", "{{.State.Running}}", name).stdout.strip()
            if time.monotonic() > deadline or state != "true":
                logs = engine.docker("logs", name, check=False)
                raise AssertionError(f"container did not serve:\n{logs.stdout}{logs.stderr}")
            time.sleep(0.2)
        yield name, base
    finally:
        engine.docker("rm", "-f", name, check=False)


def test_container_serves_livez_and_scores_a_trick_sheet_af_s1_to_s4(container):
    name, base = container
    assert requests.get(f"{base}/livez", timeout=5).json() == {"status": "ok"}
    case = json.loads((CASES_DIR / "allfours" / "real-hand-1.json").read_text())
    scored = requests.post(f"{base}/v1/games/all-fours/score", json={"sheet": case["sheet"]},
                           timeout=10)
    assert scored.status_code == 200
    # X: High (JD), Low (2D), Jack, Game 30-6; Y: the give-one point (AF-B2, AF-S1..S4).
    assert scored.json()["points"] == {"X": 4, "Y": 1}
    for key, value in case["expect"].items():
        assert scored.json()[key] == value, key


def test_container_runs_the_installed_wheel_as_a_non_root_user(container):
    name, _ = container
    where = engine.docker("exec", name, "python3", "-c",
                          "import os, referee; print(os.getuid(), os.getcwd(), referee.__file__)")
    uid, cwd, module = where.stdout.split()
    assert uid == "10001" and cwd == "/tmp"
    assert module.startswith("/opt/referee/lib/") and "site-packages" in module
    # PID 1 is gunicorn itself (referee serve execs it), so docker stop's SIGTERM reaches it.
    cmdline = engine.docker("exec", name, "cat", "/proc/1/cmdline").stdout
    assert "gunicorn" in cmdline and "referee.serving.gunicorn_conf" in cmdline


def test_container_healthcheck_turns_healthy_and_sigterm_stops_it_cleanly(container):
    name, _ = container
    deadline = time.monotonic() + 30
    while True:
        health = engine.docker("inspect", "-f", "{{.State.Health.Status}}", name).stdout.strip()
        if health == "healthy" or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert health == "healthy"
    started = time.monotonic()
    engine.docker("stop", "-t", "20", name)
    assert time.monotonic() - started < 15  # gunicorn stopped on SIGTERM, not SIGKILL at 20 s
    assert engine.docker("inspect", "-f", "{{.State.ExitCode}}", name).stdout.strip() == "0"
