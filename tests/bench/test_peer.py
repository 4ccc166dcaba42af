"""The peer comparison (issue 25, ``python -m bench.peer``): referee's table rows run end to
end with streams open (``--no-node``: the suite never installs Node packages, and never needs
Node), and the report's ratios and targets are worked out as documented.  No timing is
asserted: speed is measured by the bench, never by the test suite."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench import report as bench_report
from bench.peer import measure, report
from bench.peer.tables import Run

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server")
def test_referee_rows_run_end_to_end_with_streams(tmp_path):
    out = tmp_path / "RESULTS.md"
    out.write_text(f"# Benchmark results\n\n{bench_report.BEGIN}\nmain rows\n"
                   f"{bench_report.END}\n\n## Live streams\nkept as it was\n")
    done = subprocess.run([sys.executable, "-m", "bench.peer", "--smoke", "--no-node", "--out",
                           str(out)], cwd=ROOT, capture_output=True, text=True, timeout=400)
    assert done.returncode == 0, done.stderr[-2000:]
    text = out.read_text()
    assert f"main rows\n{bench_report.END}\n\n{report.BEGIN}" in text  # after the main rows
    assert "## Live streams\nkept as it was" in text
    for game in ("all-fours", "coup", "gnoming", "spy"):
        for streams in (0, 4, 8):
            assert f"| referee {game} | {streams} |" in text
    assert "boardgame.io was not run" in text


def test_ratios_and_targets_are_referee_cpu_per_move_over_boardgame_io_s():
    settings = measure.SMOKE
    ms = [0.001] * 99 + [0.006]  # p99 is the 99th of 100: 1 ms

    def found(moves, cpu, redis=0.0):
        run = Run(moves=moves, seconds=1.0, cpu=cpu, redis_cpu=redis, latencies=list(ms))
        return {"throughput": run, "latency": run}
    results = {("boardgame.io", 3): found(1000, 0.6), ("boardgame.io", 4): found(1000, 0.8),
               ("boardgame.io", 8): found(1000, 1.2),
               ("coup", 0): found(500, 0.45, 0.05), ("coup", 4): found(500, 1.0),
               ("coup", 8): found(500, 1.5), ("spy", 0): found(500, 0.3),
               ("spy", 4): found(500, 0.6), ("spy", 8): found(500, 0.9)}
    text = report.render(results, settings, 1.0, smoke=False)
    # coup, no stream: 900 µs per move ÷ boardgame.io's 600 (3 seats) = 1.5; with Redis 1000
    assert "| referee coup | 0 | 500 | 900 | 100 | 1.0 | 1.0 | 1.50 (1.67) |" in text
    # coup, 4 streams: 2000 µs ÷ 800 = 2.5 (the worst: not met); spy 1200 ÷ 800 = 1.5
    assert "| referee spy | 4 | 500 | 1200 | 0 | 1.0 | 1.0 | 1.50 (1.50) |" in text
    assert ("| a move delivered to 4 streams ≤ 2× boardgame.io's with 4 seats (server CPU per "
            "move), every game | worst coup: 2.50× | **not met** |") in text
    assert ("| a move delivered to 0 streams ≤ 1.5× boardgame.io's with 3 seats (server CPU "
            "per move), every game | worst coup: 1.50× | met |") in text
    assert "| one move in flight (no stream) p99 ≤ 5 ms, every game | worst coup: 1.0 ms | met |" \
        in text
    assert "| boardgame.io income | (8 seats) | 1000 | 1200 | – | 1.0 | 1.0 |  |" in text
