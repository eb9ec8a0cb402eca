"""``@before_model`` middlewares that trim an agent's thread, shared by ``agent_trim`` and the guide.

They follow LangChain 1.x's short-term memory pattern: before each model call, return
``RemoveMessage(id=REMOVE_ALL_MESSAGES)`` followed by the messages to keep, which *replaces* the
thread's messages in the checkpointed state (earlier checkpoints still hold the old ones). Cuts fall
only before a human message, so an AI tool call never loses its tool result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.messages import BaseMessage

from memory_demos.i18n import Message
from memory_demos.strategies.base import InputError
from memory_demos.strategies.turn_trim import split_turns

MessageCounter = Callable[[Sequence[BaseMessage]], int]


def replace_all(kept: list[BaseMessage]) -> dict[str, Any]:
    """The state update that replaces the thread's messages with ``kept``."""
    from langchain_core.messages import RemoveMessage
    from langgraph.graph.message import REMOVE_ALL_MESSAGES

    return {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), *kept]}


def keep_last_turns(k: int) -> Any:
    """A middleware keeping the current exchange and the ``k`` before it, like the classic window."""
    from langchain.agents.middleware import AgentState, before_model

    @before_model
    def trim_to_last_turns(state: AgentState, runtime: Any) -> dict[str, Any] | None:
        turns = split_turns(state["messages"])  # a turn: a human message and what answered it
        if len(turns) <= k + 1:
            return None
        return replace_all([message for turn in turns[-(k + 1) :] for message in turn])

    return trim_to_last_turns


def keep_within_tokens(max_tokens: int, count_messages: MessageCounter) -> Any:
    """A middleware keeping the newest whole turns whose messages fit ``max_tokens`` (``trim_messages``).

    ``max_tokens`` is what the messages may take: the caller reserves the system prompt, the tool
    definitions and the reply priming. If even the current turn does not fit, it raises
    ``InputError`` rather than send a prompt without the question.
    """
    from langchain.agents.middleware import AgentState, before_model
    from langchain_core.messages import HumanMessage, trim_messages

    @before_model
    def trim_to_token_budget(state: AgentState, runtime: Any) -> dict[str, Any] | None:
        messages = list(state["messages"])
        kept = trim_messages(
            messages,
            max_tokens=max_tokens,
            token_counter=count_messages,
            strategy="last",
            start_on="human",  # cut between turns, never inside one
        )
        question = next(m for m in reversed(messages) if isinstance(m, HumanMessage))
        if not any(m is question for m in kept):
            raise InputError(
                Message(
                    "strategy.error.turn_over_budget",
                    tokens=count_messages(messages[messages.index(question) :]),
                    budget=max_tokens,
                )
            )
        return None if len(kept) == len(messages) else replace_all(kept)

    return trim_to_token_budget
