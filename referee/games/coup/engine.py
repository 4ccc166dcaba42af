"""Coup (French edition "Complots") as a pure rules engine: ``shared/rules/coup.md``.

State (a JSON object; see :mod:`referee.games.coup.apply` for ``turn`` and ``loss``)::

    {"game": "coup", "mode": "digital"|"table", "seed": int|str, "options": {...},
     "players": [names in seat order],
     "coins": {player: n}, "treasury": n,                    # sum = 54 (COUP-S7)
     "hands": {player: [face-down cards]},                   # influence; "unknown" at a table
     "revealed": {player: [face-up cards]},                  # dead for good (COUP-L1)
     "court": [cards, top first],
     "piles": {player: [cards]} | {},                        # 2 players: COUP-S5
     "shuffles": n,                                          # court shuffles so far
     "turn": {...}, "loss": null | {"player", "rule"}, "winner": null | player,
     "last_turn": null | {"player", "action", "block"},      # the turn just finished
     "knowledge": {reader: [{"card", "places"}]} | {},       # table mode: COUP-X1
     "disputes": [{"turn", "player", "action", "card", "place", "reader", "rule", "known",
                   "copies"}]}

Hidden information (COUP-V1 before X1): everything a seat learns without moving — its view,
its legal actions, the cards it may name, the refusals of its moves — depends only on what
that seat may know (:mod:`referee.games.coup.table`).  A seat's move that contradicts only
what the referee knows (a hand entered at setup, an examined card the seat never saw) is not
refused, which would reveal the hidden card: it is accepted and recorded in ``disputes``,
shown in the referee (host) view alone, naming COUP-X1 and the card, for the host to roll back.

Options (COUP-S2, S6, S8, A6, A8b): ``exchanger`` ``"ambassador"``|``"inquisitor"``,
``first_player`` (a player or null = first seat), ``two_player_first_coin``,
``steal_from_empty``, ``examine_order`` ``"seed"``|``"reformation"``.

``close_window`` (COUP-W1) is sent with ``"player": "host"``; ``"host"`` is therefore not a
valid player name.  ``legal_actions(state, None)`` lists the host's ``close_window`` while a
window is open; ``to_move`` lists seats only.
"""
from __future__ import annotations

from typing import Any

from referee.games.base import (UNKNOWN, Engine, InvalidSetup, OptionSpec, Violation, each_card,
                                violation)
from referee.games.common.shuffle import redealt
from referee.games.coup import judge, summary
from referee.games.coup.rules import CHARACTERS, EXCHANGERS
from referee.games.coup.setup import setup_game
from referee.games.coup.table import COURT
from referee.games.coup.snapshot import check_snapshot
from referee.games.coup.views import view_of


