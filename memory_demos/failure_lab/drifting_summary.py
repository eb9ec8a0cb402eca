"""Failure demo: a running summary drifts (and a check against the conversation that stops it)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from memory_demos.failure_lab.common import (
    ENCODING,
    SYSTEM_PROMPT,
    CallGate,
    Demo,
    DemoResult,
    VerdictRow,
    demo_result,
    offline_model,
)
from memory_demos.tracing import (
    SUMMARIZE,
    CallCapture,
    with_purpose,
)

DRIFT_MESSAGES: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "My order number is A-1234.",
    "Can you recommend a book about gardening?",
    "What makes a good cup of tea?",
    "Trains are a pleasant way to travel.",
)
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


def unsupported_sentences(summary: str, conversation: str) -> list[str]:
    """Sentences of ``summary`` with a content word that appears nowhere in ``conversation``.

    An extractive check: a summary may rephrase, but every name, number and content word it uses
    must come from what was actually said.
    """
    said = _word_stems(conversation)
    unsupported = []
    for sentence in re.split(r"(?<=[.!?])\s+", summary.strip()):
        words = [w for w in re.findall(r"[A-Za-z0-9][A-Za-z0-9-]*", sentence.lower().replace("'s", ""))]
        content = [w for w in words if w not in _SUMMARY_STOPWORDS and len(w) >= 3]
        if any(not (_word_stems(word) & said) for word in content):
            unsupported.append(sentence)
    return unsupported


def run_summary(checked: bool, messages: Sequence[str], gate: CallGate | None = None) -> dict[str, Any]:
    from memory_demos.strategies.shared.classic import import_classic_memory

    classic = import_classic_memory()
    capture = CallCapture(ENCODING)
    model = offline_model(capture, gate, drift=True)
    memory = classic.ConversationSummaryMemory(llm=with_purpose(model, SUMMARIZE))
    conversation = ""
    rounds = []
    for user_text in messages:
        reply = model.invoke(f"{SYSTEM_PROMPT}\n\n{user_text}")
        conversation += f"\nHuman: {user_text}\nAI: {reply.text}"
        memory.save_context({"input": user_text}, {"output": reply.text})
        if checked:  # the fix: drop what the conversation does not support before storing the summary
            invented = set(unsupported_sentences(memory.buffer, conversation))
            kept = [s for s in re.split(r"(?<=[.!?])\s+", memory.buffer.strip()) if s not in invented]
            memory.buffer = " ".join(kept)
        rounds.append(
            {"summary": memory.buffer, "invented": unsupported_sentences(memory.buffer, conversation)}
        )
    capture.drain()
    return {"rounds": rounds, "final_summary": memory.buffer, "invented": rounds[-1]["invented"]}


def summary_drift(language: str = "en", gate: CallGate | None = None) -> DemoResult:
    """A summary rewritten every turn gains a made-up detail each round; the check removes them."""
    naive = run_summary(False, DRIFT_MESSAGES, gate)
    fixed = run_summary(True, DRIFT_MESSAGES, gate)
    facts = ("Mara", "Lisbon", "A-1234")
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
