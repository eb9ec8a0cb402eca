"""Failure demo: a running summary drifts (and a check against the conversation that stops it)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import HumanMessage, SystemMessage

from memory_demos.failure_lab.common import (
    ENCODING,
    CallGate,
    Demo,
    DemoResult,
    VerdictRow,
    default_system_prompt,
    demo_result,
    offline_model,
)
from memory_demos.tracing import (
    SUMMARIZE,
    CallCapture,
    with_purpose,
)

# Each language's conversation and the facts the checked summary must still hold at the end.
CONVERSATIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "en": (
        (
            "Hi, my name is Mara and I live in Lisbon.",
            "My order number is A-1234.",
            "Can you recommend a book about gardening?",
            "What makes a good cup of tea?",
            "Trains are a pleasant way to travel.",
        ),
        ("Mara", "Lisbon", "A-1234"),
    ),
    "zh": (
        (
            "你好，我叫林晓，住在杭州。",
            "我的订单号是 A-1234。",
            "能推荐一本讲园艺的书吗？",
            "怎样才能泡出一杯好茶？",
            "坐火车旅行挺惬意的。",
        ),
        ("林晓", "杭州", "A-1234"),
    ),
}
DRIFT_MESSAGES: tuple[str, ...] = CONVERSATIONS["en"][0]
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]+")
# How a summary frames what a Chinese speaker said (用户说：“…”, 用户还聊到了“…”和“…”): not evidence.
_ZH_FRAMING = re.compile("用户说|用户还聊到了|用户现在|用户|人类|还聊到了|和")
_QUOTED = re.compile("“([^”]*)”")
# Sentences end at . ! ? and a space (English) or at 。！？ (Chinese), a closing quote kept with its sentence.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])(?![”。！？])\s*|(?<=[。！？]”)\s*")
_SUMMARY_STOPWORDS = frozenset(
    (
        "a",
        "an",
        "the",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "to",
        "of",
        "in",
        "on",
        "at",
        "for",
        "and",
        "or",
        "with",
        "about",
        "also",
        "they",
        "them",
        "their",
        "there",
        "this",
        "that",
        "it",
        "its",
        "his",
        "her",
        "he",
        "she",
        "human",
        "humans",
        "user",
        "assistant",
        "ai",
        "has",
        "have",
        "had",
        "talked",
        "said",
        "mentioned",
        "asked",
        "wants",
        "would",
        "will",
        "can",
        "could",
        "some",
        "any",
    )
)


def _word_stems(text: str) -> set[str]:
    stems = set()
    for word in re.findall(r"[A-Za-z0-9][A-Za-z0-9-]*", text.lower().replace("'s", "")):
        stems.add(word)
        for suffix in ("ing", "ed", "es", "s"):
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                stems.add(word[: -len(suffix)])
    return stems


def summary_sentences(summary: str) -> list[str]:
    """The sentences of a summary, English or Chinese."""
    return [s for s in _SENTENCE_END.split(summary.strip()) if s.strip()]


def _evidence(sentence: str) -> list[str]:
    """What a sentence summarising a Chinese conversation claims was said: each quoted phrase whole, its
    other Chinese phrases (without the summary's own framing), numbers and names."""
    quoted = [q.rstrip("。.！？") for q in _QUOTED.findall(sentence)]
    unquoted = _QUOTED.sub(" ", sentence)
    phrases = quoted + [p for run in _CJK_RUN.findall(unquoted) for p in _ZH_FRAMING.split(run) if p]
    latin = re.findall(r"[A-Za-z0-9][A-Za-z0-9-]*", unquoted.replace("'s", ""))
    named = [w for w in latin if any(c.isdigit() for c in w) or w[0].isupper()]
    return phrases + [w for w in named if w.lower() not in _SUMMARY_STOPWORDS]


def unsupported_sentences(summary: str, conversation: str) -> list[str]:
    """Sentences of ``summary`` with a content word that appears nowhere in ``conversation``.

    An extractive check: a summary may rephrase, but every name, number and content word it uses
    must come from what was actually said. A Chinese conversation summarised in English is checked on
    its Chinese phrases, numbers and names; a sentence with none of them has nothing said behind it.
    """
    if _CJK_RUN.search(conversation):
        return [
            sentence
            for sentence in summary_sentences(summary)
            if not (evidence := _evidence(sentence)) or any(e not in conversation for e in evidence)
        ]
    said = _word_stems(conversation)
    unsupported = []
    for sentence in re.split(r"(?<=[.!?])\s+", summary.strip()):
        words = [w for w in re.findall(r"[A-Za-z0-9][A-Za-z0-9-]*", sentence.lower().replace("'s", ""))]
        content = [w for w in words if w not in _SUMMARY_STOPWORDS and len(w) >= 3]
        if any(not (_word_stems(word) & said) for word in content):
            unsupported.append(sentence)
    return unsupported


def run_summary(
    checked: bool, messages: Sequence[str], gate: CallGate | None = None, language: str = "en"
) -> dict[str, Any]:
    from memory_demos.strategies.shared.classic import import_classic_memory

    classic = import_classic_memory()
    capture = CallCapture(ENCODING)
    model = offline_model(capture, gate, drift=True)
    memory = classic.ConversationSummaryMemory(llm=with_purpose(model, SUMMARIZE))
    conversation = ""
    rounds = []
    for user_text in messages:
        # The system prompt as a system message: in the human's message it would be read as what they said.
        reply = model.invoke([SystemMessage(default_system_prompt(language)), HumanMessage(user_text)])
        conversation += f"\nHuman: {user_text}\nAI: {reply.text}"
        memory.save_context({"input": user_text}, {"output": reply.text})
        if checked:  # the fix: drop what the conversation does not support before storing the summary
            invented = set(unsupported_sentences(memory.buffer, conversation))
            kept = [s for s in summary_sentences(memory.buffer) if s not in invented]
            memory.buffer = ("" if _CJK_RUN.search(conversation) else " ").join(kept)
        rounds.append(
            {"summary": memory.buffer, "invented": unsupported_sentences(memory.buffer, conversation)}
        )
    capture.drain()
    return {"rounds": rounds, "final_summary": memory.buffer, "invented": rounds[-1]["invented"]}


def summary_drift(language: str = "en", gate: CallGate | None = None) -> DemoResult:
    """A summary rewritten every turn gains a made-up detail each round; the check removes them."""
    messages, facts = CONVERSATIONS.get(language, CONVERSATIONS["en"])
    naive = run_summary(False, messages, gate, language)
    fixed = run_summary(True, messages, gate, language)
    fixed_ok = not fixed["invented"] and all(fact in fixed["final_summary"] for fact in facts)
    return demo_result(DEMO, language, naive, fixed, bool(naive["invented"]), fixed_ok)


def verdict(result: DemoResult) -> tuple[VerdictRow, ...]:
    """The sentences the final summary invented, and the final summary itself."""
    naive, fixed = result["naive"], result["fixed"]
    return (
        VerdictRow("failure.verdict.invented", naive["invented"], fixed["invented"]),
        VerdictRow("failure.verdict.final_summary", naive["final_summary"], fixed["final_summary"]),
    )


DEMO = Demo(
    "summary_drift",
    "failure.summary_drift.title",
    "failure.summary_drift.explanation",
    "failure.summary_drift.fix",
    summary_drift,
    (unsupported_sentences, run_summary),
    harm="invented",
    verdict=verdict,
)
