"""Toy: a tiny hidden-card game added through the registry alone (the conformance suite and
the API run on it; it also serves as the base of the conformance suite's self-test).

Rules (rule IDs TOY-…): a deck of six cards ``"1"``…``"6"``; each of 2–3 players is dealt two
(TOY-S1, from the seed); the rest is the face-down deck.  On your turn (TOY-T1) either ``play``
a card of your hand face up (TOY-P1) or ``draw`` the top of the deck while you hold fewer than
three (TOY-D1).  A player with an empty hand is skipped; when every hand is empty the game is
over and the highest total of played cards wins (TOY-E1).  In table mode hands and deck are
``"unknown"`` and a ``play`` names the card, one not yet played.
"""
from __future__ import annotations

from typing import Any

from referee.games.base import (REFEREE, UNKNOWN, Engine, ImpossibleState, InvalidSetup,
                                Problems, Violation, each_card, event)
from referee.games.common.seats import next_seat
from referee.games.common.shuffle import shuffled

CARDS = ("1", "2", "3", "4", "5", "6")


class ToyEngine(Engine):
    """The toy game (see the module docstring)."""

    name = "toy"
    title = "Toy"
    min_players, max_players = 2, 3

    def _setup(self, body: dict[str, Any], seed: int | str | None) -> dict[str, Any]:
        players = list(body["players"])
        if not self.min_players <= len(players) <= self.max_players:
            raise InvalidSetup(Violation("TOY-S1", "Toy takes 2 or 3 players.", "players"))
        table = body.get("mode", "digital") == "table"
        deck = [UNKNOWN] * len(CARDS) if table else shuffled(CARDS, seed or 0, "deal")
        hands = {p: [deck.pop(0), deck.pop(0)] for p in players}
        return {"game": "toy", "mode": "table" if table else "digital", "seed": seed,
                "options": self.resolve_options(body.get("options")), "players": players,
                "hands": hands, "deck": deck, "played": {p: [] for p in players},
                "turn": players[0]}

    def _check_snapshot(self, state: dict[str, Any]) -> None:
        problems = Problems()
        players = state.get("players")
        if not isinstance(players, list) or not isinstance(state.get("hands"), dict):
            raise ImpossibleState(Violation("TOY-S1", "players and hands are needed.", "state"))
        cards = [c for p in players for c in state["hands"].get(p, []) + state["played"][p]]
        cards += state["deck"]
        if len(cards) != len(CARDS):
            problems.add("TOY-S1", f"There are {len(CARDS)} cards, not {len(cards)}.", "hands")
        known = [c for c in cards if c != UNKNOWN]
        if len(set(known)) != len(known) or not set(known) <= set(CARDS):
            problems.add("TOY-S1", "Each card 1 to 6 is in the game once.", "hands")
        if state["turn"] is not None and state["turn"] not in players:
            problems.add("TOY-T1", "The turn belongs to a player.", "turn")
        problems.raise_as(ImpossibleState)

    def _candidates(self, state: dict[str, Any], player: str) -> list[dict]:
        hand = state["hands"][player]
        seen = {c for p in state["players"] for c in state["played"][p]}
        cards = [c for c in CARDS if c not in seen] if UNKNOWN in hand else sorted(set(hand))
        return ([{"type": "play", "player": player, "card": c} for c in cards]
                + [{"type": "draw", "player": player}])

    def _legal_actions(self, state: dict[str, Any], player: str | None) -> list[dict]:
        who = state["players"] if player is None else [player]
        return [a for p in who for a in self._candidates(state, p)
                if not self._violations(state, a)]

    def _violations(self, state: dict[str, Any], action: dict[str, Any]) -> list[Violation]:
        player, found = action["player"], []
        if player != state["turn"]:
            found.append(Violation("TOY-T1", f"It is {state['turn']}'s turn.", "action.player"))
        hand = state["hands"].get(player, [])
        if action["type"] == "draw" and (not state["deck"] or len(hand) >= 3):
            found.append(Violation("TOY-D1", "Draw only from a deck with cards, holding fewer "
                                   "than three.", "action.type"))
        card = action.get("card")
        seen = {c for p in state["players"] for c in state["played"][p]}
        if action["type"] == "play" and card not in hand and (
                UNKNOWN not in hand or card not in CARDS or card in seen):
            found.append(Violation("TOY-P1", f"{player} does not hold {card!r}.", "action.card"))
        return found

    def _play(self, state: dict[str, Any], action: dict[str, Any]) -> list[dict]:
        player, hand = action["player"], state["hands"][action["player"]]
        if action["type"] == "draw":
            card = state["deck"].pop(0)
            hand.append(card)
            events = [event("draw", player=player),
                      event("drawn", [player], player=player, card=card)]
        else:
            hand.remove(action["card"] if action["card"] in hand else UNKNOWN)
            state["played"][player].append(action["card"])
            events = [event("play", player=player, card=action["card"])]
        holding = [p for p in state["players"] if state["hands"][p]]
        state["turn"] = next_seat(state["players"], player,
                                  [p for p in state["players"] if p not in holding]
                                  ) if holding else None
        return events

    def _score(self, state: dict[str, Any]) -> dict[str, Any]:
        totals = {p: sum(int(c) for c in state["played"][p]) for p in state["players"]}
        best = max(totals.values())
        winner = [p for p, t in totals.items() if t == best] if state["turn"] is None else None
        return {"points": totals, "totals": dict(totals), "winner": winner}

    def _is_over(self, state: dict[str, Any]) -> bool:
        return state["turn"] is None

    def _to_move(self, state: dict[str, Any]) -> list[str]:
        return [] if state["turn"] is None else [state["turn"]]

    def _view(self, state: dict[str, Any], viewer: str | None) -> dict[str, Any]:
        if viewer == REFEREE:
            return dict(state)
        return {**{k: v for k, v in state.items() if k not in ("hands", "deck", "seed")},
                "hands": {p: list(h) if p == viewer else len(h)
                          for p, h in state["hands"].items()},
                "deck": len(state["deck"])}

    def hidden_places(self, state: dict[str, Any], viewer: str | None):
        for player, hand in state["hands"].items():
            if player != viewer:
                yield from each_card(hand, "hands", player)
        yield from each_card(state["deck"], "deck")

    def conserved(self, state: dict[str, Any]) -> dict[str, Any]:
        return {"cards": sum(len(h) for h in state["hands"].values()) + len(state["deck"])
                + sum(len(p) for p in state["played"].values())}


ENGINE = ToyEngine()
