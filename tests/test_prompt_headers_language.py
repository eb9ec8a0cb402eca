"""The headers Memory Lab writes into a prompt are in the session's language: a Chinese page's model reads
Chinese headers, and the prompt view shows exactly those (never an English header translated afterwards)."""

from __future__ import annotations

import pytest

from memory_demos.prompt_sections import classify_text
from memory_demos.prompts import HEADERS_ZH, LONG_TERM_FACTS_HEADER, RETRIEVED_HEADER, SUMMARY_HEADER, header
from memory_demos.strategies.background_memory import memories_block
from memory_demos.strategies.base import StrategyContext
from memory_demos.strategies.registry import build_strategy
from memory_demos.strategies.summary import system_with_summary
from memory_demos.strategies.vector import system_with_retrieved


def test_each_header_has_its_chinese_form_and_english_stays_english() -> None:
    assert set(HEADERS_ZH) >= {LONG_TERM_FACTS_HEADER, SUMMARY_HEADER, RETRIEVED_HEADER}
    for english, chinese in HEADERS_ZH.items():
        assert header(english, "en") == english and header(english, "zh") == chinese != english
        assert chinese.endswith("：")  # a reader (the offline model too) takes it for a header


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_system_texts_carry_the_header_of_their_language(language: str) -> None:
    assert header(SUMMARY_HEADER, language) in system_with_summary("S", "Ada.", language)
    assert header(RETRIEVED_HEADER, language) in system_with_retrieved("S", "Lisbon", language)
    block = memories_block("S", ["Ada lives in Lisbon."], language)
    assert block.split("\n")[2] == header(next(h for h in HEADERS_ZH if h.startswith("Memories")), language)


def test_chinese_headers_are_classified_as_their_sections() -> None:
    assert classify_text(f"{HEADERS_ZH[SUMMARY_HEADER]}\n小明住在上海。") == "summary"
    assert classify_text(f"{HEADERS_ZH[RETRIEVED_HEADER]}\n我住在上海。") == "retrieved"
    assert classify_text(f"{HEADERS_ZH[LONG_TERM_FACTS_HEADER]}\n- 名字: 小明") == "entities"


def test_a_chinese_long_term_pane_sends_the_chinese_header() -> None:
    strategy = build_strategy("long_term", StrategyContext(language="zh", system_prompt="你是助手。"))
    try:
        strategy.send("你好，我叫小明，住在上海。")
        asked = strategy.send("我叫什么名字？")
    finally:
        strategy.close()
    system = next(m.content for m in asked.injected_prompt if m.role == "system")
    assert HEADERS_ZH[LONG_TERM_FACTS_HEADER] in system and LONG_TERM_FACTS_HEADER not in system
