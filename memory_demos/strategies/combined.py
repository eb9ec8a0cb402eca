"""``combined``: CombinedMemory of a window (recent turns) and an entity memory (notes per name)."""

from __future__ import annotations

from typing import Any

from memory_demos.strategies.base import MemoryPart, ParamSpec, StrategyInfo, Threshold
from memory_demos.strategies.entity import EntityAwareStrategy, entity_fallback_variables
from memory_demos.strategies.shared.classic import import_classic_memory
from memory_demos.strategies.window import windowed_rows
from memory_demos.tracing import EXTRACT_ENTITIES

ENTITY_HISTORY_KEY = "entity_history"

INFO = StrategyInfo(
    id="combined",
    title="Combined (window + entities)",
    kind="classic",
    langchain_classes=(
        "langchain_classic.memory.CombinedMemory",
        "langchain_classic.memory.ConversationBufferWindowMemory",
        "langchain_classic.memory.ConversationEntityMemory",
        "langchain_classic.memory.InMemoryEntityStore",
    ),
    summary=(
        "Two memories in one prompt: the last k turns verbatim plus a note per name mentioned. The entity "
        "class keeps every name the model returns (see Failure lab)."
    ),
    title_zh="组合（窗口 + 实体）",
    summary_zh=(
        "一个提示里两种记忆：最近 k 轮原文，加上提到的每个名字的笔记；"
        "实体类会保留模型返回的每一个名字（见故障实验室）。"
    ),
    params=(
        ParamSpec(
            "k",
            2,
            "Recent exchanges sent verbatim (window) and read when extracting and updating entities.",
            minimum=1,
            help_zh="原样发送的最近几轮（窗口），抽取和更新实体时也读这几轮。",
        ),
    ),
    thresholds=(Threshold("k", "keep", "exchanges"),),
    keeps=(MemoryPart("messages", "conversation"), MemoryPart("entities", "conversation")),
)


class CombinedStrategy(EntityAwareStrategy):
    """Both sub-memories store every message; the window's last ``k`` pairs and the entity notes are sent."""

    info = INFO

    def _build_memory(self) -> Any:
        classic = import_classic_memory()
        window = classic.ConversationBufferWindowMemory(
            memory_key=self.memory_key, k=self.params["k"], input_key="input", return_messages=True
        )
        entities = classic.ConversationEntityMemory(
            llm=self.model_for(EXTRACT_ENTITIES),
            k=self.params["k"],
            chat_history_key=ENTITY_HISTORY_KEY,
            input_key="input",
            return_messages=True,
            entity_store=classic.InMemoryEntityStore(),
        )
        return classic.CombinedMemory(memories=[window, entities])

    @property
    def window_memory(self) -> Any:
        return self.memory.memories[0]

    def entity_memory(self) -> Any:
        return self.memory.memories[1]

    def chat_messages_store(self) -> Any:
        return self.window_memory.chat_memory

    def _fallback_variables(self, inputs: dict[str, Any]) -> dict[str, Any]:
        return {
            **self.window_memory.load_memory_variables(inputs),
            **entity_fallback_variables(self.entity_memory()),
        }

    def _keep_raw_turn(self, user_text: str, reply_text: str) -> None:
        for store in (self.window_memory.chat_memory, self.entity_memory().chat_memory):
            store.add_user_message(user_text)
            store.add_ai_message(reply_text)

    def _rollback_fields(self) -> dict[str, Any]:
        return {
            **super()._rollback_fields(),
            "entity_messages": list(self.entity_memory().chat_memory.messages),
        }

    def _restore_fields(self, fields: dict[str, Any]) -> None:
        super()._restore_fields(fields)
        store = self.entity_memory().chat_memory
        store.clear()
        store.add_messages(fields["entity_messages"])

    def snapshot(self) -> dict[str, Any]:
        stored = self.stored_messages()
        return {
            "k": self.params["k"],
            "messages": windowed_rows(stored, len(self.window_memory.buffer_as_messages)),
            **self.entity_state(),
        }


STRATEGY = CombinedStrategy
