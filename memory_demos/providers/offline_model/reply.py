"""The whole reply: which kind of prompt this is, and what the model says to it."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.messages import BaseMessage, ToolMessage

from memory_demos.prompt_markers import (
    ENTITY_EXTRACTION_MARKER,
    ENTITY_SUMMARY_MARKER,
    FACT_EXTRACTION_MARKER,
    MIDDLEWARE_SUMMARY_MARKER,
    SUMMARY_MARKER,
    purpose_from_tags,
)
from memory_demos.providers.offline_model.answers import (
    Reply,
    acknowledge,
    answer_questions,
    dont_know,
)
from memory_demos.providers.offline_model.facts import extract_facts
from memory_demos.providers.offline_model.knowledge import knowledge_of
from memory_demos.providers.offline_model.lexicon import CJK
from memory_demos.providers.offline_model.memory_prompts import (
    entity_extraction_reply,
    entity_summary_reply,
    fact_extraction_reply,
    middleware_summary_reply,
    summary_prompt_reply,
)
from memory_demos.providers.offline_model.questions import find_questions
from memory_demos.providers.offline_model.small_talk import small_talk
from memory_demos.providers.offline_model.statements import USER
from memory_demos.providers.offline_model.text import (
    content_text,
    role_segments,
    is_chinese,
)
from memory_demos.providers.offline_model.tools import (
    tool_names,
    answer_from_tools,
    plan_tool_call,
)

# --------------------------------------------------------------------------------------------
# The whole reply


def latest_user_text(messages: Sequence[BaseMessage]) -> str:
    """The user's latest words, also when a classic template holds the whole conversation in one message."""
    humans = [m for m in messages if m.type == "human"]
    if not humans:
        return ""
    text = content_text(humans[-1])
    segments = role_segments(text, "narrative")
    human_segments = [s for s in segments if s.role == "human"]
    if len(segments) > 1 and human_segments:
        return human_segments[-1].text.strip()
    return text.strip()


# Each memory prompt by its template's own shape: (marker, where the marker must be, labels it holds,
# how it ends). A user who only quotes a marker in a chat message is not sending that prompt.
_TEMPLATE_SHAPES: tuple[tuple[str, int, tuple[str, ...], str], ...] = (
    (FACT_EXTRACTION_MARKER, 0, ("\nMessage:\n",), ""),
    (MIDDLEWARE_SUMMARY_MARKER, 40, ("Messages to summarize:",), "</messages>"),
    (ENTITY_EXTRACTION_MARKER, 300, ("Last line of conversation (for extraction):",), "Output:"),
    (ENTITY_SUMMARY_MARKER, 300, ("\nEntity to summarize:",), "Updated summary:"),
    (SUMMARY_MARKER, 0, ("\nCurrent summary:", "\nNew lines of conversation:"), "New summary:"),
)


def _prompt_kind(messages: Sequence[BaseMessage]) -> tuple[str, str] | None:
    """(marker, the template's text) when a message is one of the memory prompts, by its whole shape."""
    for message in {id(m): m for m in (*messages[:1], *messages[-1:])}.values():
        text = content_text(message).strip()
        for marker, within, labels, ending in _TEMPLATE_SHAPES:
            at = text.find(marker, 0, within + len(marker))
            if at >= 0 and all(label in text for label in labels) and text.endswith(ending):
                return marker, text
    return None


def call_purpose(tags: list[str] | None) -> str:
    """What a call is for (for ``fail_purposes``): its caller's purpose tag, never its text."""
    return purpose_from_tags(tags)


def _memory_prompt_reply(
    kind: str, prompt: str, messages: Sequence[BaseMessage], *, drift: bool, chatty_entities: bool
) -> str:
    """The answer to a memory's own prompt (fact or entity extraction, a summary), by its marker."""
    answers: dict[str, Callable[[], str]] = {
        FACT_EXTRACTION_MARKER: lambda: fact_extraction_reply(prompt, messages),
        MIDDLEWARE_SUMMARY_MARKER: lambda: middleware_summary_reply(prompt),
        ENTITY_EXTRACTION_MARKER: lambda: entity_extraction_reply(prompt, chatty=chatty_entities),
        ENTITY_SUMMARY_MARKER: lambda: entity_summary_reply(prompt),
    }
    return answers.get(kind, lambda: summary_prompt_reply(prompt, drift=drift))()


def compose_reply(
    messages: Sequence[BaseMessage],
    *,
    tools: Sequence[dict[str, Any]] = (),
    drift: bool = False,
    chatty_entities: bool = False,
) -> Reply:
    """Everything the model says, as a pure function of its prompt (and its switches)."""
    found = _prompt_kind(messages)
    if found is not None:
        kind, prompt = found
        return Reply(
            _memory_prompt_reply(kind, prompt, messages, drift=drift, chatty_entities=chatty_entities)
        )

    text = latest_user_text(messages)
    chinese = is_chinese(text)
    last_human = max((i for i, m in enumerate(messages) if m.type == "human"), default=-1)
    after = messages[last_human + 1 :]
    if any(isinstance(m, ToolMessage) for m in after) and isinstance(messages[-1], ToolMessage):
        return Reply(answer_from_tools(after, chinese=chinese))
    knowledge = knowledge_of(messages)
    facts = knowledge.current(USER)
    if tools and not any(isinstance(m, ToolMessage) for m in after):
        planned = plan_tool_call(text, tool_names(tools), facts, chinese=chinese)
        if planned is not None:
            return planned
    questions = find_questions(text)
    if any(question.key is not None for question in questions):
        return Reply(answer_questions(questions, knowledge, chinese=chinese))
    stated = acknowledge(extract_facts(text), chinese=chinese)
    if stated and questions:
        return Reply(
            f"{stated}{'' if chinese else ' '}{dont_know(chinese=chinese, questions=len(questions))}"
        )
    return Reply(stated or small_talk(text, chinese=chinese))


def stream_chunks(text: str) -> list[str]:
    """Word-sized pieces (two ideographs at a time for Chinese) that join back to ``text`` exactly."""
    cjk = f"[{CJK}\u3000-\u303f\uff00-\uffef]"
    pieces = re.findall(rf"\s*(?:{cjk}{{1,2}}|[^\s{CJK}\u3000-\u303f\uff00-\uffef]+)|\s+$", text)
    return pieces if "".join(pieces) == text else [text]
