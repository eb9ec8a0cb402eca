"""Split a captured prompt into the sections the gauge shows, and compare one turn's prompt with the last.

Pure functions over ``PromptMessage``s: no Streamlit, so tests can check them directly. The rules:
the first system message is the system prompt (if memory text was appended to it, that tail is
classified by its header); other system messages are classified by their header; human/ai/tool
messages before the last human message are history; the last human message is the new input. The
tool definitions bound to the call are a section of their own (``tools``): no message holds them,
yet they are sent, billed and count against the context window.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from memory_demos.prompt_markers import SUMMARIZE
from memory_demos.prompts import HEADERS_ZH, LONG_TERM_FACTS_HEADER, RETRIEVED_HEADER, SUMMARY_HEADER
from memory_demos.turn import PromptMessage, Turn

Section = Literal["system", "tools", "summary", "entities", "retrieved", "history", "new_input", "memory"]
SECTIONS: tuple[Section, ...] = (
    "system",
    "tools",
    "summary",
    "entities",
    "retrieved",
    "history",
    "new_input",
    "memory",
)
# One Streamlit palette colour per section: the bar uses its hex value and the legend, written
# as ``:blue[...]`` markdown, the same named colour, so both always match the theme.
SECTION_PALETTE: dict[Section, tuple[str, str]] = {
    "system": ("gray", "#6b7280"),
    "tools": ("primary", "#2f6f9f"),
    "summary": ("violet", "#9b5de5"),
    "entities": ("orange", "#e0682b"),
    "retrieved": ("green", "#079464"),
    "history": ("blue", "#3b82f6"),
    "new_input": ("yellow", "#bb8300"),
    "memory": ("red", "#d94a57"),
}

_HEADER_RULES: tuple[tuple[Section, tuple[str, ...]], ...] = (
    ("summary", (SUMMARY_HEADER.lower(), "summary", "summarized", "summarised", "摘要")),
    (
        "retrieved",
        (RETRIEVED_HEADER.lower(), HEADERS_ZH[RETRIEVED_HEADER], "retrieved", "relevant", "similar"),
    ),
    (
        "entities",
        (
            LONG_TERM_FACTS_HEADER.lower(),
            HEADERS_ZH[LONG_TERM_FACTS_HEADER],
            "entit",
            "facts",
            "context:",
            "known about",
        ),
    ),
)
# A summary can also come back as a human message (e.g. the summarization middleware's).
_SUMMARY_MESSAGE_PREFIXES = (
    "here is a summary of the conversation",
    SUMMARY_HEADER.lower(),
    HEADERS_ZH[SUMMARY_HEADER],
)

ChangeKind = Literal["added", "dropped", "summarized", "summary", "retrieved", "entities"]


@dataclass(frozen=True)
class PromptPart:
    """One piece of a prompt: a whole message, or the memory tail appended to the system message."""

    index: int
    section: Section
    role: str
    content: str
    tokens: int

    @property
    def from_memory(self) -> bool:
        """True for everything memory put in the prompt (all but the system prompt and the new input)."""
        return self.section not in ("system", "tools", "new_input")


@dataclass(frozen=True)
class PromptChange:
    """One difference between this turn's prompt and the previous turn's."""

    kind: ChangeKind
    role: str
    content: str
    tokens: int


def classify_text(text: str) -> Section:
    """The memory section a block of injected text belongs to, from its first lines."""
    head = text.strip()[:200].lower()
    for section, markers in _HEADER_RULES:
        if any(marker in head for marker in markers):
            return section
    return "memory"


def _approximate_count(text: str) -> int:
    return max(1, len(text) // 4) if text else 0


def classify_prompt(
    messages: Sequence[PromptMessage],
    system_prompt: str | None = None,
    count_tokens: Callable[[str], int] | None = None,
) -> list[PromptPart]:
    """Label every message of a captured prompt with its section."""
    count = count_tokens or _approximate_count
    last_human = max((i for i, m in enumerate(messages) if m.role == "human"), default=-1)
    parts: list[PromptPart] = []
    seen_system = False
    for index, message in enumerate(messages):
        if message.role == "system":
            if not seen_system:
                seen_system = True
                tail = ""
                if system_prompt and message.content.startswith(system_prompt):
                    tail = message.content[len(system_prompt) :].strip()
                if tail:
                    tail_tokens = min(count(tail), message.tokens)
                    parts.append(
                        PromptPart(
                            index, "system", "system", system_prompt or "", message.tokens - tail_tokens
                        )
                    )
                    parts.append(PromptPart(index, classify_text(tail), "system", tail, tail_tokens))
                else:
                    parts.append(PromptPart(index, "system", "system", message.content, message.tokens))
            else:
                parts.append(
                    PromptPart(
                        index, classify_text(message.content), "system", message.content, message.tokens
                    )
                )
        elif index == last_human:
            parts.append(PromptPart(index, "new_input", message.role, message.content, message.tokens))
        elif message.content.strip().lower().startswith(_SUMMARY_MESSAGE_PREFIXES):
            parts.append(PromptPart(index, "summary", message.role, message.content, message.tokens))
        else:
            parts.append(PromptPart(index, "history", message.role, message.content, message.tokens))
    return parts


def tool_part(turn: Turn) -> PromptPart | None:
    """The tool definitions of a turn's reply call as one prompt part (index -1: not a message)."""
    if not turn.tool_schemas:
        return None
    import json

    content = json.dumps(list(turn.tool_schemas), ensure_ascii=False, indent=1)
    return PromptPart(-1, "tools", "tools", content, turn.tool_tokens)


