"""``agent_trim``: ``create_agent`` + a ``@before_model`` middleware that trims the thread before each call.

Set one of ``k`` (keep the last k exchanges, like ``window.k``) or ``max_tokens`` (keep the newest
whole turns that fit the prompt budget, like ``trim.max_tokens``; the system prompt and the tool
definitions are reserved first). Unlike ``trim``, the cut is written to the thread's checkpointed state:
what was removed is gone from the thread (earlier checkpoints keep it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import BaseMessage, SystemMessage

from memory_demos.i18n import Message
from memory_demos.providers.tokenizer import REPLY_PRIMING_TOKENS, count_message_tokens
from memory_demos.strategies.agent import CHECKPOINTER_PARAM, TOOLS_PARAM, AgentStrategy
from memory_demos.strategies.base import InputError, ParamSpec, StrategyContext, StrategyInfo, Threshold
from memory_demos.strategies.shared.agent_middleware import keep_last_turns, keep_within_tokens
from memory_demos.strategies.shared.classic import messages_as_json
from memory_demos.strategies.shared.trimming_agent import agent_tool_tokens

INFO = StrategyInfo(
    id="agent_trim",
    title="create_agent + @before_model trimming",
    kind="modern",
    langchain_classes=(
        "langchain.agents.create_agent",
        "langchain.agents.middleware.before_model",
        "langchain_core.messages.trim_messages",
        "langchain_core.messages.RemoveMessage",
        "langgraph.checkpoint.memory.InMemorySaver",
    ),
    summary=(
        "An agent whose before_model middleware trims the thread to the last k exchanges or to a token "
        "budget, removing the rest from the checkpointed state."
    ),
    title_zh="create_agent + @before_model 裁剪",
    summary_zh=(
        "智能体的 before_model 中间件把线程裁剪到最近 k 轮或词元预算内，其余消息从检查点状态中删除。"
    ),
    params=(
        ParamSpec(
            "k",
            3,
            "Exchanges kept besides the current one (0 = trim by max_tokens instead).",
            minimum=0,
            help_zh="除当前这轮外保留的轮数（0 = 改按 max_tokens 裁剪）。",
        ),
        ParamSpec(
            "max_tokens",
            0,
            "Prompt budget in tokens, system prompt and tool definitions included (0 = trim by k instead).",
            minimum=0,
            help_zh="提示的词元预算，含系统提示和工具定义（0 = 改按 k 裁剪）。",
        ),
        CHECKPOINTER_PARAM,
        TOOLS_PARAM,
    ),
    thresholds=(
        Threshold("max_tokens", "budget", off_when_zero=True),
        Threshold("k", "keep", "exchanges", off_when_zero=True),
    ),
)


def reserved_tokens(system_prompt: str, encoding_name: str, with_tools: bool) -> int:
    """What every prompt spends before any message: the system prompt, tool definitions, reply priming."""
    tools = agent_tool_tokens(encoding_name) if with_tools else 0
    return count_message_tokens(SystemMessage(system_prompt), encoding_name) + tools + REPLY_PRIMING_TOKENS


class AgentTrimStrategy(AgentStrategy):
    """``create_agent(..., middleware=[trim_to_last_turns | trim_to_token_budget], checkpointer=...)``."""

    info = INFO

    @classmethod
    def check_params(cls, params: Mapping[str, Any], context: StrategyContext) -> None:
        """Exactly one of ``k`` and ``max_tokens``; a token budget must leave room for a message."""
        if (params["k"] > 0) == (params["max_tokens"] > 0):
            raise InputError(
                Message("strategy.error.agent_trim_one_of", k=params["k"], max_tokens=params["max_tokens"])
            )
        if params["max_tokens"]:
            reserved = reserved_tokens(
                context.system_prompt, context.provider.tokenizer.encoding_name, params["tools"]
            )
            if params["max_tokens"] <= reserved:
                raise InputError(
                    Message(
                        "strategy.error.no_room_with_tools",
                        param="agent_trim.max_tokens",
                        value=params["max_tokens"],
                        reserved=reserved,
                    )
                )

    def __init__(
        self, context: StrategyContext | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
        self._removed: list[BaseMessage] = []
        super().__init__(context, params)

    def count_messages(self, messages: Sequence[BaseMessage]) -> int:
        """Tokens the messages take in the prompt (tiktoken, as the capture counts them)."""
        encoding = self.context.provider.tokenizer.encoding_name
        return sum(count_message_tokens(message, encoding) for message in messages)

    def middleware(self) -> list[Any]:
        if self.params["k"]:
            return [keep_last_turns(self.params["k"])]
        encoding = self.context.provider.tokenizer.encoding_name
        reserved = reserved_tokens(self.system_prompt, encoding, self.params["tools"])
        return [keep_within_tokens(self.params["max_tokens"] - reserved, self.count_messages)]

    def _respond(self, user_text: str) -> str:
        before = self.messages()
        reply = self._run_turn(user_text)
        kept = {message.id for message in self.messages()}
        self._removed = [message for message in before if message.id not in kept]
        if self._removed:
            self.note(Message("strategy.note.middleware_removed", count=len(self._removed)))
        return reply

    def _rollback_point(self) -> Any:
        return super()._rollback_point(), list(self._removed)

    def _rollback(self, point: Any) -> None:
        head, removed = point
        super()._rollback(head)
        self._removed = removed

    def snapshot(self) -> dict[str, Any]:
        return {
            **super().snapshot(),
            "k": self.params["k"],
            "max_tokens": self.params["max_tokens"],
            "removed_last_turn": messages_as_json(self._removed),
        }


STRATEGY = AgentTrimStrategy
