"""The README's client example runs as written (against a live server) and prints what the
README says it prints."""
from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import subprocess

import pytest
import requests

from tests.contract.helpers import REPO

README_URL = "http://127.0.0.1:8000"


def _example(heading="### Python client"):
    section = (REPO / "README.md").read_text().split(heading, 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL).group(1)
    output = re.search(r"```text\n(.*?)```", section, re.DOTALL).group(1)
    return code, output


def test_readme_client_example_runs_and_prints_what_it_says(base_url):
    code, expected = _example()
    assert code.count(README_URL) == 1  # the only change: the live server's address
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code.replace(README_URL, base_url), "README.md", "exec"), {})
    assert printed.getvalue() == expected


def test_readme_languages_example_runs_and_prints_what_it_says(base_url):
    """The verdict in both languages of "Rules and languages" (AF-B1, its title in English and
    Burmese, the rule's Burmese text)."""
    code, expected = _example("## Rules and languages")
    assert code.count(README_URL) == 1
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code.replace(README_URL, base_url), "README.md", "exec"), {})
    assert printed.getvalue() == expected


def _block(heading: str, language: str) -> str:
    section = (REPO / "README.md").read_text().split(heading, 1)[1]
    return re.search(rf"```{language}\n(.*?)```", section, re.DOTALL).group(1)


def _run_shell(heading: str, base_url: str, tmp_path) -> str:
    """Run the ``sh`` block under ``heading`` as written (bash -euo pipefail, in ``tmp_path``)
    against the server at ``base_url`` (its one ``B=`` line is the only change); its
    stdout.  Skipped without curl and jq."""
    if not (shutil.which("curl") and shutil.which("jq")):
        pytest.skip("the README's shell example needs curl and jq on PATH")
    script = _block(heading, "sh")
    assert script.count(f"B={README_URL}\n") == 1
    ran = subprocess.run(["bash", "-euo", "pipefail", "-c", script.replace(
        f"B={README_URL}\n", f"B={base_url}\n")], cwd=tmp_path, capture_output=True,
        text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    return ran.stdout


def test_readme_worked_example_plays_to_the_end_and_its_audit_replays(base_url, tmp_path):
    """The Matches worked example (curl and jq) runs as written — a rollback, then play to
    the end (AF-S6, target 1) — and the audit procedure then verifies the finished match."""
    stdout = _run_shell("### Worked example", base_url, tmp_path)
    match = json.loads((tmp_path / "match.json").read_text())
    streamed = stdout[stdout.index("retry: 2000"):]
    assert "id: 6\nevent: event\n" in streamed and '"reason":"over"' in streamed
    audit_code = _block("### Verifiable dealing: the audit", "python")
    assert audit_code.count(README_URL) == 1
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        exec(compile(audit_code.replace(README_URL, base_url), "README.md", "exec"), {})
    finally:
        os.chdir(cwd)
    audit = requests.get(f"{base_url}/v1/matches/{match['id']}/audit").json()
    steps = [e["rollback"]["step"] for e in audit["history"] if "rollback" in e]
    assert steps == ["proposed", "vote", "applied"]
    assert audit["actions"][0] == {"type": "beg", "player": "ben"}  # the stand was undone


def test_readme_join_flow_claims_rejoins_follows_and_plays_to_the_end(base_url, tmp_path):
    """"Build an app": the curl join flow runs as written — a match with both seats open,
    created twice with one Idempotency-Key (one match), each seat claimed with its code (a
    second use 409), ben rejoining with a new code (his old token 401), his stream, play to
    the end (AF-S6, target 1) — and prints what the README says."""
    stdout = _run_shell("### Join flow in curl", base_url, tmp_path)
    host = json.loads((tmp_path / "host.json").read_text())
    lines = stdout.splitlines()
    assert lines[:2] == [f"ana: {host['invites']['ana']['code']}",
                         f"ben: {host['invites']['ben']['code']}"]
    assert json.loads(lines[2])["type"] == "/problems/invite-used" and lines[3] == "401"
    stream = (tmp_path / "ben-stream.txt").read_text()
    assert ('id: 3\nevent: event\ndata: {"type":"seat_claimed","player":"ana","seq":3,'
            '"version":2}') in stream
    view = json.loads(stream.split("event: view\ndata: ")[1].split("\n")[0])
    assert view["version"] == 5 and view["to_move"] == ["ben"]
    assert view["view"]["hand"] == ["QS", "AC", "4D", "5S", "5D", "KS"]  # seed 42: his own
    assert [json.loads(line) for line in lines[4:]] == [[
        {"step": "claimed", "player": "ana"}, {"step": "claimed", "player": "ben"},
        {"step": "invited", "player": "ben"}, {"step": "claimed", "player": "ben"}]]
    assert requests.get(f"{base_url}/v1/matches/{host['id']}").json()["over"] is True


def test_readme_join_flow_in_python_runs_and_prints_what_it_says(base_url):
    """"Build an app", Python: a match created twice with one Idempotency-Key (one match),
    each seat claimed by the code in its link, ben rejoining with a new code, both phones
    following their streams and acting when to move, to the end (AF-S6, target 1)."""
    code, expected = _example("### Join flow in Python")
    assert code.count(README_URL) == 1  # the only change: the live server's address
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code.replace(README_URL, base_url), "README.md", "exec"), {})
    assert printed.getvalue() == expected
