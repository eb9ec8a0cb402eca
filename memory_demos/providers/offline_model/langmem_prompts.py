"""LangMem's own prompts, recognised and answered: the memory manager's extraction and the memory tools.

``create_memory_store_manager`` sends trustcall's extraction prompt (a "memory subroutine" system
message, the conversation inside ``<session_…>`` and, when memories exist, their ``<instance id=…>``
documents) with the ``Memory`` tool bound, and ``PatchDoc``/``RemoveDoc`` once there is something to
patch. The model answers with tool calls: ``Memory(content=…)`` for each statement worth keeping that no
memory holds yet, ``PatchDoc`` replacing the content of the memory a change contradicts. After the agent's
``manage_memory``/``search_memory`` tools answered, the reply is the usual one, read from the memories
found (put in a system block) and the turn's own messages. What this model cannot produce (a prompt
shape or tool it does not know) raises ``UnsupportedLangMemCall``: a failed call to show, never a
made-up answer.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

from memory_demos.providers.offline_model.answers import Reply
from memory_demos.providers.offline_model.reader import read_prompt
from memory_demos.providers.offline_model.text import content_text
from memory_demos.providers.offline_model.tools import (
    MANAGE_MEMORY,
    SEARCH_MEMORY,
    call_id,
    memory_changed_by,
    memory_text,
    memory_values,
    plan_memory_call,
    statements_worth_keeping,
    tool_names,
)

MANAGER_SYSTEM = "You are a memory subroutine for an AI."
MEMORIES_HEADER = "Memories found with search_memory (oldest first):"
INSERT_TOOL = "Memory"
PATCH_TOOL = "PatchDoc"

_SESSION = re.compile(r"<session_[\w-]+>\n(?P<body>.*?)\n</session_[\w-]+>", re.S)
_BANNER = re.compile(r"^=+ (?P<role>Human|Ai|System|Tool) Message =+\n", re.M)
_INSTANCE = re.compile(
    r'<instance id=(?P<id>\S+) schema_type="(?P<kind>[^"]*)">\n(?P<doc>.*?)\n</instance>', re.S
)


class UnsupportedLangMemCall(RuntimeError):
    """A LangMem call the offline teaching model cannot answer as LangMem requires."""


def is_manager_prompt(messages: Sequence[BaseMessage]) -> bool:
    """Whether this is LangMem's extraction prompt: its system line first, a ``<session_…>`` after it."""
    if len(messages) < 2 or messages[0].type != "system":
        return False
    return content_text(messages[0]).startswith(MANAGER_SYSTEM) and any(
        _SESSION.search(content_text(m)) for m in messages[1:] if m.type == "human"
    )


def session_messages(prompt: str) -> list[BaseMessage]:
    """The conversation LangMem rendered with ``pretty_repr`` inside ``<session_…>``, as messages again."""
    found = _SESSION.search(prompt)
    if found is None:
        return []
    body = found.group("body")
    banners = list(_BANNER.finditer(body))
    messages: list[BaseMessage] = []
    for index, banner in enumerate(banners):
        end = banners[index + 1].start() if index + 1 < len(banners) else len(body)
        text = body[banner.end() : end].strip()
        role = banner.group("role")
        if role == "Human":
            messages.append(HumanMessage(text))
        elif role == "Ai":
            messages.append(AIMessage(text))
    return messages


def existing_memories(system_text: str) -> list[tuple[str, str]]:
    """(id, content) of each ``<instance>`` trustcall showed; a document it cannot read is left out."""
    memories = []
    for match in _INSTANCE.finditer(system_text):
        try:
            document = ast.literal_eval(match.group("doc").strip())
        except (ValueError, SyntaxError):
            continue
        content = document.get("content") if isinstance(document, dict) else None
        if isinstance(content, str):
            memories.append((match.group("id"), content))
    return memories


def manager_reply(messages: Sequence[BaseMessage], tools: Sequence[dict[str, Any]]) -> Reply:
    """Tool calls answering LangMem's extraction prompt: an insert or a patch per statement worth keeping."""
    names = tool_names(tools)
    if INSERT_TOOL not in names:
        raise UnsupportedLangMemCall(f"no {INSERT_TOOL} tool among {names}: cannot record a memory")
    prompt = next(content_text(m) for m in messages[1:] if _SESSION.search(content_text(m)))
    session = session_messages(prompt)
    reading = read_prompt(session)
    memories = existing_memories(content_text(messages[0]))
    known = {content.strip().lower() for _, content in memories}
    inserts: list[str] = []
    patches: dict[str, str] = {}
    for message in range(reading.user_messages):
        for statement in statements_worth_keeping(reading, message):
            text = memory_text(statement.text)
            if text.strip().lower() in known:
                continue
            target = memory_changed_by(text, memories) if PATCH_TOOL in names else None
            if target is not None:
                patches[target] = text
            else:
                inserts.append(text)
            known.add(text.strip().lower())
    calls = [
        {
            "name": PATCH_TOOL,
            "args": {
                "json_doc_id": memory_id,
                "planned_edits": "replace /content: the conversation changed this fact",
                "patches": [{"op": "replace", "path": "/content", "value": text}],
            },
        }
        for memory_id, text in patches.items()
    ] + [{"name": INSERT_TOOL, "args": {"content": text}} for text in inserts]
    if not calls:
        return Reply("Nothing new worth keeping.")
    return Reply("", tuple({**c, "id": call_id(c["name"], c["args"], prompt[-200:])} for c in calls))


def after_memory_tools(messages: Sequence[BaseMessage]) -> bool:
    """Whether the latest messages are results of LangMem's memory tools."""
    return isinstance(messages[-1], ToolMessage) and (messages[-1].name or "") in {
        MANAGE_MEMORY,
        SEARCH_MEMORY,
    }


def answer_from_memories(messages: Sequence[BaseMessage], compose: Callable[..., Reply]) -> Reply:
    """The reply once the memory tools answered: the memories found, as a note, and the turn without tools.

    ``compose`` is the model's own reply (``reply.compose_reply``), handed in so this module needs nothing
    above it; the tool rounds are left out, so the reply reads the memories as it reads any note.
    """
    last_human = max(i for i, m in enumerate(messages) if m.type == "human")
    found: dict[str, tuple[str, str]] = {}  # key -> (created_at, content): each memory once
    for message in messages[last_human + 1 :]:
        if isinstance(message, ToolMessage) and message.name == SEARCH_MEMORY:
            found.update(
                {key: (created, text) for created, key, text in memory_values(content_text(message))}
            )
    conversation = [m for m in messages[: last_human + 1] if m.type in {"human", "ai"} and not _tool_round(m)]
    system = next((content_text(m) for m in messages if m.type == "system"), "")
    if found:
        ordered = [text for _, text in sorted(found.values())]
        system = f"{system}\n\n{MEMORIES_HEADER}\n" + "\n".join(f"User: {text}" for text in ordered)
    return compose([SystemMessage(system), *conversation])


def _tool_round(message: BaseMessage) -> bool:
    return isinstance(message, AIMessage) and bool(message.tool_calls)


def langmem_reply(
    messages: Sequence[BaseMessage], tools: Sequence[dict[str, Any]], compose: Callable[..., Reply]
) -> Reply | None:
    """The answer to a LangMem call: its manager's prompt, or a turn with its memory tools; None otherwise."""
    if is_manager_prompt(messages):
        return manager_reply(messages, tools)
    names = tool_names(tools)
    if {MANAGE_MEMORY, SEARCH_MEMORY} & set(names) or (messages and after_memory_tools(messages)):
        return plan_memory_call(messages, names) or answer_from_memories(messages, compose)
    return None
