"""A strategy whose conversation is one thread of a LangGraph graph compiled with a checkpointer.

``CheckpointedGraphStrategy`` keeps the thread's head, lists its checkpoints (every branch), rolls a
failed turn back and closes the saver's connection; ``langgraph``, ``summarization`` and ``long_term``
build their graphs on it. LangGraph is imported where a saver or a graph is built.
"""

from __future__ import annotations

import threading
from abc import abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from langchain_core.messages import BaseMessage, HumanMessage
from langchain_core.runnables import RunnableConfig

from memory_demos import storage
from memory_demos.strategies.base import Strategy, StrategyContext
from memory_demos.strategies.shared.paging import paged

if TYPE_CHECKING:
    from langgraph.checkpoint.base import BaseCheckpointSaver
    from langgraph.checkpoint.sqlite import SqliteSaver

CHECKPOINT_FILE = "checkpoints.sqlite"


def thread_id_for(context: StrategyContext) -> str:
    """The LangGraph ``thread_id`` of a conversation, namespaced by its user."""
    return f"{context.user_id}:{context.conversation_id}"


def open_sqlite_saver(folder: Path) -> SqliteSaver:
    """A ``SqliteSaver`` on the data folder's checkpoint file; ``StorageError`` names a damaged file."""
    from langgraph.checkpoint.sqlite import SqliteSaver

    path = storage.sqlite_file(CHECKPOINT_FILE, folder)
    connection = storage.connect(path)
    saver = SqliteSaver(connection)
    storage.run_sqlite_setup(connection, path, saver.setup, "checkpoints")
    return saver


def open_postgres_saver(
    config: storage.StorageConfig, what: str = "langgraph.checkpointer=postgres"
) -> BaseCheckpointSaver:
    """A ``PostgresSaver`` on its own connection to ``config.sql_url``, its tables migrated.

    Raises ``StorageError`` (password scrubbed, naming ``what``) if no URL is configured or the
    server refuses. ``close()`` of the strategy closes the connection.
    """
    from langgraph.checkpoint.postgres import PostgresSaver

    connection = storage.postgres_connection(config, what)
    saver = PostgresSaver(connection)
    storage.run_postgres_setup(config, connection, saver.setup, "LangGraph checkpoints")
    return saver


def checkpoint_id_of(config: RunnableConfig | None) -> str | None:
    if not config:
        return None
    return config.get("configurable", {}).get("checkpoint_id")


@dataclass(frozen=True)
class CheckpointInfo:
    """What the checkpoint list shows of one checkpoint; checkpoints never change, so it is cached."""

    config: RunnableConfig
    checkpoint_id: str
    parent_id: str | None
    step: int | None
    source: str | None
    messages: int
    next: tuple[str, ...]

    @property
    def turn_end(self) -> bool:
        """True when no node is left to run: the checkpoint a finished turn ends on."""
        return not self.next


