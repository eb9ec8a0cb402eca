"""Play a scripted conversation through strategies and score what each one remembered.

The result has a fixed JSON shape (see ``ReplayResult.to_json``) read by the CLI, the scorecard
page and the exports, so all three report the same numbers for the same scenario and provider.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

from memory_demos.clock import ScenarioClock
from memory_demos.defaults import DEFAULT_SYSTEM_PROMPT
from memory_demos.lab_config import LabConfig, load_lab_config
from memory_demos.providers.bounds import REPLAY_TEMPERATURE
from memory_demos.providers.chat_models import ProviderConfig
from memory_demos.providers.reachability import check_provider
from memory_demos.scenarios import PROBE_KINDS, Scenario, ScenarioTurn
from memory_demos.strategies.base import Strategy, StrategyContext
from memory_demos.strategies.registry import build_strategy, parse_params
from memory_demos.turn import Turn

ProgressCallback = Callable[[str, int, int], None]
CancelCheck = Callable[[], bool]

# Failure kinds no retry can fix: the server is not there, or it refuses this caller or this model.
HOPELESS_KINDS = frozenset({"connection", "url_refused", "authentication", "permission", "not_found"})
# A replay whose first turns (over all strategies) all failed with a hopeless kind stops after this many.
STOP_AFTER_FAILED_TURNS = 2


class ReplayCancelled(RuntimeError):
    """The user stopped a replay; results up to that point are discarded."""


@dataclass(frozen=True)
class ReplayStop:
    """Why a replay stopped early: its first ``failed_turns`` turns all failed with ``kind`` (0: the check
    before the first turn did).

    ``error`` is the first failure's description (what the strategy put in ``Turn.error``), or the check's
    technical detail.
    """

    kind: str
    failed_turns: int
    error: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "failed_turns": self.failed_turns, "error": self.error}


class FailFast:
    """Watches the first turns of one replay, over every strategy (thread-safe: strategies may run at
    once). When the first ``limit`` turns all failed with a hopeless kind, ``stop`` says why, and every
    strategy ends before its next turn; one turn that worked, or failed another way, settles it."""

    def __init__(self, limit: int = STOP_AFTER_FAILED_TURNS) -> None:
        self.limit = limit
        self.stop: ReplayStop | None = None
        self._failures: list[Turn] = []
        self._settled = False
        self._lock = threading.Lock()

    def observe(self, turn: Turn) -> None:
        """Count ``turn`` if no turn has settled the question yet."""
        with self._lock:
            if self._settled or self.stop is not None:
                return
            if turn.ok or turn.error_kind not in HOPELESS_KINDS:
                self._settled = True
                return
            self._failures.append(turn)
            if len(self._failures) >= self.limit:
                first = self._failures[0]
                self.stop = ReplayStop(first.error_kind or "other", len(self._failures), first.error or "")


@dataclass(frozen=True)
class SessionStart:
    """Where one conversation of a scenario began in a run: its number, its first turn (1-based), the
    simulated time that passed before it (as the scenario wrote it) and its conversation id."""

    session: int
    first_turn: int
    after: str
    conversation_id: str

    def to_json(self) -> dict[str, Any]:
        return {
            "session": self.session,
            "first_turn": self.first_turn,
            "after": self.after or None,
            "conversation_id": self.conversation_id,
        }


@dataclass
class StrategyRun:
    """One strategy's pass over a scenario."""

    strategy_id: str
    params: dict[str, Any]
    turns: list[Turn]
    passed_flags: list[bool | None]  # per turn: None for a turn that is no probe, or whose call failed
    fork: dict[str, Any] | None = None
    failed_probes: int = 0  # probes whose model call failed: neither recalled nor missed
    # The scenario's turns as played (their sessions and probe kinds); empty for a run of no scenario.
    scripted: list[ScenarioTurn] = field(default_factory=list)
    sessions: list[SessionStart] = field(default_factory=list)

    def _tally(self, indexes: Sequence[int]) -> dict[str, int]:
        flags = [self.passed_flags[i] for i in indexes if i < len(self.passed_flags)]
        return {"passed": sum(1 for f in flags if f), "asked": sum(1 for f in flags if f is not None)}

    def recall_by_session(self) -> list[dict[str, Any]]:
        """Recall in each conversation of the scenario, in order: what each session break changed."""
        rows = []
        for start in self.sessions:
            indexes = [i for i, s in enumerate(self.scripted) if s.session == start.session and s.is_probe]
            rows.append({**start.to_json(), **self._tally(indexes)})
        return rows

    def recall_by_kind(self) -> dict[str, dict[str, int]]:
        """Recall per probe kind (``scenarios.PROBE_KINDS``), only the kinds the scenario has."""
        kinds: dict[str, dict[str, int]] = {}
        for kind in PROBE_KINDS:
            indexes = [i for i, s in enumerate(self.scripted) if s.probe_kind == kind]
            if indexes:
                kinds[kind] = self._tally(indexes)
        return kinds

    @property
    def recall_passed(self) -> int:
        return sum(1 for flag in self.passed_flags if flag)

    @property
    def recall_asked(self) -> int:
        """Probes the model answered (a failed call asked nothing)."""
        return sum(1 for flag in self.passed_flags if flag is not None)

    @property
    def failed_turns(self) -> int:
        return sum(1 for turn in self.turns if not turn.ok)

    def totals(self) -> dict[str, int]:
        return {
            "prompt_tokens": sum(t.prompt_tokens for t in self.turns),
            "completion_tokens": sum(t.completion_tokens for t in self.turns),
            "memory_tokens": sum(t.memory_tokens for t in self.turns),
            # An agent's earlier calls of a turn (it asked for a tool, or edited its memory blocks).
            "tool_round_tokens": sum(c.total_tokens for t in self.turns for c in t.tool_round_calls),
            "model_calls": sum(t.model_calls for t in self.turns),
        }

    @property
    def total_tokens(self) -> int:
        return sum(t.total_tokens for t in self.turns)

    @property
    def mean_seconds(self) -> float:
        return sum(t.seconds for t in self.turns) / len(self.turns) if self.turns else 0.0

    def _turn_json(self, index: int, turn: Turn) -> dict[str, Any]:
        data = turn.to_json()
        if index < len(self.scripted):
            scripted = self.scripted[index]
            data["session"] = scripted.session
            data["probe_kind"] = scripted.probe_kind
            if scripted.new_session:  # the break itself: a new conversation of the same user
                data["session_break"] = {"new_conversation": True, "after": scripted.after or None}
        return data

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "strategy": self.strategy_id,
            "params": self.params,
            "recall": {
                "passed": self.recall_passed,
                "asked": self.recall_asked,
                "failed": self.failed_probes,
                "by_kind": self.recall_by_kind(),
            },
            "totals": self.totals(),
            # One entry per conversation: the session breaks, and recall before and after each.
            "sessions": self.recall_by_session(),
            "turns": [self._turn_json(index, turn) for index, turn in enumerate(self.turns)],
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
    temperature: float | None = None  # what the calls were sent (None: the server's default)
    stopped: ReplayStop | None = None  # set when the first turns all failed and the replay gave up

    def failure_counts(self) -> dict[str, int]:
        """Failed turns per failure kind (``timeout``, ``connection``...), most frequent first."""
        counts: dict[str, int] = {}
        for run in self.runs:
            for turn in run.turns:
                if not turn.ok:
                    kind = turn.error_kind or "other"
                    counts[kind] = counts.get(kind, 0) + 1
        return dict(sorted(counts.items(), key=lambda item: -item[1]))

    @property
    def failed_turns(self) -> int:
        return sum(run.failed_turns for run in self.runs)

    @property
    def played_turns(self) -> int:
        return sum(len(run.turns) for run in self.runs)

    def to_json(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "provider": self.provider,
            "temperature": self.temperature,
            "stopped": self.stopped.to_json() if self.stopped is not None else None,
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
    fail_fast: FailFast | None = None,
) -> StrategyRun:
    """Play every scenario turn through one freshly built strategy (in ``context``, else one built from
    ``config``, else from the process's configuration, in the scenario's language).

    With ``fail_fast``, the run ends early (its turns so far kept) once the replay's first turns all
    failed in a way no retry fixes.
    """
    if context is None:
        context = StrategyContext.from_config(
            config or load_lab_config(), provider=provider, language=scenario.language
        )
    # The scenario's own clock: its messages carry simulated times, and ``after:`` moves it on.
    context = replace(context, clock=ScenarioClock())
    if scenario.system:
        context.system_prompt = scenario.system
    strategy = build_strategy(strategy_id, context, params)
    conversations = [strategy]  # one per session; the user's later ones are new_conversation()s
    sessions = [SessionStart(1, 1, "", strategy.conversation_id)]
    turns: list[Turn] = []
    flags: list[bool | None] = []
    failed_probes = 0
    try:
        for index, scripted in enumerate(scenario.turns, start=1):
            _stop_if_cancelled(should_cancel, index, len(scenario.turns))
            if fail_fast is not None and fail_fast.stop is not None:
                break
            if scripted.new_session:
                strategy = _next_conversation(strategy, scripted)
                conversations.append(strategy)
                sessions.append(
                    SessionStart(scripted.session, index, scripted.after, strategy.conversation_id)
                )
            turn = strategy.send(scripted.user)
            turns.append(turn)
            flags.append(scripted.passed(turn.reply) if scripted.is_probe and turn.ok else None)
            failed_probes += int(scripted.is_probe and not turn.ok)
            if fail_fast is not None:
                fail_fast.observe(turn)
            if on_progress is not None:
                on_progress(strategy_id, index, len(scenario.turns))
        fork = None
        if fork_at is not None and len(turns) == len(scenario.turns):
            fork = _play_fork(strategy, scenario, fork_at)
        return StrategyRun(
            strategy_id,
            dict(strategy.params),
            turns,
            flags,
            fork,
            failed_probes,
            scripted=list(scenario.turns[: len(turns)]),
            sessions=sessions,
        )
    finally:
        for conversation in conversations:
            conversation.close()


