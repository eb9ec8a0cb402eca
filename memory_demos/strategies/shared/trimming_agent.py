"""The agent loop ``trim`` and ``turn_trim`` share: model → tools → model over a full message history,
with each model call seeing only what the subclass's ``trim`` keeps.

``TrimmingAgentStrategy`` stores every message (tool calls and tool results too) in a plain list, as a
LangGraph agent's state holds them, counts tokens with the real tokenizer (each message once), refuses a
budget the system prompt and the tool definitions alone fill, and notes what each trim left out.

Why a list and not ``InMemoryChatMessageHistory``: that class is deprecated (langchain-core 1.6.4), and these
strategies are badged as the LangChain 1.x forms; a pane must not carry a deprecation of the app's own
choosing. The agent never needed the history interface: it reads the messages, appends a turn, rolls back.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.messages.tool import ToolCall

from memory_demos.i18n import Message
from memory_demos.providers.tokenizer import REPLY_PRIMING_TOKENS, count_message_tokens, count_messages_tokens
from memory_demos.providers.tool_tokens import count_tool_tokens
from memory_demos.strategies.base import InputError, Strategy, StrategyContext
from memory_demos.strategies.shared.classic import messages_as_json
from memory_demos.strategies.shared.paging import paged

MAX_TOOL_ROUNDS = 4


@dataclass(frozen=True)
class TrimResult:
    """What one trim kept for the model and what it left out, in history order."""

    kept: list[BaseMessage]
    dropped: list[BaseMessage]


@lru_cache(maxsize=4)
def agent_tool_tokens(encoding_name: str) -> int:
    """Estimated prompt tokens of the agent tools' definitions, sent with every call that binds them."""
    from langchain_core.utils.function_calling import convert_to_openai_tool

    # Lazy: the tools load langchain_core.tools (~0.6 s), needed only by the strategies that bind them.
    from memory_demos.tools import TOOLS

    return count_tool_tokens([convert_to_openai_tool(tool) for tool in TOOLS], encoding_name)


def message_rows(messages: Sequence[BaseMessage]) -> list[dict[str, Any]]:
    """Messages as plain rows for the state view, tool calls and tool_call_ids included."""
    rows: list[dict[str, Any]] = []
    for message, row in zip(messages, messages_as_json(list(messages)), strict=True):
        tool_calls = getattr(message, "tool_calls", None)
        if tool_calls:
            row["tool_calls"] = [
                {"name": c["name"], "args": c["args"], "id": c.get("id")} for c in tool_calls
            ]
        if isinstance(message, ToolMessage):
            row["tool_call_id"] = message.tool_call_id
        rows.append(row)
    return rows


def orphaned_tool_results(messages: Sequence[BaseMessage]) -> list[ToolMessage]:
    """Tool results in ``messages`` whose tool call is not in an earlier AI message of the list."""
    called: set[str] = set()
    orphans: list[ToolMessage] = []
    for message in messages:
        if isinstance(message, AIMessage):
            called.update(str(call.get("id")) for call in message.tool_calls)
        elif isinstance(message, ToolMessage) and message.tool_call_id not in called:
            orphans.append(message)
    return orphans


def with_unique_call_ids(answer: AIMessage, used: set[str]) -> AIMessage:
    """``answer`` with any tool call id already in ``used`` renamed; adds the final ids to ``used``.

    A model may reuse an id (the offline model derives it from the question, so asking the same
    thing twice repeats it); two calls with one id make the history ambiguous and invalid.
    """
    renamed = False
    calls: list[ToolCall] = []
    for call in answer.tool_calls:
        base = str(call.get("id") or "call")
        call_id, suffix = base, 2
        while call_id in used:
            call_id, suffix = f"{base}_{suffix}", suffix + 1
        renamed = renamed or call_id != call.get("id")
        used.add(call_id)
        calls.append({**call, "id": call_id})
    return answer.model_copy(update={"tool_calls": calls}) if renamed else answer


