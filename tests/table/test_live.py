"""The page follows the match stream through a server restart: the seat's phone shows that it
is reconnecting, then resumes after the last event it had (Last-Event-ID), so the move made
while it was away appears, once, and no event is shown twice or missed (host's event log)."""
from __future__ import annotations

import json
import os

import pytest
import requests
from playwright.sync_api import expect

from referee.store.connect import redis_client
from tests.gunicorn_server import gunicorn
from tests.table.conftest import free_port, needs_browser
from tests.table.driving import host_creates, version, wait_version

pytestmark = [needs_browser, pytest.mark.redis]


@pytest.fixture
def redis_url():
    url = os.environ.get("REFEREE_TEST_REDIS_URL")
    if not url:
        pytest.skip("REFEREE_TEST_REDIS_URL is unset: run ./dev test, which starts a "
                    "private redis-server")
    return url


def test_a_stream_survives_a_server_restart(phone, redis_url):
    port, env = free_port(), {"REDIS_URL": redis_url}
    with gunicorn(port, env) as base:
        host = phone()
        made = host_creates(host, base, "coup", ["ana", "ben"])
        kept = json.loads(host.evaluate(
            f"sessionStorage.getItem('referee.table.host.{made['id']}')"))
        ana = phone()
        ana.goto(made["links"][0])
        ana.locator(".live.live-ok").wait_for()
        ben = requests.post(f"{base}/v1/matches/{made['id']}/claim", timeout=10,
                            json={"code": kept["invites"]["ben"]}).json()["token"]
        ana.locator(".actions-panel button:enabled").first.click()
        wait_version([host, ana], 4)  # 2-3 the seats claimed, 4 ana's move
    # the server is gone: both phones say so, and keep what they had
    for page in (host, ana):
        expect(page.locator(".live.reconnecting")).to_be_visible(timeout=20000)
        assert version(page) == 4
    with gunicorn(port, env) as base:
        # ben moves while the phones are still away (through the API, his own token)
        legal = requests.get(f"{base}/v1/matches/{made['id']}/legal-actions", timeout=10,
                             headers={"Authorization": f"Bearer {ben}"}).json()
        moved = requests.post(f"{base}/v1/matches/{made['id']}/actions", timeout=10, json={
            "action": legal["actions"][0]}, headers={
            "Authorization": f"Bearer {ben}", "If-Match": '"4"'})
        assert moved.status_code == 200
        wait_version([host, ana], 5, timeout=30)
        for page in (host, ana):
            expect(page.locator(".live.live-ok")).to_be_visible()
        events = requests.get(f"{base}/v1/matches/{made['id']}/events?after=0", timeout=10,
                              headers={"Authorization": f"Bearer {kept['host_token']}"}).json()
        host.get_by_text("Event log").click()
        shown = host.locator(".event-log li")
        # each event once: none twice, none lost (ana's choice before the restart, ben's and
        # the first turn's after it)
        expect(shown).to_have_count(len(events["events"]))
        assert [line.split(" · ")[1] for line in shown.all_inner_texts()] == [
            "Seat taken", "Seat taken", "card chosen", "card chosen", "turn started"]
        ana.locator(".actions-panel button:enabled").first.click()  # and play goes on
        wait_version([host, ana], 6)
    client = redis_client(redis_url)
    for key in client.scan_iter(match=f"*{made['id']}*", count=1000):
        client.delete(key)
    client.close()
