"""The bench runs end to end (``python -m bench --smoke``): servers start, every endpoint
answers 200 under load, the report names every target of issue 11.  No timing is asserted:
speed is measured by the bench, never by the test suite."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server")
def test_smoke_run_writes_every_figure(tmp_path):
    out = tmp_path / "RESULTS.md"
    out.write_text("# Benchmark results\n\n## Live streams\nkept as it was\n")
    done = subprocess.run([sys.executable, "-m", "bench", "--smoke", "--no-peer", "--out",
                           str(out)], cwd=ROOT, capture_output=True, text=True, timeout=360)
    assert done.returncode == 0, done.stderr[-2000:]
    text = out.read_text()
    assert "## Live streams\nkept as it was" in text  # another section is left alone
    for row in ("| bare Flask echo |", "| product echo |", "| spy validate |",
                "| coup apply |", "| gnoming legal-actions |", "| all-fours score 6 tricks |",
                "| all-fours score 12 tricks |", "| gnoming score-round |",
                "| match action (Redis) |", "| spy validate (new snapshot) |",
                "| all-fours apply (new snapshot) |", "trick sheets scored/s", "MEMORY USAGE",
                "product echo ≤ 1.15× bare Flask echo", "p99 ≤ 10 ms",
                "≤ 200 B per logged action"):
        assert row in text
    assert "worker class **referee.serving.worker.RefereeGeventWorker**" in text
    # (g) the starvation step: the other client's answers, its 65th stream refused
    assert "## Starvation (issue 21 item 2)" in text and "(its 65th: 429)" in text
    assert "| livez |" in text and "| match read |" in text
    # (i) the slow-clients step: the other client's probes beside none and beside the 500,
    # every one answered 200 (10 probes each in --smoke)
    assert "## Slow clients (issue 12)" in text
    assert "| none (the ceiling) | 10 | 10 × 200 |" in text
    assert "| 400 one-byte + 100 non-readers | 10 | 10 × 200 |" in text
    # every measured request answered 2xx (the last column of each endpoint row is 0)
    rows = [line for line in text.splitlines() if line.startswith("| ") and " req/s" not in
            line and line.count("|") == 9]
    assert len(rows) == 18 + 12  # 12 rows again with the snapshot memo off
    assert all(line.rstrip(" |").endswith("| 0") for line in rows)


def test_a_run_too_short_to_measure_cpu_reports_nan_not_a_crash():
    # --smoke's 0.1 s runs can see no CPU tick at all (10 ms clock): the ratio is NaN, never met
    import math
    from bench import report
    assert math.isnan(report._ratio(1e-3, 0.0)) and report._ratio(1.0, 2.0) == 0.5
