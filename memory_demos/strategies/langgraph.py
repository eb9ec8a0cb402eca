"""``langgraph``: a ``StateGraph(MessagesState)`` compiled with a checkpointer; every step is a checkpoint.

The conversation is a LangGraph *thread*: each ``invoke`` adds checkpoints (input → model → done),
kept by ``InMemorySaver``, ``SqliteSaver`` or ``PostgresSaver`` (the server of ``MEMORY_LAB_SQL_URL``,
shared by every app process). Because every past state is kept, the conversation can be rewound to
any earlier turn and continued on a new branch (time travel).

This module is ``memory_demos.strategies.langgraph``; inside it ``langgraph`` is still the installed
package (Python 3 imports are absolute), so ``from langgraph.graph import StateGraph`` works. LangGraph is
imported where a graph or a checkpointer is built, so listing strategies does not load it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from langchain_core.messages import SystemMessage

from memory_demos.i18n import Message
from memory_demos.strategies.base import InputError, ParamSpec, StrategyInfo
from memory_demos.strategies.shared.checkpointed_graph import (
    CHECKPOINT_FILE,
    CheckpointedGraphStrategy,
    checkpoint_id_of,
    open_postgres_saver,
    open_sqlite_saver,
)
from memory_demos.strategies.shared.classic import messages_as_json
from memory_demos.strategies.shared.paging import paged

if TYPE_CHECKING:
    from langgraph.checkpoint.base import BaseCheckpointSaver

INFO = StrategyInfo(
    id="langgraph",
    title="LangGraph checkpointer (threads + time travel)",
    kind="modern",
    langchain_classes=(
        "langgraph.graph.StateGraph",
        "langgraph.graph.MessagesState",
        "langgraph.checkpoint.memory.InMemorySaver",
        "langgraph.checkpoint.sqlite.SqliteSaver",
        "langgraph.checkpoint.postgres.PostgresSaver",
    ),
    summary=(
        "A LangGraph graph saves a checkpoint after every step of a thread. Sends the whole history; "
        "any earlier turn can be reopened and continued on a new branch."
    ),
    title_zh="LangGraph 检查点（线程 + 时间旅行）",
    summary_zh="LangGraph 图在线程的每一步后保存检查点；发送全部历史，可以回到任意一轮并在新分支上继续。",
    params=(
        ParamSpec(
            "checkpointer",
            "memory",
            f"Where checkpoints live: memory (InMemorySaver, lost on restart), sqlite "
            f"(SqliteSaver on {CHECKPOINT_FILE} in the data folder) or postgres (PostgresSaver on the "
            "server of MEMORY_LAB_SQL_URL, shared by every app process).",
            choices=("memory", "sqlite", "postgres"),
            help_zh=f"检查点保存在哪里：memory（InMemorySaver，重启后丢失）、sqlite（数据目录中 "
            f"{CHECKPOINT_FILE} 上的 SqliteSaver）或 postgres（MEMORY_LAB_SQL_URL 所指服务器上的 "
            "PostgresSaver，所有应用进程共用）。",
        ),
    ),
)


class LangGraphStrategy(CheckpointedGraphStrategy):
    """``START → model → END`` over ``MessagesState``; the checkpointer is the memory."""

    info = INFO

    def _open_checkpointer(self) -> BaseCheckpointSaver:
        if self.params["checkpointer"] == "sqlite":
            return open_sqlite_saver(self.context.folder())
        if self.params["checkpointer"] == "postgres":
            return open_postgres_saver(self.context.storage)
        return super()._open_checkpointer()

    def _build_graph(self, checkpointer: BaseCheckpointSaver) -> Any:
        from langgraph.graph import END, START, MessagesState, StateGraph

        def call_model(state: MessagesState) -> dict[str, Any]:
            response = self.reply_model.invoke([SystemMessage(self.system_prompt), *state["messages"]])
            return {"messages": [response]}

        builder = StateGraph(MessagesState)
        builder.add_node("model", call_model)
        builder.add_edge(START, "model")
        builder.add_edge("model", END)
        return builder.compile(checkpointer=checkpointer)

    def _respond(self, user_text: str) -> str:
        return self._run_turn(user_text)

    def rewind(self, checkpoint_id: str) -> None:
        """Make an earlier checkpoint the head: the next turn continues from it on a new branch.

        Only a checkpoint that ends a turn, or the thread's first checkpoint, can be reopened.
        """
        with self._turn_lock:
            infos = self.checkpoint_infos()
            for info in infos:
                if info.checkpoint_id == checkpoint_id:
                    if not info.turn_end and info is not infos[0]:
                        raise InputError(
                            Message("strategy.error.checkpoint_mid_turn", checkpoint=checkpoint_id)
                        )
                    self._head = info.config
                    return
        raise InputError(
            Message(
                "strategy.error.checkpoint_not_in_thread", checkpoint=checkpoint_id, thread=self.thread_id
            )
        )

    def fork_at(self, turn_index: int) -> None:
        """Go back to the state after ``turn_index`` finished turns of the current branch (0 = empty)."""
        with self._turn_lock:
            branch = self._branch(self.checkpoint_infos())
            turn_ends = [info for info in branch if info.turn_end]
            if not 0 <= turn_index <= len(turn_ends):
                raise InputError(
                    Message("strategy.error.fork_turn", turn=turn_index, finished=len(turn_ends))
                )
            if not branch:
                return  # nothing happened yet: the empty thread is already "after turn 0"
            target = branch[0] if turn_index == 0 else turn_ends[turn_index - 1]
            self._head = target.config

    def snapshot(self) -> dict[str, Any]:
        return {
            "thread_id": self.thread_id,
            "checkpointer": self.params["checkpointer"],
            "head": checkpoint_id_of(self._head),
            **self.checkpoints_state(),
            **paged("messages", self.messages(), messages_as_json),
        }


STRATEGY = LangGraphStrategy
