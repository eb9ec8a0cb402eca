"""``bench overhead`` and ``bench panes``: the engine's own time per turn and a broadcast to many panes.

Benchmarks print figures, never timed assertions.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from memory_demos.cli_table import strategy_column_width
from memory_demos.providers.chat_models import ProviderConfig
from memory_demos.strategies.base import InputError, StrategyContext
from memory_demos.strategies.registry import build_strategy, parse_selection

FILLER = (
    "Tell me something about the history of bicycles.",
    "What makes a good cup of tea?",
    "Any ideas for a rainy Sunday afternoon?",
    "How long does it take to learn a new language?",
)
WINDOW = 5
# Strategies that send the whole history, so their cost grows with it (``context_editing`` only shortens
# old tool results; ``agent`` trims nothing); every other prompt is bounded (a window, a token budget, a
# summary, retrieved lines) and should cost the same at turn 200 as at turn 10.
GROWING_PROMPT = frozenset({"buffer", "history", "langgraph", "agent", "context_editing"})
BOUNDED_RATIO_GOAL = 1.5


def _turn_costs(strategy: Any, text: str) -> tuple[float, float]:
    """One ``send``: (wall time minus the time inside model calls, CPU time of the whole process).

    The first is the engine overhead as before; it is wall time, so other work on the machine shows
    in it. The second counts only this process's CPU (model calls included, ns resolution), which
    a shared machine disturbs far less: the bounded-cost check uses it.
    """
    started, cpu_started = time.perf_counter(), time.process_time()
    turn = strategy.send(text)
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    if turn.error:
        raise RuntimeError(f"{strategy.info.id}: {turn.error}")
    model_seconds = sum(
        call.seconds for call in [turn.reply_call, *turn.memory_calls, *turn.tool_round_calls] if call
    )
    return max(wall - model_seconds, 0.0), cpu


def overhead(turns: int | None = None, strategy_ids: str = "all") -> int:
    """Engine time and CPU time per turn at turn 10 and at the last turn, per strategy, offline model."""
    turns = turns or 200
    if turns < 20:
        raise InputError("bench overhead needs --turns of at least 20")
    ids = parse_selection(strategy_ids)
    print(
        f"Per turn, {turns} turns: engine = wall time minus model calls (capture, token counting, state "
        "snapshot); CPU = the process's CPU time for the whole turn, model included"
    )
    last = f"turn {turns}"
    width = strategy_column_width(ids)
    print(
        f"{'strategy':<{width}} {'prompt':<8} {'engine 10 (ms)':>15} {f'engine {last}':>14} "
        f"{'CPU 10 (ms)':>12} {f'CPU {last}':>13} {'CPU ratio':>10}"
    )
    for strategy_id in ids:
        strategy = build_strategy(strategy_id, StrategyContext(provider=ProviderConfig()))
        engine: list[float] = []
        cpu: list[float] = []
        try:
            strategy.send("Hi, my name is Mara and I live in Lisbon.")
            for index in range(1, turns):
                engine_seconds, cpu_seconds = _turn_costs(strategy, FILLER[index % len(FILLER)])
                engine.append(engine_seconds)
                cpu.append(cpu_seconds)
        finally:
            strategy.close()

        def early(values: list[float]) -> float:
            return statistics.median(values[10 - WINDOW // 2 - 1 : 10 + WINDOW // 2])

        def late(values: list[float]) -> float:
            return statistics.median(values[-WINDOW:])

        ratio = late(cpu) / early(cpu) if early(cpu) > 0 else float("inf")
        bounded = strategy_id not in GROWING_PROMPT
        flag = "  over the goal" if bounded and ratio > BOUNDED_RATIO_GOAL else ""
        print(
            f"{strategy_id:<{width}} {'bounded' if bounded else 'grows':<8} {early(engine) * 1000:>15.2f} "
            f"{late(engine) * 1000:>14.2f} {early(cpu) * 1000:>12.2f} {late(cpu) * 1000:>13.2f} "
            f"{ratio:>10.2f}{flag}"
        )
    print(
        f"prompt: the CPU per turn of a 'bounded' strategy should stay within {BOUNDED_RATIO_GOAL}x of "
        "turn 10; 'grows' ones send the whole history, so their cost rises with it."
    )
    return 0


def panes(panes: int = 6, latency_ms: int = 300, turns: int | None = None) -> int:
    """Wall time of one broadcast to ``panes`` panes against one pane, the model slowed to ``latency_ms``."""
    from memory_demos.runner import MAX_PANES, broadcast

    turns = turns or 5
    if not 1 <= panes <= MAX_PANES:
        raise InputError(f"--panes must be between 1 and {MAX_PANES}")
    provider = ProviderConfig(latency_ms=latency_ms)
    ids = ["buffer", "window", "token_buffer", "trim", "history", "turn_trim", "buffer", "window"][:panes]

    def run(strategy_ids: list[str]) -> list[float]:
        strategies = [build_strategy(i, StrategyContext(provider=provider)) for i in strategy_ids]
        times = []
        try:
            for index in range(turns):
                started = time.perf_counter()
                results = broadcast(strategies, FILLER[index % len(FILLER)])
                times.append(time.perf_counter() - started)
                errors = [t.error for t in results if t.error]
                if errors:
                    raise RuntimeError(errors[0])
        finally:
            for strategy in strategies:
                strategy.close()
        return times

    single = statistics.mean(run(ids[:1]))
    many = statistics.mean(run(ids))
    print(f"Broadcast to {panes} panes, model latency {latency_ms} ms, {turns} turns")
    print(f"single pane per message:   {single * 1000:8.1f} ms")
    print(f"{panes} panes per broadcast:    {many * 1000:8.1f} ms")
    print(f"ratio:                     {many / single:8.2f}  (sequential would be about {panes}.00)")
    return 0
