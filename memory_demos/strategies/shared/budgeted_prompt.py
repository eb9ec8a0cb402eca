"""The prompt ``hybrid`` packs into a hard token budget: its pieces, and the rule that drops them.

Sections (system, summary, retrieved, history, input) are assembled in that order. With
``history_first`` (seed article 003) the retrieved context may take at most ``RETRIEVED_SHARE`` of the
budget and the oldest window turns go first, then retrieved lines, then the summary; otherwise retrieved
lines go first, uncapped, then window turns, then the summary. The system prompt and the new message
are never dropped: if they alone exceed the budget, ``TokenBudgetError`` says so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, get_buffer_string

from memory_demos.i18n import Message
from memory_demos.prompts import RETRIEVED_HEADER, SUMMARY_HEADER, header
from memory_demos.strategies.base import InputError

SECTIONS = ("system", "summary", "retrieved", "history", "input")
RETRIEVED_SHARE = 0.3  # seed 003: retrieved context may take at most 30% of the budget


class TokenBudgetError(InputError):
    """The system prompt and the new message alone exceed ``hybrid.max_tokens``."""


@dataclass(frozen=True)
class PastTurn:
    """One finished turn: its number in the conversation, the message and the reply."""

    number: int
    human: HumanMessage
    ai: AIMessage

    @property
    def messages(self) -> list[BaseMessage]:
        return [self.human, self.ai]

    @property
    def text(self) -> str:
        return get_buffer_string(self.messages)


@dataclass(frozen=True)
class Hit:
    """A retrieved old turn and its cosine similarity to the new message (1 - cosine distance)."""

    turn: int
    text: str
    score: float


@dataclass
class AssembledPrompt:
    """The reply prompt, section by section, after the budget was applied."""

    sections: dict[str, list[BaseMessage]]
    hits: list[Hit]
    dropped: dict[str, int] = field(default_factory=dict)

    @property
    def messages(self) -> list[BaseMessage]:
        return [message for name in SECTIONS for message in self.sections[name]]


def assemble_prompt(
    *,
    system_prompt: str,
    summary: str,
    window: Sequence[PastTurn],
    hits: Sequence[Hit],
    user_text: str,
    budget: int,
    history_first: bool,
    count_tokens: Callable[[list[BaseMessage]], int],
    language: str = "en",
) -> AssembledPrompt:
    """The reply prompt within ``budget`` tokens (``count_tokens`` counts a prompt as the model sees it),
    its sections' headers in ``language``."""
    hits = sorted(hits, key=lambda hit: hit.score, reverse=True)
    window = list(window)
    keep_summary = bool(summary)
    dropped = {"retrieved": 0, "history": 0, "summary": 0}
    while True:
        retrieved = (
            [SystemMessage(header(RETRIEVED_HEADER, language) + "\n" + "\n\n".join(hit.text for hit in hits))]
            if hits
            else []
        )
        if history_first and retrieved and count_tokens(retrieved) > RETRIEVED_SHARE * budget:
            hits = hits[:-1]  # over its 30% share: the least similar line goes
            dropped["retrieved"] += 1
            continue
        sections: dict[str, list[BaseMessage]] = {
            "system": [SystemMessage(system_prompt)],
            "summary": [SystemMessage(f"{header(SUMMARY_HEADER, language)}\n{summary}")]
            if keep_summary
            else [],
            "retrieved": retrieved,
            "history": [message for turn in window for message in turn.messages],
            "input": [HumanMessage(user_text)],
        }
        prompt = AssembledPrompt(sections, hits, {k: v for k, v in dropped.items() if v})
        total = count_tokens(prompt.messages)
        if total <= budget:
            return prompt
        if history_first and window:
            window = window[1:]
            dropped["history"] += 1
        elif hits:
            hits = hits[:-1]
            dropped["retrieved"] += 1
        elif window:
            window = window[1:]
            dropped["history"] += 1
        elif keep_summary:
            keep_summary = False
            dropped["summary"] += 1
        else:
            raise TokenBudgetError(Message("strategy.error.hybrid_over_budget", tokens=total, budget=budget))


def turn_to_json(turn: PastTurn) -> list[Any]:
    """A past turn as a JSON row ``[number, message, reply]``."""
    return [turn.number, turn.human.text, turn.ai.text]


def turn_from_json(row: list[Any]) -> PastTurn:
    """The past turn a ``turn_to_json`` row holds."""
    number, human, ai = row
    return PastTurn(int(number), HumanMessage(str(human)), AIMessage(str(ai)))
