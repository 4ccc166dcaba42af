"""``./dev screens``: regenerate docs/screens/*.png — each game's seat screen and the All Fours
scorer at 360x640, in English and Burmese — from a real server and Debian's chromium (the same
set-up as the browser tests, tests/table/)."""
from __future__ import annotations

import os
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

from tests.gunicorn_server import gunicorn
from tests.table.conftest import CHROMIUM, LAUNCH_ARGS, PHONE, free_port
from tests.table.driving import host_creates, tap_first_moves
from tests.table.test_scorer import PLAYERS, TRICKS, enter_sheet

OUT = Path(__file__).resolve().parents[2] / "docs" / "screens"
GAMES = {"coup": (["ana", "ben", "cy"], 2), "all-fours": (["ana", "ben"], 1),
         "spy": (["ana", "ben"], 3), "gnoming": (["ana", "ben", "cy"], 6)}
"""Each game's players and how many first moves are made before the picture."""


def _phone(browser, lang):
    return browser.new_context(viewport=PHONE, locale="my-MM" if lang == "my" else "en-US",
                               device_scale_factor=1).new_page()


def main() -> int:
    if CHROMIUM is None:
        print("screens: no chromium on PATH (./dev screens installs Debian's chromium)")
        return 1
    os.environ.setdefault("REFEREE_RATE_LIMITS", "off")
    OUT.mkdir(parents=True, exist_ok=True)
    with gunicorn(free_port()) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        for lang in ("en", "my"):
            for game, (names, moves) in GAMES.items():
                host = _phone(browser, "en")
                made = host_creates(host, server, game, names)
                seats = []
                for link in made["links"]:
                    seat = _phone(browser, lang)
                    seat.goto(link)
                    seat.locator(".live.live-ok").wait_for()
                    seats.append(seat)
                tap_first_moves(seats, moves=moves)
                seats[0].evaluate("window.scrollTo(0, 0)")
                seats[0].screenshot(path=OUT / f"{game}-{lang}.png")
                for page in (host, *seats):
                    page.context.close()
            page = _phone(browser, lang)
            page.goto(f"{server}/table/score")
            page.locator(".pack").wait_for()
            if lang == "en":
                enter_sheet(page, PLAYERS, "kiri", "give_one", ["QD"], TRICKS)
            else:  # the same hand, entered on the Burmese page (its buttons say Burmese)
                page.evaluate("localStorage.setItem('referee.table.lang', 'en')")
                page.reload()
                enter_sheet(page, PLAYERS, "kiri", "give_one", ["QD"], TRICKS)
                page.select_option('[data-key="lang"]', "my")
                page.locator("html[lang=my]").wait_for(state="attached")
            page.locator('[data-key="score"]').click()
            page.locator(".result").wait_for()
            page.locator(".result").scroll_into_view_if_needed()
            page.screenshot(path=OUT / f"scorer-{lang}.png")
            page.context.close()
        browser.close()
    for path in sorted(OUT.glob("*.png")):
        print(path.relative_to(OUT.parents[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