def turn_prompt_parts(
    turn: Turn, system_prompt: str | None = None, count_tokens: Callable[[str], int] | None = None
) -> list[PromptPart]:
    """Every part of a turn's reply prompt: its messages by section, then its tool definitions."""
    parts = classify_prompt(turn.injected_prompt, system_prompt, count_tokens)
    tools = tool_part(turn)
    return [*parts, tools] if tools is not None else parts


def section_totals(parts: Sequence[PromptPart]) -> dict[Section, int]:
    """Tokens per section, in gauge order, sections with no tokens left out."""
    totals: dict[Section, int] = {}
    for section in SECTIONS:
        tokens = sum(part.tokens for part in parts if part.section == section)
        if tokens:
            totals[section] = tokens
    return totals


def _text_of(parts: Sequence[PromptPart], section: Section) -> str:
    return "\n".join(part.content for part in parts if part.section == section)


def diff_prompts(
    previous: Turn | None,
    current: Turn,
    system_prompt: str | None = None,
    count_tokens: Callable[[str], int] | None = None,
) -> list[PromptChange]:
    """What changed between the previous turn's prompt and this one's.

    ``added``: history messages this prompt carries that the last one did not. ``dropped``: messages a
    full buffer would now carry (the last prompt's history, its new input and its reply) that are
    missing; ``summarized`` instead when the summary changed, or a summarize call ran since the last
    prompt (memory folds the turns leaving its window after a reply, and a fold may leave the summary's
    text as it was). ``summary``, ``entities``: that block's new text. ``retrieved``: every retrieved
    block of this prompt.
    """
    count = count_tokens or _approximate_count
    now = classify_prompt(current.injected_prompt, system_prompt, count_tokens)
    before = classify_prompt(previous.injected_prompt, system_prompt, count_tokens) if previous else []
    history_now = [p for p in now if p.section == "history"]
    summary_now = _text_of(now, "summary")
    summary_changed = bool(summary_now) and summary_now != _text_of(before, "summary")

    changes = _added_history(history_now, before)
    if previous is not None:
        folded = summary_changed or _made_summarize_call(previous) or _made_summarize_call(current)
        changes += _left_history(previous, before, history_now, folded, count)
    if summary_changed:
        tokens = sum(p.tokens for p in now if p.section == "summary")
        changes.append(PromptChange("summary", "system", summary_now, tokens))
    entities_now = _text_of(now, "entities")
    if entities_now and entities_now != _text_of(before, "entities"):
        tokens = sum(p.tokens for p in now if p.section == "entities")
        changes.append(PromptChange("entities", "system", entities_now, tokens))
    changes += [
        PromptChange("retrieved", part.role, part.content, part.tokens)
        for part in now
        if part.section == "retrieved"
    ]
    return changes


def _made_summarize_call(turn: Turn) -> bool:
    """True when memory called the model to summarise during ``turn`` (its Tokens view lists the call)."""
    return any(call.purpose == SUMMARIZE for call in turn.memory_calls)


def _added_history(history_now: list[PromptPart], before: list[PromptPart]) -> list[PromptChange]:
    """History messages of this prompt that the previous prompt did not carry."""
    history_before = Counter((p.role, p.content) for p in before if p.section == "history")
    added: list[PromptChange] = []
    for part in history_now:
        key = (part.role, part.content)
        if history_before[key] > 0:
            history_before[key] -= 1
        else:
            added.append(PromptChange("added", part.role, part.content, part.tokens))
    return added


def _left_history(
    previous: Turn,
    before: list[PromptPart],
    history_now: list[PromptPart],
    folded: bool,
    count: Callable[[str], int],
) -> list[PromptChange]:
    """Messages a full buffer would now carry that this prompt lacks: dropped, or folded (summarized)."""
    expected = [(p.role, p.content, p.tokens) for p in before if p.section in ("history", "new_input")]
    if previous.ok and previous.reply:
        expected.append(("ai", previous.reply, count(previous.reply)))
    carried = Counter((p.role, p.content) for p in history_now)
    kind = "summarized" if folded else "dropped"
    left: list[PromptChange] = []
    for role, content, tokens in expected:
        if carried[(role, content)] > 0:
            carried[(role, content)] -= 1
        else:
            left.append(PromptChange(kind, role, content, tokens))
    return left
