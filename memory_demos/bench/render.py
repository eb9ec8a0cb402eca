"""``python -m memory_demos bench render``: the server's CPU time per Compare message as a conversation grows.

Starts the app (workshop mode, as a hosted room runs it) and drives the real Compare page with one
websocket client (``bench.ws_client``): it sets the pane count, sends ``turns`` messages on the offline
model and reads the server process's CPU time (user + system, ``/proc/<pid>/stat``) before and after
each message, from submit to the end of the run that answers it. CPU time, not wall time, so other
work on a shared machine changes the figures little. Prints the CPU per message at turns 2, 10 and
the last (each the mean of that turn and its neighbours) and the ratio last / turn 2.

Part of that CPU is the strategies' own work, which grows by design for a pane that sends the whole
history (``buffer``). To tell it from the page's, the same messages go through the same strategies in
this process, without the page, and the page's share is the server's CPU minus theirs.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from contextvars import ContextVar
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.tracers.context import register_configure_hook

from memory_demos.bench.server import cpu_seconds, interruptible, lab_server
from memory_demos.bench.workshop_ws import set_pane_count
from memory_demos.bench.ws_client import AppClient
from memory_demos.cli_table import strategy_column_width
from memory_demos.defaults import MAX_PANES
from memory_demos.panes import DEFAULT_PANE_STRATEGIES
from memory_demos.providers.chat_models import ProviderConfig
from memory_demos.strategies.base import InputError, StrategyContext
from memory_demos.strategies.registry import available_ids, build_strategy

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
    strategy_seconds: float = 0.0

    @property
    def page_seconds(self) -> float:
        """The server's CPU for this message minus the strategies' own: drawing, protocol, session."""
        return self.cpu_seconds - self.strategy_seconds


@dataclass(frozen=True)
class PaneCost:
    """One strategy alone, per turn: its CPU seconds and the CPU seconds inside its model calls."""

    strategy_id: str
    cpu_seconds: list[float]
    model_seconds: list[float]


@dataclass(frozen=True)
class RenderRun:
    """One measured conversation: its samples, the turns its summary reports and each strategy alone."""

    samples: list[TurnSample]
    report: list[int]
    panes: tuple[PaneCost, ...] = ()

    def at(self, turn: int, field: str = "cpu_seconds") -> float:
        """Mean of ``field`` over ``turn`` and its neighbours, the first turn left out (it loads what
        the rest reuse). ``/proc`` counts CPU time in 10 ms ticks: a mean over a few messages is finer
        than any one of them."""
        return _near([getattr(s, field) for s in self.samples], turn)

    def ratio(self, field: str = "cpu_seconds") -> float:
        first = self.at(self.report[0], field)
        return self.at(self.report[-1], field) / first if first > 0 else float("inf")


def message(turn: int) -> str:
    return f"Turn {turn}: my name is Ada, I live in Lisbon and I like tea."


def pane_strategies(panes: int) -> list[str]:
    """The strategies of the page's panes after ``set_pane_count``: the default panes, then the one
    the page's "add pane" button adds (the first in the registry) for each pane beyond them."""
    defaults = list(DEFAULT_PANE_STRATEGIES)
    return (defaults + [available_ids()[0]] * panes)[:panes]


class ModelCpu(BaseCallbackHandler):
    """Adds up this process's CPU time between each chat-model call's start and end callbacks (the
    strategies run one at a time on this thread, so the process's CPU is the call's)."""

    run_inline = True

    def __init__(self) -> None:
        self.seconds = 0.0
        self._started: dict[UUID, float] = {}

    def on_chat_model_start(self, serialized: Any, messages: Any, *, run_id: UUID, **kwargs: Any) -> None:
        self._started[run_id] = time.process_time()

    def on_llm_end(self, response: Any, *, run_id: UUID, **kwargs: Any) -> None:
        self._finish(run_id)

    def on_llm_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        self._finish(run_id)

    def _finish(self, run_id: UUID) -> None:
        started = self._started.pop(run_id, None)
        if started is not None:
            self.seconds += time.process_time() - started


# LangChain adds the handler held here to every callback manager it configures in this context.
_model_cpu: ContextVar[ModelCpu | None] = ContextVar("memory_lab_bench_model_cpu", default=None)
register_configure_hook(_model_cpu, inheritable=True)


def strategy_cpu(strategy_ids: list[str], turns: int) -> list[PaneCost]:
    """The bench's messages sent through the strategies alone, in this process: each one's costs per turn."""
    strategies = [build_strategy(i, StrategyContext(provider=ProviderConfig())) for i in strategy_ids]
    costs = [PaneCost(i, [], []) for i in strategy_ids]
    try:
        for turn in range(1, turns + 1):
            for strategy, cost in zip(strategies, costs, strict=True):
                model_cpu = ModelCpu()
                token = _model_cpu.set(model_cpu)
                started = time.process_time()
                try:
                    strategy.send(message(turn))
                finally:
                    cost.cpu_seconds.append(time.process_time() - started)
                    _model_cpu.reset(token)
                cost.model_seconds.append(model_cpu.seconds)
    finally:
        for strategy in strategies:
            strategy.close()
    return costs


