"""Failure demo: an agent that never calls its save tool (its memory depends on the model's judgement)."""

from __future__ import annotations

from typing import Any, ClassVar

from memory_demos.failure_lab.common import (
    CallGate,
    Demo,
    DemoResult,
    VerdictRow,
    answer_row,
    demo_context,
    demo_result,
    tell_then_ask,
)
from memory_demos.strategies.background_memory import BackgroundMemoryStrategy
from memory_demos.strategies.base import Strategy
from memory_demos.strategies.memory_tools import INFO as MEMORY_TOOLS_INFO
from memory_demos.strategies.memory_tools import MemoryToolsStrategy
from memory_demos.strategies.registry import build_strategy
from memory_demos.turn import Turn

# Facts, one message each, small talk, then questions; only the last message is sent (recent_turns=0),
# so whatever was not saved is gone.
CONVERSATIONS = {
    "en": (
        ("Hi, I'm Mara and I live in Lisbon.", "I work as a nurse.", "Tell me a joke."),
        "Where do I live?",
    ),
    "zh": (("你好，我叫小明，住在上海。", "我是一名护士。", "给我讲个笑话。"), "我住在哪里？"),
}


class JudgedSaveTool(MemoryToolsStrategy):
    """``memory_tools`` whose save tool (LangMem's manage tool) is named ``update_user_profile``.

    Whether to call a save tool is the model's call: a real model skips it when the tool's description or
    the prompt does not convince it. The offline teaching model recognises LangMem's tools by their default
    names only, so under this name it judges, every time, that there is nothing to save.
    """

    save_tool_name: ClassVar[str] = "update_user_profile"


def _save_calls(turn: Turn, name: str) -> int:
    return sum(
        1
        for call in turn.tool_round_calls
        for message in call.messages
        for tool_call in message.tool_calls
        if tool_call["name"] == name
    )


def _run(strategy: Strategy, language: str) -> dict[str, Any]:
    statements, question = CONVERSATIONS.get(language, CONVERSATIONS["en"])
    told, asked = tell_then_ask(strategy, statements, question)
    turns = [*told, asked]
    name = getattr(strategy, "save_tool_name", "")
    rounds = [
        [m.content for call in t.tool_round_calls for m in call.messages if m.role == "tool"] for t in turns
    ]
    return {
        "strategy": strategy.info.id,
        "told": [{"user": turn.user_text, "reply": turn.reply} for turn in told],
        "save_calls": sum(_save_calls(turn, name) for turn in told) if name else 0,
        "tool_results": [text for texts in rounds for text in texts],
        "audit_trail": asked.state["audit_trail"],
        "memories": [row["content"] for row in asked.state["memories"]],
        "question": question,
        "answer": asked.reply,
        "memory_tokens": sum(turn.memory_tokens for turn in turns),
        "tool_round_tokens": sum(c.total_tokens for turn in turns for c in turn.tool_round_calls),
    }


def never_saved(language: str = "en", gate: CallGate | None = None) -> DemoResult:
    """The agent decides whether to save and never does; a background manager forms memories regardless."""
    context = demo_context(gate, language)
    naive_params = {**MEMORY_TOOLS_INFO.defaults(), "recent_turns": 0}
    naive = _run(JudgedSaveTool(context, naive_params), language)
    fixed = _run(build_strategy("background_memory", context, {"recent_turns": 0, "delay": 0}), language)
    failed = naive["save_calls"] == 0 and not naive["audit_trail"]
    fixed_ok = bool(fixed["audit_trail"]) and ("Lisbon" in fixed["answer"] or "上海" in fixed["answer"])
    return demo_result(DEMO, language, naive, fixed, failed, fixed_ok)


def verdict(result: DemoResult) -> tuple[VerdictRow, ...]:
    """Save calls made, writes in the audit trail, what the store holds, and the answer afterwards."""
    naive, fixed = result["naive"], result["fixed"]
    return (
        VerdictRow("failure.verdict.save_calls", naive["save_calls"], fixed["save_calls"]),
        VerdictRow("failure.verdict.memory_writes", len(naive["audit_trail"]), len(fixed["audit_trail"])),
        VerdictRow("failure.verdict.memories_kept", naive["memories"], fixed["memories"]),
        answer_row(naive, fixed),
    )


DEMO = Demo(
    "never_saved",
    "failure.never_saved.title",
    "failure.never_saved.explanation",
    "failure.never_saved.fix",
    never_saved,
    (never_saved, JudgedSaveTool, BackgroundMemoryStrategy._run_due),
    harm="lost",
    verdict=verdict,
)