def _stop_if_cancelled(should_cancel: CancelCheck | None, index: int, total: int) -> None:
    if should_cancel is not None and should_cancel():
        raise ReplayCancelled(f"Cancelled at turn {index} of {total}")


def _next_conversation(strategy: Strategy, scripted: ScenarioTurn) -> Strategy:
    """The same user's next conversation, after the simulated time the session break named."""
    if scripted.gap is not None:
        strategy.context.clock.advance(scripted.gap)
    return strategy.new_conversation()


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
    stop_after_failed_turns: int | None = STOP_AFTER_FAILED_TURNS,
    check_first: bool = False,
) -> ReplayResult:
    """Replay ``scenario`` through each strategy (each gets a fresh conversation).

    ``concurrency`` strategies run at a time (each makes one model call at a time), so a server that
    serves one request at a time gets 1 and is never asked twice at once; results keep their order.
    Storage, data folder and message limit come from ``config`` (default: the process's configuration).
    A provider with no temperature is sent 0 (``REPLAY_TEMPERATURE``), so the same run gives the same JSON.
    When the first ``stop_after_failed_turns`` turns all fail in a way no retry fixes (an unreachable
    server, a refused key), the replay stops there and ``ReplayResult.stopped`` says why (None: never).
    ``check_first`` asks the server for its model list first (one request, no tokens) and plays nothing
    if that already fails that way.
    """
    params = params or {}
    config = config or load_lab_config()
    if provider.temperature is None:  # runs repeat: no server default of 0.8 unless one was asked for
        provider = provider.with_overrides(temperature=REPLAY_TEMPERATURE)
    checking = StrategyContext.from_config(
        config,
        provider=provider,
        system_prompt=scenario.system or DEFAULT_SYSTEM_PROMPT,
        language=scenario.language,
    )
    for strategy_id in strategy_ids:  # refuse a bad parameter before the first strategy runs
        parse_params(strategy_id, params.get(strategy_id), checking)
    if fork_at is not None and not 0 <= fork_at < len(scenario.turns):
        raise ValueError(f"--fork-at must be between 0 and {len(scenario.turns) - 1}; got {fork_at}")
    if fork_at is not None and scenario.sessions > 1:
        raise ValueError("--fork-at rewinds one conversation; this scenario has several (- session: new)")
    result = ReplayResult(
        scenario=scenario.name, provider=provider.display_name, temperature=provider.temperature
    )
    if check_first:
        check = check_provider(provider)
        if check is not None and check.kind in HOPELESS_KINDS:
            result.stopped = ReplayStop(check.kind, 0, check.detail)
            return result
    fail_fast = FailFast(stop_after_failed_turns) if stop_after_failed_turns else None

    def play(strategy_id: str) -> StrategyRun:
        if fail_fast is not None and fail_fast.stop is not None:  # stopped: build nothing more
            return StrategyRun(strategy_id, dict(params.get(strategy_id) or {}), [], [])
        return replay_strategy(
            scenario,
            strategy_id,
            provider,
            params.get(strategy_id),
            on_progress=on_progress,
            should_cancel=should_cancel,
            fork_at=fork_at,
            config=config,
            fail_fast=fail_fast,
        )

    workers = min(max(concurrency, 1), len(strategy_ids))
    if workers <= 1:
        result.runs = [play(strategy_id) for strategy_id in strategy_ids]
    else:
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="replay") as pool:
            result.runs = list(pool.map(play, strategy_ids))
    result.stopped = fail_fast.stop if fail_fast is not None else None
    return result
