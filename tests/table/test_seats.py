"""Seats that join and rejoin through the page (issue 22 item 2, issue 23): the host creates
every seat open, each seat's link carries the match and an invite code in the fragment only,
opening it claims the seat (the token goes to sessionStorage, the code leaves the address
bar), the host sees which seats are taken and can give a seat a new link (its token
re-issued: the old phone's stream ends at once). And Spy at a real table: the host enters
where each Spy sits and which way it faces (SPY-S2), the cards stay unknown."""
from __future__ import annotations

import requests

from tests.table.conftest import needs_browser
from tests.table.driving import host_creates

pytestmark = needs_browser


def test_a_seat_link_carries_an_invite_code_and_opening_it_claims_the_seat(server, phone):
    host = phone()
    made = host_creates(host, server, "coup", ["ana", "ben"])
    assert all("#match=" in link and "&code=" in link and "token=" not in link
               for link in made["links"])
    assert host.locator('[data-key="seat-state-0"]').inner_text() == "open: waiting for its phone"
    ana = phone()
    ana.goto(made["links"][0])
    ana.locator(".live.live-ok").wait_for()
    assert "code=" not in ana.url
    token = ana.evaluate(f"sessionStorage.getItem('referee.table.seat.{made['id']}')")
    seen = requests.get(f"{server}/v1/matches/{made['id']}", timeout=10,
                        headers={"Authorization": f"Bearer {token}"}).json()
    assert seen["seat"] == "ana"
    host.locator('[data-key="seat-state-0"]', has_text="taken").wait_for()
    # a code works once: a second phone opening the same link is refused (409 invite-used)
    again = phone()
    again.goto(made["links"][0])
    again.locator(".problem").wait_for()
    # the host gives ana's seat a new link: the old phone's stream ends, the new link works
    host.locator("details.seat-link summary").first.click()  # the seat's link, QR and buttons
    host.locator('[data-key="reissue-0"]').click()
    ana.locator(".live.ended").wait_for()
    assert requests.get(f"{server}/v1/matches/{made['id']}", timeout=10,
                        headers={"Authorization": f"Bearer {token}"}).status_code == 401
    link = host.get_attribute('[data-key="link-0"]', "href")
    assert "&token=" in link
    fresh = phone()
    fresh.goto(link)
    fresh.locator(".live.live-ok").wait_for()
    assert "token=" not in fresh.url
    for page in (host, ana, fresh):
        assert page.problems == []


def test_spy_at_a_real_table_the_host_enters_the_bases(server, phone):
    host = phone()
    host.goto(f"{server}/table/")
    host.select_option('[data-key="game"]', "spy")
    host.check('[data-key="mode-table"]')
    for i, name in enumerate(["ana", "ben"]):
        host.fill(f'[data-key="name-{i}"]', name)
        host.press(f'[data-key="name-{i}"]', "Tab")
    # a base's size is the service's (7 cards with two players, SPY-S1): gaps 0 to 7 offered
    assert host.locator('[data-key="gap-0"] option').count() == 8
    host.select_option('[data-key="gap-0"]', "3")
    host.select_option('[data-key="facing-0"]', "right")
    host.select_option('[data-key="gap-1"]', "5")
    host.click('[data-key="create"]')
    host.locator('[data-key="link-0"]').wait_for(state="attached")
    match = host.url.split("#host=")[1]
    kept = host.evaluate(f"JSON.parse(sessionStorage.getItem('referee.table.host.{match}'))")
    bases = requests.get(f"{server}/v1/matches/{match}", timeout=10, headers={
        "Authorization": f"Bearer {kept['host_token']}"}).json()["view"]["bases"]
    assert (bases["ana"]["spy_gap"], bases["ana"]["facing"]) == (3, "right")
    assert (bases["ben"]["spy_gap"], bases["ben"]["facing"]) == (5, "left")
    assert bases["ana"]["cards"] == ["unknown"] * 7
    ben = phone()
    ben.goto(host.get_attribute('[data-key="link-1"]', "href"))
    ben.locator(".live.live-ok").wait_for()
    assert ben.get_by_role("group", name="ana's base").get_by_role(
        "img", name="an unknown card").count() == 7
    assert host.problems == [] and ben.problems == []
