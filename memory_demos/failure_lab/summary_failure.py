"""Failure demo: a summary buffer loses turns when its summary call fails (and keeping them raw)."""

from __future__ import annotations

from typing import Any

from memory_demos.failure_lab.common import (
    ENCODING,
    Demo,
    DemoResult,
    VerdictRow,
    answer_row,
    default_system_prompt,
    demo_result,
)
from memory_demos.providers.chat_models import CallGate, ProviderConfig, build_chat_model
from memory_demos.tracing import (
    REPLY,
    SUMMARIZE,
    CallCapture,
    with_purpose,
)

# Each language's conversation, the question asked afterwards and the name its answer needs.
CONVERSATIONS: dict[str, tuple[tuple[str, ...], str, str]] = {
    "en": (
        (
            "Hi, my name is Mara and I live in Lisbon.",
            "My order number is A-1234.",
            "Can you recommend a good book about gardening for small balconies?",
            "What do you think about spring weather in general?",
        ),
        "What's my name?",
        "Mara",
    ),
    "zh": (
        (
            "你好，我叫林晓，住在杭州。",
            "我的订单号是 A-1234。",
            "能推荐一本适合小阳台的园艺书吗？我家阳台不大，想种点花草和香料。",
            "你觉得春天的天气一般怎么样？杭州的春天总是下雨。",
        ),
        "我叫什么名字？",
        "林晓",
    ),
}
SUMMARY_FAIL_MESSAGES, SUMMARY_FAIL_QUESTION, _ = CONVERSATIONS["en"]
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


def run_failing_summary_buffer(
    keep_raw: bool, gate: CallGate | None = None, language: str = "en"
) -> dict[str, Any]:
    from langchain_core.messages import HumanMessage, SystemMessage

    from memory_demos.strategies.shared.classic import import_classic_memory

    messages, question, _ = CONVERSATIONS.get(language, CONVERSATIONS["en"])
    system = default_system_prompt(language)
    classic = import_classic_memory()
    capture = CallCapture(ENCODING)
    provider = ProviderConfig(fail_purposes=(SUMMARIZE,), gate=gate)
    model = build_chat_model(provider, callbacks=[capture], streaming=False)
    memory = classic.ConversationSummaryBufferMemory(
        llm=with_purpose(model, SUMMARIZE), max_token_limit=SUMMARY_BUFFER_LIMIT, return_messages=True
    )
    errors: list[str] = []
    for user_text in messages:
        history = memory.load_memory_variables({})["history"]
        reply = model.invoke([SystemMessage(system), *history, HumanMessage(user_text)])
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
    answer = model.invoke([SystemMessage(system), *history, HumanMessage(question)])
    kept = [str(m.content) for m in memory.chat_memory.messages]
    remembered = " ".join([memory.moving_summary_buffer, *kept])
    lost = [text for text in messages if text not in remembered]
    calls = capture.drain()
    return {
        "summary_errors": errors,
        "summary": memory.moving_summary_buffer,
        "kept_messages": kept,
        "lost_user_messages": lost,
        "question": question,
        "answer": answer.text,
        "failed_calls": sum(1 for c in calls if c.error),
        "reply_calls": sum(1 for c in calls if c.purpose == REPLY),
    }


def summary_buffer_failure(language: str = "en", gate: CallGate | None = None) -> DemoResult:
    """prune() pops old messages, then asks for the summary: when that call fails they are gone."""
    name = CONVERSATIONS.get(language, CONVERSATIONS["en"])[2]
    naive = run_failing_summary_buffer(keep_raw=False, gate=gate, language=language)
    fixed = run_failing_summary_buffer(keep_raw=True, gate=gate, language=language)
    fixed_ok = not fixed["lost_user_messages"] and name in fixed["answer"]
    return demo_result(DEMO, language, naive, fixed, bool(naive["lost_user_messages"]), fixed_ok)


def verdict(result: DemoResult) -> tuple[VerdictRow, ...]:
    """The user messages gone from memory after the failed summary calls, and the answer that followed."""
    naive, fixed = result["naive"], result["fixed"]
    return (
        VerdictRow("failure.verdict.lost", naive["lost_user_messages"], fixed["lost_user_messages"]),
        VerdictRow("failure.verdict.failed_calls", naive["failed_calls"], fixed["failed_calls"]),
        answer_row(naive, fixed),
    )


DEMO = Demo(
    "summary_buffer_failure",
    "failure.summary_buffer_failure.title",
    "failure.summary_buffer_failure.explanation",
    "failure.summary_buffer_failure.fix",
    summary_buffer_failure,
    (save_keeping_raw, run_failing_summary_buffer),
    harm="lost",
    verdict=verdict,
)
