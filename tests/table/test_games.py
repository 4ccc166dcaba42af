"""Each game at the table through the page: an All Fours hand entered in table mode from the
host's phone alone, and several turns of Spy and of Gnoming played from the seats' phones."""
from __future__ import annotations

import re

import requests

from tests.table.conftest import needs_browser
from tests.table.driving import host_creates, tap_first_moves, version, wait_version

pytestmark = needs_browser


def play_one_all_fours_hand(server, phone):
    """The host's phone creates a 2-player All Fours match (ana, ben) in table mode and
    enters its first hand, from the kick (9S) to the twelfth card; returns (page, match id)."""
    host = phone()
    made = host_creates(host, server, "all-fours", ["ana", "ben"], mode="table")
    host.locator(".live.live-ok").wait_for()
    # the dealer turns up the kick: the 9 of spades, picked from the cards the service lists
    deal = host.get_by_role("group", name=re.compile(r"· Deal$"))
    deal.get_by_role("button", name="the 9 of spades", exact=True).click()
    wait_version([host], 2)
    host.get_by_role("button", name=re.compile("Stand")).click()
    wait_version([host], 3)
    plays = 0
    while host.locator("table.last-hand").count() == 0:
        assert plays < 12, "a 2-player hand has 12 plays"
        group = host.get_by_role("group", name=re.compile(r"· Play a card$"))
        before = version(host)
        group.locator("button:enabled").first.click()
        wait_version([host], before + 1)
        plays += 1
    assert plays == 12
    return host, made["id"]


def test_one_all_fours_hand_in_table_mode_from_the_host_s_phone(server, phone):
    host, match_id = play_one_all_fours_hand(server, phone)
    text = host.locator("table.last-hand").inner_text()
    assert "High" in text and "Low" in text and "Jack" in text and "Game" in text
    # the page showed what the service keeps: the hand is scored in the public view
    public = requests.get(f"{server}/v1/matches/{match_id}", timeout=10).json()
    assert public["view"]["last_hand"] is not None and public["view"]["hand_number"] == 2
    assert host.problems == []


def _seats(phone, links):
    pages = []
    for link in links:
        page = phone()
        page.goto(link)
        page.locator(".live.live-ok").wait_for()
        pages.append(page)
    return pages


def test_spy_several_turns_from_the_seats(server, phone):
    host = phone()
    made = host_creates(host, server, "spy", ["ana", "ben"])
    seats = _seats(phone, made["links"])
    # ana sees her own base's cards; ben's show face down
    base = seats[0].get_by_role("group", name="ben's base")
    assert base.get_by_role("img", name="an unknown card").count() == 7
    assert seats[0].get_by_role("group", name="ana's base").get_by_role(
        "img", name="an unknown card").count() == 0
    taps = tap_first_moves([*seats, host], moves=8)
    assert taps == 8 and version(host) == 11  # 2 seats claimed, 8 moves
    for page in (host, *seats):
        assert page.problems == []


def test_gnoming_several_turns_from_the_seats(server, phone):
    host = phone()
    made = host_creates(host, server, "gnoming", ["ana", "ben", "cy"])
    seats = _seats(phone, made["links"])
    taps = tap_first_moves([*seats, host], moves=9)
    assert taps == 9 and version(seats[2]) == 13  # 3 seats claimed, 9 moves
    # each seat turned up its two cards (GN-S2): six face-up cards on everyone's table
    layouts = seats[1].locator('[role="group"][aria-label$="layout"]')
    assert layouts.count() == 3
    assert layouts.locator(".card:not(.down)").count() >= 6
    for page in (host, *seats):
        assert page.problems == []
