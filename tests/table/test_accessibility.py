"""axe-core (vendored for the tests: tests/table/vendor) finds no serious or critical
accessibility violation on any screen of the table page: the scorer (empty and scored), the
host's setup and referee view, and each game's seat screen, in English and Burmese."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.table.conftest import needs_browser
from tests.table.driving import host_creates
from tests.table.test_scorer import PLAYERS, TRICKS, enter_sheet

pytestmark = needs_browser

AXE = (Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js").read_text()


def serious(page) -> list[str]:
    """axe's serious and critical violations on the page now, one line each."""
    page.evaluate(AXE)  # through the DevTools protocol: the page's CSP allows no injected script
    found = page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']}))
        .violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
        .map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).slice(0, 3).join(', '))""")
    return found


@pytest.mark.parametrize("lang", ["en", "my"])
def test_the_scorer(server, phone, lang):
    page = phone(lang)
    page.goto(f"{server}/table/score")
    page.locator(".pack").wait_for()
    assert serious(page) == []
    if lang == "en":
        enter_sheet(page, PLAYERS, "kiri", "give_one", ["QD"], TRICKS)
        page.get_by_role("button", name="Score this hand").click()
        page.locator(".result").wait_for()
        assert serious(page) == []


@pytest.mark.parametrize("lang", ["en", "my"])
def test_the_host_screens(server, phone, lang):
    page = phone(lang)
    page.goto(f"{server}/table/")
    page.select_option('[data-key="game"]', "all-fours")
    page.locator('[data-key="create"]').wait_for()
    assert serious(page) == []
    page.click('[data-key="create"]')
    page.locator(".live.live-ok").wait_for()
    page.locator("details.seat-link").first.locator("summary").click()  # a QR code open
    assert serious(page) == []


@pytest.mark.parametrize("game", ["coup", "all-fours", "spy", "gnoming"])
@pytest.mark.parametrize("lang", ["en", "my"])
def test_each_game_s_seat_screen(server, phone, game, lang):
    host = phone()
    names = ["ana", "ben", "cy"] if game in ("coup", "gnoming") else ["ana", "ben"]
    made = host_creates(host, server, game, names)
    seat = phone(lang)
    seat.goto(made["links"][0])
    seat.locator(".live.live-ok").wait_for()
    assert serious(seat) == []
