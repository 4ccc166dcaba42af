"""Driving the table page as people do: the host's phone creates a match and hands out seat
links; each seat's phone opens its link; moves are taps on the buttons the page shows."""
from __future__ import annotations

import time

from playwright.sync_api import TimeoutError as PlaywrightTimeout

ACTION_BUTTONS = ".actions-panel button:enabled"


def host_creates(page, server: str, game: str, names: list[str], mode: str = "digital") -> dict:
    """On the host's page: choose game, mode and players, create; returns {"id", "links"}
    (each seat's link, read from the page, in seat order)."""
    page.goto(f"{server}/table/")
    page.select_option('[data-key="game"]', game)
    page.locator('[data-key="count"]').wait_for()
    page.select_option('[data-key="count"]', str(len(names)))
    page.check(f'[data-key="mode-{mode}"]')
    for i, name in enumerate(names):
        page.fill(f'[data-key="name-{i}"]', name)
        page.press(f'[data-key="name-{i}"]', "Tab")
    page.click('[data-key="create"]')
    page.locator('[data-key="link-0"]').wait_for(state="attached")
    links = [page.get_attribute(f'[data-key="link-{i}"]', "href") for i in range(len(names))]
    return {"id": page.url.split("#host=")[1], "links": links}


def version(page) -> int:
    """The match version the page shows (0 before its first read)."""
    return int(page.locator("#app").get_attribute("data-version") or 0)


def over(page) -> bool:
    return page.locator("#app").get_attribute("data-over") == "true"


def wait_version(pages, at_least: int, timeout: float = 15) -> None:
    """Wait until every page shows version ``at_least`` or later (the stream delivered it)."""
    for page in pages:
        page.wait_for_function(
            "v => Number(document.getElementById('app').dataset.version) >= v", arg=at_least,
            timeout=timeout * 1000)


def tap_first_moves(pages, moves: int | None = None, deadline: float = 240) -> int:
    """Each time, the first page (in order) that shows a move taps its first move button, and
    every page waits for the next version; until ``moves`` taps were made or the match is
    over.  Returns the taps made."""
    made, stop = 0, time.monotonic() + deadline
    while (moves is None or made < moves) and not over(pages[0]):
        assert time.monotonic() < stop, "the match did not progress"
        for page in pages:
            buttons = page.locator(ACTION_BUTTONS)
            if buttons.count():
                before = version(page)
                try:
                    buttons.first.click(timeout=5000)
                except PlaywrightTimeout:
                    # the page drew itself anew (a stream status, a read) as the tap came,
                    # and the button tapped left the page: look again, as a person would
                    continue
                wait_version(pages, before + 1)
                made += 1
                break
        else:
            time.sleep(0.1)
    return made
