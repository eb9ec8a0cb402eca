"""``buffer``: ConversationBufferMemory keeps every message and sends them all, every turn."""

from __future__ import annotations

from typing import Any

from memory_demos.strategies.base import StrategyInfo
from memory_demos.strategies.shared.classic import ClassicStrategy, import_classic_memory

INFO = StrategyInfo(
    id="buffer",
    title="Buffer (everything)",
    kind="classic",
    langchain_classes=("langchain_classic.memory.ConversationBufferMemory",),
    summary="Keeps the whole conversation and sends all of it each turn: perfect recall, growing cost.",
    title_zh="缓冲（全部保留）",
    summary_zh="保留整段对话并每轮全部发送：记得最全，成本不断增长。",
)


class BufferStrategy(ClassicStrategy):
    """The whole history, unchanged, in every prompt."""

    info = INFO

    def _build_memory(self) -> Any:
        memory = import_classic_memory()
        return memory.ConversationBufferMemory(memory_key=self.memory_key, return_messages=True)


STRATEGY = BufferStrategy
