"""The host's screen shows each seat's connection (issue 23 item 1): a seat's page that opens
shows on the host's phone as connected; once it closes, as not connected, within the stream's
lease (the host's read counts each seat's open streams, ``connections``)."""
from __future__ import annotations

from tests.gunicorn_server import gunicorn
from tests.table.conftest import free_port, needs_browser
from tests.table.driving import host_creates

pytestmark = needs_browser

LEASE_SECONDS = 4
"""The servers's stream lease here (REFEREE_STREAM_LEASE_SECONDS): a stream whose phone went
away without a word stops counting within it; one closed is seen at the next heartbeat."""
ENV = {"REFEREE_RATE_LIMITS": "on", "REFEREE_STREAM_LEASE_SECONDS": str(LEASE_SECONDS),
       "REFEREE_STREAM_HEARTBEAT_SECONDS": "1"}
WAIT_MS = (LEASE_SECONDS + 4 + 2) * 1000
"""A lease, the host's screen's next read of the connections (every 4 s) and a margin."""


def test_the_host_sees_a_seat_s_phone_connect_and_go(phone):
    with gunicorn(free_port(), ENV) as base:
        host = phone()
        made = host_creates(host, base, "coup", ["ana", "ben"])
        live = host.locator('[data-key="seat-live-0"]')
        assert live.inner_text() == "not connected"
        assert host.locator('[data-key="seat-live-1"]').inner_text() == "not connected"
        ana = phone()
        ana.goto(made["links"][0])
        ana.locator(".live.live-ok").wait_for()
        host.locator('[data-key="seat-live-0"]', has_text="connected").filter(
            has_not_text="not").wait_for(timeout=WAIT_MS)
        assert host.locator('[data-key="seat-live-1"]').inner_text() == "not connected"
        ana.close()  # the phone leaves the page: its stream ends
        host.locator('[data-key="seat-live-0"]', has_text="not connected").wait_for(
            timeout=WAIT_MS)
        host.select_option('[data-key="lang"]', "my")  # the same words in Burmese
        host.locator('[data-key="seat-live-0"]', has_text="ချိတ်ဆက်မထားပါ").wait_for()
        assert host.problems == []

