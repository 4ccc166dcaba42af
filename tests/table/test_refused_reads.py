"""A seat whose read of its moves is refused (429 over a read budget, 503, a lost answer) still
gets its move buttons: the page reads them again a moment later, instead of waiting for a
change of the match that, on the seat's own turn, only its move would make."""
from __future__ import annotations

import json
import re

from tests.table.conftest import needs_browser
from tests.table.driving import ACTION_BUTTONS, host_creates

pytestmark = needs_browser

TOO_MANY = {"type": "https://referee.example/problems/rate-limited", "title": "Too many requests",
            "status": 429, "detail": "The read budget is spent; try again in 1 second."}


def test_refused_legal_actions_are_read_again_and_the_buttons_come(server, phone):
    host = phone()
    made = host_creates(host, server, "coup", ["ana", "ben"])
    ana = phone()
    refused = []

    def first_two_refused(route):
        if len(refused) < 2:  # the first two reads of ana's moves answer 429
            refused.append(route.request.url)
            route.fulfill(status=429, headers={"Retry-After": "1"},
                          content_type="application/problem+json", body=json.dumps(TOO_MANY))
        else:
            route.continue_()

    ana.route(re.compile(r"/legal-actions(\?|$)"), first_two_refused)
    ana.goto(made["links"][0])
    ana.locator(".live.live-ok").wait_for()
    # COUP-T1: ana, first in seat order, is to move; her moves come once a read is answered
    ana.locator(ACTION_BUTTONS).first.wait_for(timeout=15000)
    assert len(refused) == 2
    assert all(url.endswith("/legal-actions?form=grouped") for url in refused)  # for pickers
    assert ana.locator(ACTION_BUTTONS).count() >= 3  # income, foreign aid, tax at least
    assert ana.problems == [] or all("429" in p for p in ana.problems)
