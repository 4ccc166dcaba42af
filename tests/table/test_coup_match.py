"""A whole Coup match played through the page only: the host's phone creates it and three
seats' phones (one named like an HTML tag) play it to its end from the buttons the page shows;
the host's referee view follows. Each phone is its own browser context (its own storage)."""
from __future__ import annotations

import requests

from tests.table.conftest import needs_browser
from tests.table.driving import host_creates, over, tap_first_moves

pytestmark = needs_browser

XSS = "<img src=x onerror=alert(1)>"


def test_four_phones_play_a_coup_match_to_its_end(server, phone):
    host = phone()
    dialogs = []
    made = host_creates(host, server, "coup", ["ana", "ben", XSS])
    assert all("#match=" in link and "&code=" in link for link in made["links"])
    assert all("?" not in link for link in made["links"])  # the code is in no query or path
    seats = []
    for link in made["links"]:
        seat = phone()
        seat.on("dialog", lambda d: dialogs.append(d.message))
        seat.goto(link)
        seat.locator(".live.live-ok").wait_for()
        assert "code=" not in seat.url  # taken out of the address bar at once
        assert seat.evaluate("Object.keys(sessionStorage)") == [
            f"referee.table.seat.{made['id']}"]
        assert seat.evaluate("Object.keys(localStorage)") in ([], ["referee.table.lang"])
        seats.append(seat)

    # the name is text: shown as its characters, never an element
    assert seats[2].get_by_text(f"{XSS}'s seat").count() == 1
    assert seats[0].locator("img").count() == 0 and host.locator("img").count() == 0

    taps = tap_first_moves([host, *seats])
    assert taps > 10
    for page in (host, *seats):
        assert over(page)
        end = page.get_by_role("region", name="The match is over")
        end.wait_for()
    winner = seats[0].get_by_role("region", name="The match is over").locator(".winner").inner_text()
    assert all(s.get_by_role("region", name="The match is over").locator(".winner").inner_text()
               == winner for s in seats)
    audit_link = host.get_by_role("link", name="Check the deal: the audit").get_attribute("href")
    audit = requests.get(audit_link, timeout=10)
    assert audit.status_code == 200 and audit.json()["id"] == made["id"]
    assert host.get_by_role("button", name="Rematch").count() == 1
    assert seats[0].get_by_role("button", name="Rematch").count() == 0  # the host's alone
    assert dialogs == []
    for page in (host, *seats):
        assert page.problems == [], page.problems
