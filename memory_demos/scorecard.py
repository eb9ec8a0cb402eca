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
from memory_demos.providers.prompt_cache import broken_cache_turns, cache_break_note
from memory_demos.replay import ReplayCancelled, ReplayResult, StrategyRun, replay
from memory_demos.scenarios import Scenario

# Catalogue keys: the page shows them in the session's language, the Markdown export in English.
PRICES_LABEL_KEY = "scorecard.prices_label"
ESTIMATE_NOTE_KEY = "scorecard.estimate_note"
TOKENS_PER_MILLION = 1_000_000
MAX_PRICE_PER_MILLION = 10_000.0


@dataclass(frozen=True)
class Price:
    """A model's price per million input, output and cached input tokens, in USD.

    ``cached_input_per_million`` is what a prompt token served from the provider's prompt cache costs;
    None: no discount (cached tokens cost the input price).
    """

    model: str
    input_per_million: float
    output_per_million: float
    cached_input_per_million: float | None = None

    def cost(self, input_tokens: int, output_tokens: int, cached_input_tokens: int = 0) -> float:
        """Estimated USD cost; ``cached_input_tokens`` of the input are billed at the cached rate."""
        cached = min(max(cached_input_tokens, 0), input_tokens)
        cached_rate = (
            self.input_per_million if self.cached_input_per_million is None else self.cached_input_per_million
        )
        return (
            (input_tokens - cached) * self.input_per_million
            + cached * cached_rate
            + output_tokens * self.output_per_million
        ) / TOKENS_PER_MILLION


# Where the default prices come from and when they were read: shown with the table, in the exports and docs.
PRICE_SOURCE = "openai.com/api/pricing, standard tier"
PRICE_DATE = "2026-06"  # as listed then (gpt-4o-mini's cached rate cross-checked on ai.cloudprice.net)
# OpenAI list prices (standard tier, USD per 1M tokens: input, output, cached input). Editable on the page.
DEFAULT_PRICES: tuple[Price, ...] = (
    Price("gpt-4o", 2.50, 10.00, 1.25),
    Price("gpt-4o-mini", 0.15, 0.60, 0.075),
    Price("gpt-4.1", 2.00, 8.00, 0.50),
    Price("gpt-4.1-mini", 0.40, 1.60, 0.10),
    Price("gpt-5", 1.25, 10.00, 0.125),
    Price("gpt-5-mini", 0.25, 2.00, 0.025),
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
    # Prompt caching: input tokens a cache serves (the provider's figure where it reported one, else the
    # estimate from the captured prompts), the cost with them at the cached rate, and the reply turns whose
    # prompt no longer started with the previous one's (the strategy broke the cache there).
    cached_input_tokens: int = 0
    cost_with_cache_usd: float = 0.0
    cache_broken_turns: tuple[int, ...] = ()
    cache_note_key: str = ""
    cache_note_args: tuple[tuple[str, Any], ...] = ()
    cached_reported: bool = False  # some of cached_input_tokens came from the provider itself

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


def cached_input_tokens(run: StrategyRun) -> tuple[int, bool]:
    """The run's input tokens a prompt cache serves, over every call, and whether the provider reported
    any of them (its figure wins over the estimate, call by call)."""
    calls = [call for turn in run.turns for call in turn.calls]
    return sum(call.cached_input_tokens for call in calls), any(
        call.cached_tokens is not None for call in calls
    )


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
    cached, reported = cached_input_tokens(run)
    note_key, note_args = cache_break_note(run.turns)
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
        cached_input_tokens=cached,
        cost_with_cache_usd=price.cost(input_tokens, output_tokens, cached),
        cache_broken_turns=tuple(broken_cache_turns(run.turns)),
        cache_note_key=note_key,
        cache_note_args=tuple(note_args.items()),
        cached_reported=reported,
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


def cost_with_cache_by_model(result: ReplayResult, prices: Sequence[Price]) -> list[dict[str, Any]]:
    """Each strategy's estimated cost under every price in the table, cached input at its cached rate."""
    rows = []
    for run in result.runs:
        input_tokens, output_tokens = token_split(run)
        cached, _reported = cached_input_tokens(run)
        row: dict[str, Any] = {"strategy": run.strategy_id}
        for price in prices:
            row[price.model] = price.cost(input_tokens, output_tokens, cached)
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


def session_recall(result: ReplayResult) -> list[dict[str, Any]]:
    """Per strategy, recall in each of the scenario's conversations (``StrategyRun.recall_by_session``):
    what each session break did to what the strategy remembers."""
    return [
        {"strategy": run.strategy_id, "sessions": run.recall_by_session()} for run in result.runs if run.turns
    ]


def kind_recall(result: ReplayResult) -> list[dict[str, Any]]:
    """Per strategy, recall per probe kind (same conversation, across conversations, after a change,
    after time, should refuse): ``StrategyRun.recall_by_kind``."""
    return [{"strategy": run.strategy_id, "kinds": run.recall_by_kind()} for run in result.runs if run.turns]


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value)) or str(value).strip() == ""


PRICE_FIELDS = ("input_per_million", "output_per_million", "cached_input_per_million")


def _price_value(record: Mapping[str, Any], field_name: str, number: int, model: str) -> float:
    """One price of a row, checked: a number from 0 to ``MAX_PRICE_PER_MILLION`` (ValueError otherwise)."""
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
    return value


def prices_from_records(records: Iterable[Mapping[str, Any]]) -> list[Price]:
    """Validate an edited price table (``model``, ``input_per_million``, ``output_per_million`` and an
    optional ``cached_input_per_million`` per row: blank means no discount).

    Rows left entirely blank are skipped. Raises ``ValueError`` naming the first bad row (in the session's
    language): an empty or repeated name, or a price that is missing, negative, not a number or absurdly
    large.
    """
    prices: list[Price] = []
    seen: set[str] = set()
    for number, record in enumerate(records, start=1):
        if all(_blank(record.get(name)) for name in ("model", *PRICE_FIELDS)):
            continue  # a row just added in the editor and not filled in yet
        model = str(record.get("model") or "").strip()
        if not model:
            raise ValueError(Message("price.no_model", number=number))
        if model in seen:
            raise ValueError(Message("price.twice", number=number, model=repr(model)))
        seen.add(model)
        input_price, output_price = (_price_value(record, name, number, model) for name in PRICE_FIELDS[:2])
        cached = None
        if not _blank(record.get(PRICE_FIELDS[2])):
            cached = _price_value(record, PRICE_FIELDS[2], number, model)
        prices.append(Price(model, input_price, output_price, cached))
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
