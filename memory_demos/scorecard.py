"""The scenario scorecard: what each strategy remembered, what it cost in tokens, and an estimated price.

Everything here is computed from a ``ReplayResult`` (the same object the CLI's ``replay --json``
prints), so the page, the exports and the CLI agree on every number. Prices are list prices,
editable, and every money figure is an estimate.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from memory_demos.i18n import Message
from memory_demos.jobs import BackgroundJob
from memory_demos.providers.chat_models import ProviderConfig
from memory_demos.replay import ReplayCancelled, ReplayResult, StrategyRun, replay
from memory_demos.scenarios import Scenario

# Catalogue keys: the page shows them in the session's language, the Markdown export in English.
PRICES_LABEL_KEY = "scorecard.prices_label"
ESTIMATE_NOTE_KEY = "scorecard.estimate_note"
TOKENS_PER_MILLION = 1_000_000
MAX_PRICE_PER_MILLION = 10_000.0


@dataclass(frozen=True)
class Price:
    """A model's price per million input and output tokens, in USD."""

    model: str
    input_per_million: float
    output_per_million: float

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        """Estimated USD cost of the given token counts."""
        return (
            input_tokens * self.input_per_million + output_tokens * self.output_per_million
        ) / TOKENS_PER_MILLION


# OpenAI list prices as of 2025 (standard tier, USD per 1M tokens). Editable on the page; estimates only.
DEFAULT_PRICES: tuple[Price, ...] = (
    Price("gpt-4o", 2.50, 10.00),
    Price("gpt-4o-mini", 0.15, 0.60),
    Price("gpt-4.1", 2.00, 8.00),
    Price("gpt-4.1-mini", 0.40, 1.60),
    Price("gpt-5", 1.25, 10.00),
    Price("gpt-5-mini", 0.25, 2.00),
)
DEFAULT_PRICE_MODEL = "gpt-4o-mini"


@dataclass(frozen=True)
class ScorecardRow:
    """One strategy's line of the scorecard."""

    strategy: str
    recall_passed: int
    recall_asked: int
    prompt_tokens: int
    completion_tokens: int
    memory_tokens: int
    total_tokens: int
    input_tokens: int
    output_tokens: int
    model_calls: int
    errors: int
    empty_replies: int
    estimated_cost_usd: float
    price_model: str
    mean_latency_seconds: float
    recall_failed: int = 0  # probes whose call failed: neither recalled nor missed
    turns_played: int = 0

    @property
    def recall(self) -> str:
        """``passed/asked``, and the probes whose call failed (``2/2 +1 failed``)."""
        base = f"{self.recall_passed}/{self.recall_asked}"
        return f"{base} +{self.recall_failed} failed" if self.recall_failed else base

    @property
    def all_failed(self) -> bool:
        """Every turn failed: the run measured nothing (its zeros are no cost, just no answer)."""
        return self.turns_played > 0 and self.errors == self.turns_played

    def to_dict(self) -> dict[str, Any]:
        return {
            "strategy": self.strategy,
            "recall": self.recall,
            **{k: v for k, v in asdict(self).items() if k != "strategy"},
        }


def token_split(run: StrategyRun) -> tuple[int, int]:
    """All input and all output tokens of a run: reply calls, memory calls and agent tool rounds."""
    input_tokens = output_tokens = 0
    for turn in run.turns:
        calls = [*turn.memory_calls, *turn.tool_round_calls]
        if turn.reply_call is not None:
            calls.append(turn.reply_call)
        input_tokens += sum(call.prompt_tokens for call in calls)
        output_tokens += sum(call.completion_tokens for call in calls)
    return input_tokens, output_tokens


def find_price(prices: Iterable[Price], model: str) -> Price:
    """The price of ``model`` in ``prices`` (KeyError naming the known models otherwise)."""
    prices = list(prices)
    for price in prices:
        if price.model == model:
            return price
    raise KeyError(f"No price for {model!r}; the table has {', '.join(p.model for p in prices) or 'nothing'}")


