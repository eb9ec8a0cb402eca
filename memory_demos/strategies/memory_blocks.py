"""``memory_blocks``: Letta / MemGPT-style memory blocks the agent edits itself, in LangChain 1.x parts.

Two labelled blocks, ``human`` (what the agent knows about the user) and ``persona`` (who it is), live in
the agent's state (``create_agent`` with a middleware whose ``state_schema`` adds them) and are checkpointed
with the thread. Before every model call the middleware writes them into the system message; the model
edits them with ``memory_append`` and ``memory_replace``, tools that return ``Command(update=...)``. Only
the last ``recent_turns`` exchanges are sent as messages, so what the blocks hold is what outlives the
window. Each block has a character limit, and ``on_full`` says what a full block does: refuse the edit
with an error the model reads, or keep what fits and report success (the silent loss). Every edit is in
the audit trail with its turn and tool call; the tool rounds' tokens are counted apart from the reply.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from memory_demos.i18n import Message
from memory_demos.strategies.agent import CHECKPOINTER_PARAM, AgentStrategy
from memory_demos.strategies.base import MemoryPart, ParamSpec, StrategyContext, StrategyInfo, Threshold
from memory_demos.strategies.shared.agent_middleware import keep_last_turns
from memory_demos.strategies.shared.memory_audit import MemoryWrite, audit_state
from memory_demos.strategies.shared.paging import paged
from memory_demos.tracing import REPLY

if TYPE_CHECKING:
    from langchain_core.tools import BaseTool

PERSONA = {
    "en": "The assistant is helpful and answers briefly.",
    "zh": "助手乐于助人，回答简短。",
}
BLOCK_LABELS = ("human", "persona")

INFO = StrategyInfo(
    id="memory_blocks",
    title="Memory blocks the agent edits (Letta-style, create_agent + state + tools)",
    kind="modern",
    langchain_classes=(
        "langchain.agents.create_agent",
        "langchain.agents.middleware.AgentMiddleware",
        "langchain.tools.ToolRuntime",
        "langgraph.types.Command",
        "langgraph.checkpoint.memory.InMemorySaver",
    ),
    summary=(
        "Labelled blocks (human, persona) in the agent's state, shown in the system message every turn "
        "and edited by the model with memory_append / memory_replace; each block has a character limit. "
        "Only the last few exchanges are sent as messages."
    ),
    title_zh="智能体自己编辑的记忆块（Letta 风格：create_agent + 状态 + 工具）",
    summary_zh=(
        "带标签的记忆块（human、persona）保存在智能体状态中，每轮都写进系统消息，由模型用 memory_append / "
        "memory_replace 编辑；每个块有字符上限。消息只发送最近几轮。"
    ),
    params=(
        ParamSpec(
            "block_limit",
            300,
            "Characters each block may hold (Letta's blocks have a limit too). An edit past it is what "
            "on_full decides.",
            minimum=20,
            maximum=20000,
            help_zh="每个块最多容纳的字符数（Letta 的块也有上限）。超过上限的编辑由 on_full 决定如何处理。",
        ),
        ParamSpec(
            "on_full",
            "error",
            "What an edit past the limit does: error (refused, the tool answers with an error the model "
            "reads, as Letta does) or truncate (what fits is kept, the rest is dropped and the tool still "
            "says it saved: the silent loss).",
            choices=("error", "truncate"),
            help_zh="超过上限的编辑怎么办：error（拒绝，工具返回模型能读到的错误，Letta 就是这样）或 truncate"
            "（只保留放得下的部分，其余丢弃，工具仍说已保存：悄无声息的丢失）。",
        ),
        ParamSpec(
            "recent_turns",
            2,
            "Exchanges sent as messages besides the current one (older ones are removed from the thread; "
            "only the blocks keep what they said).",
            minimum=0,
            maximum=50,
            help_zh="除当前一轮外作为消息发送的轮数（更早的从线程中删除，只有记忆块保留它们说过的内容）。",
        ),
        CHECKPOINTER_PARAM,
    ),
    thresholds=(Threshold("recent_turns", "keep", "exchanges"),),
    # In the thread's state: a new conversation starts with empty blocks (Letta keeps them per agent).
    keeps=(MemoryPart("messages", "conversation"), MemoryPart("blocks", "conversation")),
)


class MemoryBlocksStrategy(AgentStrategy):
    """``create_agent(middleware=[keep the last turns, MemoryBlocksMiddleware])`` with a checkpointer."""

    info = INFO

    def __init__(
        self, context: StrategyContext | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
        self._block_middleware: Any = None
        super().__init__(context, params)

    @property
    def limits(self) -> dict[str, int]:
        return {label: self.params["block_limit"] for label in BLOCK_LABELS}

    def initial_blocks(self) -> dict[str, str]:
        return {"human": "", "persona": PERSONA.get(self.context.language, PERSONA["en"])}

    def deciding_tokens(self) -> int | None:
        """The total tokens of the reply-model call that just asked for a tool (read by the tools)."""
        call = self.capture.last_call(REPLY)
        return call.total_tokens if call is not None else None

    def agent_tools(self) -> list[BaseTool]:
        return []  # the block tools come with the middleware

    def middleware(self) -> list[Any]:
        from memory_demos.strategies.shared.memory_blocks import BlockSettings, MemoryBlocksMiddleware

        settings = BlockSettings(self.limits, self.params["on_full"], self.deciding_tokens)
        self._block_middleware = MemoryBlocksMiddleware(settings, self.initial_blocks())
        window = [keep_last_turns(self.params["recent_turns"])]
        return [*window, self._block_middleware]

    # -- what the thread holds ----------------------------------------------------------------
    def blocks(self) -> dict[str, str]:
        """The blocks at the head (the initial ones before the first turn)."""
        return dict(self.head_values().get("memory_blocks") or self.initial_blocks())

    def audit(self) -> list[MemoryWrite]:
        """Every edit of the blocks on this branch of the thread, oldest first."""
        rows = self.head_values().get("memory_audit") or []
        fields = ("turn", "operation", "where", "key", "value", "via", "tokens")
        return [MemoryWrite(**{name: row.get(name) for name in fields}) for row in rows]

    def _respond(self, user_text: str) -> str:
        before = len(self.head_values().get("memory_audit") or [])
        refused_before = len(self.head_values().get("memory_refused") or [])
        clipped_before = len(self.head_values().get("memory_clipped") or [])
        reply = self._run_turn(user_text)
        values = self.head_values()
        for row in (values.get("memory_audit") or [])[before:]:
            self.note(Message("strategy.note.block_edit", via=row["via"], label=row["where"]))
        for row in (values.get("memory_refused") or [])[refused_before:]:
            self.note(
                Message(
                    "strategy.note.block_refused",
                    label=row["where"],
                    needed=row["chars_needed"],
                    limit=row["limit"],
                )
            )
        for row in (values.get("memory_clipped") or [])[clipped_before:]:
            self.note(Message("strategy.note.block_clipped", label=row["where"], dropped=len(row["dropped"])))
        return reply

    def snapshot(self) -> dict[str, Any]:
        from memory_demos.strategies.shared.memory_blocks import fills

        values = self.head_values()
        return {
            "thread_id": self.thread_id,
            "checkpointer": self.params["checkpointer"],
            "block_limit": self.params["block_limit"],
            "on_full": self.params["on_full"],
            "recent_turns": self.params["recent_turns"],
            "blocks": fills(self.blocks(), self.limits),
            **audit_state(self.audit()),
            "refused_edits": [_without_id(row) for row in values.get("memory_refused") or []],
            "clipped_edits": [_without_id(row) for row in values.get("memory_clipped") or []],
            **paged("messages", self.messages(), _messages_json),
        }


def _without_id(row: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in row.items() if key != "tool_call_id"}


def _messages_json(messages: list[Any]) -> list[dict[str, Any]]:
    from memory_demos.strategies.shared.classic import messages_as_json

    return messages_as_json(messages)


STRATEGY = MemoryBlocksStrategy
