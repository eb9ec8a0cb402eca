"""LangMem's own prompts, recognised and answered: the memory manager's extraction and the memory tools.

``create_memory_store_manager`` sends trustcall's extraction prompt (a "memory subroutine" system
message, the conversation inside ``<session_…>`` and, when memories exist, their ``<instance id=…>``
documents) with the ``Memory`` tool bound, and ``PatchDoc``/``RemoveDoc`` once there is something to
patch. The model answers with tool calls: ``Memory(content=…)`` for each statement worth keeping that no
memory holds yet, ``PatchDoc`` replacing the content of the memory a change contradicts. With the agent's
``manage_memory``/``search_memory`` tools bound it saves what the message states and searches before it
answers a question (``plan_memory_call``); once they answered, the reply is the usual one, read from the
memories found (put in a system block) and the turn's own messages. What this model cannot produce (a prompt
shape or tool it does not know) raises ``UnsupportedLangMemCall``: a failed call to show, never a
made-up answer.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

from memory_demos.providers.offline_model.answers import Reply
from memory_demos.providers.offline_model.facts import ANY_KEY, extract_facts
from memory_demos.providers.offline_model.reader import Said, read_prompt
from memory_demos.providers.offline_model.statements import USER
from memory_demos.providers.offline_model.text import content_text, is_chinese
from memory_demos.providers.offline_model.tools import (
    MANAGE_MEMORY,
    SEARCH_MEMORY,
    call_id,
    statements_worth_keeping,
    tool_names,
)

MANAGER_SYSTEM = "You are a memory subroutine for an AI."
MEMORIES_HEADER = "Memories found with search_memory (oldest first):"
INSERT_TOOL = "Memory"
PATCH_TOOL = "PatchDoc"
REMOVE_TOOL = "RemoveDoc"

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
    removals: list[str] = []
    for message in range(reading.user_messages):
        for statement in statements_worth_keeping(reading, message):
            forgotten = forgotten_memories(statement, memories)
            if forgotten is not None:  # "Forget what I said about Lisbon": nothing to insert
                removals += [m for m in forgotten if m not in removals] if REMOVE_TOOL in names else []
                continue
            text = memory_text(statement)
            if text.strip().lower() in known:
                continue
            unpatched = [memory for memory in memories if memory[0] not in patches]  # one patch per memory
            target = memory_changed_by(text, unpatched) if PATCH_TOOL in names else None
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
    calls += [{"name": REMOVE_TOOL, "args": {"json_doc_id": memory_id}} for memory_id in removals]
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
        system = f"{system}\n\n{MEMORIES_HEADER}\n" + "\n".join(ordered)
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


# --------------------------------------------------------------------------------------------
# The agent's memory tools: which to call next, from what the message states or asks


def memory_text(statement: Said) -> str:
    """A statement as a memory: the user's words, a capital first and a full stop last.

    A Chinese clause that leaves its subject to the clause before (住在上海 after 我叫小明, 是一名医生 after
    我哥哥小王住在广州) gets it back (我, 我哥哥), so the memory stands alone.
    """
    text = statement.text.strip()
    if not text:
        return text
    if is_chinese(text):
        subject = "我" if statement.about == USER else statement.subject
        if subject and not text.startswith((subject, "我", "本人")):
            text = f"{subject}{text}"
        return text if text.endswith(("。", "！", "？")) else f"{text}。"
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else f"{text}."


def memory_values(result: str) -> list[tuple[str, str, str]]:
    """(created_at, key, content) of each memory a ``search_memory`` result lists (its JSON).

    Items the tool wrote hold ``{"content": text}``; the store manager's hold ``{"kind", "content":
    {"content": text}}``. Anything else is left out.
    """
    try:
        items = json.loads(result)
    except ValueError:
        return []
    found = []
    for item in items if isinstance(items, list) else []:
        value = item.get("value") if isinstance(item, dict) else None
        content = value.get("content") if isinstance(value, dict) else None
        if isinstance(content, dict):
            content = content.get("content")
        if isinstance(content, str) and content.strip():
            found.append((str(item.get("created_at", "")), str(item.get("key", "")), content))
    return found


def _turn_tool_results(messages: Sequence[BaseMessage]) -> list[ToolMessage]:
    last_human = max((i for i, m in enumerate(messages) if m.type == "human"), default=-1)
    return [m for m in messages[last_human + 1 :] if isinstance(m, ToolMessage)]


def plan_memory_call(messages: Sequence[BaseMessage], names: Sequence[str]) -> Reply | None:
    """The next memory tool call of this turn, or None when it is time to answer.

    A statement worth keeping is saved (``manage_memory``, one call each; a change is searched for first,
    so the memory it contradicts is updated rather than doubled); a question is searched for
    (``search_memory``) before it is answered. Each tool runs at most once a turn.
    """
    if not messages or messages[-1].type not in {"human", "tool"}:
        return None
    reading = read_prompt(messages)
    current = reading.user_messages - 1
    if current < 0:
        return None
    results = _turn_tool_results(messages)
    saved = any(m.name == MANAGE_MEMORY for m in results)
    searched = [m for m in results if m.name == SEARCH_MEMORY]
    text = next(content_text(m) for m in reversed(messages) if m.type == "human")
    keep = statements_worth_keeping(reading, current) if MANAGE_MEMORY in names and not saved else []
    asks = any(s.question for s in reading.said if s.message == current and s.source == "user")
    if SEARCH_MEMORY in names and not searched and (asks or any(_changes(s) for s in keep)):
        args = {"query": text}
        return Reply("", ({"name": SEARCH_MEMORY, "args": args, "id": call_id(SEARCH_MEMORY, args, text)},))
    if not keep:
        return None
    memories = [(key, content) for m in searched for _, key, content in memory_values(content_text(m))]
    calls = []
    for statement in keep:
        forgotten = forgotten_memories(statement, memories)
        if forgotten is not None:  # "Forget what I said about Lisbon": delete what holds it
            for key in forgotten:
                args = {"action": "delete", "id": key}
                calls.append({"name": MANAGE_MEMORY, "args": args, "id": call_id(MANAGE_MEMORY, args, text)})
            memories = [(key, content) for key, content in memories if key not in forgotten]
            continue
        content = memory_text(statement)
        target = memory_changed_by(content, memories) if _changes(statement) else None
        memories = [(key, text) for key, text in memories if key != target]  # one update per memory
        args: dict[str, Any] = {"content": content, "action": "create"}
        if target is not None:
            args = {"content": content, "action": "update", "id": target}
        calls.append({"name": MANAGE_MEMORY, "args": args, "id": call_id(MANAGE_MEMORY, args, text)})
    return Reply("", tuple(calls))


def forgotten_memories(statement: Said, memories: Sequence[tuple[str, str]]) -> list[str] | None:
    """For a statement that takes back what was said about something ("Forget what I said about
    Lisbon"): the ids of the memories that mention it; None for any other statement."""
    facts = extract_facts(statement.text)
    values = [f.value for f in facts if f.key == ANY_KEY and f.negated]
    if not values or any(not f.negated for f in facts):
        return None  # "my name is not Mara, it's Maria" replaces: an update, not a forgetting
    return [key for key, text in memories if any(v.casefold() in text.casefold() for v in values)]


def _changes(statement: Said) -> bool:
    """Whether a statement changes or takes back a fact ("I moved to Porto", "I no longer…")."""
    return statement.change or any(f.change or f.negated for f in extract_facts(statement.text))


def memory_changed_by(content: str, memories: Sequence[tuple[str, str]]) -> str | None:
    """The key of the memory whose fact ``content`` changes: same person and key, another value."""
    new = {(f.subject, f.key): f for f in extract_facts(content)}
    for key, text in memories:
        for fact in extract_facts(text):
            said = new.get((fact.subject, fact.key))
            if said is not None and (said.value, said.negated) != (fact.value, fact.negated):
                return key
    return None
