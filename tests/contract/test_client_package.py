"""The Python client is its own distribution (``clients/python``, issue 22 item 6): the server
runs without it, ``referee.client`` re-exports it for one release, and the README describes the
client as it is.  Its end-to-end tests are ``clients/python/tests`` (``./dev test-clients``)."""
from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path

import referee_client
from referee_client import RefereeClient

ROOT = Path(__file__).resolve().parents[2]


def test_the_server_starts_and_answers_without_the_client_installed():
    """``referee_client`` made unimportable: the app is created and answers a request, and
    only ``referee.client`` (which the server never imports) says where the client went."""
    script = (
        "import sys; sys.modules['referee_client'] = None\n"
        "from referee.serving.app import create_app\n"
        "app = create_app({'TESTING': True, 'REDIS_URL': None})\n"
        "assert app.test_client().get('/v1/games').status_code == 200\n"
        "assert not [m for m in sys.modules if m == 'referee.client']\n"
        "try:\n    import referee.client\nexcept ImportError as e:\n    print(e)\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == ("referee.client moved to the referee_client distribution: "
                                   "pip install ./clients/python, then import referee_client")


def test_referee_client_is_a_thin_re_export():
    from referee import client
    assert client.RefereeClient is RefereeClient
    assert sorted(client.__all__) == sorted(referee_client.__all__)
    assert len((ROOT / "referee" / "client.py").read_text().splitlines()) < 20


def test_readme_and_client_agree_on_the_events_wait_default():
    """README "Python client": ``events(id, token, after)`` answers at once (``wait=0``)
    and long-polls only with ``wait=25`` passed explicitly (F6d)."""
    assert inspect.signature(RefereeClient.events).parameters["wait"].default == 0
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert ("`events(id, token, after)` answers at once (`wait=0`, the default) and "
            "`events(id, token, after, wait=25)` long-polls") in readme
    assert "``wait=0`` (the default) means no wait" in RefereeClient.events.__doc__


def test_the_client_distribution_needs_only_requests():
    """clients/python/pyproject.toml: ``requests`` is the one runtime dependency."""
    import tomllib
    project = tomllib.loads((ROOT / "clients" / "python" / "pyproject.toml").read_text())
    assert project["project"]["name"] == "referee-client"
    assert [d.split(">")[0].split("=")[0] for d in project["project"]["dependencies"]] == [
        "requests"]
