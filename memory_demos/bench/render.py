"""``python -m memory_demos bench render``: the server's CPU time per Compare message as a conversation grows.

Starts the app (workshop mode, as a hosted room runs it) and drives the real Compare page with one
websocket client (``bench.ws_client``): it sets the pane count, sends ``turns`` messages on the offline
model and reads the server process's CPU time (user + system, ``/proc/<pid>/stat``) before and after
each message, from submit to the end of the run that answers it. CPU time, not wall time, so other
work on a shared machine changes the figures little. Prints the CPU per message at turns 2, 10 and
the last (each the mean of that turn and its neighbours) and the ratio last / turn 2.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from memory_demos.bench.server import cpu_seconds, interruptible, lab_server
from memory_demos.bench.workshop_ws import set_pane_count
from memory_demos.bench.ws_client import AppClient
from memory_demos.config import MAX_PANES
from memory_demos.strategies.base import InputError

SETTLE_SECONDS = 0.05
REPORT_TURNS = (2, 10, 30)


@dataclass(frozen=True)
class TurnSample:
    """One message: the server's CPU seconds for it, the wall seconds until its run ended, the script
    runs it caused and the deltas (elements) they sent."""

    turn: int
    cpu_seconds: float
    wall_seconds: float
    runs: int
    deltas: int


def around(samples: list[TurnSample], turn: int) -> float:
    """Mean CPU of ``turn`` and its neighbours, the first turn left out (it loads what the rest reuse).

    ``/proc`` counts CPU time in 10 ms ticks: a mean over a few messages is finer than any one of them.
    """
    window = [s.cpu_seconds for s in samples if abs(s.turn - turn) <= 1 and s.turn > 1]
    return statistics.mean(window)


async def _drive(url: str, pid: int, panes: int, turns: int) -> list[TurnSample]:
    samples: list[TurnSample] = []
    async with AppClient(url, "compare") as client:
        await client.open()
        await set_pane_count(client, panes)
        for turn in range(1, turns + 1):
            await asyncio.sleep(SETTLE_SECONDS)
            before = cpu_seconds(pid) or 0.0
            started = time.perf_counter()
            run = await client.send_chat(f"Turn {turn}: my name is Ada, I live in Lisbon and I like tea.")
            wall = time.perf_counter() - started
            await asyncio.sleep(SETTLE_SECONDS)
            after = cpu_seconds(pid) or 0.0
            runs = run.counts.get("new_session", 0)
            samples.append(TurnSample(turn, after - before, wall, runs, run.counts.get("delta", 0)))
    return samples


def run_render(panes: int = 4, turns: int = 30) -> int:
    """Start a server, measure, print; 0 unless the page could not be driven."""
    if not 2 <= panes <= MAX_PANES or turns < 3:
        raise InputError(f"bench render needs 2 <= --panes <= {MAX_PANES} and --turns >= 3")
    report = [t for t in REPORT_TURNS if t < turns] + [turns]
    limits = {"MEMORY_LAB_MAX_TURNS": str(turns + 10), "MEMORY_LAB_MAX_TOKENS_PER_SESSION": str(10**9)}
    with (
        interruptible(),
        tempfile.TemporaryDirectory(prefix="memory_lab_render_") as folder,
        lab_server(Path(folder), env_overrides=limits) as (url, pid),
    ):
        print(f"Server: {url} (pid {pid}), workshop mode, offline model, {panes} panes, {turns} turns")
        samples = asyncio.run(_drive(url, pid, panes, turns))
    print(f"{'turn':>5} {'server CPU (s)':>15} {'wall (s)':>9} {'script runs':>12} {'deltas':>7}")
    for sample in samples:
        if sample.turn in report or sample.turn == 1:
            print(
                f"{sample.turn:>5} {sample.cpu_seconds:>15.3f} {sample.wall_seconds:>9.2f} "
                f"{sample.runs:>12} {sample.deltas:>7}"
            )
    first, last = around(samples, report[0]), around(samples, turns)
    print(
        "CPU per message (mean of the turn and its neighbours): "
        + " · ".join(f"turn {t} {around(samples, t):.3f} s" for t in report)
    )
    print(f"ratio turn {turns} / turn {report[0]}: {last / first:.2f}" if first > 0 else "ratio: n/a")
    print(
        f"mean over turns 2-{turns}: {statistics.mean(s.cpu_seconds for s in samples[1:]):.3f} s per message"
    )
    return 0