def _near(values: list[float], turn: int) -> float:
    """Mean of ``values`` (index 0 = turn 1) over ``turn`` and its neighbours, turn 1 left out."""
    return statistics.mean(values[t - 1] for t in range(max(turn - 1, 2), min(turn + 1, len(values)) + 1))


async def _drive(url: str, pid: int, panes: int, turns: int) -> list[TurnSample]:
    samples: list[TurnSample] = []
    async with AppClient(url, "compare") as client:
        await client.open()
        await set_pane_count(client, panes)
        for turn in range(1, turns + 1):
            await asyncio.sleep(SETTLE_SECONDS)
            before = cpu_seconds(pid) or 0.0
            started = time.perf_counter()
            run = await client.send_chat(message(turn))
            wall = time.perf_counter() - started
            await asyncio.sleep(SETTLE_SECONDS)
            after = cpu_seconds(pid) or 0.0
            runs = run.counts.get("new_session", 0)
            samples.append(TurnSample(turn, after - before, wall, runs, run.counts.get("delta", 0)))
    return samples


def measure(panes: int, turns: int) -> RenderRun:
    """One server, one conversation of ``turns`` messages; then the strategies alone on the same ones."""
    report = [t for t in REPORT_TURNS if t < turns] + [turns]
    limits = {"MEMORY_LAB_MAX_TURNS": str(turns + 10), "MEMORY_LAB_MAX_TOKENS_PER_SESSION": str(10**9)}
    with (
        tempfile.TemporaryDirectory(prefix="memory_lab_render_") as folder,
        lab_server(Path(folder), env_overrides=limits) as (url, pid),
    ):
        print(f"Server: {url} (pid {pid}), workshop mode, offline model, {panes} panes, {turns} turns")
        samples = asyncio.run(_drive(url, pid, panes, turns))
    alone = strategy_cpu(pane_strategies(panes), turns)
    samples = [
        replace(sample, strategy_seconds=sum(cost.cpu_seconds[sample.turn - 1] for cost in alone))
        for sample in samples
    ]
    return RenderRun(samples, report, tuple(alone))


def print_run(run: RenderRun) -> None:
    print(
        f"{'turn':>5} {'server CPU (s)':>15} {'strategies (s)':>15} {'page (s)':>9} {'wall (s)':>9} "
        f"{'script runs':>12} {'deltas':>7}"
    )
    for sample in run.samples:
        if sample.turn in run.report or sample.turn == 1:
            print(
                f"{sample.turn:>5} {sample.cpu_seconds:>15.3f} {sample.strategy_seconds:>15.3f} "
                f"{sample.page_seconds:>9.3f} {sample.wall_seconds:>9.2f} {sample.runs:>12} "
                f"{sample.deltas:>7}"
            )
    first, last = run.report[0], run.report[-1]
    print(
        "CPU per message (mean of the turn and its neighbours): "
        + " · ".join(f"turn {t} {run.at(t):.3f} s" for t in run.report)
    )
    print(f"ratio turn {last} / turn {first}: {run.ratio():.2f}")
    for field, label in (
        ("strategy_seconds", "strategies alone"),
        ("page_seconds", "page (server - strategies)"),
    ):
        figures = " · ".join(f"turn {t} {run.at(t, field):.3f} s" for t in run.report)
        print(f"{label}: {figures} · ratio {run.ratio(field):.2f}")
    mean = statistics.mean(s.cpu_seconds for s in run.samples[1:])
    print(f"mean over turns 2-{last}: {mean:.3f} s per message")
    # Inside the strategies, what the model reads grows by design (buffer); the rest should not.
    width = strategy_column_width(cost.strategy_id for cost in run.panes)
    for cost in run.panes:
        cpu = " → ".join(f"{_near(cost.cpu_seconds, t) * 1000:.1f}" for t in (first, last))
        model = " → ".join(f"{_near(cost.model_seconds, t) * 1000:.1f}" for t in (first, last))
        print(
            f"  {cost.strategy_id:<{width}} CPU turn {first} → {last}: {cpu} ms · in model calls {model} ms"
        )


def run_render(panes: int = 4, turns: int = 30, repeats: int = 1) -> int:
    """Start a server per repeat, measure, print; 0 unless the page could not be driven."""
    if not 2 <= panes <= MAX_PANES or turns < 3 or repeats < 1:
        raise InputError(f"bench render needs 2 <= --panes <= {MAX_PANES}, --turns >= 3 and --repeats >= 1")
    runs = []
    with interruptible():
        for _ in range(repeats):
            runs.append(measure(panes, turns))
            print_run(runs[-1])
    if repeats > 1:
        first, last = runs[0].report[0], runs[0].report[-1]
        print(f"over {repeats} runs, ratio turn {last} / turn {first} (min / median / max):")
        for field, label in (
            ("cpu_seconds", "server"),
            ("strategy_seconds", "strategies alone"),
            ("page_seconds", "page"),
        ):
            ratios = sorted(run.ratio(field) for run in runs)
            print(f"  {label:<17} {ratios[0]:.2f} / {statistics.median(ratios):.2f} / {ratios[-1]:.2f}")
    return 0
