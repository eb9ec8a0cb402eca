"""``memory_tools``: the agent keeps its own long-term memory with LangMem's tools, on the hot path.

``create_agent`` gets ``create_manage_memory_tool`` and ``create_search_memory_tool`` over a LangGraph
store namespaced by user (``("memories", <user>)``, the vector index the project ships; in memory, SQLite
or PostgreSQL). Nothing is written unless the model decides to call ``manage_memory``: memory depends on
the model's judgement, and every save or search is an extra model round in the turn (counted as a tool
round, apart from the reply). Only the last ``recent_turns`` exchanges travel as messages, so what
left the window comes back only through ``search_memory``. Each insert, update and delete is in the
audit trail with its turn and the tool call that made it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, NotRequired

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, RemoveMessage, ToolMessage

from memory_demos.strategies.base import (
    MemoryPart,
    ParamSpec,
    StrategyContext,
    StrategyInfo,
    Threshold,
    TokenListener,
)
from memory_demos.strategies.shared.classic import messages_as_json
from memory_demos.strategies.shared.embedding_param import EMBEDDINGS_PARAM
from memory_demos.strategies.shared.langmem_agent import LangMemStoreStrategy
from memory_demos.strategies.shared.langmem_store import STORE_PARAM, store_diff
from memory_demos.strategies.shared.memory_audit import AUDIT_KEY, audit_rows, audit_state
from memory_demos.strategies.shared.paging import paged
from memory_demos.strategies.turn_trim import split_turns

if TYPE_CHECKING:
    from langgraph.checkpoint.base import BaseCheckpointSaver

    from memory_demos.turn import Turn

MANAGE_TOOL = "manage_memory"
SEARCH_TOOL = "search_memory"
VIA_MANAGE = f"tool:{MANAGE_TOOL}"
_RESULT_KEY = re.compile(r"memory ([0-9a-f-]{36})\b", re.IGNORECASE)

INFO = StrategyInfo(
    id="memory_tools",
    title="LangMem memory tools (the agent saves and searches)",
    kind="modern",
    langchain_classes=(
        "langchain.agents.create_agent",
        "langmem.create_manage_memory_tool",
        "langmem.create_search_memory_tool",
        "langgraph.store.memory.InMemoryStore",
        "langgraph.store.sqlite.SqliteStore",
        "langgraph.store.postgres.PostgresStore",
    ),
    summary=(
        "The agent decides what to remember: LangMem's manage_memory and search_memory tools write and "
        "search a LangGraph store of the user's memories while it answers (extra tool rounds each time)."
    ),
    title_zh="LangMem 记忆工具（智能体自己保存和检索）",
    summary_zh=(
        "由智能体决定记住什么：LangMem 的 manage_memory 和 search_memory 工具在回答时写入并检索该用户的 "
        "LangGraph 存储（每次都多一轮工具调用）。"
    ),
    params=(
        ParamSpec(
            "recent_turns",
            1,
            "Recent exchanges also sent as messages (0: only the new message); older ones come back only "
            "through search_memory.",
            minimum=0,
            help_zh="另外作为消息发送的最近几轮（0：只发新消息）；更早的只能通过 search_memory 找回。",
        ),
        STORE_PARAM,
        EMBEDDINGS_PARAM,
    ),
    thresholds=(Threshold("recent_turns", "keep", "exchanges"),),
    keeps=(MemoryPart("messages", "conversation"), MemoryPart("memories", "user")),
)


def older_than_window(messages: list[BaseMessage], recent_turns: int) -> list[BaseMessage]:
    """The messages no later prompt includes: all but the last ``recent_turns`` turns (and never the turn
    just answered, which the strategy reads its reply and tool calls from)."""
    turns = split_turns(messages)
    older = turns[: max(len(turns) - max(recent_turns, 1), 0)]
    return [message for turn in older for message in turn]


def build_window_middleware(recent_turns: int) -> Any:
    """A middleware that sends the last ``recent_turns`` turns and the current one, and removes older
    messages from the thread once the agent answered (they can only come back through the tools)."""
    from langchain.agents.middleware import AgentMiddleware, AgentState

    class WindowState(AgentState):
        removed_messages: NotRequired[int]  # messages removed from the thread so far

    class RecentTurns(AgentMiddleware):
        state_schema = WindowState

        def wrap_model_call(self, request: Any, handler: Any) -> Any:
            turns = split_turns(request.messages)[-(recent_turns + 1) :]
            return handler(request.override(messages=[m for turn in turns for m in turn]))

        def after_agent(self, state: Any, runtime: Any) -> dict[str, Any] | None:
            messages = state["messages"]
            if not messages or not isinstance(messages[-1], AIMessage) or messages[-1].tool_calls:
                return None
            removed = older_than_window(messages, recent_turns)
            if not removed:
                return None
            return {
                "messages": [RemoveMessage(id=str(message.id)) for message in removed],
                "removed_messages": state.get("removed_messages", 0) + len(removed),
            }

    return RecentTurns()


def tool_write_calls(messages: list[BaseMessage], save_tool: str = MANAGE_TOOL) -> dict[str, int]:
    """Memory key -> which tool round (0-based) of the turn wrote it, read from the tools' own results."""
    rounds: dict[str, int] = {}
    round_of_call: dict[str, int] = {}
    tool_round = 0
    for message in messages:
        if isinstance(message, AIMessage) and message.tool_calls:
            for call in message.tool_calls:
                round_of_call[str(call.get("id"))] = tool_round
            tool_round += 1
        elif isinstance(message, ToolMessage) and message.name == save_tool:
            found = _RESULT_KEY.search(str(message.content))
            if found and message.tool_call_id in round_of_call:
                rounds[found.group(1)] = round_of_call[message.tool_call_id]
    return rounds


