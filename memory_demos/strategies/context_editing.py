"""``context_editing``: ``create_agent`` + ``ContextEditingMiddleware(ClearToolUsesEdit)`` on tool calls.

Before each model call, once the prompt passes ``trigger_tokens``, the middleware replaces the
content of all but the last ``keep`` tool results with a placeholder in the copy it sends. The
thread's checkpointed state keeps every result whole; only the prompt is edited. The trigger is
counted with the real tiktoken encoder plus the estimated tool definitions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.messages import BaseMessage, SystemMessage

from memory_demos.providers.tokenizer import count_messages_tokens
from memory_demos.strategies.agent import CHECKPOINTER_PARAM, AgentStrategy
from memory_demos.strategies.base import ParamSpec, StrategyInfo, Threshold
from memory_demos.strategies.shared.trimming_agent import agent_tool_tokens

PLACEHOLDER = "[cleared]"

INFO = StrategyInfo(
    id="context_editing",
    title="create_agent + ContextEditingMiddleware (clear old tool results)",
    kind="modern",
    langchain_classes=(
        "langchain.agents.create_agent",
        "langchain.agents.middleware.ContextEditingMiddleware",
        "langchain.agents.middleware.ClearToolUsesEdit",
        "langgraph.checkpoint.memory.InMemorySaver",
    ),
    summary=(
        "A tool-using agent whose middleware replaces old tool results with a placeholder once the "
        "prompt passes a token threshold; the thread keeps them, the prompt does not."
    ),
    title_zh="create_agent + ContextEditingMiddleware（清除旧工具结果）",
    summary_zh=(
        "使用工具的智能体；提示词超过词元阈值后，中间件把旧的工具结果换成占位符。线程里保留原文，"
        "提示词里不再发送。"
    ),
    params=(
        ParamSpec(
            "trigger_tokens",
            250,
            "Clear old tool results when the prompt reaches this many tokens (tool definitions included).",
            minimum=1,
            help_zh="提示达到这么多词元（含工具定义）时，清除旧的工具结果。",
        ),
        ParamSpec(
            "keep",
            1,
            "The most recent tool results that are never cleared.",
            minimum=0,
            help_zh="永不清除的最近几个工具结果。",
        ),
        CHECKPOINTER_PARAM,
    ),
    thresholds=(
        Threshold("trigger_tokens", "trigger"),
        Threshold("keep", "keep", "tool_results"),
    ),
)


class ContextEditingStrategy(AgentStrategy):
    """``create_agent(tools, middleware=[ContextEditingMiddleware(edits=[ClearToolUsesEdit(...)])])``."""

    info = INFO

    def agent_tools(self) -> list[Any]:
        from memory_demos.tools import TOOLS  # lazy: langchain_core.tools loads only for a tool agent

        return list(TOOLS)

    def count_prompt(self, messages: Sequence[BaseMessage]) -> int:
        """The trigger's count: the whole prompt with tiktoken (system message and tool definitions too)."""
        encoding = self.context.provider.tokenizer.encoding_name
        prompt = [SystemMessage(self.system_prompt), *messages]
        return count_messages_tokens(prompt, encoding) + agent_tool_tokens(encoding)

    def middleware(self) -> list[Any]:
        from langchain.agents.middleware import ClearToolUsesEdit, ContextEditingMiddleware

        edit = ClearToolUsesEdit(
            trigger=self.params["trigger_tokens"], keep=self.params["keep"], placeholder=PLACEHOLDER
        )
        return [ContextEditingMiddleware(edits=[edit], token_counter=self.count_prompt)]

    def snapshot(self) -> dict[str, Any]:
        messages = self.messages()
        results = [m for m in messages if m.type == "tool"]
        return {
            **super().snapshot(),
            "trigger_tokens": self.params["trigger_tokens"],
            "keep": self.params["keep"],
            "placeholder": PLACEHOLDER,
            "tool_results_in_thread": len(results),
            "thread_tokens": self.count_prompt(messages) if messages else 0,
        }


STRATEGY = ContextEditingStrategy
