"""Play a scripted conversation through strategies and score what each one remembered.

The result has a fixed JSON shape (see ``ReplayResult.to_json``) read by the CLI, the scorecard
page and the exports, so all three report the same numbers for the same scenario and provider.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from memory_demos.config import DEFAULT_SYSTEM_PROMPT
from memory_demos.lab_config import LabConfig, load_lab_config
from memory_demos.providers.chat_models import ProviderConfig
from memory_demos.scenarios import Scenario
from memory_demos.strategies.base import StrategyContext
from memory_demos.strategies.registry import build_strategy, parse_params
from memory_demos.turn import Turn

ProgressCallback = Callable[[str, int, int], None]
CancelCheck = Callable[[], bool]


class ReplayCancelled(RuntimeError):
    """The user stopped a replay; results up to that point are discarded."""


@dataclass
class StrategyRun:
    """One strategy's pass over a scenario."""

    strategy_id: str
    params: dict[str, Any]
    turns: list[Turn]
    passed_flags: list[bool | None]
    fork: dict[str, Any] | None = None

    @property
    def recall_passed(self) -> int:
        return sum(1 for flag in self.passed_flags if flag)

    @property
    def recall_asked(self) -> int:
        return sum(1 for flag in self.passed_flags if flag is not None)

    def totals(self) -> dict[str, int]:
        return {
            "prompt_tokens": sum(t.prompt_tokens for t in self.turns),
            "completion_tokens": sum(t.completion_tokens for t in self.turns),
            "memory_tokens": sum(t.memory_tokens for t in self.turns),
            "model_calls": sum(t.model_calls for t in self.turns),
        }

    @property
    def total_tokens(self) -> int:
        return sum(t.total_tokens for t in self.turns)

    @property
    def mean_seconds(self) -> float:
        return sum(t.seconds for t in self.turns) / len(self.turns) if self.turns else 0.0

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "strategy": self.strategy_id,
            "params": self.params,
            "recall": {"passed": self.recall_passed, "asked": self.recall_asked},
            "totals": self.totals(),
            "turns": [turn.to_json() for turn in self.turns],
        }
        if self.fork is not None:
            data["fork"] = self.fork
        return data


@dataclass
class ReplayResult:
    """One scenario replayed on one provider: a run per strategy, as ``replay --json`` prints it."""

    scenario: str
    provider: str
    runs: list[StrategyRun] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "provider": self.provider,
            "results": [run.to_json() for run in self.runs],
        }


def replay_strategy(
    scenario: Scenario,
    strategy_id: str,
    provider: ProviderConfig,
    params: Mapping[str, Any] | None = None,
    *,
    on_progress: ProgressCallback | None = None,
    should_cancel: CancelCheck | None = None,
    fork_at: int | None = None,
    context: StrategyContext | None = None,
    config: LabConfig | None = None,
) -> StrategyRun:
    """Play every scenario turn through one freshly built strategy (in ``context``, else one built from
    ``config``, else from the process's configuration)."""
    if context is None:
        context = StrategyContext.from_config(config or load_lab_config(), provider=provider)
    if scenario.system:
        context.system_prompt = scenario.system
    strategy = build_strategy(strategy_id, context, params)
    turns: list[Turn] = []
    flags: list[bool | None] = []
    try:
        for index, scripted in enumerate(scenario.turns, start=1):
            if should_cancel is not None and should_cancel():
                raise ReplayCancelled(f"Cancelled at turn {index} of {len(scenario.turns)}")
            turn = strategy.send(scripted.user)
            turns.append(turn)
            flags.append(scripted.passed(turn.reply) if scripted.is_probe else None)
            if on_progress is not None:
                on_progress(strategy_id, index, len(scenario.turns))
        fork = None
        if fork_at is not None:
            fork = _play_fork(strategy, scenario, fork_at)
        return StrategyRun(strategy_id, dict(strategy.params), turns, flags, fork)
    finally:
        strategy.close()


def _play_fork(strategy: Any, scenario: Scenario, fork_at: int) -> dict[str, Any]:
    """Rewind to the state after turn ``fork_at`` and replay the later turns on a new branch."""
    strategy.fork_at(fork_at)
    branch = [strategy.send(scripted.user) for scripted in scenario.turns[fork_at:]]
    return {"at": fork_at, "turns": [turn.to_json() for turn in branch]}


def replay(
    scenario: Scenario,
    strategy_ids: Sequence[str],
    provider: ProviderConfig,
    params: Mapping[str, Mapping[str, Any]] | None = None,
    *,
    on_progress: ProgressCallback | None = None,
    should_cancel: CancelCheck | None = None,
    fork_at: int | None = None,
    concurrency: int = 1,
    config: LabConfig | None = None,
) -> ReplayResult:
    """Replay ``scenario`` through each strategy (each gets a fresh conversation).

    ``concurrency`` strategies run at a time (each makes one model call at a time), so a server that
    serves one request at a time gets 1 and is never asked twice at once; results keep their order.
    Storage, data folder and message limit come from ``config`` (default: the process's configuration).
    """
    params = params or {}
    config = config or load_lab_config()
    checking = StrategyContext.from_config(
        config, provider=provider, system_prompt=scenario.system or DEFAULT_SYSTEM_PROMPT
    )
    for strategy_id in strategy_ids:  # refuse a bad parameter before the first strategy runs
        parse_params(strategy_id, params.get(strategy_id), checking)
    if fork_at is not None and not 0 <= fork_at < len(scenario.turns):
        raise ValueError(f"--fork-at must be between 0 and {len(scenario.turns) - 1}; got {fork_at}")
    result = ReplayResult(scenario=scenario.name, provider=provider.display_name)

    def play(strategy_id: str) -> StrategyRun:
        return replay_strategy(
            scenario,
            strategy_id,
            provider,
            params.get(strategy_id),
            on_progress=on_progress,
            should_cancel=should_cancel,
            fork_at=fork_at,
            config=config,
        )

    workers = min(max(concurrency, 1), len(strategy_ids))
    if workers <= 1:
        result.runs = [play(strategy_id) for strategy_id in strategy_ids]
        return result
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="replay") as pool:
        result.runs = list(pool.map(play, strategy_ids))
    return result
