"""The light load client (Streamlit's websocket protocol) and the benches' server clean-up.

Each test starts the real app with ``streamlit run`` (a few seconds): ``bench workshop --client ws``
must see every session's own replies and nobody else's, ``bench render`` must print its figures, and a
bench stopped with SIGINT or SIGTERM must take the server it started down with it.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SERVER_LINE = re.compile(r"Server: http://127\.0\.0\.1:\d+ \(pid (\d+)\)")


def bench(*args: str) -> list[str]:
    return [sys.executable, "-m", "memory_demos", "bench", *args]


def clean_env() -> dict[str, str]:
    return {key: value for key, value in os.environ.items() if key != "OPENAI_API_KEY"}


def run_bench(*args: str) -> str:
    """Run a bench to its end (a subprocess: it has its own asyncio loop); its output, once it succeeded."""
    done = subprocess.run(
        bench(*args), cwd=ROOT, env=clean_env(), capture_output=True, text=True, timeout=240
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    return output


def test_websocket_attendees_see_only_their_own_replies() -> None:
    ws_room = ("--client", "ws", "--sessions", "4", "--panes", "2", "--turns", "2", "--think-seconds", "0.3")
    output = run_bench("workshop", *ws_room, "--warm")
    assert re.search(r"Warmed up: a host session .*\(\d+\.\d\d s of server CPU\)", output), output
    assert re.search(r"turns completed:\s+8 of 8 \(16 pane replies\)", output), output
    assert re.search(r"errors:\s+0\b", output), output
    assert re.search(r"cross-talk:\s+0\b", output), output
    assert re.search(r"server CPU:\s+\d+ s in \d+ s .* \d\.\d{3} s per message", output), output
    assert re.search(r"by turn \(p95\):\s+1: \d+\.\d\d s · 2: \d+\.\d\d s$", output, re.MULTILINE), output
    assert re.search(r"client CPU:\s+\d+ s \(\d+% of one core", output), output


def test_bench_render_prints_cpu_per_message_and_the_ratio() -> None:
    output = run_bench("render", "--panes", "2", "--turns", "4")
    assert re.search(r"turn 2 \d\.\d{3} s · turn 4 \d\.\d{3} s", output), output
    assert re.search(r"ratio turn 4 / turn 2: \d+\.\d\d", output), output
    # The strategies alone, replayed without the page, and the page's share: the server's CPU minus theirs.
    alone = re.search(r"strategies alone: turn 2 (\d\.\d{3}) s · turn 4 (\d\.\d{3}) s · ratio", output)
    assert alone is not None and float(alone.group(2)) > 0, output
    assert re.search(r"page \(server - strategies\): turn 2 -?\d\.\d{3} s · turn 4 -?\d\.\d{3} s", output), (
        output
    )
    # Each strategy alone, and how much of it was inside model calls (never more than its whole CPU).
    for strategy_id in ("buffer", "window"):
        pane = re.search(
            rf"{strategy_id}\s+CPU turn 2 → 4: (\d+\.\d) → (\d+\.\d) ms · in model calls (\d+\.\d) → (\d+\.\d) ms",
            output,
        )
        assert pane is not None, output
        cpu_2, cpu_4, model_2, model_4 = map(float, pane.groups())
        assert 0 < model_2 <= cpu_2 and 0 < model_4 <= cpu_4, output


def alive(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_an_interrupted_bench_stops_the_server_it_started(signum: int) -> None:
    process = subprocess.Popen(
        bench("render", "--panes", "2", "--turns", "500"),
        cwd=ROOT,
        env=clean_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    server_pid = None
    try:
        assert process.stdout is not None
        for line in process.stdout:
            match = SERVER_LINE.search(line)
            if match:
                server_pid = int(match.group(1))
                break
        assert server_pid is not None, "the bench never said which server it started"
        assert alive(server_pid)
        time.sleep(1.0)  # messages are on their way
        process.send_signal(signum)
        process.wait(timeout=60)
        deadline = time.monotonic() + 20
        while alive(server_pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not alive(server_pid), f"the server (pid {server_pid}) outlived the bench"
    finally:
        if process.poll() is None:
            process.kill()
        if server_pid is not None and alive(server_pid):
            os.killpg(server_pid, signal.SIGKILL)


def test_bench_overhead_says_which_prompts_are_bounded(capsys: pytest.CaptureFixture[str]) -> None:
    from memory_demos.__main__ import main

    assert main(["bench", "overhead", "--turns", "20", "--strategies", "buffer,window"]) == 0
    rows = {line.split()[0]: line.split() for line in capsys.readouterr().out.splitlines()[2:4]}
    assert rows["buffer"][1] == "grows" and rows["window"][1] == "bounded"
    assert all(len(row) >= 7 and float(row[6]) > 0 for row in rows.values())  # a CPU ratio was measured
