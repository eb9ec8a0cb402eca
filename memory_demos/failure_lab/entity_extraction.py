"""Failure demo: entity extraction fooled by a chatty reply, and a strict parser that is not fooled."""

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
    calls_by_purpose,
    default_system_prompt,
    demo_result,
    offline_model,
)
from memory_demos.tracing import (
    EXTRACT_ENTITIES,
    SUMMARIZE_ENTITY,
    CallCapture,
    with_purpose,
)

# Each language's conversation and the names a strict parser must keep from it.
CONVERSATIONS: dict[str, tuple[tuple[str, ...], frozenset[str]]] = {
    "en": (
        ("Hi, I'm John and I just moved to Paris.", "My sister Anna visits me next week."),
        frozenset({"John", "Paris", "Anna"}),
    ),
    "zh": (
        ("你好，我叫李明，刚搬到成都。", "我是杭州人，妹妹下周来看我。"),
        frozenset({"李明", "成都", "杭州"}),
    ),
}
ENTITY_MESSAGES: tuple[str, ...] = CONVERSATIONS["en"][0]
_NAME = re.compile(r"[A-Z][\w'-]*(?: [A-Z][\w'-]*){0,3}|[\u4e00-\u9fff]{2,8}")
_CJK = re.compile(r"[\u4e00-\u9fff]")


def _said(name: str, text: str) -> bool:
    """True when ``name`` occurs in ``text`` as whole words (Chinese has no spaces: anywhere in it)."""
    if _CJK.search(name):
        return name in text
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None


def strict_entity_names(extracted: Sequence[str], user_text: str) -> list[str]:
    """The names in an entity-extraction answer that the user really wrote; chatter such as "Sure" or
    "the entities are:" is dropped (a strict parser in place of ``output.split(",")``)."""
    names: list[str] = []
    for piece in re.split(r"[,:;\n，：；]", ", ".join(extracted)):
        name = piece.strip().strip(".!\"'")
        if _NAME.fullmatch(name) and _said(name, user_text) and name not in names:
            names.append(name)
    return names


def run_entity_memory(
    strict: bool, messages: Sequence[str], gate: CallGate | None = None, language: str = "en"
) -> dict[str, Any]:
    from memory_demos.strategies.shared.classic import import_classic_memory

    classic = import_classic_memory()
    capture = CallCapture(ENCODING)
    model = offline_model(capture, gate, chatty_entities=True)
    memory = classic.ConversationEntityMemory(llm=with_purpose(model, EXTRACT_ENTITIES), k=2)
    said = " ".join(messages)
    for user_text in messages:
        memory.llm = with_purpose(model, EXTRACT_ENTITIES)
        variables = memory.load_memory_variables({"input": user_text})
        if strict:  # the fix: keep only names the user wrote, before any note is written
            memory.entity_cache = strict_entity_names(memory.entity_cache, user_text)
            variables["entities"] = {name: memory.entity_store.get(name, "") for name in memory.entity_cache}
        # The system prompt as a system message: in the human's message it would be read as what they said.
        reply = model.invoke([SystemMessage(default_system_prompt(language)), HumanMessage(user_text)])
        memory.llm = with_purpose(model, SUMMARIZE_ENTITY)
        memory.save_context({"input": user_text}, {"output": reply.text})
    calls = capture.drain()
    entities = dict(sorted(memory.entity_store.store.items()))
    return {
        "extraction_answers": [c.output for c in calls if c.purpose == EXTRACT_ENTITIES],
        "entities": entities,
        "junk_entities": [name for name in entities if not _said(name, said)],
        "entity_summary_calls": sum(1 for c in calls if c.purpose == SUMMARIZE_ENTITY),
        "calls_by_purpose": calls_by_purpose(calls),
    }


def chatty_entities(language: str = "en", gate: CallGate | None = None) -> DemoResult:
    """ConversationEntityMemory splits the model's chatty answer on commas: "Sure" becomes an entity."""
    messages, expected = CONVERSATIONS.get(language, CONVERSATIONS["en"])
    naive = run_entity_memory(False, messages, gate, language)
    fixed = run_entity_memory(True, messages, gate, language)
    fixed_ok = not fixed["junk_entities"] and expected <= set(fixed["entities"])
    fixed_ok = fixed_ok and fixed["entity_summary_calls"] < naive["entity_summary_calls"]
    return demo_result(DEMO, language, naive, fixed, bool(naive["junk_entities"]), fixed_ok)


def verdict(result: DemoResult) -> tuple[VerdictRow, ...]:
    """The entities stored that the user never named, and how many summary calls each set-up paid for."""
    naive, fixed = result["naive"], result["fixed"]
    return (
        VerdictRow("failure.verdict.junk_entities", naive["junk_entities"], fixed["junk_entities"]),
        VerdictRow("failure.verdict.entities", sorted(naive["entities"]), sorted(fixed["entities"])),
        VerdictRow(
            "failure.verdict.summary_calls", naive["entity_summary_calls"], fixed["entity_summary_calls"]
        ),
    )


DEMO = Demo(
    "chatty_entities",
    "failure.chatty_entities.title",
    "failure.chatty_entities.explanation",
    "failure.chatty_entities.fix",
    chatty_entities,
    (strict_entity_names, run_entity_memory),
    harm="invented",
    verdict=verdict,
)
