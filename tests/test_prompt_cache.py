"""The cacheable prompt prefix (issue 24): computed from the captured prompts, with each provider's rule.

The replay test recomputes every call's shared prefix its own way, from the prompts ``replay --json``
keeps: each prompt serialised into one token sequence (tool definitions first, then each message framed
as the tokenizer counts it), and the longest common prefix with an earlier call of the same tools.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator

import pytest

from memory_demos.export import markdown_report
from memory_demos.failure_lab import get_demo
from memory_demos.failure_lab.cache_prefix import NOTE_FIRST, NOTE_LAST, moving_prefix, play
from memory_demos.i18n import t
from memory_demos.providers.chat_models import ProviderConfig, build_chat_model
from memory_demos.providers.prompt_cache import (
    BREAKS_EVERY_TURN_FROM,
    BREAKS_NONE,
    PROMPT_CACHE_RULES,
    cache_break_note,
    cache_rule,
)
from memory_demos.providers.tokenizer import REPLY_PRIMING_TOKENS, encode
from memory_demos.replay import replay
from memory_demos.scenarios import load_scenario
from memory_demos.scorecard import (
    DEFAULT_PRICES,
    PRICE_DATE,
    PRICE_SOURCE,
    Price,
    find_price,
    prices_from_records,
    scorecard_rows,
)
from memory_demos.strategies.base import Strategy, StrategyContext
from memory_demos.strategies.registry import build_strategy
from memory_demos.turn import ModelCall, PromptMessage, Turn
from tests.fake_openai_server import FakeOpenAIServer

ROLES = {"human": "user", "ai": "assistant", "system": "system", "tool": "tool"}


def test_openai_caches_from_1024_tokens_in_steps_of_128_and_local_servers_any_prefix() -> None:
    openai = cache_rule("openai")
    assert [openai.cacheable(n) for n in (0, 1023, 1024, 1151, 1152, 5000)] == [0, 0, 1024, 1024, 1152, 4992]
    for kind in ("offline", "openai_compatible"):
        assert [cache_rule(kind).cacheable(n) for n in (0, 1, 17, 1151)] == [0, 1, 17, 1151]
    assert all(rule.source for rule in PROMPT_CACHE_RULES)
    assert "prompt-caching" in openai.source and "2026" in openai.source


def sequence(call: ModelCall, encoding: str) -> list[object]:
    """The whole prompt as one token sequence, the order a provider reads it (framing as sentinels)."""
    tokens: list[object] = [("tool", i) for i in range(call.tool_tokens)]
    for message in call.messages:
        text = message.content
        if message.tool_calls:
            rendered = json.dumps(
                [{"name": c["name"], "args": c["args"], "id": c.get("id")} for c in message.tool_calls],
                ensure_ascii=False,
            )
            text = f"{text}{rendered}" if text else rendered
        tokens += ["<start>", *encode(ROLES[message.role], encoding), "<sep>", *encode(text, encoding)]
        tokens += [*encode(message.tool_call_id or "", encoding), "<end>"]
    return tokens + ["<prime>"] * REPLY_PRIMING_TOKENS


def common(a: list[object], b: list[object]) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


@pytest.fixture(scope="module")
def name_recall_runs() -> dict[str, list[list[ModelCall]]]:
    result = replay(
        load_scenario("name_recall"), ["buffer", "window", "summary_buffer", "agent"], ProviderConfig()
    )
    # Every call of every turn in the order they were made, and the JSON the CLI prints.
    data = result.to_json()
    for run in data["results"]:
        for turn in run["turns"]:
            calls = [turn["reply_call"], *turn["memory_calls"], *turn["tool_round_calls"]]
            assert all("cacheable_prompt_tokens" in call for call in calls if call is not None)
    return {run.strategy_id: [turn.calls for turn in run.turns] for run in result.runs}


def test_every_calls_prefix_is_the_longest_it_shares_with_an_earlier_call_of_the_same_tools(
    name_recall_runs: dict[str, list[list[ModelCall]]],
) -> None:
    encoding = ProviderConfig().tokenizer.encoding_name
    for strategy_id, turns in name_recall_runs.items():
        seen: list[tuple[tuple[dict, ...], list[object]]] = []
        for calls in turns:
            # Tool rounds, then the reply, then memory's calls (summaries are made after the reply).
            for call in calls:
                mine = sequence(call, encoding)
                assert len(mine) == call.prompt_tokens, (strategy_id, call.purpose)
                expected = max(
                    (common(mine, other) for tools, other in seen if tools == call.tools), default=0
                )
                assert call.shared_prefix_tokens == expected, (strategy_id, call.purpose)
                assert call.cacheable_prompt_tokens == expected  # the offline model: any prefix
                assert call.cached_tokens is None  # nothing reported: the estimate stands alone
                seen.append((call.tools, mine))


def test_buffer_grows_every_turn_and_window_drops_once_full(
    name_recall_runs: dict[str, list[list[ModelCall]]],
) -> None:
    def reply_prefixes(strategy_id: str) -> list[int]:
        return [
            next(c for c in calls if c.purpose == "reply").cacheable_prompt_tokens
            for calls in name_recall_runs[strategy_id]
        ]

    buffer = reply_prefixes("buffer")
    assert buffer[0] == 0 and all(b > a for a, b in itertools.pairwise(buffer))
    window = reply_prefixes("window")
    assert window[:4] == buffer[:4]  # k=3: three exchanges fit, the prompt only grows
    assert window[4] < window[3] / 3  # turn 5 drops the first exchange: only the system message is shared
    assert max(window[4:]) < window[3]
    agent = reply_prefixes("agent")
    assert all(b > a for a, b in itertools.pairwise(agent))


@pytest.fixture
def strategies() -> Iterator[list[Strategy]]:
    built: list[Strategy] = []
    yield built
    for strategy in built:
        strategy.close()


def test_the_providers_cached_tokens_are_kept_beside_the_estimate(strategies: list[Strategy]) -> None:
    with FakeOpenAIServer(report_cached_tokens=True) as server:
        config = ProviderConfig(
            kind="openai_compatible", model="m", base_url=server.base_url, max_retries=0, timeout_seconds=5
        )
        strategy = build_strategy("buffer", StrategyContext(provider=config))
        strategies.append(strategy)
        turns = [strategy.send(text) for text in ("My name is Ada.", "I live in Paris.", "What is my name?")]
    assert turns[0].cached_tokens == 0
    assert turns[2].cached_tokens > turns[1].cached_tokens > 0  # the server's own (word) count
    assert turns[2].cacheable_prompt_tokens > 0  # the estimate stays, counted with tiktoken
    assert (
        turns[2].reply_call is not None and turns[2].reply_call.cached_input_tokens == turns[2].cached_tokens
    )
    data = turns[2].to_json()
    assert data["cached_tokens"] == turns[2].cached_tokens
    assert data["reply_call"]["cached_tokens"] == turns[2].cached_tokens
    assert data["reply_call"]["cacheable_prompt_tokens"] == turns[2].cacheable_prompt_tokens


def test_a_price_bills_cached_input_at_its_cached_rate_and_the_table_names_its_source() -> None:
    price = Price("m", 2.0, 8.0, 0.5)
    assert price.cost(1_000_000, 0) == 2.0
    assert price.cost(1_000_000, 0, 400_000) == pytest.approx(0.6 * 2.0 + 0.4 * 0.5)
    assert Price("m", 2.0, 8.0).cost(1_000_000, 0, 400_000) == 2.0  # no cached rate: no discount
    assert all(p.cached_input_per_million is not None for p in DEFAULT_PRICES)
    assert all(0 < p.cached_input_per_million < p.input_per_million for p in DEFAULT_PRICES)  # type: ignore[operator]
    assert "openai.com" in PRICE_SOURCE and PRICE_DATE
    edited = prices_from_records(
        [
            {"model": "a", "input_per_million": 1, "output_per_million": 2, "cached_input_per_million": 0.1},
            {"model": "b", "input_per_million": 1, "output_per_million": 2, "cached_input_per_million": None},
        ]
    )
    assert [p.cached_input_per_million for p in edited] == [0.1, None]
    with pytest.raises(ValueError, match="cached_input_per_million"):
        prices_from_records(
            [{"model": "a", "input_per_million": 1, "output_per_million": 2, "cached_input_per_million": -1}]
        )


def test_the_scorecard_prices_both_ways_and_says_where_window_breaks_the_cache() -> None:
    result = replay(load_scenario("name_recall"), ["buffer", "window"], ProviderConfig())
    price = find_price(DEFAULT_PRICES, "gpt-4o-mini")
    buffer, window = scorecard_rows(result, price)
    for row in (buffer, window):
        assert 0 < row.cost_with_cache_usd < row.estimated_cost_usd
        assert row.cached_reported is False
    assert buffer.cache_note_key == BREAKS_NONE and buffer.cache_broken_turns == ()
    assert window.cache_note_key == BREAKS_EVERY_TURN_FROM and dict(window.cache_note_args) == {"turn": 5}
    assert window.cache_broken_turns == tuple(range(5, 17))
    # The buffer keeps its prefix: a larger share of its input is cached than the window's.
    assert buffer.cached_input_tokens / buffer.input_tokens > window.cached_input_tokens / window.input_tokens
    assert (
        t(window.cache_note_key, "en", **dict(window.cache_note_args))
        == "cache broken every turn from turn 5"
    )
    assert "5" in t(window.cache_note_key, "zh", **dict(window.cache_note_args))
    report = markdown_report(result, [buffer, window], prices=DEFAULT_PRICES)
    assert "cached input / 1M" in report and "cache broken every turn from turn 5" in report
    assert PRICE_SOURCE in report


def test_the_lesson_same_answer_a_different_share_of_cache_and_a_different_bill() -> None:
    result = moving_prefix("en")
    naive, fixed = result["naive"], result["fixed"]
    assert result["failed"] and result["fixed_ok"]
    assert naive["answer"] == fixed["answer"] and naive["recalled"] and fixed["recalled"]
    assert naive["cacheable_share"] < 0.15 < 0.5 < fixed["cacheable_share"]
    assert fixed["cost_with_cache_usd"] < naive["cost_with_cache_usd"]
    assert get_demo("moving_prefix").verdict is not None
    labels = {row.label_key for row in get_demo("moving_prefix").verdict(result)}  # type: ignore[misc]
    assert {"failure.verdict.cacheable_share", "failure.verdict.cost_cached"} <= labels


def test_the_lesson_on_a_server_that_reports_cached_tokens() -> None:
    reported = {}
    for placement in (NOTE_FIRST, NOTE_LAST):
        with FakeOpenAIServer(report_cached_tokens=True) as server:
            config = ProviderConfig(
                kind="openai_compatible",
                model="m",
                base_url=server.base_url,
                max_retries=0,
                timeout_seconds=5,
            )
            run = play(
                placement, lambda capture, c=config: build_chat_model(c, callbacks=[capture]), config.kind
            )
        reported[placement] = run["reported_cached_tokens"]
    # The server's own figures (its fake word tokens) tell the same story as the estimate (its replies
    # echo the question, so recall is the offline test's).
    assert reported[NOTE_FIRST] is not None and reported[NOTE_LAST] is not None
    assert reported[NOTE_LAST] > 3 * reported[NOTE_FIRST]


def test_many_breaks_are_counted_from_the_first_and_a_few_are_listed() -> None:
    def turns(kept: list[bool]) -> list[Turn]:
        system = PromptMessage("system", "s", 5)
        made, history = [], [system]
        for number, keep in enumerate(kept, start=1):
            if not keep:
                history = [PromptMessage("system", f"s{number}", 5), *history[1:]]
            prompt = (*history, PromptMessage("human", f"q{number}", 5))
            call = ModelCall("reply", prompt, "a", 10, 1, "counted with tiktoken o200k_base", 0.0)
            made.append(Turn(f"q{number}", "a", 0.0, call))
            history = [*prompt, PromptMessage("ai", "a", 4)]
        return made

    assert cache_break_note(turns([True] * 5)) == (BREAKS_NONE, {"turns": 5})
    assert cache_break_note(turns([True, True, False, True, False])) == (
        "cache.breaks.on_turns",
        {"turns": "3, 5", "n": 2},
    )
    many = [True, False, False, True, False, False, False, True]
    assert cache_break_note(turns(many)) == ("cache.breaks.many", {"n": 5, "turn": 2})
    assert cache_break_note(turns([True, True, False, False])) == (BREAKS_EVERY_TURN_FROM, {"turn": 3})
