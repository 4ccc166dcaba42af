"""The request bodies the bench sends, built in process from the engines (deterministic seeds).

* a mid-game snapshot of each game with one legal action in it (``validate``, ``apply``,
  ``legal-actions``);
* an All Fours trick sheet of 6 tricks (a hand recorded from real play) and one of 12 tricks
  (a deal where the pack was run twice, found by seed and replayed in process);
* a Gnoming round to score.

Nothing here reads ``/work/shared``: the bench runs from a fresh clone.
"""
from __future__ import annotations

import random
from typing import Any

from referee.games.allfours.sheet import score_sheet
from referee.registry import GAMES

NAMES = ["ana", "ben", "cy", "dee", "eli", "fay", "gus", "hal"]
PLAYERS = {"all-fours": 4, "coup": 4, "spy": 3, "gnoming": 4}
"""Seats at the benchmarked table of each game."""

SIX_TRICKS = {
    "players": ["kiri", "tano", "lena", "omar"],
    "sides": {"X": ["kiri", "lena"], "Y": ["tano", "omar"]},
    "dealer": "kiri", "kicks": ["QD"], "beg": "give_one",
    "tricks": [{"leader": "tano", "cards": ["9S", "4C", "AS", "3H"]},
               {"leader": "omar", "cards": ["JC", "10C", "QC", "AC"]},
               {"leader": "lena", "cards": ["7C", "9C", "5H", "4D"]},
               {"leader": "tano", "cards": ["JH", "7D", "6H", "10H"]},
               {"leader": "lena", "cards": ["QH", "8D", "7H", "4H"]},
               {"leader": "omar", "cards": ["JS", "2D", "8H", "JD"]}]}
"""A hand recorded from real play (``shared/cases/allfours/real-hand-1.json``): X 4, Y 1."""

ROUND = {"layouts": {"ana": [["3", "6", "8"], ["6", "6", "6"], ["4", "6", "5"]],
                     "ben": [["7", "7", "7"], ["3", "3", "3"], ["-4", "H", "5"]],
                     "cy": [["M", "4", "4"], ["M", "5", "5"], ["M", "6", "6"]]},
         "went_out": "ben"}
"""A finished Gnoming round (``shared/cases/gnoming/cross-of-sixes.json``, ben out first)."""


def setup_body(game: str, players: int | None = None) -> dict[str, Any]:
    """The setup body of a digital game of ``game`` (default options)."""
    engine = GAMES[game].engine
    return {"players": NAMES[:players or PLAYERS[game]], "mode": "digital",
            "options": engine.resolve_options({})}


def playout(game: str, seed: int, limit: int = 400, setup: dict | None = None
            ) -> tuple[dict, list[tuple[dict, dict]]]:
    """A random legal playout: the first state and ``[(state before, action)]`` until the
    game is over or ``limit`` actions were applied (actions chosen by ``random.Random(seed)``)."""
    engine = GAMES[game].engine
    rng = random.Random(seed)
    first = state = engine.setup(setup or setup_body(game), seed)
    steps = []
    while len(steps) < limit and not engine.is_over(state):
        action = rng.choice(engine.legal_actions(state))
        steps.append((state, action))
        state, _ = engine.apply(state, action)
    return first, steps


def mid_game(game: str, seed: int = 11) -> tuple[dict, dict]:
    """A snapshot halfway through a random playout of ``game`` and a legal action in it."""
    _, steps = playout(game, seed)
    return steps[len(steps) // 2]


def twelve_tricks() -> dict[str, Any]:
    """A 4-player All Fours trick sheet of 12 tricks: the first deal (by seed) where the
    beggar begs, the dealer runs the pack and the new kick is the same suit, so it runs again
    (AF-B3); played out at random and written down as a sheet, checked by ``score_sheet``."""
    engine = GAMES["all-fours"].engine
    for seed in range(1000):
        rng = random.Random(seed)
        state = engine.setup(setup_body("all-fours"), seed)
        while state["phase"] != "hand_over" and not engine.is_over(state):
            legal = engine.legal_actions(state)
            chosen = [a for a in legal if a["type"] in ("beg", "run_pack")]
            state, _ = engine.apply(state, chosen[0] if chosen else rng.choice(legal))
        if len(state["tricks"]) != 12:
            continue
        sheet = {"players": state["players"], "sides": state["sides"],
                 "dealer": state["dealer"], "kicks": list(state["kicks"]), "beg": "run_pack",
                 "tricks": [{"leader": t["leader"], "cards": t["cards"]}
                            for t in state["tricks"]]}
        try:
            score_sheet(engine, sheet, None)
        except ValueError:
            continue
        return sheet
    raise RuntimeError("no 12-trick deal in the first 1000 seeds")


def stateless_bodies() -> dict[str, tuple[str, dict[str, Any]]]:
    """``{label: (path, body)}`` of every stateless endpoint the bench measures."""
    out: dict[str, tuple[str, dict[str, Any]]] = {}
    for game in sorted(GAMES):
        state, action = mid_game(game)
        base = f"/v1/games/{game}"
        out[f"{game} validate"] = (f"{base}/validate", {"state": state, "action": action})
        out[f"{game} apply"] = (f"{base}/apply", {"state": state, "action": action})
        out[f"{game} legal-actions"] = (f"{base}/legal-actions",
                                        {"state": state, "player": action["player"]})
    out["all-fours score 6 tricks"] = ("/v1/games/all-fours/score", {"sheet": SIX_TRICKS})
    out["all-fours score 12 tricks"] = ("/v1/games/all-fours/score", {"sheet": twelve_tricks()})
    out["gnoming score-round"] = ("/v1/games/gnoming/score-round", {"round": ROUND})
    return out
