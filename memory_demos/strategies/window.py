"""``window``: ConversationBufferWindowMemory sends only the last ``k`` exchanges."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import BaseMessage

from memory_demos.strategies.base import ParamSpec, StrategyInfo, Threshold
from memory_demos.strategies.shared.classic import ClassicStrategy, import_classic_memory, messages_as_json

INFO = StrategyInfo(
    id="window",
    title="Window (last k turns)",
    kind="classic",
    langchain_classes=("langchain_classic.memory.ConversationBufferWindowMemory",),
    summary="Sends only the last k exchanges: constant cost, but older facts silently fall out.",
    title_zh="窗口（最近 k 轮）",
    summary_zh="只发送最近 k 轮对话：成本恒定，但更早的事实会悄悄丢失。",
    params=(
        ParamSpec(
            "k",
            3,
            "Exchanges (user message + reply) sent to the model; 0 sends no history at all.",
            minimum=0,
            help_zh="发给模型的对话轮数（用户消息 + 回复）；0 表示完全不发送历史。",
        ),
    ),
    thresholds=(Threshold("k", "keep", "exchanges"),),
)


class WindowStrategy(ClassicStrategy):
    """All messages are stored; only the last ``k`` pairs reach the prompt."""

    info = INFO

    def _build_memory(self) -> Any:
        memory = import_classic_memory()
        return memory.ConversationBufferWindowMemory(
            memory_key=self.memory_key, k=self.params["k"], return_messages=True
        )

    def snapshot(self) -> dict[str, Any]:
        stored = self.stored_messages()
        sent = len(self.memory.buffer_as_messages)
        # The class stores every message and slices at load time: the rest is kept but never sent.
        return {
            "k": self.params["k"],
            "stored_messages": len(stored),
            "sent_next_turn": sent,
            "messages": windowed_rows(stored, sent),
        }


def windowed_rows(stored: list[BaseMessage], sent: int) -> list[dict[str, Any]]:
    """Stored messages as rows; ``in_window`` marks the last ``sent`` ones, which the next prompt gets."""
    first_sent = len(stored) - sent
    return [{**row, "in_window": index >= first_sent} for index, row in enumerate(messages_as_json(stored))]


STRATEGY = WindowStrategy
