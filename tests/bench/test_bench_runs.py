"""The bench runs end to end (``python -m bench --smoke``): servers start, every endpoint
answers 200 under load, the report names every target of issue 11.  No timing is asserted:
speed is measured by the bench, never by the test suite."""
from __future__ import annotations

import json
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


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server")
def test_starvation_from_start_smoke_writes_its_own_section(tmp_path):
    # the harder attack (bench.starvation_from_start): the attacker's 64 streams read a long
    # match from event 0 again and again; its section goes beside the default attack's,
    # which is kept (--senders 0: no worst-body search, so the smoke stays short)
    from bench import starvation, starvation_from_start
    from referee.matches.live import CATCH_UP_EVENTS
    out = tmp_path / "RESULTS.md"
    held = f"{starvation.BEGIN}\n## Starvation (issue 21 item 2)\nheld\n{starvation.END}"
    out.write_text(f"# Benchmark results\n\n{held}\n\n## Live streams\nkept\n")
    done = subprocess.run([sys.executable, "-m", "bench.starvation", "--smoke",
                           "--streams-from-start", "--senders", "0", "--out", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    text = out.read_text()
    assert held in text and "## Live streams\nkept" in text
    section = text.split(starvation_from_start.BEGIN, 1)[1].split(starvation_from_start.END)[0]
    assert text.index(starvation.END) < text.index(starvation_from_start.BEGIN)
    assert "## Starvation (issue 21 item 2), streams from the start of a long match" in section
    assert "ran 64 streams (8 tokens × 8" in section and "× reconnect" in section
    assert "| livez |" in section and "| match read |" in section
    # streams opened in the window were answered 200 (or 429 once the address's budget is
    # spent) and each answered 200 read a whole catch-up part, then ended 'reconnect'
    result = json.loads(done.stdout)
    window = result["attacker"]["measured"]
    assert window["answers"].get("200", 0) > 0 and set(window["answers"]) <= {"200", "429"}
    assert set(window["ends"]) <= {"reconnect", "cut"} and window["ends"]["reconnect"] > 0
    assert result["long_match"]["events"] > CATCH_UP_EVENTS  # more than one part from 0


def test_a_run_too_short_to_measure_cpu_reports_nan_not_a_crash():
    # --smoke's 0.1 s runs can see no CPU tick at all (10 ms clock): the ratio is NaN, never met
    import math
    from bench import report
    assert math.isnan(report._ratio(1e-3, 0.0)) and report._ratio(1.0, 2.0) == 0.5