class CheckpointedGraphStrategy(Strategy):
    """A strategy whose conversation is one thread of a compiled LangGraph graph with a checkpointer.

    ``self._head`` is the checkpoint the next turn continues from. It is normally the last finished
    turn, but after a fork or a failed turn it points back in history: invoking a graph with an older
    ``checkpoint_id`` makes LangGraph start a new branch from it.
    """

    def __init__(
        self, context: StrategyContext | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(context, params)
        self.thread_id = thread_id_for(self.context)
        self.checkpointer = self._open_checkpointer()
        self._closed = False
        self._known: dict[str, CheckpointInfo] = {}
        self._known_lock = threading.Lock()
        self._listed = False
        # The head's state as the last turn left it (None: read it from the saver when asked).
        self._head_state: tuple[RunnableConfig, dict[str, Any]] | None = None
        self.graph = self._build_graph(self.checkpointer)
        self._head: RunnableConfig | None = self._find_head()

    # -- hooks for subclasses ---------------------------------------------------------------
    def _open_checkpointer(self) -> BaseCheckpointSaver:
        """An ``InMemorySaver`` shared by the user's conversations: one saver, a thread per conversation."""
        from langgraph.checkpoint.memory import InMemorySaver

        return self.shared_backend("checkpointer", InMemorySaver)

    @abstractmethod
    def _build_graph(self, checkpointer: BaseCheckpointSaver) -> Any:
        """The compiled graph; its state has a ``messages`` channel."""

    # -- the thread -------------------------------------------------------------------------
    @property
    def thread_config(self) -> RunnableConfig:
        return {"configurable": {"thread_id": self.thread_id}}

    def saved_thread_ids(self) -> list[str]:
        """The threads the checkpointer holds for this user's conversations (in-process savers only:
        a file or server holds every user's, and listing them all is not this strategy's business)."""
        from langgraph.checkpoint.memory import InMemorySaver

        if not isinstance(self.checkpointer, InMemorySaver):
            return [self.thread_id]
        prefix = thread_id_for(replace(self.context, conversation_id=""))
        return sorted(tid for tid in self.checkpointer.storage if str(tid).startswith(prefix))

    def checkpoint_infos(self) -> list[CheckpointInfo]:
        """Every checkpoint of the thread, all branches, oldest first.

        The saver is listed once, when the strategy opens the thread (a reopened conversation); after
        that each turn records the checkpoints it creates from the graph's own ``checkpoints`` stream
        (``_invoke``). Listing again would deserialise the whole message list of every checkpoint it
        passes: with ``InMemorySaver`` that made a turn cost more the longer the thread was.
        """
        with self._known_lock:
            if not self._listed:
                self._list_saved_checkpoints()
                self._listed = True
            return list(self._known.values())

    def _list_saved_checkpoints(self) -> None:
        new_configs: list[RunnableConfig] = []
        newest_first = self.checkpointer.list(self.thread_config)
        try:
            for item in newest_first:
                if checkpoint_id_of(item.config) in self._known:
                    break
                new_configs.append(item.config)
        finally:
            # SqliteSaver holds its lock while its generator is open.
            getattr(newest_first, "close", lambda: None)()
        for config in reversed(new_configs):
            snapshot = self.graph.get_state(config)
            metadata = snapshot.metadata or {}
            self._remember_checkpoint(
                CheckpointInfo(
                    config=snapshot.config,
                    checkpoint_id=str(checkpoint_id_of(snapshot.config)),
                    parent_id=checkpoint_id_of(snapshot.parent_config),
                    step=metadata.get("step"),
                    source=metadata.get("source"),
                    messages=len((snapshot.values or {}).get("messages", [])),
                    next=tuple(snapshot.next),
                )
            )

    def _remember_checkpoint(self, info: CheckpointInfo) -> None:
        self._known[info.checkpoint_id] = info

    def _record_streamed_checkpoint(self, event: dict[str, Any]) -> CheckpointInfo:
        """A checkpoint event of ``graph.stream(stream_mode="checkpoints")``: what get_state would say."""
        metadata = event.get("metadata") or {}
        info = CheckpointInfo(
            config=event["config"],
            checkpoint_id=str(checkpoint_id_of(event["config"])),
            parent_id=checkpoint_id_of(event.get("parent_config")),
            step=metadata.get("step"),
            source=metadata.get("source"),
            messages=len((event.get("values") or {}).get("messages", [])),
            next=tuple(event.get("next") or ()),
        )
        with self._known_lock:
            self._remember_checkpoint(info)
        return info

    def _forget_thread(self) -> None:
        self.checkpointer.delete_thread(self.thread_id)
        with self._known_lock:
            self._known.clear()
            self._listed = True  # nothing is left to list
        self._head = None

    def _find_head(self) -> RunnableConfig | None:
        """The newest finished turn; else the thread's first checkpoint (only failed attempts); else None.

        Used when reopening a thread: an unfinished checkpoint (a turn whose model call failed) is
        never continued from.
        """
        infos = self.checkpoint_infos()
        for info in reversed(infos):
            if info.turn_end:
                return info.config
        return infos[0].config if infos else None

    def _invoke(self, graph_input: dict[str, Any]) -> dict[str, Any]:
        """Run the graph from the head; the new last checkpoint becomes the head.

        Streams ``values`` (the result, as ``invoke`` returns it) and ``checkpoints`` (each checkpoint
        the run saves, with its state), so nothing has to be read back from the saver afterwards.
        """
        infos = self.checkpoint_infos()  # a reopened thread is listed before this run adds to it
        # Addressing the newest checkpoint by id makes LangGraph load the thread's latest checkpoint
        # too, to see whether it was superseded; the thread alone continues from the same place.
        at_newest = bool(infos) and infos[-1].checkpoint_id == checkpoint_id_of(self._head)
        start = self.thread_config if at_newest or self._head is None else self._head
        result: dict[str, Any] = {}
        last: CheckpointInfo | None = None
        for mode, chunk in self.graph.stream(graph_input, start, stream_mode=["checkpoints", "values"]):
            if mode == "values":
                result = chunk
            else:
                last = self._record_streamed_checkpoint(chunk)
        if last is None:  # pragma: no cover - every run saves at least its input checkpoint
            self._head = self.graph.get_state(self.thread_config).config
            self._head_state = None
        else:
            self._head = last.config
            self._head_state = (last.config, dict(result))
        return result

    def _run_turn(self, user_text: str) -> str:
        result = self._invoke({"messages": [HumanMessage(user_text)]})
        return result["messages"][-1].text

    def head_values(self) -> dict[str, Any]:
        """The graph state at the head (empty before the first turn)."""
        if self._head is None:
            return {}
        if self._head_state is not None and self._head_state[0] is self._head:
            return dict(self._head_state[1])
        return dict(self.graph.get_state(self._head).values or {})

    def messages(self) -> list[BaseMessage]:
        """The thread's messages at the head, as the next turn will see them."""
        return list(self.head_values().get("messages", []))

    def stored_messages(self) -> list[BaseMessage]:
        return self.messages()

    def _branch(self, infos: list[CheckpointInfo]) -> list[CheckpointInfo]:
        """The checkpoints from the thread's root to the head, oldest first."""
        by_id = {info.checkpoint_id: info for info in infos}
        chain: list[CheckpointInfo] = []
        current = by_id.get(checkpoint_id_of(self._head) or "")
        while current is not None:
            chain.append(current)
            current = by_id.get(current.parent_id or "")
        return list(reversed(chain))

    def checkpoints(self) -> list[dict[str, Any]]:
        """Every checkpoint of the thread, oldest first, marking the current branch and the head.

        ``turn`` is the number of turns finished at a checkpoint that ends a turn on the current
        branch (what ``fork_at`` takes).
        """
        infos = self.checkpoint_infos()
        return self._checkpoint_rows(infos, infos)

    def checkpoints_state(self) -> dict[str, Any]:
        """The state view's newest page of ``checkpoints()`` (and the total): only that page is built."""
        infos = self.checkpoint_infos()
        return paged("checkpoints", infos, lambda page: self._checkpoint_rows(infos, page))

    def _checkpoint_rows(
        self, infos: list[CheckpointInfo], shown: list[CheckpointInfo]
    ) -> list[dict[str, Any]]:
        """Rows for ``shown``, numbered and marked against the whole thread ``infos``."""
        branch = self._branch(infos)
        on_branch = {info.checkpoint_id for info in branch}
        turn_of = {info.checkpoint_id: n for n, info in enumerate((i for i in branch if i.turn_end), start=1)}
        head_id = checkpoint_id_of(self._head)
        return [
            {
                "checkpoint_id": info.checkpoint_id,
                "parent_id": info.parent_id,
                "step": info.step,
                "source": info.source,
                "messages": info.messages,
                "next": list(info.next),
                "turn_end": info.turn_end,
                "turn": turn_of.get(info.checkpoint_id),
                "on_branch": info.checkpoint_id in on_branch,
                "head": info.checkpoint_id == head_id,
            }
            for info in shown
        ]

    # -- Strategy hooks ---------------------------------------------------------------------
    def _rollback_point(self) -> Any:
        return self._head

    def _rollback(self, point: Any) -> None:
        # The failed run left an unfinished checkpoint behind; pointing the head back at the last good
        # one makes the next turn branch from there instead of inheriting the failed input.
        if point is None:
            self._forget_thread()
        self._head = point

    def clear(self) -> None:
        self._forget_thread()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        # SqliteSaver and PostgresSaver own one connection each; the rows stay in the database.
        connection = getattr(self.checkpointer, "conn", None)
        if connection is not None and callable(getattr(connection, "close", None)):
            connection.close()
