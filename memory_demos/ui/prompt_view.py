"""The "Prompt sent" and "What changed" views: every captured message, rendered as text."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st

from memory_demos.i18n import current_language, t
from memory_demos.prompt_sections import PromptChange, PromptPart

ROLE_ICONS = {
    "system": ":material/settings:",
    "human": ":material/person:",
    "ai": ":material/smart_toy:",
    "tool": ":material/build:",
}
CHANGE_ICONS = {
    "added": ":material/add_circle:",
    "dropped": ":material/remove_circle:",
    "summarized": ":material/compress:",
    "summary": ":material/notes:",
    "retrieved": ":material/travel_explore:",
    "entities": ":material/badge:",
}


def role_label(role: str) -> str:
    """The translated name of a message role (unknown roles shown as they are)."""
    key = f"role.{role}"
    label = t(key)
    return role if label == key else label


def tool_call_line(call: Mapping[str, Any]) -> str:
    """A tool call as one line of text: its name and its arguments as JSON."""
    return f"{call.get('name', '?')}({json.dumps(call.get('args', {}), ensure_ascii=False)})"


# The result LangMem's manage_memory tool returns, in English whatever the conversation's language.
_LANGMEM_RESULT = re.compile(r"^(?P<action>created|updated|deleted) memory (?P<id>\S+)$", re.IGNORECASE)
_LANGMEM_GLOSSES = {
    "created": "prompt.langmem_result.created",
    "updated": "prompt.langmem_result.updated",
    "deleted": "prompt.langmem_result.deleted",
}


def tool_result_gloss(content: str) -> str | None:
    """What a LangMem memory tool's own result says, in the page's language; None for any other text.

    The message itself is shown as the model received it; on a page in another language than English
    this line under it says what it means.
    """
    found = _LANGMEM_RESULT.match(content.strip())
    if found is None:
        return None
    return t(_LANGMEM_GLOSSES[found.group("action").lower()], id=found.group("id"))


def render_tool_gloss(role: str, content: str) -> None:
    """Under a tool message on a page not in English: what LangMem's English tool result means."""
    gloss = tool_result_gloss(content) if role == "tool" and current_language() != "en" else None
    if gloss is not None:
        st.caption(gloss)


def _message_block(
    part: PromptPart, show_section: bool, tool_calls: Sequence[Mapping[str, Any]] = ()
) -> None:
    """A message's heading and text; an assistant message that only called tools shows the calls."""
    icon = ROLE_ICONS.get(part.role, ":material/chat:")
    heading = t("prompt.message_heading", role=role_label(part.role), tokens=part.tokens)
    if show_section:
        heading += " · " + t(f"section.{part.section}")
    st.caption(f"{icon} {heading}")
    if tool_calls and not part.content.strip():
        st.code("\n".join(tool_call_line(call) for call in tool_calls), language=None, wrap_lines=True)
        return
    st.code(part.content or " ", language=None, wrap_lines=True)
    render_tool_gloss(part.role, part.content)


def render_prompt(
    parts: Sequence[PromptPart], tool_calls: dict[int, list[dict[str, object]]] | None = None
) -> None:
    """One block per message; what memory added sits in its own bordered box, apart from the new message."""
    if not parts:
        st.caption(t("prompt.none"))
        return
    system = [p for p in parts if p.section == "system"]
    memory = [p for p in parts if p.from_memory]
    new_input = [p for p in parts if p.section == "new_input"]
    for part in system:
        _message_block(part, show_section=False)
    for part in (p for p in parts if p.section == "tools"):
        with st.expander(f":material/build: {t('prompt.tools_heading', tokens=part.tokens)}"):
            st.caption(t("prompt.tools_estimated"))
            st.code(part.content, language="json", wrap_lines=True)
    with st.container(border=True):
        memory_tokens = sum(p.tokens for p in memory)
        st.markdown(f"**:material/memory: {t('prompt.added_by_memory')}**")
        st.caption(t("prompt.added_by_memory_counts", messages=len(memory), tokens=memory_tokens))
        if not memory:
            st.caption(t("prompt.memory_added_nothing"))
        for part in memory:
            calls = (tool_calls or {}).get(part.index, [])
            _message_block(part, show_section=True, tool_calls=calls)
            if calls and part.content.strip():  # text and calls: the calls as data below the text
                st.json(calls, expanded=False)
    for part in new_input:
        st.markdown(f"**:material/arrow_forward: {t('prompt.new_message')}**")
        _message_block(part, show_section=False)


def render_changes(changes: Sequence[PromptChange], first_turn: bool) -> None:
    """The difference with the previous prompt: one labelled text block per change."""
    if first_turn:
        st.caption(t("changes.first_turn"))
        return
    if not changes:
        st.caption(t("changes.none"))
        return
    counts: dict[str, int] = {}
    for change in changes:
        counts[change.kind] = counts.get(change.kind, 0) + 1
    st.caption(" · ".join(t(f"changes.count.{kind}", n=n) for kind, n in counts.items()))
    for change in changes:
        icon = CHANGE_ICONS.get(change.kind, ":material/change_history:")
        heading = t(
            "changes.heading",
            kind=t(f"changes.kind.{change.kind}"),
            role=role_label(change.role),
            tokens=change.tokens,
        )
        st.caption(f"{icon} {heading}")
        st.code(change.content or " ", language=None, wrap_lines=True)