def run_tool_calls(calls: Sequence[ToolCall], tools: Sequence[Any]) -> list[ToolMessage]:
    """Run each requested tool; an unknown tool or a failing one becomes an error ToolMessage."""
    by_name = {tool.name: tool for tool in tools}
    results: list[ToolMessage] = []
    for call in calls:
        tool = by_name.get(call["name"])
        call_id = str(call.get("id"))
        if tool is None:
            results.append(
                ToolMessage(
                    f"Unknown tool {call['name']!r}.", tool_call_id=call_id, name=call["name"], status="error"
                )
            )
            continue
        try:
            result = tool.invoke({**call, "type": "tool_call"})
        except Exception as exc:  # the model is told the tool failed, as agents do
            result = ToolMessage(
                f"{type(exc).__name__}: {exc}", tool_call_id=call_id, name=call["name"], status="error"
            )
        if not isinstance(result, ToolMessage):
            result = ToolMessage(str(result), tool_call_id=call_id, name=call["name"])
        results.append(result)
    return results


class TrimmingAgentStrategy(Strategy):
    """A tool-using agent whose full history is kept and trimmed before every model call.

    Subclasses implement ``trim``. The history stores the AI tool calls and their ToolMessages.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.max_tokens: int = self.params["max_tokens"]
        self.encoding_name = self.context.provider.tokenizer.encoding_name
        self.history: list[BaseMessage] = []  # every message, tool rounds too
        self.trims: list[TrimResult] = []
        self._agent_model: Any = None
        # Token count of each stored message, by object id (the entry keeps the message alive, so an id
        # is never reused while cached): a turn counts its new messages, not the whole history again.
        self._token_cache: dict[int, tuple[BaseMessage, int]] = {}

    @classmethod
    def check_params(cls, params: Mapping[str, Any], context: StrategyContext) -> None:
        """Refuse a budget the system prompt and tool definitions alone exceed: no message could be sent."""
        encoding = context.provider.tokenizer.encoding_name
        system_tokens = count_messages_tokens([SystemMessage(context.system_prompt)], encoding)
        system_tokens += agent_tool_tokens(encoding)
        if params["max_tokens"] <= system_tokens:
            raise InputError(
                Message(
                    "strategy.error.no_room_with_tools",
                    param=f"{cls.info.id}.max_tokens",
                    value=params["max_tokens"],
                    reserved=system_tokens,
                )
            )

    @abstractmethod
    def trim(self, messages: list[BaseMessage]) -> TrimResult:
        """The messages to send from ``messages`` (system first), and those left out."""

    def count_tokens(self, messages: Sequence[BaseMessage]) -> int:
        """Prompt tokens of ``messages`` sent with the tools: the same count the capture reports."""
        return (
            self.count_message_tokens(messages) + REPLY_PRIMING_TOKENS + agent_tool_tokens(self.encoding_name)
        )

    def count_message_tokens(self, messages: Sequence[BaseMessage]) -> int:
        """Tokens of the messages themselves, without the reply priming a whole prompt adds once."""
        return sum(self.message_tokens(message) for message in messages)

    def message_tokens(self, message: BaseMessage) -> int:
        """One message's tiktoken count, counted once per stored message."""
        entry = self._token_cache.get(id(message))
        if entry is None or entry[0] is not message:
            entry = (message, count_message_tokens(message, self.encoding_name))
            self._token_cache[id(message)] = entry
        return entry[1]

    def _forget_uncached_messages(self) -> None:
        """Drop cached counts of messages no longer stored (each turn's system message, rolled-back turns).

        Only once the cache has grown to twice the history, so a turn pays for it on average O(1).
        """
        stored_count = len(self.history)
        if len(self._token_cache) <= 2 * stored_count + 16:
            return
        stored = {id(message) for message in self.history}
        self._token_cache = {key: entry for key, entry in self._token_cache.items() if key in stored}

    def tools(self) -> list[Any]:
        from memory_demos.tools import TOOLS  # lazy: see agent_tool_tokens

        return list(TOOLS)

    def agent_model(self) -> Any:
        """The reply model with the tools bound (it keeps the capture callback)."""
        if self._agent_model is None:
            self._agent_model = self.reply_model.bind_tools(self.tools())
        return self._agent_model

    def check_system_prompt(self, system: SystemMessage) -> None:
        system_tokens = self.count_tokens([system])
        if system_tokens > self.max_tokens:
            raise InputError(
                Message(
                    "strategy.error.tools_over_budget",
                    tokens=system_tokens,
                    param=f"{self.info.id}.max_tokens",
                    value=self.max_tokens,
                )
            )

    def _respond(self, user_text: str) -> str:
        self.trims = []
        system = SystemMessage(self.system_prompt)
        self.check_system_prompt(system)
        earlier = list(self.history)
        used_call_ids = {
            str(call.get("id")) for m in earlier if isinstance(m, AIMessage) for call in m.tool_calls
        }
        this_turn: list[BaseMessage] = [HumanMessage(user_text)]
        for _ in range(MAX_TOOL_ROUNDS + 1):
            result = self.trim([system, *earlier, *this_turn])
            self._check_trim(result, this_turn)
            self.trims.append(result)
            answer = with_unique_call_ids(self.agent_model().invoke(result.kept), used_call_ids)
            this_turn.append(answer)
            if not answer.tool_calls:
                break
            this_turn.extend(run_tool_calls(answer.tool_calls, self.tools()))
        else:
            raise RuntimeError(Message("strategy.error.tool_rounds", rounds=MAX_TOOL_ROUNDS))
        self.history.extend(this_turn)
        self._forget_uncached_messages()
        content = this_turn[-1].content
        return content if isinstance(content, str) else str(content)

    def _check_trim(self, result: TrimResult, this_turn: list[BaseMessage]) -> None:
        """Refuse to send without the new question on the first call; note later losses."""
        question = this_turn[0]
        if not any(message is question for message in result.kept):
            if len(this_turn) == 1:
                tokens = self.count_tokens([result.kept[0], question]) if result.kept else 0
                raise InputError(
                    Message(
                        "strategy.error.message_over_budget",
                        tokens=tokens,
                        param=f"{self.info.id}.max_tokens",
                        value=self.max_tokens,
                    )
                )
            self.note(
                Message("strategy.note.tool_round_lost", dropped=len(result.dropped), kept=len(result.kept))
            )
        orphans = orphaned_tool_results(result.kept)
        if orphans:
            self.note(Message("strategy.note.orphan_tool_results", count=len(orphans)))

    def snapshot(self) -> dict[str, Any]:
        last = self.trims[-1] if self.trims else TrimResult([], [])
        return {
            "max_tokens": self.max_tokens,
            **paged("messages", self.history, message_rows),
            "kept": message_rows(last.kept),
            **paged("dropped", last.dropped, message_rows),
            "kept_count": len(last.kept),
            "dropped_count": len(last.dropped),
            "kept_tokens": self.count_tokens(last.kept) if last.kept else 0,
            "model_calls": [
                {
                    "kept_count": len(t.kept),
                    "dropped_count": len(t.dropped),
                    "kept_tokens": self.count_tokens(t.kept),
                }
                for t in self.trims
            ],
        }

    def stored_messages(self) -> list[BaseMessage]:
        """The whole history, tool calls and tool results included (the model saw a trimmed part)."""
        return list(self.history)

    def _rollback_point(self) -> list[BaseMessage]:
        return list(self.history)

    def _rollback(self, point: list[BaseMessage]) -> None:
        self.history = list(point)
        self._forget_uncached_messages()

    def clear(self) -> None:
        self.history = []
        self.trims = []
        self._token_cache = {}
