"""Hidden information stays hidden (SPY-S2): no seat view, public view or event a reader may see
shows a card of another player's base that is not public (exposed, or a lit bomb shown)."""
from __future__ import annotations

import random

import pytest

from referee.games.base import PUBLIC, REFEREE, IllegalAction, event_visible
from referee.games.spy.engine import ENGINE
from tests.spy.harness import ORDERED, base, start
from tests.spy.random_play import play

PUBLIC_BASE_KEYS = {"cards", "spy_gap", "facing", "exposed", "lit", "candidates", "declared",
                    "target"}


def shown_cards(step) -> dict[tuple[str, int], str]:
    """Cards the answer of this step showed to everyone: ``{(owner, position): card}``."""
    return {(e["player"], e["position"]): e["card"] for e in step.events
            if e["type"] == "answer" and "visible_to" not in e and "card" in e}


def check_views(state: dict, real: dict[str, list[str]]) -> None:
    for viewer in [*state["players"], PUBLIC]:
        view = ENGINE.view(state, viewer)
        assert "seed" not in view  # the seed would give away every dealt base
        for owner, seen in view["bases"].items():
            if owner == viewer:
                assert seen["cards"] == state["bases"][owner]["cards"]
                continue
            assert set(seen) == PUBLIC_BASE_KEYS
            exposed = state["bases"][owner]["exposed"]
            assert seen["cards"] == [real[owner][i] if i in exposed else "hidden"
                                     for i in range(len(real[owner]))]


def check_events(step) -> None:
    """Public events name only cards shown to all; a private event goes to the card's holder."""
    shown = shown_cards(step)
    for ev in step.events:
        if "visible_to" in ev:
            assert ev["type"] == "spied_card" and ev["visible_to"] == [ev["player"]]
            assert ev["card"] == step.real[ev["player"]][ev["position"]]
            assert not event_visible(ev, PUBLIC) and event_visible(ev, REFEREE)
            continue
        if "card" in ev:
            assert ev["type"] == "answer" and ev["answer"] in ("exposed", "lit_bomb")
            assert ev["card"] == step.real[ev["player"]][ev["position"]]
        for key, value in ev.items():
            if key != "card":
                assert value not in ORDERED + ["bomb_2"], ev
    for owner, position in shown:
        assert step.new["bases"][owner]["exposed"][-1:] == [position] or \
            position in step.new["bases"][owner]["lit"]
    assert all("visible_to" not in e for e in step.new["log"])


@pytest.mark.parametrize("mode", ["digital", "table"])
def test_no_view_or_event_shows_a_hidden_card_spy_s2(mode):
    """SPY-S2 over 25 random games: each seat sees its own base in full and, of the others,
    only exposed cards; the public view sees no hidden card; events likewise."""
    for seed in range(25):
        for step in play(1000 + seed, mode):
            check_views(step.state, step.real)
            check_events(step)


def swappable(b: dict) -> list[tuple[int, int]]:
    """Pairs of hidden, known positions that public facts cannot tell apart."""
    hidden = [i for i, c in enumerate(b["cards"]) if i not in b["exposed"] and c != "unknown"]
    return [(i, j) for i in hidden for j in hidden if i < j
            and b["candidates"][i] == b["candidates"][j]
            and (i in b["lit"]) == (j in b["lit"]) and b["declared"][i] == b["declared"][j]]


def test_views_do_not_depend_on_hidden_cards_spy_s2():
    """Swap two of a player's hidden cards that public facts cannot tell apart: every other
    seat's view, the public view and the other seats' legal actions stay the same."""
    rng, compared = random.Random(5), 0
    for seed in range(8):
        for number, step in enumerate(play(2000 + seed, rng.choice(["digital", "table"]))):
            state = step.state
            for owner, b in state["bases"].items() if number % 3 == 0 else ():
                for i, j in swappable(b)[:1]:
                    other = dict(state)
                    other["bases"] = {**state["bases"], owner: {**b, "cards": list(b["cards"])}}
                    cards = other["bases"][owner]["cards"]
                    cards[i], cards[j] = cards[j], cards[i]
                    ENGINE.check_snapshot(other)
                    for viewer in [p for p in state["players"] if p != owner] + [PUBLIC]:
                        assert ENGINE.view(other, viewer) == ENGINE.view(state, viewer)
                        if viewer is not PUBLIC:
                            assert ENGINE.legal_actions(other, viewer) == \
                                ENGINE.legal_actions(state, viewer)
                    compared += 1
    assert compared > 40, compared


def test_seat_view_public_view_and_referee_view():
    """A seat sees its own cards; the public view no hidden card; the referee everything."""
    game = start({"A": base(ORDERED, 5), "B": base(ORDERED[::-1], 0), "C": base(ORDERED, 0)})
    game.do("spy", "A", target="B")  # B's c0: Bomb 3 → tsss, lit
    own = ENGINE.view(game.state, "B")["bases"]["B"]
    assert own["cards"] == ORDERED[::-1] and own["lit"] == [0] and own["target"] == "safe_1"
    public = ENGINE.view(game.state, PUBLIC)
    assert public["viewer"] is None
    assert all(b["cards"] == ["hidden"] * 6 for b in public["bases"].values())
    assert public["bases"]["B"]["lit"] == [0]
    assert public["bases"]["B"]["candidates"][0] == ["bomb_1", "bomb_3"]
    assert ENGINE.view(game.state, REFEREE) == game.state
    with pytest.raises(IllegalAction):
        ENGINE.view(game.state, "Z")
