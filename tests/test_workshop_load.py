"""The workshop load driver, small: real browser sessions against a real server, with no errors and
no cross-talk. (The figures in the README come from the full run, 40 sessions x 4 panes x 5 turns.)"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from memory_demos.bench.chromium import CHROMIUM
from memory_demos.bench.workshop_report import LoadReport, SessionResult

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.e2e


def test_three_sessions_see_only_their_own_messages() -> None:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (.ci/run does).", pytrace=False)
    env = {key: value for key, value in os.environ.items() if key != "OPENAI_API_KEY"}
    # A subprocess: the load driver runs its own asyncio loop, which must not meet pytest's or
    # another test's Playwright loop.
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "memory_demos",
            "bench",
            "workshop",
            "--sessions",
            "3",
            "--panes",
            "2",
            "--turns",
            "2",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert re.search(r"turns completed:\s+6 of 6 \(12 pane replies\)", output), output
    assert re.search(r"errors:\s+0\b", output), output
    assert re.search(r"cross-talk:\s+0\b", output), output
    assert re.search(r"turn latency:\s+p50 \d+\.\d\d s", output), output
    assert re.search(r"server RSS:\s+before \d+ MiB", output), output


def test_the_report_counts_cross_talk_and_errors() -> None:
    """The report itself: another session's marker is cross-talk, and either makes the run fail."""
    clean = SessionResult(0, "S000xaaaaaaaa", latencies=[0.5, 1.5])
    leaky = SessionResult(1, "S001xbbbbbbbb", latencies=[1.0], crosstalk={"S000xaaaaaaaa"})
    leaky.errors["TimeoutError"] += 1
    report = LoadReport(2, 2, 2, 2, [clean, leaky], 3.0, {"before": 1024, "peak": 4096, "after": 2048})
    lines = "\n".join(report.lines())
    assert "p50 1.00 s" in lines and "max 1.50 s" in lines
    assert "errors:           1 (TimeoutError: 1)" in lines and "cross-talk:       1" in lines
    assert "before 1 MiB · peak 4 MiB · after 2 MiB" in lines