class CoupEngine(Engine):
    """The Coup referee: setup, snapshot check, legal actions, violations, apply, score."""

    name = "coup"
    title = "Coup"
    min_players = 2
    max_players = 8
    rules_version = "1"
    vocabulary, dispatch = judge.VOCABULARY, judge.RULES
    dealt_fields = ("deal",)
    # Names a seat may not take (compared as names are: case, width and look-alikes folded).
    # "court" is a place in what the referee knows of each card (COUP-X1: places
    # ["ana", "court"]) and "unknown" a face-down card nobody named (COUP-X1): a seat so
    # named would read as the court deck or as a card.  A character's name is what claims,
    # blocks and proofs say (COUP-S2, B1, C2: "captain blocks"), so a seat called "captain"
    # would read as the character; all six are reserved, whichever exchanger is used.
    # ("duke" names no card here: Coup with the Inquisitor has the Duchess.)
    reserved_names = {COURT: violation("COUP-X1", "coup.setup.court_reserved"),
                      UNKNOWN: violation("COUP-X1", "coup.setup.unknown_reserved"),
                      **{character: violation("COUP-S2", "coup.setup.character_reserved")
                         for character in CHARACTERS}}
    options = {
        "exchanger": OptionSpec("ambassador", "choice", "COUP-S2",
                                "The fifth character: Ambassador or Inquisitor.",
                                choices=EXCHANGERS),
        "first_player": OptionSpec(None, "str", "COUP-S8",
                                   "Who takes the first turn (null: the first seat)."),
        "two_player_first_coin": OptionSpec(False, "bool", "COUP-S6",
                                            "2 players: the first player starts with 1 coin."),
        "steal_from_empty": OptionSpec(False, "bool", "COUP-A6",
                                       "Allow stealing from a player with no coins."),
        "examine_order": OptionSpec("seed", "choice", "COUP-A8b",
                                    "Swap after examine: shuffle in then draw (seed) or draw "
                                    "first (reformation).", choices=("seed", "reformation")),
    }

    def _setup(self, body: dict[str, Any], seed: int | str) -> dict[str, Any]:
        """Start a game (COUP-S1–S8): ``body`` = ``{"players", "options", "mode", "deal"?}``,
        ``seed`` drives the deal and every later court shuffle.  Raises :class:`InvalidSetup`."""
        if not isinstance(body, dict):
            raise InvalidSetup(violation("COUP-S1", "coup.setup.body_not_object", "body"))
        unknown = set(body) - {"players", "options", "mode", "seed", "deal"}
        if unknown:
            raise InvalidSetup([violation("COUP-S1", "coup.setup.unknown_field", k, key=repr(k))
                                for k in sorted(unknown)])
        options = body.get("options")
        if options is not None and not isinstance(options, dict):
            raise InvalidSetup(violation("COUP-S2", "coup.setup.options_not_object", "options"))
        return setup_game(body, self.resolve_options(options), 0 if seed is None else seed)

    def _check_snapshot(self, state: dict[str, Any]) -> None:
        """Raise :class:`ImpossibleState` naming every problem of a snapshot (types, S2, S3,
        S4, S5, S7, L2, E1, the turn record)."""
        check_snapshot(state, self.resolve_options)

    def _legal_actions(self, state: dict[str, Any], player: str | None) -> list[dict]:
        """Every legal action now: of ``player`` (``"host"`` for close_window) or, with
        ``None``, of everyone."""
        listed = judge.legal_actions(state)
        if player is None:
            return listed
        return [a for a in listed if a["player"] == player]

    def _violations(self, state: dict[str, Any], action: dict[str, Any]) -> list[Violation]:
        """Every rule ``action`` breaks now, each with its rule ID; empty when legal."""
        return judge.violations(state, action)

    def _play(self, state: dict[str, Any], action: dict[str, Any]) -> list[dict]:
        """Apply a legal action in place (COUP-A*, W*, L*)."""
        return judge.play(state, action)

    def _reshuffle_hidden(self, state: dict[str, Any], seed: int | str) -> None:
        """A rollback's reshuffle (digital mode): the court deck, face down (COUP-S4) and in
        an order nobody may know though an exchange shows its top cards (COUP-A7, A8a), dealt
        afresh from ``seed``, which then drives every later court shuffle (A7, A8b, C4).  Hands,
        2-player piles (COUP-S5), an exchange's draw and an examined card are known to a seat
        (COUP-V1): they stay."""
        state["court"] = redealt(state["court"], seed, "rollback", "court")
        state["seed"] = seed

    def _score(self, state: dict[str, Any]) -> dict[str, Any]:
        """``{"points": {player: influence left}, "totals": {player: coins}, "winner": player
        or None}`` (COUP-E1: the last player with influence wins)."""
        return {"points": {p: len(state["hands"][p]) for p in state["players"]},
                "totals": dict(state["coins"]), "winner": state["winner"]}

    def _is_over(self, state: dict[str, Any]) -> bool:
        """True when only one player has influence left (COUP-E1)."""
        return state["winner"] is not None

    def _to_move(self, state: dict[str, Any]) -> list[str]:
        """Seats that may act now, in seat order (several in an open window; not the host)."""
        movers = {a["player"] for a in judge.legal_actions(state)}
        return [p for p in state["players"] if p in movers]

    def _view(self, state: dict[str, Any], viewer: str | None) -> dict[str, Any]:
        """A seat's view, the public view (``None``) or the referee's (COUP-V1)."""
        return view_of(state, viewer, self._to_move(state), judge.awaiting(state))

    def _summary(self, state: dict[str, Any], viewer: str | None) -> dict[str, Any]:
        """Phase, awaiting, influence and coins, outcome (``summary.py``): public."""
        return summary.summarize(state)

    def hidden_places(self, state: dict[str, Any], viewer: str | None):
        """COUP-V1: other players' face-down influence, the court deck, other seats' 2-player
        piles, an exchange's draw (but to the exchanger), an examined card (but to the
        Inquisitor and its owner); all one pool (``"cards"``)."""
        for player, hand in state["hands"].items():
            if player != viewer:
                yield from each_card(hand, "hands", player)
        yield from each_card(state["court"], "court")
        for player, pile in state["piles"].items():
            if player != viewer:
                yield from each_card(pile, "piles", player)
        turn = state["turn"]
        if viewer != turn["player"]:
            yield from each_card(turn["drawn"], "turn", "drawn")
        target = (turn["action"] or {}).get("target")
        if turn["shown"] is not None and viewer not in (turn["player"], target):
            yield "cards", ("turn", "shown")

    def conserved(self, state: dict[str, Any]) -> dict[str, Any]:
        """COUP-S7: 54 coins between the players and the treasury; COUP-S3: 15 cards in all
        (hands, revealed, court, piles, an exchange's draw)."""
        turn = state["turn"]
        cards = sum(len(state[k][p]) for k in ("hands", "revealed") for p in state["players"])
        cards += len(state["court"]) + sum(map(len, state["piles"].values()))
        cards += len(turn.get("drawn") or [])
        return {"coins": sum(state["coins"].values()) + state["treasury"], "cards": cards}


ENGINE = CoupEngine()