class MemoryToolsStrategy(LangMemStoreStrategy):
    """``create_agent(model, [manage_memory, search_memory], store=InMemoryStore(index=…))``."""

    info = INFO
    # The save tool's name (LangMem's default): the failure lab renames it to show an agent that never saves.
    save_tool_name: ClassVar[str] = MANAGE_TOOL

    def __init__(
        self, context: StrategyContext | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
        self._turn_rounds: dict[str, int] = {}
        self._searches: list[str] = []
        super().__init__(context, params)

    def _build_graph(self, checkpointer: BaseCheckpointSaver) -> Any:
        from langchain.agents import create_agent
        from langmem import create_manage_memory_tool, create_search_memory_tool

        memories = self._open_memories()
        namespace = memories.namespace
        tools = [
            create_manage_memory_tool(namespace=namespace, name=self.save_tool_name),
            create_search_memory_tool(namespace=namespace),
        ]
        return create_agent(
            model=self.reply_model,
            tools=tools,
            system_prompt=self.system_prompt,
            middleware=[build_window_middleware(self.params["recent_turns"])],
            checkpointer=checkpointer,
            store=memories.store,
        )

    def _respond(self, user_text: str) -> str:
        assert self.memories is not None
        before = self.memories.values()
        result = self._invoke({"messages": [HumanMessage(user_text)]})
        messages = result["messages"]
        last_human = max(i for i, m in enumerate(messages) if isinstance(m, HumanMessage))
        turn_messages = messages[last_human:]
        self._turn_rounds = tool_write_calls(turn_messages, self.save_tool_name)
        self._searches = [
            str(call["args"].get("query", ""))
            for m in turn_messages
            if isinstance(m, AIMessage)
            for call in m.tool_calls
            if call["name"] == SEARCH_TOOL
        ]
        turn = len(self.turns) + 1
        diff = store_diff(
            before, self.memories.values(), turn=turn, where=self.where, via=f"tool:{self.save_tool_name}"
        )
        # Only what this turn's own tool calls wrote: another pane of this user may write the shared store.
        new = [write for write in diff if write.key in self._turn_rounds]
        self.memories.persist(new)
        self.writes.extend(new)
        return messages[-1].text

    def send(self, user_text: str, on_token: TokenListener | None = None) -> Turn:
        """One turn; then each write gets the tokens of the tool round that made it (known only now)."""
        turn = super().send(user_text, on_token)
        number = len(self.turns)
        rounds = turn.tool_round_calls
        per_round = {
            r: sum(1 for w in self._turn_rounds.values() if w == r) for r in set(self._turn_rounds.values())
        }
        for index, write in enumerate(self.writes):
            round_index = self._turn_rounds.get(write.key)
            if write.turn != number or round_index is None or round_index >= len(rounds):
                continue
            if per_round.get(round_index) == 1:
                self.writes[index] = dataclasses.replace(write, tokens=rounds[round_index].total_tokens)
        if turn.ok and AUDIT_KEY in turn.state:
            turn.state.update(audit_state(self.writes))
            turn.state["writes_this_turn"] = audit_rows([w for w in self.writes if w.turn == number])
        return turn

    # -- Strategy hooks ---------------------------------------------------------------------
    def _rollback_point(self) -> Any:
        assert self.memories is not None
        return super()._rollback_point(), self.memories.values(), len(self.writes)

    def _rollback(self, point: Any) -> None:
        head, values, writes = point
        super()._rollback(head)
        assert self.memories is not None
        self.memories.restore(values)
        del self.writes[writes:]
        self._turn_rounds, self._searches = {}, []

    def clear(self) -> None:
        """Forget this conversation's thread; the user's memories stay (``forget_user``)."""
        super().clear()
        self.writes.clear()
        self._turn_rounds, self._searches = {}, []

    def snapshot(self) -> dict[str, Any]:
        assert self.memories is not None
        number = len(self.turns) + 1  # the turn being answered when a snapshot is taken in send()
        return {
            **self.store_state(),
            "index": {"dims": self.memories.dims, "fields": self.memories.fields},
            **paged("memories", self.memories.rows()),
            "writes_this_turn": audit_rows([w for w in self.writes if w.turn == number]),
            "searches_this_turn": list(self._searches),
            **audit_state(self.writes),
            "recent_turns": self.params["recent_turns"],
            "thread_id": self.thread_id,
            **paged("messages", self.messages(), messages_as_json),
            "messages_removed": self.head_values().get("removed_messages", 0),
        }


STRATEGY = MemoryToolsStrategy
