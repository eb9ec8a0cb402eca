"""A vector-memory pane keeps LangChain's 'input:'/'output:' lines verbatim (they are what the model read) and
says so, in the session's language, beside them: on a Chinese page they had stood there unexplained."""

from __future__ import annotations

import pytest

from memory_demos.i18n import CATALOGUE, Message, translate_all
from memory_demos.strategies.registry import build_strategy
from memory_demos.ui.state_view import state_label


@pytest.mark.parametrize("strategy_id", ["vector", "semantic_store"])
def test_the_stored_exchange_is_verbatim_and_its_labels_are_explained_in_chinese(strategy_id: str) -> None:
    strategy = build_strategy(strategy_id)
    try:
        strategy.send("我叫李娜，住在成都。")
        turn = strategy.send("我住在哪里？")
    finally:
        strategy.close()
    assert turn.error is None, turn.error
    system = turn.injected_prompt[0].content
    assert "input: 我叫李娜，住在成都。\noutput: " in system  # what the model read, untranslated
    note = turn.state["format_note"]
    assert note == Message("strategy.exchange_format_note")
    shown = translate_all(turn.state, "zh")
    assert shown["format_note"] == CATALOGUE["zh"]["strategy.exchange_format_note"]
    assert "VectorStoreRetrieverMemory" in shown["format_note"] and "不翻译" in shown["format_note"]
    assert state_label("format_note") == CATALOGUE["en"]["state.key.format_note"]  # a row of its own
