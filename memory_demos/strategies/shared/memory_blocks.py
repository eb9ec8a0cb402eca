"""Self-edited memory blocks (Letta / MemGPT "core memory") built from LangChain 1.x agent parts.

The blocks (``human``, ``persona``) are a field of the agent's state, checkpointed with the thread. A
middleware renders them into the system message before every model call and registers two tools,
``memory_append`` and ``memory_replace``; each tool returns a ``Command(update=...)`` that edits the
block, adds an audit row and answers the tool call. Every block has a character limit: an edit that would
pass it is refused with an error the model reads (``on_full="error"``, what Letta does) or clipped to what
fits while the tool still reports success (``on_full="truncate"``: the silent loss the failure lab shows).

Imported lazily (it imports LangChain's agent classes); the ``memory_blocks`` strategy builds on it.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal, NotRequired

from langchain.agents import AgentState
from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
from langchain.tools import ToolRuntime
from langchain_core.messages import SystemMessage, ToolMessage
from langchain_core.tools import BaseTool, tool
from langgraph.types import Command

from memory_demos.prompts import (
    MEMORY_BLOCK_EMPTY,
    MEMORY_BLOCK_HEADER,
    MEMORY_BLOCKS_HEADER,
    MEMORY_EDIT_DONE,
    MEMORY_EDIT_FULL,
    MEMORY_EDIT_NOT_FOUND,
    MEMORY_EDIT_UNKNOWN_BLOCK,
)

OnFull = Literal["error", "truncate"]
APPEND_TOOL = "memory_append"
REPLACE_TOOL = "memory_replace"
BLOCK_TOOLS = (APPEND_TOOL, REPLACE_TOOL)


def apply_block_edits(current: Mapping[str, str] | None, update: Any) -> dict[str, str]:
    """The state reducer of ``memory_blocks``: a mapping sets blocks; a list of edits applies them in order.

    Edits (``{"op": "append"|"replace", ...}``) apply to the block as it is when the update lands, so two
    tool calls of one model turn that both append to ``human`` keep both lines.
    """
    blocks = dict(current or {})
    if isinstance(update, Mapping):
        blocks.update(update)
        return blocks
    for edit in update or ():
        label = edit["label"]
        if edit["op"] == "append":
            old = blocks.get(label, "")
            blocks[label] = f"{old}\n{edit['content']}" if old else edit["content"]
        elif edit["op"] == "replace":
            blocks[label] = blocks.get(label, "").replace(edit["old"], edit["new"], 1).strip("\n")
    return blocks


class MemoryBlocksState(AgentState):
    """The agent's state with the blocks, their audit trail and the edits the limit refused or clipped."""

    memory_blocks: NotRequired[Annotated[dict[str, str], apply_block_edits]]
    memory_audit: NotRequired[Annotated[list[dict[str, Any]], operator.add]]
    memory_refused: NotRequired[Annotated[list[dict[str, Any]], operator.add]]
    memory_clipped: NotRequired[Annotated[list[dict[str, Any]], operator.add]]
    turn: NotRequired[int]  # the user messages this thread has answered, this one included


def render_blocks(blocks: Mapping[str, str], limits: Mapping[str, int]) -> str:
    """The blocks as the system message shows them: a header, then each block with its fill."""
    parts = [MEMORY_BLOCKS_HEADER]
    for label, limit in limits.items():
        value = blocks.get(label, "")
        parts.append(MEMORY_BLOCK_HEADER.format(label=label, used=len(value), limit=limit))
        parts.append(value or MEMORY_BLOCK_EMPTY)
    return "\n".join(parts)


@dataclass(frozen=True)
class BlockSettings:
    """What the tools need: each block's limit, what a full block does, and how to name the deciding call."""

    limits: Mapping[str, int]
    on_full: OnFull
    # The total tokens of the model call that asked for this tool call (None when unknown).
    deciding_tokens: Callable[[], int | None] = lambda: None


def _joined(old: str, content: str) -> str:
    return f"{old}\n{content}" if old else content


def _result(runtime: ToolRuntime, text: str, update: dict[str, Any], *, error: bool = False) -> Command:
    message = ToolMessage(text, tool_call_id=runtime.tool_call_id, status="error" if error else "success")
    return Command(update={**update, "messages": [message]})


def _turn(runtime: ToolRuntime) -> int:
    return max(int(runtime.state.get("turn") or 1), 1)


def _calls_in_decision(runtime: ToolRuntime) -> int:
    """How many tool calls the model asked for with this one (one call's tokens name one write only)."""
    for message in reversed(runtime.state.get("messages", [])):
        if getattr(message, "tool_calls", None):
            return len(message.tool_calls)
    return 1


def _audit_row(
    runtime: ToolRuntime, settings: BlockSettings, operation: str, label: str, value: str, via: str
) -> dict[str, Any]:
    tokens = settings.deciding_tokens() if _calls_in_decision(runtime) == 1 else None
    return {
        "turn": _turn(runtime),
        "operation": operation,
        "where": label,
        "key": label,
        "value": value,
        "via": f"tool:{via}",
        "tokens": tokens,
        "tool_call_id": runtime.tool_call_id,
    }


