"""Switching the page's language re-reads every server sentence in the new language (the API
answers in Burmese with Accept-Language: my): the `awaiting` line at once, the status line
after the next move (the stream is followed anew in the new language), and the host's view of
a 2-player Coup (COUP-2P: each player first chooses their second card). Also: on a 360x640
phone nothing (the status line) covers the move buttons, in either language."""
from __future__ import annotations

import pytest
import requests

from tests.table.conftest import needs_browser
from tests.table.driving import host_creates, wait_version

pytestmark = needs_browser


def _awaiting(server: str, match: str, lang: str) -> str:
    """The match's `awaiting` sentence as the API answers it in lang (the public read)."""
    m = requests.get(f"{server}/v1/matches/{match}", headers={"Accept-Language": lang},
                     timeout=10).json()
    return m.get("awaiting") or m["game"]["awaiting"]


def _seat(phone, link, lang="en"):
    page = phone(lang)
    page.goto(link)
    page.locator(".live.live-ok").wait_for()
    return page


def _switch(page, lang):
    page.select_option('[data-key="lang"]', lang)
    page.wait_for_function("l => document.documentElement.lang === l", arg=lang)


def _shows(page, selector, text):
    page.wait_for_function("([s, t]) => document.querySelector(s).textContent === t",
                           arg=[selector, text], timeout=10_000)


def test_a_switch_to_burmese_reads_every_sentence_again(server, phone):
    host = phone()
    made = host_creates(host, server, "coup", ["ana", "ben"])
    ana, ben = (_seat(phone, link) for link in made["links"])
    wait_version([host], 3)  # 1 created, 2-3 the seats claimed
    english, burmese = (_awaiting(server, made["id"], lang) for lang in ("en", "my"))
    assert english == "Each player must first choose their second card (choose a card)."
    assert burmese != english
    _shows(host, ".awaiting", english)

    _switch(host, "my")
    _shows(host, ".awaiting", burmese)  # the host's view, read again at once
    _switch(ana, "my")
    _shows(ana, ".awaiting", burmese)

    ben.locator(".actions-panel button:enabled").first.click()  # ben chooses his card
    wait_version([host, ana], 4)
    after = _awaiting(server, made["id"], "my")
    assert after != _awaiting(server, made["id"], "en")
    for page in (host, ana):
        _shows(page, ".awaiting", after)  # from the stream followed anew, in Burmese
    _shows(ana, "#status", after)  # the announcement too
    _shows(ben, "#status", _awaiting(server, made["id"], "en"))  # ben kept English

    _switch(ana, "en")
    assert ana.locator("#status").inner_text() == ""  # no Burmese left on an English page
    _shows(ana, ".awaiting", _awaiting(server, made["id"], "en"))
    for page in (host, ana, ben):
        assert page.problems == [], page.problems


def test_the_setup_screen_reads_the_games_again(server, phone):
    page = phone()
    page.goto(f"{server}/table/")
    page.select_option('[data-key="game"]', "coup")
    _switch(page, "my")
    games = requests.get(f"{server}/v1/games", headers={"Accept-Language": "my"}, timeout=10).json()
    titles = [g["title"] for g in (games["games"] if isinstance(games, dict) else games)]
    page.wait_for_function("t => [...document.querySelectorAll('[data-key=game] option')]"
                           ".slice(1).map(o => o.textContent).join('|') === t",
                           arg="|".join(titles), timeout=10_000)
    assert page.locator('[data-key="game"]').input_value() == "coup"  # the choice is kept


@pytest.mark.parametrize("lang", ["en", "my"])
def test_nothing_covers_the_move_buttons_on_a_phone(server, phone, lang):
    host = phone()
    made = host_creates(host, server, "coup", ["ana", "ben"])
    ana, ben = (_seat(phone, link, lang) for link in made["links"])
    ben.locator(".actions-panel button:enabled").first.click()
    wait_version([ana], 4)
    ana.wait_for_function("document.getElementById('status').textContent !== ''")
    buttons = ana.locator(".actions-panel button")
    assert buttons.count() >= 2  # ana's "Choose a card" row
    for i in range(buttons.count()):
        button = buttons.nth(i)
        # scrolled just into view at the bottom edge, where a fixed bar would sit
        button.evaluate("b => b.scrollIntoView({block: 'end'})")
        hit = button.evaluate("""b => { const r = b.getBoundingClientRect();
            const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return b === at || b.contains(at); }""")
        assert hit, f"button {i} is covered in {lang}"
