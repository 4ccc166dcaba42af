"""The conformance suite can fail: each property, broken on purpose in a copy of the toy game
(tests/toy), is reported by ``tests/conformance_checks.py``; and the toy game, added through
the registry alone, passes the whole suite and plays through the HTTP API."""
from __future__ import annotations

import pytest

from referee.serving.app import create_app
from referee.games.base import ImpossibleState, Violation
from referee.registry import GAMES, GameEntry, register
from tests.conformance_checks import PROPERTIES, Budget, playout
from tests.toy import schemas as toy_schemas
from tests.toy.engine import ToyEngine

BODY = {"players": ["ana", "ben"], "mode": "digital", "options": {}}


class MutatesItsInput(ToyEngine):
    """apply works on the state it was given, not a copy."""

    def _working_copy(self, state):
        return state


class LeaksTheHands(ToyEngine):
    """Every seat sees every hand."""

    def _view(self, state, viewer):
        return {k: v for k, v in state.items() if k != "seed"}


class SummaryTellsTheDeck(ToyEngine):
    """The views hide the deck, but the summary's score breakdown counts its high cards."""

    def _summary(self, state, viewer):
        told = super()._summary(state, viewer)
        told["score"]["breakdown"] = {"high_in_deck": sum(c in "456" for c in state["deck"])}
        return told


class DrawDependsOnTheDeck(ToyEngine):
    """Lets a player draw only when the (face-down) top card of the deck is even: a legal
    action, and a refusal, that depend on a card no seat sees."""

    def _legal_actions(self, state, player):
        listed = super()._legal_actions(state, player)
        if state["deck"] and str(state["deck"][0]) in "135":
            listed = [a for a in listed if a["type"] != "draw"]
        return listed

    def _violations(self, state, action):
        found = super()._violations(state, action)
        if (not found and action["type"] == "draw" and state["deck"]
                and str(state["deck"][0]) in "135"):
            found.append(Violation("TOY-D1", "The top card is odd.", "action.type"))
        return found


class ListsAnIllegalDraw(ToyEngine):
    """Lists ``draw`` even when the deck is empty (TOY-D1 then refuses it)."""

    def _legal_actions(self, state, player):
        listed = super()._legal_actions(state, player)
        turn = state["turn"]
        if turn is not None and player in (None, turn) and not state["deck"]:
            listed.append({"type": "draw", "player": turn})
        return listed


class AcceptsAnyone(ToyEngine):
    """Lists the turn's actions only, but lets a player act out of turn (no TOY-T1)."""

    def _legal_actions(self, state, player):
        return [a for p in state["players"] if player in (None, p)
                for a in self._candidates(state, p) if not ToyEngine._violations(self, state, a)]

    def _violations(self, state, action):
        found = super()._violations(state, action)
        return [v for v in found if v.rule != "TOY-T1"]


class CitesNoRule(ToyEngine):
    """Refuses with a sentence but no rule ID."""

    def _violations(self, state, action):
        return [Violation("", v.message, v.field) for v in super()._violations(state, action)]


class RefusesItsOwnStates(ToyEngine):
    """The snapshot check refuses a state play reaches (a played card)."""

    def _check_snapshot(self, state):
        super()._check_snapshot(state)
        if any(state["played"].values()):
            raise ImpossibleState(Violation("TOY-S1", "Nothing may be played."))


class NotJson(ToyEngine):
    """Keeps the cards seen in a set, which is not JSON."""

    def _play(self, state, action):
        events = super()._play(state, action)
        state["seen"] = {c for cards in state["played"].values() for c in cards}
        return events


class LosesACard(ToyEngine):
    """A played card vanishes (the deck of six is not conserved)."""

    def _play(self, state, action):
        events = super()._play(state, action)
        if action["type"] == "play":
            state["played"][action["player"]].pop()
        return events

    def _check_snapshot(self, state):
        pass  # the lost card would be refused here; the conservation check must see it


class NeverEnds(ToyEngine):
    """Says the game is over while a seat is still to move."""

    def _is_over(self, state):
        return not state["deck"]


BROKEN = {"no-mutation": MutatesItsInput, "no-leak": LeaksTheHands,
          "info-set": DrawDependsOnTheDeck,
          "listed-applies": ListsAnIllegalDraw, "unlisted-refused": AcceptsAnyone,
          "snapshot-round-trip": RefusesItsOwnStates, "json-round-trip": NotJson,
          "conserved": LosesACard, "progress": NeverEnds}


def _reported(engine) -> set[str]:
    found = set()
    for seed in range(3):
        failures, _ = playout(engine, BODY, seed, Budget(steps=40))
        found |= {f.prop for f in failures}
    return found


def test_every_property_has_a_breaking_engine():
    assert set(BROKEN) == set(PROPERTIES)


@pytest.mark.parametrize("prop", sorted(BROKEN))
def test_the_suite_reports_each_broken_property(prop):
    assert prop in _reported(BROKEN[prop]())


def test_a_summary_that_depends_on_a_hidden_card_is_a_leak():
    """The summary (the match view's envelope, issue 22) is checked like a view."""
    failures = [f for seed in range(3) for f in playout(SummaryTellsTheDeck(), BODY, seed,
                                                         Budget(steps=40))[0]]
    assert any(f.prop == "no-leak" and "summary" in f.detail for f in failures)


def test_the_toy_game_passes_the_whole_suite_in_both_modes():
    for mode in ("digital", "table"):
        for players in (["ana", "ben"], ["ana", "ben", "cy"]):
            body = {**BODY, "players": players, "mode": mode}
            for seed in range(3):
                failures, last = playout(ToyEngine(), body, seed, Budget(steps=60))
                assert failures == [], (mode, players, failures[:3])
                assert last["turn"] is None  # TOY-E1: every hand was played out


@pytest.fixture
def toy_client():
    """An app with the toy game added through the registry alone (removed afterwards)."""
    register(GameEntry(ToyEngine(), toy_schemas, example_setup={"players": ["ana", "ben"]}))
    try:
        yield create_app({"TESTING": True, "REDIS_URL": None}).test_client()
    finally:
        del GAMES["toy"]


def test_a_toy_game_added_through_the_registry_plays_through_the_api(toy_client):
    assert "toy" in {g["name"] for g in toy_client.get("/v1/games").get_json()}
    state = toy_client.post("/v1/games/toy/setup", json={"players": ["ana", "ben"],
                                                         "seed": 3}).get_json()["state"]
    while state["turn"] is not None:
        legal = toy_client.post("/v1/games/toy/legal-actions", json={"state": state})
        action = legal.get_json()["actions"][0]
        applied = toy_client.post("/v1/games/toy/apply", json={"state": state,
                                                               "action": action})
        assert applied.status_code == 200, applied.get_json()
        state = applied.get_json()["state"]
    assert applied.get_json()["over"] is True
    wrong = toy_client.post("/v1/games/toy/apply", json={"state": state, "action": {
        "type": "draw", "player": "ana"}}).get_json()
    assert wrong["type"] == "/problems/illegal-action"
    assert wrong["violations"][0]["rule"] == "TOY-T1"  # the game is over: nobody's turn
    match = toy_client.post("/v1/matches", json={"game": "toy", "players": ["ana", "ben"]})
    assert match.status_code == 201, match.get_json()
    created = match.get_json()
    seen = toy_client.get(f"/v1/matches/{created['id']}", headers={
        "Authorization": f"Bearer {created['seats']['ana']}"}).get_json()["view"]
    assert seen["hands"]["ben"] == 2 and len(seen["hands"]["ana"]) == 2  # TOY-S1: two each
    assert seen["deck"] == 2 and "seed" not in seen
