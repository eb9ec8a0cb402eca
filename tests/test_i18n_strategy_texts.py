"""What strategies, tools, providers and the catalogue put on screen in a Chinese session is Chinese:
parameter tooltips, memory-state labels, the simulated tools' results, the context window's source and one
word for token (issue 12, QA review B-10)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from memory_demos import prompt_markers
from memory_demos.i18n import CATALOGUE, language_scope, purpose_label, translate
from memory_demos.strategies.info import ParamSpec
from memory_demos.strategies.registry import all_infos, available_ids, build_strategy
from memory_demos.tools import get_order_status, get_weather

CJK = re.compile(r"[\u4e00-\u9fff]")
ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")
ZH = CATALOGUE["zh"]
# Strategies whose model has the simulated tools bound by default.
TOOL_STRATEGIES = {"trim", "turn_trim", "agent", "agent_trim", "context_editing"}


def test_every_parameter_has_a_chinese_tooltip() -> None:
    missing = [
        f"{info.id}.{spec.name}"
        for info in all_infos()
        for spec in info.params
        if not CJK.search(spec.help_zh)
    ]
    assert not missing, f"parameters with no help_zh: {missing}"


def test_a_tooltip_falls_back_to_english_where_chinese_is_missing() -> None:
    spec = ParamSpec("k", 3, "Exchanges sent.", help_zh="发送的轮数。")
    assert (spec.help_in("zh"), spec.help_in("en")) == ("发送的轮数。", "Exchanges sent.")
    assert ParamSpec("k", 3, "Exchanges sent.").help_in("zh") == "Exchanges sent."


def test_every_model_call_purpose_has_a_chinese_name() -> None:
    markers = prompt_markers
    purposes = [
        markers.REPLY,
        markers.SUMMARIZE,
        markers.EXTRACT_ENTITIES,
        markers.SUMMARIZE_ENTITY,
        markers.EXTRACT_FACTS,
    ]
    assert [purpose_label(purpose, "en") for purpose in purposes] == purposes
    chinese = [purpose_label(purpose, "zh") for purpose in purposes]
    assert all(CJK.search(label) and not ENGLISH_WORD.search(label) for label in chinese), chinese
    assert purpose_label("tool round", "zh") == "tool round"  # one the catalogue lacks shows as is


def test_the_simulated_tools_answer_in_the_session_language() -> None:
    english = get_weather.invoke({"city": "上海"})
    with language_scope("zh"):
        chinese = get_weather.invoke({"city": "上海"})
        order = get_order_status.invoke({"order_id": "A123"})
    assert english.endswith("(simulated data)"), english
    # The same simulated weather, told in Chinese: the temperature is the same number.
    assert re.findall(r"-?\d+°C", english) == re.findall(r"-?\d+°C", chinese)
    for text in (chinese, order):
        assert "模拟数据" in text and not ENGLISH_WORD.search(text), text


def _state_keys(state: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """("key", k) for each top-level key, ("column", f) for each field of a record the state lists."""
    for key, value in state.items():
        yield "key", key
        groups = value.values() if isinstance(value, Mapping) else [value]
        for group in groups:
            rows = group if isinstance(group, list) else [group]
            for row in rows:
                if isinstance(row, Mapping) and isinstance(group, list):
                    yield from (("column", str(field)) for field in row)


@pytest.mark.parametrize("strategy_id", available_ids())
def test_a_chinese_turn_has_chinese_state_labels_and_reply(strategy_id: str) -> None:
    with language_scope("zh"):
        strategy = build_strategy(strategy_id)
        try:
            turns = [strategy.send(text) for text in ("你好，我叫小明，住在上海。", "上海今天天气怎么样？")]
        finally:
            strategy.close()
    for turn in turns:
        assert turn.error is None, turn.error
        unlabelled = sorted({f"state.{kind}.{name}" for kind, name in _state_keys(turn.state)} - set(ZH))
        # An error key is shown by its own message; "error" has no row of its own.
        assert not [key for key in unlabelled if key != "state.key.error"], unlabelled
    weather = turns[-1]
    # The simulated tools' results (memory_blocks' own edit tools answer in the prompt's English).
    simulated = {
        c.get("id")
        for call in weather.calls
        for m in call.messages
        for c in m.tool_calls
        if c.get("name") in {"get_weather", "get_order_status"}
    }
    tool_results = [
        m for call in weather.calls for m in call.messages if m.role == "tool" and m.tool_call_id in simulated
    ]
    assert bool(tool_results) == (strategy_id in TOOL_STRATEGIES), "the weather question calls the tool"
    for message in tool_results:  # what the model read is what the reply repeats
        assert not ENGLISH_WORD.search(message.content), message.content
        assert message.content.rstrip("。") in weather.reply


def test_where_the_context_window_came_from_is_said_in_the_session_language() -> None:
    from memory_demos.providers.chat_models import OFFLINE_CONTEXT_WINDOW
    from memory_demos.providers.context_window import assumed_context_window, describe_source

    windows = (OFFLINE_CONTEXT_WINDOW, assumed_context_window("llama3"))
    assert [describe_source(window) for window in windows] == [window.source for window in windows]
    with language_scope("zh"):
        chinese = [translate(describe_source(window)) for window in windows]  # as a view shows it
    assert chinese[0].startswith("假定值") and not ENGLISH_WORD.search(chinese[0]), chinese
    assert chinese[1] == "假定值：'llama3' 不在表中，服务器也没有告知；可在设置中填写", chinese
    from memory_demos.providers.context_window import known_context_window

    table = known_context_window("gpt-4o-mini")
    assert table is not None and str(describe_source(table)) == table.source  # English: the row's own words
    with language_scope("zh"):
        from_table = translate(describe_source(table))
    assert from_table == "模型表：gpt-4o，出自 platform.openai.com/docs/models（2026 年 11 月核对）", (
        from_table
    )


def test_chinese_texts_call_a_token_by_one_name() -> None:
    """词元, as most texts did; "token" stays only inside names (tiktoken, token_counter, {tokens})."""
    english_word = re.compile(r"(?<![A-Za-z_{])[Tt]okens?(?![A-Za-z_}])")
    assert english_word.search("累计总 token") and not english_word.search("tiktoken 的 token_counter")
    mixed = [key for key, text in ZH.items() if english_word.search(text)]
    assert not mixed, f"Chinese texts saying 'token' instead of 词元: {mixed}"
