"""Failure demo: a full memory block silently drops what did not fit (and a block that refuses out loud)."""

from __future__ import annotations

from typing import Any

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
from memory_demos.prompts import block_tool_answer
from memory_demos.strategies.memory_blocks import MemoryBlocksStrategy
from memory_demos.strategies.registry import build_strategy
from memory_demos.turn import Turn

# Three facts, one message each, then a question about the last; only the blocks remember (recent_turns=0).
# The limits let the first message's facts fit and not the other two.
CONVERSATIONS = {
    "en": (
        ("Hi, I'm Mara and I live in Lisbon.", "I work as a nurse.", "My dog is called Rex."),
        "What's my dog called?",
        70,
    ),
    "zh": (("你好，我叫小明，住在上海。", "我是一名护士。", "我的狗叫旺财。"), "我的狗叫什么？", 20),
}


def _run(language: str, on_full: str, gate: CallGate | None) -> dict[str, Any]:
    statements, question, limit = CONVERSATIONS.get(language, CONVERSATIONS["en"])
    context = demo_context(gate, language)
    params = {"block_limit": limit, "on_full": on_full, "recent_turns": 0}
    told, asked = tell_then_ask(build_strategy("memory_blocks", context, params), statements, question)
    state = asked.state
    return {
        "block_limit": limit,
        "on_full": on_full,
        "told": [{"user": turn.user_text, "reply": turn.reply} for turn in told],
        "tool_results": [text for turn in told for text in _tool_results(turn)],
        "human_block": next(row for row in state["blocks"] if row["label"] == "human"),
        "clipped_edits": state["clipped_edits"],
        "refused_edits": state["refused_edits"],
        "audit_trail": state["audit_trail"],
        "question": question,
        "answer": asked.reply,
        "dropped_chars": sum(len(row["dropped"].strip()) for row in state["clipped_edits"]),
    }


def _tool_results(turn: Turn) -> list[str]:
    """What the block tools answered the model during ``turn`` (its reply prompt holds them all), each as
    a message the page shows in its language (the model read the English)."""
    messages = turn.injected_prompt
    last_human = max((i for i, m in enumerate(messages) if m.role == "human"), default=len(messages))
    return [block_tool_answer(m.content) for m in messages[last_human + 1 :] if m.role == "tool"]


def _loss_said(run: dict[str, Any]) -> bool:
    """Every turn whose edit did not fit told the user so."""
    lost_turns = {row["turn"] for row in [*run["clipped_edits"], *run["refused_edits"]]}
    markers = ("could not save", "没能记下")
    return bool(lost_turns) and all(
        any(m in run["told"][turn - 1]["reply"] for m in markers) for turn in lost_turns
    )


def full_block(language: str = "en", gate: CallGate | None = None) -> DemoResult:
    """A block that clips what does not fit reports success; one that refuses tells the model (and user)."""
    naive = _run(language, "truncate", gate)
    fixed = _run(language, "error", gate)
    naive["loss_said"], fixed["loss_said"] = _loss_said(naive), _loss_said(fixed)
    failed = bool(naive["clipped_edits"]) and not naive["loss_said"]
    fixed_ok = not fixed["clipped_edits"] and fixed["loss_said"]
    return demo_result(DEMO, language, naive, fixed, failed, fixed_ok)


def verdict(result: DemoResult) -> tuple[VerdictRow, ...]:
    """What the tool said, what the user heard, what the block holds, and the answer afterwards."""
    naive, fixed = result["naive"], result["fixed"]

    def block(run: dict[str, Any]) -> str:
        row = run["human_block"]
        return f"{row['used']}/{row['limit']}: {row['value']}"

    def heard(run: dict[str, Any]) -> list[str]:
        return [row["reply"] for row in run["told"]]

    return (
        VerdictRow("failure.verdict.tool_told_model", naive["tool_results"], fixed["tool_results"]),
        VerdictRow("failure.verdict.dropped_chars", naive["dropped_chars"], fixed["dropped_chars"]),
        VerdictRow("failure.verdict.loss_said", naive["loss_said"], fixed["loss_said"]),
        VerdictRow("failure.verdict.user_heard", heard(naive), heard(fixed)),
        VerdictRow("failure.verdict.human_block", block(naive), block(fixed)),
        answer_row(naive, fixed),
    )


DEMO = Demo(
    "full_block",
    "failure.full_block.title",
    "failure.full_block.explanation",
    "failure.full_block.fix",
    full_block,
    (full_block, MemoryBlocksStrategy.middleware),
    harm="lost",
    verdict=verdict,
)
