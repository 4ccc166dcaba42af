"""Coup verdicts are codes with parameters, rendered in the reader's language (issue 13): the
same rule and code in English and Burmese, every "what the game waits for" message renders in
both, and input values that are not plain strings never break a message."""
from __future__ import annotations

import re

import pytest

from referee.games.coup import judge
from referee.games.coup.engine import ENGINE
from referee.i18n import LANGUAGES
from referee.i18n.verdicts import render

MYANMAR = re.compile("[\u1000-\u109f]")
HANDS = {"A": ["captain", "countess"], "B": ["assassin", "duchess"], "C": ["ambassador", "captain"]}


def _validate(client, deal_body, action, lang):
    state = client.post("/v1/games/coup/setup", json=deal_body(HANDS)).get_json()["state"]
    response = client.post("/v1/games/coup/validate", json={"state": state, "action": action},
                           headers={"Accept-Language": lang})
    assert response.status_code == 200, response.get_json()
    assert response.headers["Content-Language"] == lang
    return response.get_json()


def test_illegal_coup_action_in_burmese_has_the_same_rule_and_code_as_in_english(client,
                                                                                 deal_body):
    """COUP-T1: B declares on A's turn; the verdict in ``my`` is Myanmar script with the rule
    and code of the English one, the game term (tax) translated."""
    action = {"type": "tax", "player": "B"}
    english = _validate(client, deal_body, action, "en")
    burmese = _validate(client, deal_body, action, "my")
    assert english["legal"] is burmese["legal"] is False
    pairs = [(v["rule"], v["code"]) for v in english["violations"]]
    assert pairs == [("COUP-T1", "coup.declare.not_your_turn")]
    assert [(v["rule"], v["code"]) for v in burmese["violations"]] == pairs
    assert english["violations"][0]["message"] == "It is A's turn: B cannot declare tax."
    message = burmese["violations"][0]["message"]
    assert MYANMAR.search(message) and "tax" not in message and "အခွန်" in message


def _stage_states(new_game):
    """One state per stage the ``awaiting`` message covers (COUP-S5, T1, W1, W2, C2, A7, A8b,
    E1)."""
    inquisitor = {"A": ["captain", "countess"], "B": ["assassin", "duchess"],
                  "C": ["inquisitor", "captain"]}
    game = new_game(inquisitor, exchanger="inquisitor")
    yield game.state                                                    # declare
    yield game.do("tax", "A").state                                     # action_challenge
    yield game.do("challenge", "B").state                               # action_proof
    game = new_game(inquisitor, exchanger="inquisitor", top=("duchess",))
    yield game.do("foreign_aid", "A").state                             # block
    yield game.do("block", "B", character="duchess").state              # block_challenge
    game = new_game(inquisitor, exchanger="inquisitor")
    game.do("examine", "A", target="B").do("close_window", "host")
    yield game.state                                                    # show_card
    yield game.do("show_card", "B", card="duchess").state               # examine_decide
    game = new_game(inquisitor, exchanger="inquisitor")
    yield game.do("exchange", "A").do("close_window", "host").state     # exchange
    game = new_game(HANDS, coins={"A": 7})
    yield game.do("coup", "A", target="B").state                        # loss


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_awaiting_message_renders(new_game, lang):
    seen = set()
    for state in _stage_states(new_game):
        now = judge.awaiting(ENGINE.accept(state))
        seen.add(now["code"])
        text = render(now["code"], now["params"], lang)
        assert "{" not in text and text
        if lang == "my":
            assert MYANMAR.search(text)
    assert len(seen) == 9, seen


@pytest.mark.parametrize("value", [{"code": "coup.now.over", "params": {}}, ["x"], 5, None])
def test_odd_values_in_an_action_are_quoted_not_rendered(new_game, value):
    """COUP-T1, S1: a type or player that is not a string is named as written (its repr), in
    both languages — never taken for a nested message or a game term."""
    state = new_game(HANDS).state
    for action in ({"type": value, "player": "A"}, {"type": "income", "player": value}):
        [found] = ENGINE.violations(state, action)
        assert found.rule in ("COUP-T1", "COUP-S1")
        assert repr(value) in found.message
        assert repr(value) in render(found.code, found.params, "my")


def test_the_views_awaiting_is_a_message_rendered_in_the_readers_language(client):
    """The seat view's ``awaiting`` (COUP-T1, W1): the engine gives a code with params; the
    match API renders it in the negotiated language — the same English sentence as before —
    and keeps the message as ``awaiting_message``."""
    state = ENGINE.setup({"players": ["A", "B", "C"], "mode": "digital",
                          "options": ENGINE.resolve_options({})}, 1)
    assert ENGINE.view(state, "B")["awaiting"] == {"code": "coup.now.declare",
                                                   "params": {"actor": "A"}}
    created = client.post("/v1/matches", json={"game": "coup", "players": ["A", "B", "C"],
                                               "seed": 1}).get_json()
    headers = {"Authorization": f"Bearer {created['seats']['B']}"}
    url = f"/v1/matches/{created['id']}"
    english = client.get(url, headers=headers).get_json()["view"]
    assert english["awaiting"] == "A must declare this turn's action."
    assert english["awaiting_message"] == {"code": "coup.now.declare", "params": {"actor": "A"}}
    burmese = client.get(url, headers={**headers, "Accept-Language": "my"}).get_json()["view"]
    assert burmese["awaiting"] == render("coup.now.declare", {"actor": "A"}, "my")
    assert MYANMAR.search(burmese["awaiting"])
