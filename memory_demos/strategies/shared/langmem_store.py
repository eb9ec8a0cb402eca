"""The LangGraph store LangMem's memories live in, for ``memory_tools`` and ``background_memory``.

An ``InMemoryStore`` with the vector index the project ships (``index={"embed", "dims", "fields"}``), so
``search_memory`` and the store manager's own search rank memories by meaning. As in ``semantic_store``,
the index lives in this process: with ``store=sqlite|postgres`` every write is also made in a
``SqliteStore``/``PostgresStore`` without an index, and a new object re-embeds those items into its index,
so the memories outlive a restart. The namespace is ``("memories", <user>, <strategy>)``: a user's
memories are shared by all of their conversations (with ``store=memory`` through the user's shared
in-process backends), and the two LangMem strategies, which write different shapes, never mix theirs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from memory_demos import storage
from memory_demos.strategies.base import ParamSpec, Strategy, StrategyContext
from memory_demos.strategies.shared.langgraph_store import (
    STORE_FILE,
    namespace_label,
    open_postgres_store,
    open_sqlite_store,
)
from memory_demos.strategies.shared.memory_audit import MemoryWrite

if TYPE_CHECKING:
    from langchain_core.embeddings import Embeddings
    from langgraph.store.base import BaseStore

MAX_MEMORIES = 10_000

STORE_PARAM = ParamSpec(
    "store",
    "memory",
    f"Where the memories live: memory (InMemoryStore, lost on restart), sqlite (SqliteStore on {STORE_FILE} "
    "in the data folder) or postgres (PostgresStore on MEMORY_LAB_SQL_URL); the vector index is rebuilt in "
    "this process from them.",
    choices=("memory", "sqlite", "postgres"),
    help_zh=f"记忆保存在哪里：memory（InMemoryStore，重启后丢失）、sqlite（数据目录中 {STORE_FILE} 上的 "
    "SqliteStore）或 postgres（MEMORY_LAB_SQL_URL 上的 PostgresStore）；向量索引由本进程根据它们重建。",
)


def memory_namespace(context: StrategyContext, strategy_id: str) -> tuple[str, ...]:
    """``("memories", <user>, <strategy>)``: LangMem's own layout (one namespace per user), per strategy."""
    return ("memories", namespace_label(context.user_id), strategy_id)


def memory_content(value: dict[str, Any]) -> str:
    """The text of a stored memory: the tool writes ``{"content": text}``, the manager ``{"kind",
    "content": {"content": text}}`` (its ``Memory`` schema)."""
    content = value.get("content")
    if isinstance(content, dict):
        content = content.get("content", content)
    return content if isinstance(content, str) else str(content)


class MemoryStore:
    """The indexed in-process store and, for ``store=sqlite|postgres``, its durable copy."""

    def __init__(
        self,
        strategy: Strategy,
        embeddings: Embeddings,
        fields: Sequence[str],
        what: str,
    ) -> None:
        from langgraph.store.memory import InMemoryStore

        context = strategy.context
        self.namespace = memory_namespace(context, strategy.info.id)
        self.where = where = strategy.params["store"]
        # 384 for both shipped models; measured, so OpenAI's or a test's embeddings get their own size.
        self.dims = len(embeddings.embed_query("dimensions"))
        self.fields = list(fields)
        index = {"embed": embeddings, "dims": self.dims, "fields": self.fields}
        if where == "memory":  # shared by this user's conversations, as a process keeps it
            name = f"store.{strategy.embedding_model()}.{self.dims}"
            self.store: BaseStore = strategy.shared_backend(name, lambda: InMemoryStore(index=index))
        else:  # the index lives in this object; the durable copy is re-embedded into it
            self.store = InMemoryStore(index=index)
        self._durable: BaseStore | None = None
        self._connection: Any = None
        if where == "sqlite":
            self._durable = open_sqlite_store(context)
            self._connection = self._durable.conn  # type: ignore[attr-defined]
        elif where == "postgres":
            self._connection = storage.postgres_connection(context.storage, what)
            self._durable = open_postgres_store(context.storage, self._connection)
        if self._durable is not None:
            for item in self._durable.search(self.namespace, limit=MAX_MEMORIES):
                self.store.put(self.namespace, item.key, dict(item.value))

    def values(self) -> dict[str, dict[str, Any]]:
        """Every memory of the namespace: key -> value."""
        return {item.key: dict(item.value) for item in self.store.search(self.namespace, limit=MAX_MEMORIES)}

    def rows(self) -> list[dict[str, Any]]:
        """The memories for a state view, oldest first: key, content, created and updated times."""
        items = sorted(self.store.search(self.namespace, limit=MAX_MEMORIES), key=lambda i: i.created_at)
        return [
            {
                "key": item.key,
                "content": memory_content(item.value),
                "created_at": item.created_at.isoformat(timespec="seconds"),
                "updated_at": item.updated_at.isoformat(timespec="seconds"),
            }
            for item in items
        ]

    def persist(self, writes: Sequence[MemoryWrite]) -> None:
        """Make ``writes`` in the durable copy too (nothing for ``store=memory``)."""
        if self._durable is None:
            return
        for write in writes:
            if write.operation == "delete":
                self._durable.delete(self.namespace, write.key)
                continue
            item = self.store.get(self.namespace, write.key)
            if item is not None:
                self._durable.put(self.namespace, write.key, dict(item.value), index=False)

    def restore(self, values: dict[str, dict[str, Any]]) -> None:
        """Put the namespace back to ``values`` (a failed turn's rollback), durable copy included."""
        current = self.values()
        for key in current.keys() - values.keys():
            self.store.delete(self.namespace, key)
            if self._durable is not None:
                self._durable.delete(self.namespace, key)
        for key, value in values.items():
            if current.get(key) != value:
                self.store.put(self.namespace, key, value)
                if self._durable is not None:
                    self._durable.put(self.namespace, key, value, index=False)

    def clear(self) -> None:
        self.restore({})

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None


def store_diff(
    before: dict[str, dict[str, Any]], after: dict[str, dict[str, Any]], *, turn: int, where: str, via: str
) -> list[MemoryWrite]:
    """The writes that turned ``before`` into ``after``: inserts (in the store's order), updates, deletes."""
    writes = []
    for key in [key for key in after if key not in before]:
        writes.append(MemoryWrite(turn, "insert", where, key, memory_content(after[key]), via))
    for key in sorted(after.keys() & before.keys()):
        if after[key] != before[key]:
            writes.append(MemoryWrite(turn, "update", where, key, memory_content(after[key]), via))
    for key in sorted(before.keys() - after.keys()):
        writes.append(MemoryWrite(turn, "delete", where, key, memory_content(before[key]), via))
    return writes
