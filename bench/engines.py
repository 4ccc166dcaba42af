"""Measure engine speed: random legal playouts per second for every registered game, and
trick sheets scored per second.  Run: ``.venv/bin/python bench/engines.py [seconds]``.

Speed is measured here, never in the test suite.
"""
from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

from referee.games.allfours.engine import ENGINE as ALLFOURS
from referee.games.allfours.sheet import score_sheet
from referee.registry import GAMES

NAMES = ["ana", "ben", "cy", "dee", "eli", "fay", "gus", "hal"]
SHEET = Path(__file__).resolve().parents[2] / "shared" / "cases" / "allfours" / "real-hand-1.json"


def playout_rate(game: str, seconds: float) -> tuple[float, float]:
    """(actions applied per second, legal_actions calls per second) of random playouts."""
    engine = GAMES[game].engine
    counts = engine.player_counts or range(engine.min_players, engine.max_players + 1)
    rng = random.Random(1)
    applied = listed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        players = NAMES[:rng.choice(list(counts))]
        state = engine.setup({"players": players, "mode": "digital",
                              "options": engine.resolve_options({})}, rng.randrange(2**32))
        for _ in range(400):
            if engine.is_over(state):
                break
            legal = engine.legal_actions(state)
            listed += 1
            state, _ = engine.apply(state, rng.choice(legal))
            applied += 1
    elapsed = time.perf_counter() - start
    return applied / elapsed, listed / elapsed


def sheet_rate(seconds: float) -> float:
    """Trick sheets checked and scored per second (engine only, no HTTP)."""
    sheet = json.loads(SHEET.read_text())["sheet"]
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        score_sheet(ALLFOURS, sheet, None)
        done += 1
    return done / (time.perf_counter() - start)


def main() -> None:
    """Print one line per measurement."""
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    for game in sorted(GAMES):
        applied, listed = playout_rate(game, seconds)
        print(f"{game:10s} {applied:9.0f} actions/s  {listed:9.0f} legal-actions/s")
    if SHEET.is_file():
        print(f"all-fours  {sheet_rate(seconds):9.0f} trick sheets/s")


if __name__ == "__main__":
    main()
