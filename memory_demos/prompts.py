"""Prompts Memory Lab itself writes (LangChain's own prompts are imported where they are used)."""

import re

from memory_demos.i18n import Message
from memory_demos.prompt_markers import FACT_EXTRACTION_MARKER as FACT_EXTRACTION_MARKER

FACT_EXTRACTION_PROMPT = """Extract the stable facts the user states about themselves in the message below.
Write one fact per line as `key: value`, with a short snake_case key (name, city, favourite_food,
order_number, dog_name, ...). A changed fact replaces the old one. If the message states no fact, write NONE.

Message:
{message}"""


LONG_TERM_FACTS_HEADER = "Known facts about the user (from the long-term store):"
SUMMARY_HEADER = "Summary of the earlier conversation:"
LANGMEM_MEMORIES_HEADER = "Memories about the user (formed in the background by LangMem's memory manager):"
RETRIEVED_HEADER = "Possibly relevant earlier lines (retrieved by similarity):"
# The same headers in a Chinese session's prompts: the model reads the section in the conversation's
# language, and the prompt view shows exactly what it read (never the English header, translated after).
HEADERS_ZH = {
    LONG_TERM_FACTS_HEADER: "关于用户的已知事实（来自长期存储）：",
    SUMMARY_HEADER: "早先对话的摘要：",
    LANGMEM_MEMORIES_HEADER: "关于用户的记忆（由 LangMem 的记忆管理器在后台形成）：",
    RETRIEVED_HEADER: "可能相关的早先内容（按相似度检索）：",
}


def header(english: str, language: str = "en") -> str:
    """One of the headers above in ``language`` (the strategy's context's): Chinese, else English."""
    return HEADERS_ZH.get(english, english) if language == "zh" else english


# Self-edited memory blocks (the memory_blocks strategy): the section the middleware adds to the system
# message, and what the editing tools answer. ``MEMORY_BLOCK_HEADER`` lines are what the offline model
# reads a block by (``providers/offline_model/tools.py``).
MEMORY_BLOCKS_HEADER = (
    "Memory blocks (your own memory, always in this message; edit them with memory_append and "
    "memory_replace, each within its character limit)"
)
MEMORY_BLOCK_HEADER = "{label} ({used}/{limit} characters):"
MEMORY_BLOCK_EMPTY = "(empty)"
MEMORY_EDIT_DONE = "Saved. The {label} block now holds {used} of {limit} characters."
MEMORY_EDIT_FULL = (
    "Edit refused: the {label} block has no room for this ({used} of {limit} characters used; with this "
    "edit it would hold {needed}). Nothing was saved. Shorten or replace a line with memory_replace first."
)
MEMORY_EDIT_NOT_FOUND = "Edit refused: old_content does not appear in the {label} block. Nothing was changed."
MEMORY_EDIT_UNKNOWN_BLOCK = "Edit refused: there is no block named {label!r}. Nothing was saved."


def _template_pattern(template: str) -> re.Pattern[str]:
    """A template's text as a full-match pattern, each ``{field}`` (or ``{field!r}``) a named group."""
    parts = re.split(r"\{(\w+)(?:![rs])?\}", template)
    pattern = "".join(
        re.escape(part) if index % 2 == 0 else rf"'?(?P<{part}>.+?)'?" for index, part in enumerate(parts)
    )
    return re.compile(pattern, re.DOTALL)


# Each block tool answer as a catalogue key: what a view shows a reader in place of the model-facing text.
_BLOCK_TOOL_ANSWERS = tuple(
    (key, _template_pattern(template))
    for key, template in (
        ("strategy.block_tool.done", MEMORY_EDIT_DONE),
        ("strategy.block_tool.full", MEMORY_EDIT_FULL),
        ("strategy.block_tool.not_found", MEMORY_EDIT_NOT_FOUND),
        ("strategy.block_tool.unknown_block", MEMORY_EDIT_UNKNOWN_BLOCK),
    )
)


def block_tool_answer(text: str) -> str:
    """A memory-block tool's answer to the model as a ``Message`` a view can show in its language; any other
    text as it is. The model itself always reads the English template (the offline model parses it)."""
    for key, pattern in _BLOCK_TOOL_ANSWERS:
        found = pattern.fullmatch(text.strip())
        if found is not None:
            return Message(key, **found.groupdict())
    return text
