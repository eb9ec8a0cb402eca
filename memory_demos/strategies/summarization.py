"""``summarization``: ``create_agent`` with ``SummarizationMiddleware``: old messages become a summary.

Before every model call the middleware counts the thread's messages; past ``trigger_tokens`` it asks
the summary model to condense all but the last ``keep_messages`` messages and *replaces* them in the
agent's state with one summary message. The thread is checkpointed by ``InMemorySaver``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from langchain_core.messages import BaseMessage, MessageLikeRepresentation, convert_to_messages

from memory_demos.i18n import Message
from memory_demos.providers.tokenizer import count_messages_tokens
from memory_demos.strategies.base import MemoryPart, ParamSpec, StrategyContext, StrategyInfo, Threshold
from memory_demos.strategies.shared.checkpointed_graph import CheckpointedGraphStrategy
from memory_demos.strategies.shared.classic import messages_as_json
from memory_demos.tracing import SUMMARIZE

if TYPE_CHECKING:
    from langgraph.checkpoint.base import BaseCheckpointSaver

# What SummarizationMiddleware puts in front of the summary in the message it writes.
SUMMARY_MESSAGE_PREFIX = "Here is a summary of the conversation to date:\n\n"
SUMMARY_SOURCE = "summarization"

INFO = StrategyInfo(
    id="summarization",
    title="Agent + SummarizationMiddleware",
    kind="modern",
    langchain_classes=(
        "langchain.agents.create_agent",
        "langchain.agents.middleware.SummarizationMiddleware",
        "langgraph.checkpoint.memory.InMemorySaver",
    ),
    summary=(
        "An agent whose middleware replaces old messages with a model-written summary once the "
        "history passes a token threshold; the last few messages stay verbatim."
    ),
    title_zh="智能体 + SummarizationMiddleware",
    summary_zh="历史超过词元阈值后，中间件用模型写的摘要替换旧消息；最后几条消息原样保留。",
    params=(
        ParamSpec(
            "trigger_tokens",
            400,
            "Summarise when the thread's messages reach this many tokens (tiktoken count).",
            minimum=50,
            help_zh="线程中的消息达到这么多词元（tiktoken 计数）时生成摘要。",
        ),
        ParamSpec(
            "keep_messages",
            4,
            "How many of the most recent messages stay verbatim after a summary.",
            minimum=1,
            help_zh="生成摘要后原样保留的最近消息条数。",
        ),
    ),
    thresholds=(
        Threshold("trigger_tokens", "trigger", scope="messages"),
        Threshold("keep_messages", "keep", "messages"),
    ),
    keeps=(MemoryPart("messages", "conversation"), MemoryPart("summary", "conversation")),
)


def tiktoken_counter(encoding_name: str) -> Any:
    """A ``token_counter`` for the middleware that counts with the real tiktoken encoder."""

    def count(messages: Iterable[MessageLikeRepresentation]) -> int:
        return count_messages_tokens(convert_to_messages(list(messages)), encoding_name)

    return count


def is_summary_message(message: BaseMessage) -> bool:
    """True for the message SummarizationMiddleware wrote in place of the old ones."""
    return message.additional_kwargs.get("lc_source") == SUMMARY_SOURCE


def summary_text(message: BaseMessage) -> str:
    text = message.text
    return text[len(SUMMARY_MESSAGE_PREFIX) :] if text.startswith(SUMMARY_MESSAGE_PREFIX) else text


class SummarizationStrategy(CheckpointedGraphStrategy):
    """``create_agent(..., middleware=[SummarizationMiddleware(...)], checkpointer=InMemorySaver())``."""

    info = INFO

    def __init__(
        self, context: StrategyContext | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
        self._replaced: list[BaseMessage] = []
        super().__init__(context, params)

    def _build_graph(self, checkpointer: BaseCheckpointSaver) -> Any:
        from langchain.agents import create_agent
        from langchain.agents.middleware import SummarizationMiddleware

        encoding = self.context.provider.tokenizer.encoding_name
        self.middleware = SummarizationMiddleware(
            model=self.make_model(SUMMARIZE),
            trigger=("tokens", self.params["trigger_tokens"]),
            keep=("messages", self.params["keep_messages"]),
            token_counter=tiktoken_counter(encoding),
        )
        return create_agent(
            model=self.reply_model,
            tools=[],
            system_prompt=self.system_prompt,
            middleware=[self.middleware],
            checkpointer=checkpointer,
        )

    def _respond(self, user_text: str) -> str:
        before = self.messages()
        reply = self._run_turn(user_text)
        kept_ids = {message.id for message in self.messages()}
        self._replaced = [message for message in before if message.id not in kept_ids]
        if self._replaced:
            one = ".one" if len(self._replaced) == 1 else ""  # "1 message", not "1 messages"
            self.note(Message("strategy.note.summarization_replaced" + one, count=len(self._replaced)))
        return reply

    def _rollback_point(self) -> Any:
        return (super()._rollback_point(), list(self._replaced))

    def _rollback(self, point: Any) -> None:
        head, replaced = point
        super()._rollback(head)
        self._replaced = replaced

    def clear(self) -> None:
        super().clear()
        self._replaced = []

    def snapshot(self) -> dict[str, Any]:
        messages = self.messages()
        summary = next((m for m in messages if is_summary_message(m)), None)
        encoding = self.context.provider.tokenizer.encoding_name
        return {
            "thread_id": self.thread_id,
            "summary": summary_text(summary) if summary is not None else None,
            "replaced_last_turn": messages_as_json(self._replaced),
            "messages": messages_as_json(messages),
            "message_tokens": count_messages_tokens(messages, encoding) if messages else 0,
            "trigger_tokens": self.params["trigger_tokens"],
            "keep_messages": self.params["keep_messages"],
        }


STRATEGY = SummarizationStrategy
