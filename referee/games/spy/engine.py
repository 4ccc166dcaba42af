"""The Spy engine: the :class:`~referee.games.base.Engine` contract for shared/rules/spy.md.

State (a JSON object)::

    {"game": "spy", "rules_version": "1", "mode": "digital"|"table", "seed": n|null,
     "options": {"mirror", "card_moves", "top_secret_2_eliminates", "first_player"},
     "players": [seat order], "colours": {player: colour},
     "bases": {player: {"cards": [n cards from the holder's left, "unknown" in table mode],
                        "spy_gap": g, "facing": "left"|"right",
                        "exposed": [positions, in exposure order], "lit": [positions],
                        "candidates": [[cards each position may hold, from public facts]],
                        "declared": [number declared moving off each hidden card, or null]}},
     "eliminated": [players], "winner": player|null,
     "turn": {"player", "done": [this turn's actions], "pending": null|{"attacker",
              "defender", "position"}} | null,
     "log": [every public event so far]}

Score: ``points`` and ``totals`` give, per player, how many of that player's cards are exposed
(0–4: fewer is better, four exposed means Top Secret 2 fell); ``winner`` is the last player left
(SPY-E2) or ``None``.
"""
from __future__ import annotations

from typing import Any

from referee.games.base import (UNKNOWN, Engine, ImpossibleState, InvalidSetup, OptionSpec,
                                Violation, violation)
from referee.games.spy.apply import PLAYS, play, working_copy
from referee.games.spy.judge import action_violations, legal_turn_actions, to_move
from referee.games.spy.positions import MIRRORS
from referee.games.spy.setup import GAME, MAX_PLAYERS, MIN_PLAYERS, RULES_VERSION, new_state
from referee.games.spy.snapshot import state_problems
from referee.games.spy.summary import summarize
from referee.games.spy.views import view_state
from referee.games.spy.vocabulary import VOCABULARY


class SpyEngine(Engine):
    """Referee for Spy (Perplext), 2–4 players, digital or table mode."""

    name = GAME
    title = "Spy"
    min_players, max_players = MIN_PLAYERS, MAX_PLAYERS
    rules_version = RULES_VERSION
    vocabulary, dispatch = VOCABULARY, PLAYS
    dealt_fields = ("bases",)
    # Table mode: a base's hidden cards may be entered as "unknown" (SPY-S2), so a seat so
    # named would read as one.  Card names (spy, safe_1, bomb_3…) are not reserved: no field
    # takes a card or a seat alike (a spy's target is a seat, an answer's card a card).
    reserved_names = {UNKNOWN: violation("SPY-S2", "spy.setup.unknown_reserved")}
    options = {
        "mirror": OptionSpec("across", "choice", "SPY-P1", "Which opponent card mirrors the one "
                             "your Spy faces: 'across' (index n-1-i) or 'same' (index i).",
                             choices=MIRRORS),
        "card_moves": OptionSpec({}, "dict", "SPY-C3", "Movement number of each card (card -> "
                                 "number, 1 to the base size); digital mode defaults to the "
                                 "number in the name."),
        "top_secret_2_eliminates": OptionSpec(True, "bool", "SPY-R7", "Exposing a player's Top "
                                              "Secret 2 eliminates that player."),
        "first_player": OptionSpec(None, "str", "SPY-S3", "Who takes the first turn (default: "
                                   "the first seat)."),
    }

    def _setup(self, body: dict[str, Any], seed: int | str | None) -> dict[str, Any]:
        """Return the initial state for ``body`` (spy.md "Setup body"); bases absent from the
        body are dealt from ``seed`` (or ``body["seed"]``).  Raises :class:`InvalidSetup`
        (SPY-S1…S3, SPY-C3)."""
        if not isinstance(body, dict):
            raise InvalidSetup(violation("SPY-S1", "spy.setup.body_not_object", "body"))
        options = self.resolve_options(body.get("options"))
        return new_state(body, options, seed if seed is not None else body.get("seed"))

    def _check_snapshot(self, state: dict[str, Any]) -> None:
        """Raise :class:`ImpossibleState` listing every problem of a submitted snapshot."""
        state_problems(state, self.resolve_options).raise_as(ImpossibleState)

    def _legal_actions(self, state: dict[str, Any], player: str | None) -> list[dict]:
        """Every legal action now, of ``player`` or of everyone (``None``).  Moves are listed
        once per legal number of steps; a table-mode defender's answers once per answer (and
        card) that fits everything known."""
        return [a for a in legal_turn_actions(state) if player is None or a["player"] == player]

    def _violations(self, state: dict[str, Any], action: dict[str, Any]) -> list[Violation]:
        """Every rule ``action`` breaks (SPY-T1…E2); empty when legal."""
        return action_violations(state, action)

    def _working_copy(self, state: dict[str, Any]) -> dict[str, Any]:
        """Everything new but the log's past events (shared, only appended to)."""
        return working_copy(state)

    def _play(self, state: dict[str, Any], action: dict[str, Any]) -> list[dict]:
        """Apply a legal action in place.  Private events (the card a digital-mode defender
        had spied on) carry ``visible_to``."""
        return play(state, action)

    def _score(self, state: dict[str, Any]) -> dict[str, Any]:
        """``{"points", "totals"}`` = cards of each player exposed, ``winner``, ``eliminated``."""
        exposed = {p: len(state["bases"][p]["exposed"]) for p in state["players"]}
        return {"points": exposed, "totals": dict(exposed), "winner": state["winner"],
                "eliminated": list(state["eliminated"])}

    def _is_over(self, state: dict[str, Any]) -> bool:
        """True when one player is left (SPY-E2)."""
        return state["winner"] is not None

    def _to_move(self, state: dict[str, Any]) -> list[str]:
        """Who may act now: the turn's player, or the defender owing an answer."""
        return to_move(state)

    def _view(self, state: dict[str, Any], viewer: str | None) -> dict[str, Any]:
        """``viewer``'s view (see :mod:`referee.games.spy.views`)."""
        return view_state(state, viewer)

    def _summary(self, state: dict[str, Any], viewer: str | None) -> dict[str, Any]:
        """Phase, awaiting, exposures, outcome (:mod:`referee.games.spy.summary`): public."""
        return summarize(state)

    def hidden_places(self, state: dict[str, Any], viewer: str | None):
        """SPY-S2: every unexposed card of another player's base (each base its own pool)."""
        for player, base in state["bases"].items():
            if player != viewer:
                for position in range(len(base["cards"])):
                    if position not in base["exposed"]:
                        yield player, ("bases", player, "cards", position)

    def conserved(self, state: dict[str, Any]) -> dict[str, Any]:
        """SPY-S2: each base keeps its cards (only the Spy moves; no card is taken or added);
        in table mode an exposed card is told, so the count is what stays."""
        return {p: len(b["cards"]) for p, b in state["bases"].items()}


ENGINE = SpyEngine()
