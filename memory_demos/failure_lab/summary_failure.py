"""Failure demo: a summary buffer loses turns when its summary call fails (and keeping them raw)."""

from __future__ import annotations

from typing import Any

from memory_demos.failure_lab.common import ENCODING, SYSTEM_PROMPT, Demo, DemoResult, Text, demo_result
from memory_demos.providers.chat_models import ProviderConfig, build_chat_model
from memory_demos.tracing import (
    REPLY,
    SUMMARIZE,
    CallCapture,
    with_purpose,
)

SUMMARY_FAIL_MESSAGES: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "My order number is A-1234.",
    "Can you recommend a good book about gardening for small balconies?",
    "What do you think about spring weather in general?",
)
SUMMARY_FAIL_QUESTION = "What's my name?"
SUMMARY_BUFFER_LIMIT = 60


def save_keeping_raw(memory: Any, inputs: dict[str, str], outputs: dict[str, str]) -> str | None:
    """``save_context`` that never loses a turn: if summarising fails, put the popped messages back and
    keep the new exchange raw; the summary is tried again next turn. Returns the error, if any."""
    before = list(memory.chat_memory.messages)
    try:
        memory.save_context(inputs, outputs)
    except Exception as exc:
        memory.chat_memory.clear()
        memory.chat_memory.add_messages(before)
        memory.chat_memory.add_user_message(inputs["input"])
        memory.chat_memory.add_ai_message(outputs["output"])
        return f"{type(exc).__name__}: {exc}"
    return None


def run_failing_summary_buffer(keep_raw: bool) -> dict[str, Any]:
    from langchain_core.messages import HumanMessage, SystemMessage

    from memory_demos.strategies.shared.classic import import_classic_memory

    classic = import_classic_memory()
    capture = CallCapture(ENCODING)
    model = build_chat_model(ProviderConfig(fail_purposes=(SUMMARIZE,)), callbacks=[capture], streaming=False)
    memory = classic.ConversationSummaryBufferMemory(
        llm=with_purpose(model, SUMMARIZE), max_token_limit=SUMMARY_BUFFER_LIMIT, return_messages=True
    )
    errors: list[str] = []
    for user_text in SUMMARY_FAIL_MESSAGES:
        history = memory.load_memory_variables({})["history"]
        reply = model.invoke([SystemMessage(SYSTEM_PROMPT), *history, HumanMessage(user_text)])
        if keep_raw:
            error = save_keeping_raw(memory, {"input": user_text}, {"output": reply.text})
        else:
            try:  # what most apps do: log the failure and carry on
                memory.save_context({"input": user_text}, {"output": reply.text})
                error = None
            except Exception as exc:
                error = f"{type(exc).__name__}: {exc}"
        if error:
            errors.append(error)
    history = memory.load_memory_variables({})["history"]
    answer = model.invoke([SystemMessage(SYSTEM_PROMPT), *history, HumanMessage(SUMMARY_FAIL_QUESTION)])
    kept = [str(m.content) for m in memory.chat_memory.messages]
    remembered = " ".join([memory.moving_summary_buffer, *kept])
    lost = [text for text in SUMMARY_FAIL_MESSAGES if text not in remembered]
    calls = capture.drain()
    return {
        "summary_errors": errors,
        "summary": memory.moving_summary_buffer,
        "kept_messages": kept,
        "lost_user_messages": lost,
        "question": SUMMARY_FAIL_QUESTION,
        "answer": answer.text,
        "failed_calls": sum(1 for c in calls if c.error),
        "reply_calls": sum(1 for c in calls if c.purpose == REPLY),
    }


def summary_buffer_failure(language: str = "en") -> DemoResult:
    """prune() pops old messages, then asks for the summary: when that call fails they are gone."""
    naive = run_failing_summary_buffer(keep_raw=False)
    fixed = run_failing_summary_buffer(keep_raw=True)
    fixed_ok = not fixed["lost_user_messages"] and "Mara" in fixed["answer"]
    return demo_result(DEMO, language, naive, fixed, bool(naive["lost_user_messages"]), fixed_ok)


DEMO = Demo(
    "summary_buffer_failure",
    Text("Summary buffer loses turns when summarising fails", "摘要失败时摘要缓冲丢失对话"),
    Text(
        "ConversationSummaryBufferMemory.prune pops the oldest messages out of the buffer and only then "
        "asks "
        "the model to summarise them. If that call fails (a timeout, a rate limit), the popped messages "
        "are "
        "neither in the buffer nor in the summary: here the user's name is gone.",
        "ConversationSummaryBufferMemory.prune 先把最旧的消息弹出缓冲区，然后才请模型摘要。若这次调用失败"
        "（超时、限流），弹出的消息既不在缓冲区也不在摘要里：这里用户的名字就丢了。",
    ),
    Text(
        "Keep the raw messages until the summary has succeeded: restore what prune popped, keep the new "
        "turn "
        "raw, and try the summary again next turn (the summary_buffer strategy degrades the same way).",
        "在摘要成功之前保留原始消息：恢复被 prune 弹出的消息，新一轮保持原文，下一轮再尝试摘要"
        "（summary_buffer 策略也以同样方式降级）。",
    ),
    summary_buffer_failure,
    (save_keeping_raw, run_failing_summary_buffer),
)
