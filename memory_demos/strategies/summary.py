"""``summary``: ConversationSummaryMemory rewrites one running summary after every turn."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.prompts import ChatPromptTemplate

from memory_demos.i18n import Message
from memory_demos.prompts import SUMMARY_HEADER, header
from memory_demos.strategies.base import MemoryPart, StrategyInfo
from memory_demos.strategies.shared.classic import ClassicStrategy, import_classic_memory, messages_as_json
from memory_demos.tracing import SUMMARIZE

INFO = StrategyInfo(
    id="summary",
    title="Summary (running summary)",
    kind="classic",
    langchain_classes=("langchain_classic.memory.ConversationSummaryMemory",),
    summary="Sends a running summary instead of the messages: small prompts, one extra model call per turn.",
    title_zh="摘要（滚动摘要）",
    summary_zh="用滚动摘要代替消息发送：提示词小，每轮多一次模型调用。",
    keeps=(MemoryPart("summary", "conversation"),),
)


def system_with_summary(system_prompt: str, summary: str, language: str = "en") -> str:
    """The system message with the summary appended under a header in ``language`` (unchanged if there is
    no summary)."""
    if not summary.strip():
        return system_prompt
    return f"{system_prompt}\n\n{header(SUMMARY_HEADER, language)}\n{summary.strip()}"


class SummaryStrategy(ClassicStrategy):
    """The summary goes into the system message; the raw messages are stored but never sent."""

    info = INFO

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Turns kept raw because their summary call failed; folded in by the next successful save.
        self._unsummarized: list[BaseMessage] = []
        super().__init__(*args, **kwargs)

    def _build_memory(self) -> Any:
        memory = import_classic_memory()
        # return_messages=False: the memory hands back the summary text, which we put in the system message.
        return memory.ConversationSummaryMemory(llm=self.make_model(SUMMARIZE), memory_key=self.memory_key)

    def prompt(self) -> ChatPromptTemplate:
        return ChatPromptTemplate.from_messages([("system", "{system}"), ("human", "{input}")])

    def prompt_inputs(self, memory_variables: dict[str, Any], user_text: str) -> dict[str, Any]:
        summary = str(memory_variables[self.memory_key])
        return {
            "system": system_with_summary(self.system_prompt, summary, self.context.language),
            "input": user_text,
        }

    def _save(self, inputs: dict[str, Any], reply_text: str) -> None:
        """Fold turns whose summary call failed into the summary first, then save as usual.

        ``save_context`` only summarises the newest two messages, so without this catch-up a turn
        whose summary was skipped would never reach the model again.
        """
        if self._unsummarized:
            try:
                self.memory.buffer = self.memory.predict_new_summary(self._unsummarized, self.memory.buffer)
                self._unsummarized = []
            except Exception as exc:  # still degraded: keep waiting with the raw turns
                self.note(Message("strategy.note.summary_catch_up_failed", reason=self.describe(exc)))
        notes_before = len(self._notes)
        super()._save(inputs, reply_text)
        if len(self._notes) > notes_before:
            self._unsummarized.extend([HumanMessage(inputs["input"]), AIMessage(reply_text)])

    def clear(self) -> None:
        super().clear()
        self._unsummarized = []

    def _rollback_fields(self) -> dict[str, Any]:
        return {"buffer": self.memory.buffer, "_unsummarized": list(self._unsummarized)}

    def _restore_fields(self, fields: dict[str, Any]) -> None:
        self._unsummarized = list(fields.pop("_unsummarized", []))
        super()._restore_fields(fields)

    def snapshot(self) -> dict[str, Any]:
        return {
            "summary": self.memory.buffer,
            "stored_messages_note": Message("strategy.summary.stored_note"),
            "messages": messages_as_json(self.stored_messages()),
            "waiting_to_be_summarized": messages_as_json(self._unsummarized),
        }


STRATEGY = SummaryStrategy