def scorecard_row(run: StrategyRun, price: Price) -> ScorecardRow:
    """One strategy's scorecard line, its cost estimated with ``price``."""
    totals = run.totals()
    input_tokens, output_tokens = token_split(run)
    return ScorecardRow(
        strategy=run.strategy_id,
        recall_passed=run.recall_passed,
        recall_asked=run.recall_asked,
        prompt_tokens=totals["prompt_tokens"],
        completion_tokens=totals["completion_tokens"],
        memory_tokens=totals["memory_tokens"],
        total_tokens=run.total_tokens,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        model_calls=totals["model_calls"],
        errors=sum(1 for turn in run.turns if turn.error),
        empty_replies=sum(1 for turn in run.turns if turn.empty_reply),
        estimated_cost_usd=price.cost(input_tokens, output_tokens),
        price_model=price.model,
        mean_latency_seconds=run.mean_seconds,
        recall_failed=run.failed_probes,
        turns_played=len(run.turns),
    )


def scorecard_rows(result: ReplayResult, price: Price | None = None) -> list[ScorecardRow]:
    """The scorecard: one row per strategy, in replay order."""
    price = price or find_price(DEFAULT_PRICES, DEFAULT_PRICE_MODEL)
    return [scorecard_row(run, price) for run in result.runs]


def cost_by_model(result: ReplayResult, prices: Sequence[Price]) -> list[dict[str, Any]]:
    """Each strategy's estimated cost under every price in the table (USD; estimates)."""
    rows = []
    for run in result.runs:
        input_tokens, output_tokens = token_split(run)
        row: dict[str, Any] = {"strategy": run.strategy_id}
        for price in prices:
            row[price.model] = price.cost(input_tokens, output_tokens)
        rows.append(row)
    return rows


def token_series(result: ReplayResult) -> list[dict[str, Any]]:
    """Per strategy and answered turn: the reply prompt's tokens, the turn's total and the running total.

    A failed turn is left out (it has no prompt the model read, and no cost): a chart shows the gap, the
    recall timeline and the table name the failure.
    """
    series = []
    for run in result.runs:
        cumulative = 0
        for index, turn in enumerate(run.turns, start=1):
            if not turn.ok:
                continue
            cumulative += turn.total_tokens
            series.append(
                {
                    "strategy": run.strategy_id,
                    "turn": index,
                    "prompt_tokens": turn.prompt_tokens,
                    "memory_tokens": turn.memory_tokens,
                    "turn_total_tokens": turn.total_tokens,
                    "cumulative_total_tokens": cumulative,
                }
            )
    return series


PASSED, MISSED, FAILED = "passed", "missed", "failed"  # a probe's outcome; failed: its call failed


def recall_timeline(result: ReplayResult, scenario: Scenario) -> list[dict[str, Any]]:
    """At every probe turn, which expected (and rejected) strings each strategy's reply stated.

    ``outcome`` is ``passed``, ``missed`` or ``failed`` (the call failed: the model was never asked).
    """
    timeline = []
    for run in result.runs:
        for index, (scripted, turn) in enumerate(zip(scenario.turns, run.turns, strict=False), start=1):
            if not scripted.is_probe:
                continue
            passed = turn.ok and scripted.passed(turn.reply)
            timeline.append(
                {
                    "strategy": run.strategy_id,
                    "turn": index,
                    "question": scripted.user,
                    "expected": list(scripted.expect),
                    "rejects": list(scripted.reject),
                    "recalled": scripted.recalled(turn.reply),
                    "rejected": scripted.rejected(turn.reply),
                    "passed": passed,
                    "empty_reply": turn.empty_reply,
                    "outcome": FAILED if not turn.ok else PASSED if passed else MISSED,
                    "error": turn.error,
                    "error_kind": turn.error_kind,
                }
            )
    return timeline


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value)) or str(value).strip() == ""


