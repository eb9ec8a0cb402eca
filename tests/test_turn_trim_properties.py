"""Whole-turn trimming: property tests over random tool-calling histories, and the validator's errors."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

from memory_demos.providers.tokenizer import count_messages_tokens
from memory_demos.strategies.turn_trim import (
    ToolHistoryError,
    TurnBudgetError,
    split_turns,
    trim_turns,
    validate_tool_history,
)

PROPERTY_SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
WORDS = (
    "weather",
    "Lisbon",
    "order",
    "A-77",
    "status",
    "sunny",
    "Mara",
    "hello",
    "rain",
    "shipped",
    "the",
    "is",
)
TOOL_NAMES = ("get_weather", "get_order_status")


def count(messages: list[BaseMessage]) -> int:
    return count_messages_tokens(messages, "o200k_base")


@dataclass
class History:
    messages: list[BaseMessage]
    has_system: bool


text = st.lists(st.sampled_from(WORDS), min_size=1, max_size=12).map(" ".join)


@st.composite
def histories(draw: st.DrawFn) -> History:
    """System message (usually), then turns: human, optional tool rounds, final AI (the last may be open)."""
    has_system = draw(st.sampled_from([True, True, True, False]))
    messages: list[BaseMessage] = [SystemMessage(draw(text))] if has_system else []
    next_id = 0
    turn_count = draw(st.integers(min_value=1, max_value=7))
    for turn_index in range(turn_count):
        messages.append(HumanMessage(draw(text)))
        for _ in range(draw(st.integers(min_value=0, max_value=2))):
            calls = []
            for _ in range(draw(st.integers(min_value=1, max_value=3))):
                calls.append(
                    {
                        "name": draw(st.sampled_from(TOOL_NAMES)),
                        "args": {"q": draw(text)},
                        "id": f"call_{next_id}",
                    }
                )
                next_id += 1
            messages.append(AIMessage(draw(st.sampled_from(["", "Let me check."])), tool_calls=calls))
            results = [ToolMessage(draw(text), tool_call_id=c["id"], name=c["name"]) for c in calls]
            messages.extend(draw(st.permutations(results)))
        # The newest turn may still be inside its tool loop (no final answer yet), as mid-agent trims see it.
        is_last = turn_index == turn_count - 1
        if not (is_last and isinstance(messages[-1], ToolMessage) and draw(st.booleans())):
            messages.append(AIMessage(draw(text)))
    return History(messages, has_system)


def tool_pairs_intact(kept: list[BaseMessage]) -> bool:
    try:
        validate_tool_history(kept)
    except ToolHistoryError:
        return False
    return True


@PROPERTY_SETTINGS
@given(history=histories(), max_tokens=st.integers(min_value=1, max_value=500))
def test_trim_turns_fits_the_budget_or_says_the_newest_turn_is_too_large(
    history: History, max_tokens: int
) -> None:
    messages = history.messages
    system = messages[:1] if history.has_system else []
    newest_turn = split_turns(messages[len(system) :])[-1]
    try:
        result = trim_turns(messages, max_tokens, count)
    except TurnBudgetError as exc:
        assert count(system + newest_turn) > max_tokens
        assert str(max_tokens) in str(exc)
        return
    kept, dropped = result.kept, result.dropped
    assert count(kept) <= max_tokens
    if history.has_system:
        assert kept[0] is messages[0]
    after_system = kept[len(system) :]
    assert after_system, "the newest turn is always kept"
    assert isinstance(after_system[0], HumanMessage)
    assert not isinstance(after_system[0], ToolMessage)
    assert tool_pairs_intact(kept)
    # Dropped is a prefix of whole turns; kept is the rest, in order, nothing invented or lost.
    assert dropped + after_system == messages[len(system) :]
    assert not dropped or isinstance(after_system[0], HumanMessage)
    kept_ids = {id(m) for m in kept}
    for message in kept:
        if isinstance(message, ToolMessage):
            callers = [
                m
                for m in kept
                if isinstance(m, AIMessage) and message.tool_call_id in {c["id"] for c in m.tool_calls}
            ]
            assert len(callers) == 1 and id(callers[0]) in kept_ids
    # Minimal trimming: putting back the newest dropped turn would break the budget.
    if dropped:
        last_dropped_turn = split_turns(dropped)[-1]
        assert count(system + last_dropped_turn + after_system) > max_tokens


@PROPERTY_SETTINGS
@given(history=histories())
def test_a_roomy_budget_keeps_everything(history: History) -> None:
    result = trim_turns(history.messages, count(history.messages), count)
    assert result.kept == history.messages
    assert result.dropped == []


@PROPERTY_SETTINGS
@given(history=histories(), data=st.data())
def test_removing_any_tool_message_or_tool_call_is_caught(history: History, data: st.DataObject) -> None:
    messages = history.messages
    tool_indexes = [i for i, m in enumerate(messages) if isinstance(m, ToolMessage)]
    call_indexes = [i for i, m in enumerate(messages) if isinstance(m, AIMessage) and m.tool_calls]
    validate_tool_history(messages)
    if tool_indexes:
        gone = data.draw(st.sampled_from(tool_indexes))
        with pytest.raises(ToolHistoryError, match="Missing tool result"):
            validate_tool_history(messages[:gone] + messages[gone + 1 :])
    if call_indexes:
        gone = data.draw(st.sampled_from(call_indexes))
        with pytest.raises(ToolHistoryError, match="Orphaned tool result"):
            trim_turns(messages[:gone] + messages[gone + 1 :], 10_000, count)


# -- the validator, case by case ----------------------------------------------------------------


def _call(call_id: str, name: str = "get_weather") -> dict[str, object]:
    return {"name": name, "args": {"city": "Lisbon"}, "id": call_id}


def test_validator_accepts_a_paired_history() -> None:
    validate_tool_history(
        [
            SystemMessage("Be brief."),
            HumanMessage("Weather in Lisbon and order A-77?"),
            AIMessage("", tool_calls=[_call("c1"), _call("c2", "get_order_status")]),
            ToolMessage("shipped", tool_call_id="c2"),
            ToolMessage("sunny", tool_call_id="c1"),
            AIMessage("Sunny; shipped."),
        ]
    )


def test_validator_rejects_an_orphaned_tool_result() -> None:
    with pytest.raises(
        ToolHistoryError, match=r"Orphaned tool result: message 1 \(tool\) answers tool call 'c9'"
    ):
        validate_tool_history([HumanMessage("hi"), ToolMessage("sunny", tool_call_id="c9"), AIMessage("ok")])


def test_validator_rejects_a_tool_result_after_the_next_human_message() -> None:
    with pytest.raises(
        ToolHistoryError, match=r"Missing tool result: tool call 'c1' \(get_weather\) in message 1"
    ):
        validate_tool_history(
            [
                HumanMessage("weather?"),
                AIMessage("", tool_calls=[_call("c1")]),
                HumanMessage("hello?"),
                ToolMessage("sunny", tool_call_id="c1"),
            ]
        )


def test_validator_rejects_a_missing_tool_result() -> None:
    with pytest.raises(
        ToolHistoryError, match=r"tool call 'c2' \(get_order_status\) in message 1 is never answered"
    ):
        validate_tool_history(
            [
                HumanMessage("two things"),
                AIMessage("", tool_calls=[_call("c1"), _call("c2", "get_order_status")]),
                ToolMessage("sunny", tool_call_id="c1"),
            ]
        )


def test_validator_rejects_a_duplicate_tool_call_id() -> None:
    with pytest.raises(ToolHistoryError, match=r"Duplicate tool call id 'c1' in message 4"):
        validate_tool_history(
            [
                HumanMessage("weather?"),
                AIMessage("", tool_calls=[_call("c1")]),
                ToolMessage("sunny", tool_call_id="c1"),
                HumanMessage("again?"),
                AIMessage("", tool_calls=[_call("c1")]),
                ToolMessage("rain", tool_call_id="c1"),
            ]
        )


def test_validator_rejects_a_second_result_for_one_call() -> None:
    with pytest.raises(
        ToolHistoryError, match=r"Duplicate tool result: message 3 \(tool\) answers tool call 'c1' again"
    ):
        validate_tool_history(
            [
                HumanMessage("weather?"),
                AIMessage("", tool_calls=[_call("c1")]),
                ToolMessage("sunny", tool_call_id="c1"),
                ToolMessage("sunny", tool_call_id="c1"),
            ]
        )


def test_trim_turns_validates_before_trimming() -> None:
    with pytest.raises(ToolHistoryError, match="Orphaned"):
        trim_turns(
            [SystemMessage("s"), ToolMessage("x", tool_call_id="c1"), HumanMessage("hi")], 10_000, count
        )


def test_newest_turn_over_budget_is_a_clear_error_with_the_numbers() -> None:
    messages = [
        SystemMessage("Be brief."),
        HumanMessage("old"),
        AIMessage("ok"),
        HumanMessage("new question"),
    ]
    needed = count([messages[0], messages[3]])
    assert trim_turns(messages, needed, count).kept == [messages[0], messages[3]]
    with pytest.raises(
        TurnBudgetError, match=rf"takes {needed} tokens, more than the budget of {needed - 1}"
    ):
        trim_turns(messages, needed - 1, count)
