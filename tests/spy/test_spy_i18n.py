"""Spy verdicts are codes with parameters, rendered in the reader's language (issue 13)."""
from __future__ import annotations

import re

from referee.games.spy.engine import ENGINE
from referee.i18n.verdicts import render
from tests.spy.harness import ORDERED, base, body, start

MYANMAR = re.compile("[\u1000-\u109f]")
MY = {"Accept-Language": "my"}


def _two_seats(mode: str = "digital") -> dict:
    return body({"A": base(ORDERED, 0), "B": base(ORDERED, 0), "C": base(ORDERED, 0)}, mode)


def test_an_illegal_spy_action_answers_burmese_with_the_same_rule_and_code_spy_p2(client):
    """SPY-P2: spying on yourself; the same violation in both languages, only the text
    differs (Myanmar script in Burmese, the catalog's English otherwise)."""
    state = client.post("/v1/games/spy/setup", json=_two_seats()).get_json()["state"]
    request = {"state": state, "action": {"type": "spy", "player": "A", "target": "A"}}
    en = client.post("/v1/games/spy/validate", json=request).get_json()
    my = client.post("/v1/games/spy/validate", json=request, headers=MY).get_json()
    assert not en["legal"] and not my["legal"]
    strip = [{k: v for k, v in found.items() if k not in ("message", "title")}
             for found in (en["violations"][0], my["violations"][0])]
    assert strip[0] == strip[1] == {"rule": "SPY-P2", "code": "spy.spy.self",
                                    "field": "action.target"} | {
        k: v for k, v in strip[0].items() if k not in ("rule", "code", "field")}
    assert en["violations"][0]["message"] == "A cannot spy on their own base."
    assert MYANMAR.search(my["violations"][0]["message"])
    assert "A" in my["violations"][0]["message"]


def test_card_parameters_are_game_terms_in_both_languages_spy_m1():
    """SPY-M1: the card the Spy faces is named as a card (the glossary's word), not as an API token."""
    game = start({"A": base(ORDERED, 1), "B": base(ORDERED, 0), "C": base(ORDERED, 0)})
    found = ENGINE.violations(game.state, {"type": "move", "player": "A", "steps": 1})
    assert [(v.rule, v.code) for v in found] == [("SPY-M1", "spy.move.exact")]
    assert found[0].params == {"player": "A", "position": 1, "steps": 1, "card": "safe_2",
                               "number": 2}
    assert found[0].message == ("The Spy faces A's c1 (Safe 2, number 2): it moves exactly 2 "
                                "spaces, not 1.")
    burmese = render(found[0].code, found[0].params, "my")
    assert "မီးခံသေတ္တာ 2" in burmese and "Safe" not in burmese  # the glossary word


def test_a_refused_setup_answers_burmese_with_the_same_fields_spy_c1(client):
    """SPY-C1: a card twice in a base; the problem keeps its rule and field in every
    language, and the card is named as a game term."""
    payload = _two_seats()
    payload["bases"]["A"]["cards"] = ORDERED[:-1] + ["safe_1"]
    en = client.post("/v1/games/spy/setup", json=payload).get_json()
    my = client.post("/v1/games/spy/setup", json=payload, headers=MY).get_json()
    assert en["errors"] == [{"field": "bases.A.cards[5]", "rule": "SPY-C1",
                             "message": "Safe 1 appears twice in this base."}]
    assert [(e["rule"], e["field"]) for e in my["errors"]] == [("SPY-C1", "bases.A.cards[5]")]
    assert my["errors"][0]["message"].startswith("မီးခံသေတ္တာ 1 သည်")
