"""What the teaching pages keep between script runs, as typed objects the session holds (one per page).

Plain data and small transitions only: the pages draw it, tests drive it without Streamlit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from memory_demos.defaults import DEFAULT_SYSTEM_PROMPT
from memory_demos.deprecations import Deprecation
from memory_demos.i18n import Message
from memory_demos.workshop.budget import LimitHit, SessionBudget, check_scripted_run

if TYPE_CHECKING:
    from memory_demos.failure_lab import DemoResult
    from memory_demos.migration import MigrationRun
    from memory_demos.providers.chat_models import ProviderConfig
    from memory_demos.replay import ReplayResult
    from memory_demos.scenarios import Scenario
    from memory_demos.scorecard import ReplayJob
    from memory_demos.turn import Turn

BuiltDeprecations = tuple[tuple[Deprecation, ...], tuple[Deprecation, ...]]
# Limits a scorecard scenario words in its own terms (its turns, its messages), by kind.
SCRIPTED_REFUSAL_KEYS = {
    "scenario": {
        "run_turns": "workshop.limit.scenario_turns",
        "message_chars": "workshop.limit.scenario_chars",
    },
    "guide": {},  # the run's own wording (workshop.limit.run_turns) fits the guide's lines
}


def scripted_refusal(hit: LimitHit, run: Literal["scenario", "guide"]) -> Message:
    """Why a scorecard scenario or a guide run was refused, with its own numbers (not Compare's wording)."""
    key = SCRIPTED_REFUSAL_KEYS[run].get(hit.kind, f"workshop.limit.{hit.kind}")
    return Message(key, limit=f"{hit.limit:,}", current=f"{hit.current:,}")


@dataclass
class MigrationState:
    """The migration guide: which step is open, each step's last run and the warnings its sides raised."""

    step_count: int
    step_index: int = 0
    runs: dict[str, MigrationRun] = field(default_factory=dict)
    built: dict[str, BuiltDeprecations] = field(default_factory=dict)

    def go(self, delta: int) -> None:
        """Move ``delta`` steps, staying within the guide."""
        self.step_index = min(max(self.step_index + delta, 0), self.step_count - 1)

    def deprecations(self, step_id: str, build: Callable[[], BuiltDeprecations]) -> BuiltDeprecations:
        """Each side's build warnings for ``step_id``, built once per session."""
        if step_id not in self.built:
            self.built[step_id] = build()
        return self.built[step_id]


@dataclass
class FailureLabState:
    """The failure lab: the last result of each demo that was run, by demo id."""

    results: dict[str, DemoResult] = field(default_factory=dict)


@dataclass(frozen=True)
class ScorecardOutcome:
    """A finished replay, with the scenario and model it ran on (what the results and downloads show)."""

    result: ReplayResult
    scenario: Scenario
    provider: ProviderConfig


@dataclass
class ScorecardState:
    """The scorecard: the replay running now, the last outcome, or a notice about why there is none."""

    job: ReplayJob | None = None
    outcome: ScorecardOutcome | None = None
    notice: tuple[str, str, str | None] | None = None

    def start(self, job: ReplayJob) -> None:
        """A new replay replaces the last outcome and notice."""
        self.outcome = None
        self.notice = None
        self.job = job

    @staticmethod
    def run_refusal(
        budget: SessionBudget | None, provider: ProviderConfig, scenario: Scenario, strategy_count: int
    ) -> LimitHit | None:
        """Which workshop limit a replay of ``scenario`` through ``strategy_count`` strategies would pass
        (counted as a refusal for the instructor when there is one: ask only when the run is asked for)."""
        if budget is None:
            return None
        texts = [turn.user for turn in scenario.turns]
        system = scenario.system or DEFAULT_SYSTEM_PROMPT
        return check_scripted_run(budget, texts, system, strategy_count, provider.tokenizer.encoding_name)

    def collect(self, on_turns: Callable[[list[Turn]], Any]) -> None:
        """Move a finished job's outcome in: a result (its turns go to ``on_turns``: usage), or a notice."""
        job, self.job = self.job, None
        if job is None:
            return
        if job.result is not None:
            on_turns([turn for run in job.result.runs for turn in run.turns])
            self.outcome = ScorecardOutcome(job.result, job.scenario, job.provider)
        elif job.cancelled:
            self.notice = ("info", Message("scorecard.cancelled"), None)
        else:
            self.notice = ("error", Message("scorecard.failed"), job.error)
