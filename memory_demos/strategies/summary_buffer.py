"""``summary_buffer``: ConversationSummaryBufferMemory keeps recent messages and summarises the overflow."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import SystemMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

from memory_demos.strategies.base import MemoryPart, ParamSpec, StrategyInfo, Threshold
from memory_demos.strategies.shared.classic import ClassicStrategy, import_classic_memory, messages_as_json
from memory_demos.strategies.summary import system_with_summary
from memory_demos.tracing import SUMMARIZE

INFO = StrategyInfo(
    id="summary_buffer",
    title="Summary buffer (summary + recent)",
    kind="classic",
    langchain_classes=("langchain_classic.memory.ConversationSummaryBufferMemory",),
    summary="Recent messages verbatim, older ones folded into a summary once a token budget is passed.",
    title_zh="摘要缓冲（摘要 + 最近消息）",
    summary_zh="最近的消息原样保留，超过词元预算后把更早的消息折叠进摘要。",
    params=(
        ParamSpec(
            "max_token_limit",
            200,
            "Token budget of the verbatim messages; older messages are summarised once it is passed.",
            # An empty message list already counts 3 tokens (reply priming): below that, prune pops
            # from an empty list on every turn.
            minimum=10,
            help_zh="原样保留的消息的词元预算；超过后，较早的消息会被归入摘要。",
        ),
    ),
    thresholds=(Threshold("max_token_limit", "budget", scope="history"),),
    keeps=(MemoryPart("messages", "conversation"), MemoryPart("summary", "conversation")),
)


class SummaryBufferStrategy(ClassicStrategy):
    """Recent messages as messages; the moving summary merged into the one system message."""

    info = INFO

    def _build_memory(self) -> Any:
        memory = import_classic_memory()
        return memory.ConversationSummaryBufferMemory(
            llm=self.make_model(SUMMARIZE),
            memory_key=self.memory_key,
            max_token_limit=self.params["max_token_limit"],
            return_messages=True,
        )

    def prompt(self) -> ChatPromptTemplate:
        return ChatPromptTemplate.from_messages(
            [("system", "{system}"), MessagesPlaceholder(self.memory_key), ("human", "{input}")]
        )

    def prompt_inputs(self, memory_variables: dict[str, Any], user_text: str) -> dict[str, Any]:
        history = list(memory_variables[self.memory_key])
        summary = ""
        # The class puts the summary first as its own SystemMessage; one system message at the top is
        # what every chat API accepts, so it is merged into ours.
        if history and isinstance(history[0], SystemMessage):
            summary = str(history.pop(0).content)
        return {
            "system": system_with_summary(self.system_prompt, summary, self.context.language),
            self.memory_key: history,
            "input": user_text,
        }

    def _rollback_fields(self) -> dict[str, Any]:
        return {"moving_summary_buffer": self.memory.moving_summary_buffer}

    def snapshot(self) -> dict[str, Any]:
        messages = self.stored_messages()
        return {
            "max_token_limit": self.params["max_token_limit"],
            "kept_tokens": self.memory.llm.get_num_tokens_from_messages(messages),
            "summary": self.memory.moving_summary_buffer,
            "messages": messages_as_json(messages),
        }


STRATEGY = SummaryBufferStrategy
