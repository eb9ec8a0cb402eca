"""Failure demo: a plain trim orphans a tool result (and a trim that keeps whole turns)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memory_demos.failure_lab.common import (
    CallGate,
    Demo,
    DemoResult,
    VerdictRow,
    default_system_prompt,
    demo_result,
)
from memory_demos.strategies.turn_trim import trim_turns

KEEP_MESSAGES = 4


# Each language's lines of the history: the questions, the city and order asked about, and how the
# answers put the tool results (``{result}``).
HISTORY_TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "weather_question": "What's the weather in Lisbon?",
        "city": "Lisbon",
        "weather_answer": "The weather in Lisbon: {result}.",
        "order_question": "And the status of order A-77?",
        "order_answer": "Order A-77: {result}.",
        "last_question": "Thanks! Is it shipped yet?",
    },
    "zh": {
        "weather_question": "杭州今天天气怎么样？",
        "city": "杭州",
        "weather_answer": "杭州现在的天气：{result}。",
        "order_question": "那订单 A-77 到哪儿了？",
        "order_answer": "订单 A-77：{result}。",
        "last_question": "谢谢！那它发货了没有？",
    },
}


def tool_history(language: str = "en") -> list[Any]:
    """A short agent history with two tool round trips (real tool outputs) and a new question."""
    from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

    from memory_demos.i18n import language_scope
    from memory_demos.tools import get_order_status, get_weather

    texts = HISTORY_TEXTS.get(language, HISTORY_TEXTS["en"])
    city = texts["city"]
    with language_scope(language):  # the tools answer in the conversation's language
        weather = get_weather.invoke({"city": city})
        order = get_order_status.invoke({"order_id": "A-77"})
    return [
        SystemMessage(default_system_prompt(language)),
        HumanMessage(texts["weather_question"]),
        AIMessage("", tool_calls=[{"name": "get_weather", "args": {"city": city}, "id": "call_weather_1"}]),
        ToolMessage(weather, tool_call_id="call_weather_1", name="get_weather"),
        AIMessage(texts["weather_answer"].format(result=weather)),
        HumanMessage(texts["order_question"]),
        AIMessage(
            "", tool_calls=[{"name": "get_order_status", "args": {"order_id": "A-77"}, "id": "call_order_2"}]
        ),
        ToolMessage(order, tool_call_id="call_order_2", name="get_order_status"),
        AIMessage(texts["order_answer"].format(result=order)),
        HumanMessage(texts["last_question"]),
    ]


def _tool_check(messages: Sequence[Any]) -> str | None:
    """``None`` if the tool calls and results pair up, else the problem (what the API would reject)."""
    from memory_demos.strategies.turn_trim import ToolHistoryError, validate_tool_history

    try:
        validate_tool_history(messages)
    except ToolHistoryError as exc:
        return exc.args[0]  # a Message: the page says it in its language
    return None


def _rows(messages: Sequence[Any]) -> list[dict[str, Any]]:
    from memory_demos.strategies.shared.trimming_agent import message_rows

    return message_rows(messages)


def trim_orphan(language: str = "en", gate: CallGate | None = None) -> DemoResult:
    """Keeping "the last N messages" can start the prompt with a tool result whose call was cut off."""
    from langchain_core.messages import trim_messages

    history = tool_history(language)
    naive_kept = trim_messages(
        history, max_tokens=KEEP_MESSAGES, token_counter=len, strategy="last", include_system=True
    )
    fixed_kept = trim_turns(history, KEEP_MESSAGES, len).kept
    naive_problem = _tool_check(naive_kept)
    fixed_problem = _tool_check(fixed_kept)
    naive = {"kept": _rows(naive_kept), "problem": naive_problem, "budget_messages": KEEP_MESSAGES}
    fixed = {"kept": _rows(fixed_kept), "problem": fixed_problem, "budget_messages": KEEP_MESSAGES}
    return demo_result(DEMO, language, naive, fixed, naive_problem is not None, fixed_problem is None)


def verdict(result: DemoResult) -> tuple[VerdictRow, ...]:
    """What the check of the kept messages found, and which messages each trim kept."""
    naive, fixed = result["naive"], result["fixed"]

    def kept(run: dict[str, Any]) -> list[str]:
        return [f"[{row['role']}] {row['content']}" for row in run["kept"]]

    return (
        VerdictRow("failure.verdict.problem", naive["problem"], fixed["problem"]),
        VerdictRow("failure.verdict.kept", kept(naive), kept(fixed)),
    )


DEMO = Demo(
    "trim_orphan",
    "failure.trim_orphan.title",
    "failure.trim_orphan.explanation",
    "failure.trim_orphan.fix",
    trim_orphan,
    (trim_orphan, trim_turns),
    harm="broken",
    verdict=verdict,
)