def prices_from_records(records: Iterable[Mapping[str, Any]]) -> list[Price]:
    """Validate an edited price table (``model``, ``input_per_million``, ``output_per_million`` per row).

    Rows left entirely blank are skipped. Raises ``ValueError`` naming the first bad row (in the session's
    language): an empty or repeated name, or a price that is missing, negative, not a number or absurdly
    large.
    """
    prices: list[Price] = []
    seen: set[str] = set()
    for number, record in enumerate(records, start=1):
        if all(_blank(record.get(name)) for name in ("model", "input_per_million", "output_per_million")):
            continue  # a row just added in the editor and not filled in yet
        model = str(record.get("model") or "").strip()
        if not model:
            raise ValueError(Message("price.no_model", number=number))
        if model in seen:
            raise ValueError(Message("price.twice", number=number, model=repr(model)))
        seen.add(model)
        values = []
        for field_name in ("input_per_million", "output_per_million"):
            raw = record.get(field_name)
            try:
                value = float(raw)  # type: ignore[arg-type]
            except (TypeError, ValueError):
                raise ValueError(
                    Message("price.not_number", number=number, model=model, field=field_name, value=repr(raw))
                ) from None
            if math.isnan(value) or value < 0 or value > MAX_PRICE_PER_MILLION:
                limit = f"{MAX_PRICE_PER_MILLION:g}"
                raise ValueError(
                    Message("price.out_of_range", number=number, model=model, field=field_name, limit=limit)
                )
            values.append(value)
        prices.append(Price(model, values[0], values[1]))
    if not prices:
        raise ValueError(Message("price.empty"))
    return prices


def price_records(prices: Iterable[Price]) -> list[dict[str, Any]]:
    """The price table as plain rows (for ``st.data_editor`` and the exports)."""
    return [asdict(price) for price in prices]


class ReplayJob(BackgroundJob[ReplayResult]):
    """A replay running in the background, so a page can show progress and offer a Cancel button.

    ``progress()`` gives "turn k of n" per strategy; ``cancel()`` sets the flag that the replay's
    ``should_cancel`` checks before every turn. Lives in one user's session state, never shared.
    """

    def __init__(
        self,
        scenario: Scenario,
        strategy_ids: Sequence[str],
        provider: ProviderConfig,
        params: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> None:
        super().__init__(ReplayJob._replay, name="scorecard-replay")
        self.scenario = scenario
        self.strategy_ids = list(strategy_ids)
        self.provider = provider
        self.params = {key: dict(value) for key, value in (params or {}).items()}
        self._lock = threading.Lock()
        self._progress = {strategy_id: 0 for strategy_id in self.strategy_ids}

    def _on_progress(self, strategy_id: str, turn: int, _total: int) -> None:
        with self._lock:
            self._progress[strategy_id] = turn

    def _replay(self) -> ReplayResult:
        return replay(
            self.scenario,
            self.strategy_ids,
            self.provider,
            self.params,
            on_progress=self._on_progress,
            should_cancel=lambda: self.cancel_requested,
            concurrency=self.provider.max_concurrent_panes or 1,
            check_first=True,
        )

    @property
    def result(self) -> ReplayResult | None:
        """The replay, once it finished (None while it runs, and if it was cancelled or failed)."""
        return self.future.result() if self.done and self.future.exception() is None else None

    @property
    def cancelled(self) -> bool:
        return self.done and isinstance(self.future.exception(), ReplayCancelled)

    @property
    def error(self) -> Message | None:
        """Why the replay failed, as data (None while it runs, when it finished, and when cancelled)."""
        failure = self.future.exception() if self.done else None
        if failure is None or isinstance(failure, ReplayCancelled):
            return None
        return self.provider.describe(failure)

    def progress(self) -> dict[str, tuple[int, int]]:
        """Turns played so far per strategy, as ``(k, n)``."""
        total = len(self.scenario.turns)
        with self._lock:
            return {strategy_id: (turn, total) for strategy_id, turn in self._progress.items()}
