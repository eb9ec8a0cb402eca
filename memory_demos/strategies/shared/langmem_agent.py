"""What the two LangMem strategies share: a checkpointed agent thread beside the user's memory store.

``memory_tools`` (the agent saves with LangMem's tools) and ``background_memory`` (LangMem's manager saves
after the reply) keep the same things: the thread in the checkpointer their ``store`` parameter names
(in memory, SQLite or PostgreSQL), the user's memories in a ``MemoryStore`` (namespace ``("memories",
<user>)``), the audit trail of every write, and the same ways to forget. They differ in who writes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from memory_demos.strategies.base import StrategyContext
from memory_demos.strategies.shared.checkpointed_graph import (
    CheckpointedGraphStrategy,
    open_postgres_saver,
    open_sqlite_saver,
)
from memory_demos.strategies.shared.langmem_store import MemoryStore
from memory_demos.strategies.shared.memory_audit import MemoryWrite

if TYPE_CHECKING:
    from langgraph.checkpoint.base import BaseCheckpointSaver


class LangMemStoreStrategy(CheckpointedGraphStrategy):
    """A checkpointed agent whose long-term memory is the user's LangMem store, with its audit trail."""

    # The fields of a memory's value the store's index embeds (LangMem's tools and manager differ).
    memory_fields: ClassVar[tuple[str, ...]] = ("content",)

    def __init__(
        self, context: StrategyContext | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
        self.writes: list[MemoryWrite] = []
        self.memories: MemoryStore | None = None
        super().__init__(context, params)

    @property
    def _postgres_use(self) -> str:
        """What a PostgreSQL connection is opened for, as its errors name it."""
        return f"{self.info.id}.store=postgres"

    def _open_checkpointer(self) -> BaseCheckpointSaver:
        if self.params["store"] == "sqlite":
            return open_sqlite_saver(self.context.folder())
        if self.params["store"] == "postgres":
            return open_postgres_saver(self.context.storage, self._postgres_use)
        return super()._open_checkpointer()

    def _open_memories(self) -> MemoryStore:
        """The user's memory store (in ``_build_graph``: the graph's tools or manager are bound to it)."""
        self.memories = MemoryStore(self, self.embeddings(), self.memory_fields, self._postgres_use)
        return self.memories

    @property
    def where(self) -> str:
        return "/".join(self.memories.namespace) if self.memories else ""

    def store_state(self) -> dict[str, Any]:
        """The head of a snapshot: which store, which embedding model, which namespace."""
        assert self.memories is not None
        return {
            "store": self.params["store"],
            "embedding_model": self.embedding_model(),
            "namespace": list(self.memories.namespace),
        }

    def forget_user(self) -> None:
        """Delete the user's memories, in every conversation of theirs."""
        if self.memories is not None:
            self.memories.clear()

    def close(self) -> None:
        super().close()
        if self.memories is not None:
            self.memories.close()
