"""``agent``: LangChain 1.x short-term memory: ``create_agent`` + a checkpointer, a thread per conversation.

The agent is stateless; the checkpointer keeps the thread's messages under its ``thread_id``
(``InMemorySaver``, ``SqliteSaver`` or ``PostgresSaver``), so every turn sends the whole thread, tool
calls and results included. This is what ``ConversationBufferMemory`` and ``RunnableWithMessageHistory``
became. Subclasses add middleware (``agent_trim``, ``context_editing``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memory_demos.strategies.base import ParamSpec, StrategyInfo
from memory_demos.strategies.langgraph import LangGraphStrategy
from memory_demos.strategies.shared.checkpointed_graph import CHECKPOINT_FILE

if TYPE_CHECKING:
    from langgraph.checkpoint.base import BaseCheckpointSaver

CHECKPOINTER_PARAM = ParamSpec(
    "checkpointer",
    "memory",
    f"Where the thread lives: memory (InMemorySaver, lost on restart), sqlite (SqliteSaver on "
    f"{CHECKPOINT_FILE} in the data folder) or postgres (PostgresSaver on the server of MEMORY_LAB_SQL_URL, "
    "shared by every app process).",
    choices=("memory", "sqlite", "postgres"),
    help_zh=f"线程保存在哪里：memory（InMemorySaver，重启后丢失）、sqlite（数据目录中 {CHECKPOINT_FILE} 上的 "
    "SqliteSaver）或 postgres（MEMORY_LAB_SQL_URL 所指服务器上的 PostgresSaver，所有应用进程共用）。",
)
TOOLS_PARAM = ParamSpec(
    "tools",
    True,
    "Bind the two simulated tools (weather, order status); their definitions are sent with every call.",
    help_zh="绑定两个模拟工具（天气、订单状态）；每次调用都会带上它们的定义。",
)

INFO = StrategyInfo(
    id="agent",
    title="create_agent + checkpointer (thread_id)",
    kind="modern",
    langchain_classes=(
        "langchain.agents.create_agent",
        "langgraph.checkpoint.memory.InMemorySaver",
        "langgraph.checkpoint.sqlite.SqliteSaver",
        "langgraph.checkpoint.postgres.PostgresSaver",
    ),
    summary=(
        "LangChain 1.x short-term memory: an agent whose checkpointer keeps each thread's messages "
        "(tool calls included) and sends them all every turn."
    ),
    title_zh="create_agent + 检查点（thread_id）",
    summary_zh="LangChain 1.x 的短期记忆：智能体的检查点按线程保存消息（包括工具调用），每轮全部发送。",
    params=(CHECKPOINTER_PARAM, TOOLS_PARAM),
)


class AgentStrategy(LangGraphStrategy):
    """``create_agent(model, tools, checkpointer=...)`` invoked with this conversation's ``thread_id``."""

    info = INFO

    def agent_tools(self) -> list[Any]:
        from memory_demos.tools import TOOLS  # lazy: langchain_core.tools loads only for a tool agent

        return list(TOOLS) if self.params["tools"] else []

    def middleware(self) -> list[Any]:
        """The agent's middleware (none: the checkpointer alone is the memory)."""
        return []

    def _build_graph(self, checkpointer: BaseCheckpointSaver) -> Any:
        from langchain.agents import create_agent

        return create_agent(
            model=self.reply_model,
            tools=self.agent_tools(),
            system_prompt=self.system_prompt,
            middleware=self.middleware(),
            checkpointer=checkpointer,
        )


STRATEGY = AgentStrategy
