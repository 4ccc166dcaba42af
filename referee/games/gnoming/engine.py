"""The Gnoming A Round engine (rules: ``shared/rules/gnoming.md``, registry name ``gnoming``).

A golf-style game: each player builds a 3×3 layout; lowest total after the rounds wins.  The
pieces live in the modules of ``docs/adding-a-game.md``: ``rules`` (the deck, GN-C1),
``setup`` (GN-S*), ``judge`` (violations and legal actions), ``apply`` (applying them, the end
of turns and rounds), ``scoring`` (GN-P*, GN-W1), ``table`` (GN-X1), ``views`` (GN-V1),
``snapshot`` (check_snapshot).
"""
from __future__ import annotations

from typing import Any

from referee.games.base import UNKNOWN, Engine, OptionSpec, Violation, each_card, violation
from referee.games.common.shuffle import redealt
from referee.games.gnoming import apply, judge, setup, snapshot, summary, views
from referee.games.gnoming.scoring import layout_points, round_points, score_game


class GnomingEngine(Engine):
    """Gnoming A Round for 3–7 players (2 with ``options.allow_two_players``)."""

    name = "gnoming"
    title = "Gnoming A Round"
    min_players = 3
    max_players = 7
    rules_version = "1"
    vocabulary, dispatch = judge.VOCABULARY, judge.CHECKS
    dealt_fields = ("deal",)
    # Table mode: face-down layout cards are "unknown" (GN-X1), so a seat so named would read
    # as one.  Card names ("3", "-2", "M", "H") are not reserved: no field takes a card or a
    # seat alike, and "M" or "H" is an initial.
    reserved_names = {UNKNOWN: violation("GN-X1", "gnoming.setup.unknown_reserved")}
    options = {
        "allow_two_players": OptionSpec(False, "bool", "GN-C2", "Admit 2 players (the "
                                        "publisher says 2–7; the seed 3–7)."),
        "rounds": OptionSpec(3, "int", "GN-C3", "Rounds in a game.", minimum=1, maximum=50),
        "first_player": OptionSpec(None, "str", "GN-S3", "Who starts round 1 (the youngest); "
                                   "default the first seat."),
        "out_first_tie": OptionSpec("lowest", "choice", "GN-P7", "Whether a tie for lowest "
                                    "counts as lowest for the player who went out first.",
                                    choices=("lowest", "not_lowest")),
    }

    def _setup(self, body: dict[str, Any], seed: int | str) -> dict[str, Any]:
        """Start a game (see ``setup``): body ``players``, ``options``, ``mode``, optional
        ``deal``.  Raises :class:`InvalidSetup` (GN-C1, C2, S1, S3, S4, X1)."""
        options = self.resolve_options(body.get("options"))
        return setup.new_game(body, options, seed)

    def _check_snapshot(self, state: dict[str, Any]) -> None:
        """Raise :class:`ImpossibleState` for a snapshot no legal game reaches (see
        ``snapshot``)."""
        snapshot.check_snapshot(state, self.resolve_options)

    def _legal_actions(self, state: dict[str, Any], player: str | None) -> list[dict]:
        """Every legal action now (table mode: one per card the turned-up card may be)."""
        return judge.legal_actions(state, player)

    def _violations(self, state: dict[str, Any], action: dict[str, Any]) -> list[Violation]:
        """Every rule ``action`` breaks now, each with its rule ID; empty when legal."""
        return judge.violations(state, action)

    def _working_copy(self, state: dict[str, Any]) -> dict[str, Any]:
        """New layouts, piles and turn; finished rounds shared (never changed)."""
        return apply.copy_state(state)

    def _play(self, state: dict[str, Any], action: dict[str, Any]) -> list[dict]:
        """Apply a legal action in place (GN-D*, GN-E*, GN-P*)."""
        return apply.play(state, action)

    def _reshuffle_hidden(self, state: dict[str, Any], seed: int | str) -> None:
        """A rollback's reshuffle (digital mode): the face-down layout cards (nobody looks at
        them, their owner included: GN-S1, GN-V1) and the draw pile, one pool, dealt afresh
        from ``seed``: every face-down cell (seats in order, rows then columns) and then the
        draw pile, top first, take the pool's cards in the new order; ``seed`` then drives
        the later GN-D5 reshuffles and deals (GN-S1).  Face-up cards, the discard piles (each
        card on them was seen face up) and a card drawn (known to its drawer) stay."""
        cells = [cell for player in state["players"] for row in state["layouts"][player]
                 for cell in row if not cell["up"]]
        pool = redealt([cell["card"] for cell in cells] + state["draw_pile"], seed,
                       "rollback", "gnoming")
        for cell, card in zip(cells, pool):
            cell["card"] = card
        state["draw_pile"] = pool[len(cells):]
        state["seed"] = seed

    def _score(self, state: dict[str, Any]) -> dict[str, Any]:
        """Score so far.

        Returns ``{"round": n, "points": {player: this round's score}, "provisional": bool,
        "totals": {player: total of the finished rounds}, "round_scores": [{player: points}],
        "winner": [players] | None}``.  While a round is played ``points`` counts the face-up
        cards only (a face-down card adds nothing and no line through it is a set; no ±5) and
        ``provisional`` is true; once the game is over ``points`` is the last round's final
        score (GN-P7 ±5 included) and ``winner`` the list of winners (GN-W1; several = a
        shared win).
        """
        tie = state["options"]["out_first_tie"]
        history = state["history"]
        round_scores = [round_points(r["layouts"], r["went_out"], tie) for r in history]
        totals = {p: sum(s[p] for s in round_scores) for p in state["players"]}
        if state["phase"] == "over":
            return {"round": state["round"], "points": round_scores[-1], "provisional": False,
                    "totals": totals, "round_scores": round_scores,
                    "winner": score_game(history, tie)["winners"]}
        points = {p: layout_points([[cell["card"] if cell["up"] else None for cell in row]
                                    for row in grid])
                  for p, grid in state["layouts"].items()}
        return {"round": state["round"], "points": points, "provisional": True,
                "totals": totals, "round_scores": round_scores, "winner": None}

    def _is_over(self, state: dict[str, Any]) -> bool:
        """True once the last round is scored (GN-C3, GN-W1)."""
        return state["phase"] == "over"

    def _to_move(self, state: dict[str, Any]) -> list[str]:
        """Players who may act now: the turn's player, or everyone who owes a flip."""
        return judge.to_move(state)

    def _view(self, state: dict[str, Any], viewer: str | None) -> dict[str, Any]:
        """A seat, public or referee view (GN-V1, see ``views``)."""
        return views.view(state, viewer)

    def _summary(self, state: dict[str, Any], viewer: str | None) -> dict[str, Any]:
        """Phase, awaiting, round scores and totals, outcome (``summary``): public."""
        return summary.summarize(state, self._score(state), self._to_move(state))

    def hidden_places(self, state: dict[str, Any], viewer: str | None):
        """GN-V1: face-down layout cards (from everyone, owner included), the draw pile, the
        discard piles but their tops, and a card drawn from the draw pile (but to its
        drawer) until it is placed; all one pool."""
        for player, grid in state["layouts"].items():
            for r, row in enumerate(grid):
                for c, cell in enumerate(row):
                    if not cell["up"]:
                        yield "cards", ("layouts", player, r, c, "card")
        yield from each_card(state["draw_pile"], "draw_pile")
        for j, pile in enumerate(state["discard_piles"]):
            yield from each_card(pile[:-1], "discard_piles", j)
        turn = state["turn"]
        if (turn["holding"] is not None and turn["source"] == "draw_pile"
                and not turn["filled"] and viewer != turn["player"]):
            yield "cards", ("turn", "holding")

    def conserved(self, state: dict[str, Any]) -> dict[str, Any]:
        """GN-C1: the 110 cards stay in play: layouts, draw pile, discard piles, the card in
        hand and the Hazards removed (GN-D2) always hold all of them."""
        cards = sum(len(row) for grid in state["layouts"].values() for row in grid)
        cards += len(state["draw_pile"]) + sum(map(len, state["discard_piles"]))
        cards += len(state["removed"]) + (state["turn"].get("holding") is not None)
        return {"cards": cards}


ENGINE = GnomingEngine()
