"""The audit trail record shared by the self-managed memories: plain rows, checked operations, paging."""

from __future__ import annotations

import dataclasses
import json

import pytest

from memory_demos.strategies.shared.memory_audit import (
    AUDIT_KEY,
    MemoryWrite,
    audit_rows,
    audit_state,
    writes_in_turn,
)
from memory_demos.strategies.shared.paging import STATE_PAGE


def test_a_write_renders_as_plain_json_rows_in_order() -> None:
    writes = [
        MemoryWrite(1, "insert", "memories/local", "k1", "User lives in Lisbon", "tool:manage_memory", 42),
        MemoryWrite(3, "update", "human", "human", "Name: Mara", "tool:memory_replace", None),
        MemoryWrite(3, "delete", "memories/local", "k1", "User lives in Lisbon", "manager"),
    ]
    rows = audit_rows(writes)
    assert rows[0] == {
        "turn": 1,
        "operation": "insert",
        "where": "memories/local",
        "key": "k1",
        "value": "User lives in Lisbon",
        "via": "tool:manage_memory",
        "tokens": 42,
    }
    assert [row["operation"] for row in rows] == ["insert", "update", "delete"]
    assert rows[2]["tokens"] is None
    assert json.loads(json.dumps(audit_state(writes))) == {AUDIT_KEY: rows}
    assert writes_in_turn(writes, 3) == writes[1:]


def test_a_write_is_frozen_and_checks_its_operation_and_turn() -> None:
    write = MemoryWrite(1, "insert", "ns", "k", "v", "manager")
    with pytest.raises(dataclasses.FrozenInstanceError):
        write.turn = 2  # type: ignore[misc]
    with pytest.raises(ValueError, match="operation"):
        MemoryWrite(1, "upsert", "ns", "k", "v", "manager")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="turn"):
        MemoryWrite(0, "insert", "ns", "k", "v", "manager")


def test_a_long_trail_shows_its_newest_page_and_total() -> None:
    writes = [MemoryWrite(n + 1, "insert", "ns", f"k{n}", "v", "manager") for n in range(STATE_PAGE + 2)]
    state = audit_state(writes)
    assert len(state[AUDIT_KEY]) == STATE_PAGE
    assert state[AUDIT_KEY][0]["turn"] == 3
    assert state[f"{AUDIT_KEY}_total"] == STATE_PAGE + 2


def test_the_state_view_shows_whole_token_counts_and_a_dash_where_a_write_has_none() -> None:
    from streamlit.testing.v1 import AppTest

    from memory_demos.ui.state_view import ABSENT, records_frame

    writes = [
        MemoryWrite(1, "insert", "memories/local", "k1", "User lives in Lisbon", "tool:manage_memory", 12),
        MemoryWrite(2, "update", "human", "human", "Name: Mara", "tool:memory_replace", None),
    ]
    frame = records_frame(audit_rows(writes))
    assert list(frame["tokens"]) == ["12", ABSENT]  # not 12.0 and NaN
    assert list(records_frame([{"tokens": 3}, {"tokens": 40}])["tokens"]) == [3, 40]  # no gap: numbers

    def view(state: dict) -> None:
        from memory_demos.ui.state_view import render_state

        render_state(state, static=True)

    at = AppTest.from_function(view, kwargs={"state": audit_state(writes)}).run()
    assert not at.exception
    [table] = at.table
    cells = table.value.to_numpy().ravel().tolist()
    assert "12" in cells and ABSENT in cells and "12.0" not in cells and "nan" not in cells


def test_a_hidden_call_that_answered_with_tool_calls_shows_them_instead_of_an_empty_reply() -> None:
    from streamlit.testing.v1 import AppTest

    from memory_demos.providers.chat_models import ProviderConfig
    from memory_demos.strategies.base import StrategyContext
    from memory_demos.strategies.registry import build_strategy

    strategy = build_strategy("memory_tools", StrategyContext(provider=ProviderConfig()))
    try:
        turn = strategy.send("Hi, I'm Mara and I live in Lisbon.")
    finally:
        strategy.close()
    [saving] = [call for call in turn.tool_round_calls if call.reply_tool_calls]
    assert saving.output == "" and saving.reply_tool_calls[0]["name"] == "manage_memory"
    assert saving.to_json(with_text=True)["tool_calls"][0]["args"]["action"] == "create"

    def view(call: object) -> None:
        from memory_demos.ui.focus_view import _call_block

        _call_block(call)  # type: ignore[arg-type]

    at = AppTest.from_function(view, kwargs={"call": saving}).run()
    assert not at.exception
    codes = [code.value for code in at.code]
    assert any(code.startswith('manage_memory({"content": "I\'m Mara."') for code in codes), codes
    assert " " not in codes  # no blank reply box
    assert any("2 tool calls" in caption.value for caption in at.caption)


def test_an_assistant_message_that_only_called_tools_shows_its_calls_in_the_prompt_view() -> None:
    from streamlit.testing.v1 import AppTest

    from memory_demos.prompt_sections import PromptPart

    parts = [
        PromptPart(0, "system", "system", "You are a helpful assistant.", 7),
        PromptPart(1, "history", "ai", "", 40),
        PromptPart(2, "history", "tool", "created memory 1f6f", 12),
        PromptPart(3, "new_input", "human", "I work as a nurse.", 8),
    ]
    calls = {1: [{"name": "manage_memory", "args": {"content": "I'm Mara.", "action": "create"}, "id": "c1"}]}

    def view(parts: list, calls: dict) -> None:
        from memory_demos.ui.prompt_view import render_prompt

        render_prompt(parts, calls)

    at = AppTest.from_function(view, kwargs={"parts": parts, "calls": calls}).run()
    assert not at.exception
    codes = [code.value for code in at.code]
    assert 'manage_memory({"content": "I\'m Mara.", "action": "create"})' in codes
    assert " " not in codes and not at.json  # no empty box, no collapsed JSON in its place
