"""Information sets (issue 12 item 2, SPY-S2): two matches that differ only in cards hidden from
a reader, driven by the same actions, give that reader byte-identical answers — its view, its
legal actions and the verdict (rule, code, field, English and Burmese text) on every action it
might try.  The matches part only when an action's public events differ (a visible move told
the reader something); everything before that is compared.
"""
from __future__ import annotations

import json
import random

import pytest

from referee.games.base import UNKNOWN
from referee.games.spy.answers import true_answer
from referee.games.spy.engine import ENGINE
from referee.games.spy.rules import base_cards
from referee.i18n.verdicts import render
from tests.spy.random_play import new_game


def probes(state: dict, reader: str) -> list[dict]:
    """Every action shape ``reader`` might send now (legal or not)."""
    out = [{"type": t, "player": reader} for t in ("turn_round", "end_turn", "answer")]
    out += [{"type": "move", "player": reader, "steps": s} for s in range(0, 9)]
    out += [{"type": "spy", "player": reader, "target": p} for p in state["players"]]
    answers = ("safe", "top_secret", "tsss", "already_exposed")
    out += [{"type": "answer", "player": reader, "answer": a} for a in answers]
    out += [{"type": "answer", "player": reader, "answer": a, "card": c}
            for a in ("exposed", "lit_bomb") for c in base_cards(len(state["players"]))]
    return out


def answers_to(state: dict, reader: str) -> str:
    """Everything ``reader`` learns from the engine now without moving, as one JSON text."""
    verdicts = [[(v.rule, v.code, v.field, v.params, v.message, render(v.code, v.params, "my"))
                 for v in ENGINE.violations(state, action)] for action in probes(state, reader)]
    return json.dumps({"view": ENGINE.view(state, reader),
                       "legal": ENGINE.legal_actions(state, reader),
                       "verdicts": verdicts}, sort_keys=True, default=str)


def public(events: list[dict]) -> list[dict]:
    return [e for e in events if "visible_to" not in e]


def hide(state: dict, owner: str, rng: random.Random, mode: str) -> dict:
    """``state`` with cards of ``owner`` the reader cannot see changed: entered cards made
    unknown (table mode), or two cards swapped (digital mode)."""
    other = json.loads(json.dumps(state))
    cards = other["bases"][owner]["cards"]
    if mode == "table":
        other["bases"][owner]["cards"] = [UNKNOWN for _ in cards]
    else:
        i, j = rng.sample(range(len(cards)), 2)
        cards[i], cards[j] = cards[j], cards[i]
    return other


@pytest.mark.parametrize("mode", ["digital", "table"])
def test_a_reader_cannot_tell_matches_apart_by_hidden_cards_spy_s2(mode):
    rng, compared = random.Random(12), 0
    for _ in range(10):
        first, real = new_game(rng, mode)
        if mode == "table":  # every card entered in the first match (the defender's truth)
            first = ENGINE.setup({"players": first["players"], "mode": "table",
                                  "options": first["options"],
                                  "bases": {p: {"cards": real[p], "spy_gap": b["spy_gap"],
                                                "facing": b["facing"]}
                                            for p, b in first["bases"].items()}}, seed=1)
        owner = rng.choice(first["players"])
        second = ENGINE.accept(hide(first, owner, rng, mode))
        readers = [p for p in first["players"] if p != owner]
        for _ in range(60):
            for reader in readers:
                assert answers_to(first, reader) == answers_to(second, reader)
                compared += 1
            if ENGINE.is_over(first):
                break
            pending = first["turn"]["pending"]
            if pending:
                answer, card = true_answer(first["bases"][pending["defender"]],
                                           pending["position"])
                action = {"type": "answer", "player": pending["defender"], "answer": answer,
                          **({"card": card} if card else {})}
            else:
                action = rng.choice(ENGINE.legal_actions(first))
            first, events = ENGINE.apply(first, action)
            if ENGINE.violations(second, action):
                break  # the owner's move told everyone something about the hidden cards
            second, other_events = ENGINE.apply(second, action)
            if public(events) != public(other_events):
                break
    assert compared > 150, compared


def test_the_pair_comparison_catches_a_leak(monkeypatch):
    """Proof the comparison can fail: a view that shows every card (an injected leak) is
    caught in both modes at the first comparison."""
    from referee.games.base import REFEREE
    real_view = ENGINE.view
    monkeypatch.setattr(ENGINE, "view", lambda state, reader: real_view(state, REFEREE))
    for mode in ("digital", "table"):
        with pytest.raises(AssertionError):
            test_a_reader_cannot_tell_matches_apart_by_hidden_cards_spy_s2(mode)
