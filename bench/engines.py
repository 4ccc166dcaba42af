"""Measure engine speed in process (one core): checked actions per CPU second for every
registered game, legal-actions calls per CPU second, and All Fours trick sheets scored per CPU
second (the process's CPU clock: steadier than wall time on a shared machine).

Run: ``.venv/bin/python bench/engines.py [seconds]`` (also part of ``python -m bench``).
Only the time spent inside ``engine.apply`` (which checks the action against the rules first)
counts for actions/s, and only ``engine.legal_actions`` for legal-actions/s.
Speed is measured here, never in the test suite.
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.payloads import SIX_TRICKS, twelve_tricks  # noqa: E402
from referee.games.allfours.engine import ENGINE as ALLFOURS  # noqa: E402
from referee.games.allfours.sheet import score_sheet  # noqa: E402
from referee.registry import GAMES  # noqa: E402

NAMES = ["ana", "ben", "cy", "dee", "eli", "fay", "gus", "hal"]


def playouts(game: str, count: int, seed: int = 1) -> list[tuple[dict, dict]]:
    """``[(state, action)]`` of ``count`` seeded random playouts (every player count in turn,
    at most 400 actions each): the work :func:`playout_rate` times."""
    engine = GAMES[game].engine
    counts = list(engine.player_counts or range(engine.min_players, engine.max_players + 1))
    rng = random.Random(seed)
    steps = []
    for number in range(count):
        players = NAMES[:counts[number % len(counts)]]
        state = engine.setup({"players": players, "mode": "digital",
                              "options": engine.resolve_options({})}, rng.randrange(2**32))
        for _ in range(400):
            if engine.is_over(state):
                break
            action = rng.choice(engine.legal_actions(state))
            steps.append((state, action))
            state, _ = engine.apply(state, action)
    return steps


def playout_rate(game: str, seconds: float) -> tuple[float, float]:
    """(checked actions applied per CPU second, legal_actions calls per CPU second): the
    steps of random playouts (:func:`playouts`), each ``engine.apply`` (judged against the
    rules, then applied to a working copy) and ``engine.legal_actions`` call timed in batches
    by the process's CPU clock, repeated for about ``seconds`` of CPU in all."""
    engine = GAMES[game].engine
    steps = playouts(game, 6)
    applied = listed = 0
    in_apply = in_legal = 0.0
    clock = time.process_time
    while in_apply + in_legal < seconds:
        t0 = clock()
        for state, action in steps:
            engine.apply(state, action)
        t1 = clock()
        for state, _ in steps:
            engine.legal_actions(state)
        in_apply += t1 - t0
        in_legal += clock() - t1
        applied += len(steps)
        listed += len(steps)
    return applied / in_apply, listed / in_legal


def sheet_rate(seconds: float, sheet: dict | None = None) -> float:
    """Trick sheets checked and scored per CPU second (engine only, no HTTP); default the
    6-trick sheet of :data:`bench.payloads.SIX_TRICKS`."""
    sheet = sheet or SIX_TRICKS
    done = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(20):
            score_sheet(ALLFOURS, sheet, None)
        done += 20
    return done / (time.process_time() - start)


def measure(seconds: float) -> dict[str, dict[str, float]]:
    """``{game: {"actions": per s, "legal": per s}}`` and ``"sheets"``: 6- and 12-trick."""
    out: dict[str, dict[str, float]] = {}
    for game in sorted(GAMES):
        applied, listed = playout_rate(game, seconds)
        out[game] = {"actions": applied, "legal": listed}
    out["sheets"] = {"6 tricks": sheet_rate(seconds), "12 tricks": sheet_rate(seconds,
                                                                              twelve_tricks())}
    return out


def main() -> None:
    """Print one line per measurement."""
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    found = measure(seconds)
    sheets = found.pop("sheets")
    for game, rates in found.items():
        print(f"{game:10s} {rates['actions']:9.0f} checked actions/s  "
              f"{rates['legal']:9.0f} legal-actions/s")
    for label, rate in sheets.items():
        print(f"all-fours  {rate:9.0f} trick sheets/s ({label})")


if __name__ == "__main__":
    main()
