"""``turn_trim``: trims the history by whole turns, so a tool call never loses its results.

A turn starts at a human message and runs to the next one: the question, any AI tool calls with
their ToolMessages, and the answer. ``trim_turns`` checks the tool history first, keeps the system
message, and drops the oldest whole turns until the prompt fits the budget; if the newest turn
alone does not fit, it says so instead of sending a prompt without the question.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

from memory_demos.i18n import Message
from memory_demos.strategies.base import InputError, ParamSpec, StrategyInfo, Threshold
from memory_demos.strategies.shared.trimming_agent import TrimmingAgentStrategy, TrimResult

TokenCounter = Callable[[list[BaseMessage]], int]

INFO = StrategyInfo(
    id="turn_trim",
    title="Whole-turn trimming (tool-safe)",
    kind="modern",
    langchain_classes=("langchain_core.messages.BaseMessage", "langchain_core.tools.tool"),
    summary=(
        "A tool-using agent whose history is trimmed by whole turns under a token budget: a tool call "
        "and its results are kept or dropped together, and the history is validated first."
    ),
    title_zh="整轮裁剪（工具调用安全）",
    summary_zh=(
        "使用工具的智能体，按整轮在词元预算内裁剪历史：工具调用和它的结果一起保留或一起丢弃，并先校验历史。"
    ),
    params=(
        ParamSpec(
            "max_tokens",
            400,
            "Token budget of the prompt sent to the model.",
            minimum=1,
            help_zh="发给模型的提示的词元预算。",
        ),
    ),
    thresholds=(Threshold("max_tokens", "budget"),),
)


class ToolHistoryError(ValueError):
    """A history whose tool calls and tool results do not pair up; its argument, a ``Message``, says where
    (as a string: in English)."""


class TurnBudgetError(InputError):
    """The newest turn (with the system message) alone is larger than the token budget."""


def validate_tool_history(messages: Sequence[BaseMessage]) -> None:
    """Raise ``ToolHistoryError`` unless every tool call is answered right after it, exactly once.

    Checks: a ToolMessage must answer a call of the AI message just before it (directly or after
    sibling results); every call must be answered before the next non-tool message; tool call ids
    are unique across the history.
    """
    seen_call_ids: set[str] = set()
    answered: set[str] = set()
    pending: dict[str, tuple[str, int]] = {}
    for index, message in enumerate(messages):
        if isinstance(message, ToolMessage):
            _take_tool_result(message, index, pending, answered)
            continue
        if pending:
            _raise_missing(pending, "strategy.tool_history.missing_before", index=index, kind=message.type)
        if isinstance(message, AIMessage):
            _register_tool_calls(message, index, seen_call_ids, pending)
    if pending:
        _raise_missing(pending, "strategy.tool_history.missing_never")


def _take_tool_result(
    message: ToolMessage, index: int, pending: dict[str, tuple[str, int]], answered: set[str]
) -> None:
    call_id = message.tool_call_id
    if call_id in answered:
        raise ToolHistoryError(
            Message("strategy.tool_history.duplicate_result", index=index, kind=message.type, call_id=call_id)
        )
    if call_id not in pending:
        raise ToolHistoryError(
            Message("strategy.tool_history.orphan", index=index, kind=message.type, call_id=call_id)
        )
    del pending[call_id]
    answered.add(call_id)


def _register_tool_calls(
    message: AIMessage, index: int, seen_call_ids: set[str], pending: dict[str, tuple[str, int]]
) -> None:
    for call in message.tool_calls:
        call_id = call.get("id")
        if not call_id:
            raise ToolHistoryError(Message("strategy.tool_history.no_id", name=call["name"], index=index))
        if call_id in seen_call_ids:
            raise ToolHistoryError(
                Message("strategy.tool_history.duplicate_id", call_id=call_id, index=index)
            )
        seen_call_ids.add(call_id)
        pending[call_id] = (call["name"], index)


def _raise_missing(pending: dict[str, tuple[str, int]], key: str, **where: Any) -> None:
    call_id, (name, call_index) = next(iter(pending.items()))
    raise ToolHistoryError(Message(key, call_id=call_id, name=name, call_index=call_index, **where))


def split_turns(messages: Sequence[BaseMessage]) -> list[list[BaseMessage]]:
    """Group messages into turns, each starting at a human message (anything before the first is its own)."""
    turns: list[list[BaseMessage]] = []
    for message in messages:
        if isinstance(message, HumanMessage) or not turns:
            turns.append([message])
        else:
            turns[-1].append(message)
    return turns


def trim_turns(messages: Sequence[BaseMessage], max_tokens: int, token_counter: TokenCounter) -> TrimResult:
    """Keep the system message and the newest whole turns whose prompt fits ``max_tokens``.

    Raises ``ToolHistoryError`` for an invalid tool history and ``TurnBudgetError`` when the system
    message plus the newest turn alone are over the budget.
    """
    validate_tool_history(messages)
    system = [messages[0]] if messages and isinstance(messages[0], SystemMessage) else []
    turns = split_turns(messages[len(system) :])
    # Walk back from the newest turn, counting each turn once (the counter is additive apart from a
    # fixed per-prompt overhead), so a long history costs what is kept, not what is dropped.
    overhead = token_counter([])
    total = token_counter(system)
    start = len(turns)
    while start > 0:
        cost = token_counter(turns[start - 1]) - overhead
        if total + cost > max_tokens:
            break
        total += cost
        start -= 1
    start = min(start, max(len(turns) - 1, 0))
    kept = system + [message for turn in turns[start:] for message in turn]
    tokens = token_counter(kept)
    while tokens > max_tokens and start < len(turns) - 1:  # a counter that is not quite additive
        start += 1
        kept = system + [message for turn in turns[start:] for message in turn]
        tokens = token_counter(kept)
    if tokens > max_tokens:
        what = "system" if not turns else "turn_and_system" if system else "turn"
        raise TurnBudgetError(
            Message(
                "strategy.error.whole_turns_over_budget",
                what=Message(f"strategy.turn_trim.{what}"),
                tokens=tokens,
                budget=max_tokens,
            )
        )
    dropped = [message for turn in turns[:start] for message in turn]
    return TrimResult(kept=kept, dropped=dropped)


class TurnTrimStrategy(TrimmingAgentStrategy):
    """The tool agent of ``trim`` with whole-turn trimming instead of ``trim_messages``."""

    info = INFO

    def trim(self, messages: list[BaseMessage]) -> TrimResult:
        """``trim_turns`` over the newest turns that could fit; older turns are dropped without a look.

        The stored history only grows by whole, validated turns, and ``trim_turns`` keeps the newest
        turns that fit: turns older than the first one that does not fit cannot change its answer.
        """
        system = messages[:1] if messages and isinstance(messages[0], SystemMessage) else []
        total = self.count_message_tokens(system)
        start = len(messages)
        while start > len(system) and total <= self.max_tokens:
            start -= 1
            total += self.message_tokens(messages[start])
        while start > len(system) and not isinstance(messages[start], HumanMessage):
            start -= 1  # back to the start of that turn
        result = trim_turns(system + messages[start:], self.max_tokens, self.count_tokens)
        return TrimResult(kept=result.kept, dropped=messages[len(system) : start] + result.dropped)


STRATEGY = TurnTrimStrategy
