"""Refusals and disputes through the page: a card tapped out of turn is refused with its rule
(ID, sentence and the rule's own text, in the seat's language); a rollback proposed by the host
from the event log is voted by the seats and applied, and the log keeps it."""
from __future__ import annotations

import re

import requests

from tests.table.conftest import needs_browser
from tests.table.driving import host_creates, tap_first_moves, version, wait_version

pytestmark = needs_browser


def _seat(phone, link, lang="en"):
    page = phone(lang)
    page.goto(link)
    page.locator(".live.live-ok").wait_for()
    return page


def _to_the_play(server, phone, seat_langs):
    """An All Fours digital match whose eldest hand (ben) stood: the play has begun, ben leads."""
    host = phone()
    made = host_creates(host, server, "all-fours", ["ana", "ben"])
    ana, ben = (_seat(phone, link, lang) for link, lang in zip(made["links"], seat_langs))
    view = requests.get(f"{server}/v1/matches/{made['id']}", timeout=10).json()
    eldest = ana if view["to_move"] == ["ana"] else ben
    eldest.locator(".actions-panel button:enabled").first.click()  # stand (listed first)
    wait_version([host, ana, ben], 4)  # 1 created, 2-3 the seats claimed, 4 the stand
    return made, host, ana, ben, eldest


def test_a_card_tapped_out_of_turn_is_refused_with_its_rule(server, phone):
    made, host, ana, ben, eldest = _to_the_play(server, phone, ["en", "en"])
    other, other_name = (ben, "ben") if eldest is ana else (ana, "ana")
    leader_name = "ana" if other_name == "ben" else "ben"
    other.get_by_role("group", name="Your cards: tap one to play it").get_by_role(
        "button").first.click()
    verdict = other.locator(".verdict")
    verdict.wait_for()
    assert verdict.locator(".rule-id").first.inner_text() == "AF-P1"
    assert (f"It is {leader_name}'s turn to play, not {other_name}'s."
            in verdict.locator(".sentence").all_inner_texts())
    rule = requests.get(f"{server}/v1/games/all-fours/rules/AF-P1", timeout=10).json()
    assert verdict.locator(".rule-text").first.inner_text() == rule["text"]
    assert version(other) == 4  # nothing was applied


def test_the_verdict_and_the_rule_are_in_the_seat_s_language(server, phone):
    made, host, ana, ben, eldest = _to_the_play(server, phone, ["my", "my"])
    other = ben if eldest is ana else ana
    other.get_by_role("group", name="သင့်ကတ်များ: ကတ်ချရန် တစ်ကတ်ကို နှိပ်ပါ").get_by_role(
        "button").first.click()
    verdict = other.locator(".verdict")
    verdict.wait_for()
    rule = requests.get(f"{server}/v1/games/all-fours/rules/AF-P1",
                        headers={"Accept-Language": "my"}, timeout=10).json()
    assert verdict.locator(".rule-text").first.inner_text() == rule["text"]
    assert re.search("[\u1000-\u109f]", verdict.locator(".sentence").first.inner_text())


def test_a_rollback_is_proposed_voted_and_applied(server, phone):
    host = phone()
    made = host_creates(host, server, "coup", ["ana", "ben"])
    seats = [_seat(phone, link) for link in made["links"]]
    tap_first_moves(seats, moves=2)
    wait_version([host], 5)  # 2-3 the seats claimed, 4-5 the moves
    # each version once with its move; seat claims (2-3) are no place to go back to
    options = host.locator('[data-key="to-version"] option').all_inner_texts()
    assert options[0] == "Choose…" and options[2:] == ["v1 · the start of the match"]
    assert options[1].startswith("v4 · card chosen · ana ")  # ana's card (dealt) follows
    assert options[1].count("v4") == 1 and "Seat" not in options[1]
    host.select_option('[data-key="to-version"]', "1")
    host.fill('[data-key="reason"]', "ben meant to take foreign aid")
    host.click('[data-key="propose"]')
    for seat in seats:
        box = seat.get_by_role("region", name="Rollback proposed")
        box.wait_for()
        assert "ben meant to take foreign aid" in box.inner_text()
        assert "Go back to version 1." in box.inner_text()
        assert seat.locator(".actions-panel button").count() == 0  # no move while pending
    seats[0].get_by_role("button", name="Approve").click()
    wait_version([host, *seats], 7)
    assert seats[0].get_by_role("button", name="Approve").count() == 0  # voted once
    seats[1].get_by_role("button", name="Approve").click()
    wait_version([host, *seats], 8)
    for page in (host, *seats):
        page.get_by_role("region", name="Rollback proposed").wait_for(state="detached")
    host.get_by_text("Event log").click()
    log = host.locator(".event-log").inner_text()
    assert "Rollback proposed" in log and "Rolled back" in log
    history = requests.get(f"{server}/v1/matches/{made['id']}", timeout=10).json()
    assert history["version"] == 8 and history["rollback"] is None
    assert seats[0].locator(".actions-panel button:enabled").count() > 0  # ana moves again
    # the rollback was a mistake: going back to version 4 (which it took back) undoes it, and
    # the box says what comes back (the move of v4), for the seats to approve
    host.select_option('[data-key="to-version"]', "4")
    host.fill('[data-key="reason"]', "the rollback was a mistake")
    host.click('[data-key="propose"]')
    box = seats[1].get_by_role("region", name="Rollback proposed")
    box.wait_for()
    text = box.inner_text()
    assert "Brings back what an earlier rollback took back:" in text
    assert "v4 · Choose a card · ana" in text, text
