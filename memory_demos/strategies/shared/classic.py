"""Shared machinery of the eight classic strategies: load → model → save around a real
``langchain_classic`` memory object, with rollback and graceful degradation.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import BaseMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

from memory_demos.i18n import Message
from memory_demos.strategies.base import Strategy


def import_classic_memory() -> Any:
    """``langchain_classic.memory``, imported on first use so listing strategies stays cheap.

    Its classes' deprecation warnings are left on: ``Strategy`` captures them and the pane shows them.
    """
    import langchain_classic.memory as classic_memory

    return classic_memory


def messages_as_json(messages: list[BaseMessage]) -> list[dict[str, str]]:
    """Stored messages as ``{"role", "content"}`` rows for the state view."""
    return [{"role": m.type, "content": str(m.content)} for m in messages]


@dataclass
class ClassicRollbackPoint:
    """Memory contents before a turn, restored if the reply call fails."""

    messages: list[BaseMessage]
    fields: dict[str, Any] = field(default_factory=dict)


class ClassicStrategy(Strategy):
    """A classic memory: ``load_memory_variables`` → ``prompt | model`` → ``save_context``.

    Subclasses build ``self.memory`` in ``_build_memory`` and may override ``prompt`` and the
    extra fields saved for rollback (``_rollback_fields``).
    """

    memory_key = "history"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.memory = self._build_memory()

    @abstractmethod
    def _build_memory(self) -> Any:
        """The real ``langchain_classic.memory`` object."""

    def prompt(self) -> ChatPromptTemplate:
        """The chat prompt: system message, the memory's messages, the new input."""
        return ChatPromptTemplate.from_messages(
            [
                ("system", "{system}"),
                MessagesPlaceholder(self.memory_key),
                ("human", "{input}"),
            ]
        )

    def prompt_inputs(self, memory_variables: dict[str, Any], user_text: str) -> dict[str, Any]:
        return {"system": self.system_prompt, "input": user_text, **memory_variables}

    def _respond(self, user_text: str) -> str:
        inputs = {"input": user_text}
        memory_variables = self.memory.load_memory_variables(inputs)
        chain = self.prompt() | self.reply_model
        reply = chain.invoke(self.prompt_inputs(memory_variables, user_text))
        reply_text = reply.content if isinstance(reply.content, str) else str(reply.content)
        self._save(inputs, reply_text)
        return reply_text

    def _save(self, inputs: dict[str, Any], reply_text: str) -> None:
        """``save_context``; if a memory call inside it fails, keep the raw turn and say so."""
        before = self._rollback_point()
        try:
            self.memory.save_context(inputs, {"output": reply_text})
        except Exception as exc:
            self._rollback(before)
            self._keep_raw_turn(inputs["input"], reply_text)
            self.note(Message("strategy.note.upkeep_skipped", reason=self.describe(exc)))

    def _keep_raw_turn(self, user_text: str, reply_text: str) -> None:
        self.chat_messages_store().add_user_message(user_text)
        self.chat_messages_store().add_ai_message(reply_text)

    def chat_messages_store(self) -> Any:
        """The ``BaseChatMessageHistory`` the memory keeps its raw messages in."""
        return self.memory.chat_memory

    def _rollback_fields(self) -> dict[str, Any]:
        return {}

    def _restore_fields(self, fields: dict[str, Any]) -> None:
        for name, value in fields.items():
            setattr(self.memory, name, value)

    def _rollback_point(self) -> ClassicRollbackPoint:
        return ClassicRollbackPoint(list(self.chat_messages_store().messages), self._rollback_fields())

    def _rollback(self, point: ClassicRollbackPoint) -> None:
        store = self.chat_messages_store()
        store.clear()
        store.add_messages(point.messages)
        self._restore_fields(point.fields)

    def stored_messages(self) -> list[BaseMessage]:
        return list(self.chat_messages_store().messages)

    def snapshot(self) -> dict[str, Any]:
        return {"messages": messages_as_json(self.stored_messages())}

    def clear(self) -> None:
        self.memory.clear()