def _over_limit(
    runtime: ToolRuntime, settings: BlockSettings, label: str, old: str, new: str, via: str, attempted: str
) -> Command | tuple[str, dict[str, Any]]:
    """The tool's answer when ``new`` (the block after the edit) passes the limit; else (new, clip row)."""
    limit = settings.limits[label]
    if len(new) <= limit:
        return new, {}
    row = {
        "turn": _turn(runtime),
        "where": label,
        "via": f"tool:{via}",
        "attempted": attempted,
        "chars_needed": len(new),
        "limit": limit,
        "tool_call_id": runtime.tool_call_id,
    }
    if settings.on_full == "error":
        text = MEMORY_EDIT_FULL.format(label=label, used=len(old), limit=limit, needed=len(new))
        return _result(runtime, text, {"memory_refused": [row]}, error=True)
    kept = new[:limit]
    added = kept[len(old) :].lstrip("\n") if kept.startswith(old) else kept
    return kept, {**row, "kept": added, "dropped": new[limit:]}


def _edited(
    runtime: ToolRuntime,
    settings: BlockSettings,
    label: str,
    new: str,
    edit: dict[str, Any],
    write: tuple[str, str, str],
    attempted: str,
) -> Command:
    """The tool's answer to an edit that makes block ``label`` read ``new``: saved, clipped or refused.

    ``write`` is the audit row's (operation, value, tool name); ``edit`` the reducer's edit when it fits.
    """
    old = (runtime.state.get("memory_blocks") or {}).get(label, "")
    operation, value, via = write
    checked = _over_limit(runtime, settings, label, old, new, via, attempted)
    if isinstance(checked, Command):
        return checked
    kept, clipped = checked
    update: dict[str, Any] = {}
    if clipped:  # what fits of the edited block becomes the block
        edit = (
            {"op": "replace", "label": label, "old": old, "new": kept}
            if old
            else {"op": "append", "label": label, "content": kept}
        )
        value = clipped["kept"]
        update["memory_clipped"] = [clipped]
    update["memory_blocks"] = [edit]
    update["memory_audit"] = [_audit_row(runtime, settings, operation, label, value, via)]
    done = MEMORY_EDIT_DONE.format(label=label, used=len(kept), limit=settings.limits[label])
    return _result(runtime, done, update)


def block_tools(settings: BlockSettings) -> list[BaseTool]:
    """``memory_append`` and ``memory_replace`` over the state's blocks, with ``settings``' limits."""

    @tool(APPEND_TOOL)
    def memory_append(label: str, content: str, runtime: ToolRuntime) -> Command:
        """Append a line to one of your memory blocks ("human": what you know about the user; "persona":
        who you are). Use it when the user tells you something about themselves worth remembering."""
        if label not in settings.limits:
            return _result(runtime, MEMORY_EDIT_UNKNOWN_BLOCK.format(label=label), {}, error=True)
        content = content.strip()
        old = (runtime.state.get("memory_blocks") or {}).get(label, "")
        edit = {"op": "append", "label": label, "content": content}
        return _edited(
            runtime, settings, label, _joined(old, content), edit, ("insert", content, APPEND_TOOL), content
        )

    @tool(REPLACE_TOOL)
    def memory_replace(label: str, old_content: str, new_content: str, runtime: ToolRuntime) -> Command:
        """Replace text in one of your memory blocks: old_content must appear in the block exactly;
        new_content takes its place (empty to delete it). Use it when the user corrects or changes
        something you saved."""
        if label not in settings.limits:
            return _result(runtime, MEMORY_EDIT_UNKNOWN_BLOCK.format(label=label), {}, error=True)
        old = (runtime.state.get("memory_blocks") or {}).get(label, "")
        if not old_content or old_content not in old:
            return _result(runtime, MEMORY_EDIT_NOT_FOUND.format(label=label), {}, error=True)
        new = old.replace(old_content, new_content, 1).strip("\n")
        edit = {"op": "replace", "label": label, "old": old_content, "new": new_content}
        write = (
            ("update", new_content, REPLACE_TOOL) if new_content else ("delete", old_content, REPLACE_TOOL)
        )
        return _edited(runtime, settings, label, new, edit, write, new_content)

    return [memory_append, memory_replace]


class MemoryBlocksMiddleware(AgentMiddleware[MemoryBlocksState]):
    """Keeps the blocks in the agent's state, shows them in every system message, and edits them by tool."""

    state_schema = MemoryBlocksState

    def __init__(self, settings: BlockSettings, initial: Mapping[str, str]) -> None:
        super().__init__()
        self.settings = settings
        self.initial = dict(initial)
        self.tools = block_tools(settings)

    def before_agent(self, state: MemoryBlocksState, runtime: Any) -> dict[str, Any]:
        """Count the turn; a new thread starts with the initial blocks."""
        update: dict[str, Any] = {"turn": int(state.get("turn") or 0) + 1}
        if not state.get("memory_blocks"):  # the channel starts as an empty dict
            update["memory_blocks"] = dict(self.initial)
        return update

    def wrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
    ) -> ModelResponse:
        """Append the blocks, as they are now, to the system message of this call."""
        blocks = request.state.get("memory_blocks") or self.initial
        base = request.system_message.text if request.system_message is not None else ""
        rendered = render_blocks(blocks, self.settings.limits)
        system = SystemMessage(f"{base}\n\n{rendered}" if base else rendered)
        return handler(request.override(system_message=system))


def audit_of(values: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The thread's audit rows (each a ``MemoryWrite``'s fields plus the tool call's id)."""
    return list(values.get("memory_audit") or [])


def fills(blocks: Mapping[str, str], limits: Mapping[str, int]) -> list[dict[str, Any]]:
    """Each block with its fill: label, characters used, limit, percent, and the text."""
    return [
        {
            "label": label,
            "used": len(blocks.get(label, "")),
            "limit": limit,
            "fill": f"{round(100 * len(blocks.get(label, '')) / limit)} %",
            "value": blocks.get(label, ""),
        }
        for label, limit in limits.items()
    ]
