"""The callback that records what the chat model really received and returned.

Every model a strategy builds carries one ``CallCapture`` in its own ``callbacks``, so calls
made deep inside LangChain (a classic memory's summary chain, an agent middleware) are seen
as well as the reply call. Nothing here rebuilds a prompt from a template.

What a call was *for* comes from the call site only: each role (the reply, a summary, entity
extraction...) gets its own model instance tagged ``purpose:<role>``. The text of a prompt or a
reply is never read to decide it, so a user who types LangChain's summary instruction, or a model
that echoes it, cannot turn a reply into a hidden memory call.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.outputs import LLMResult

# Purpose names and tags live on the ground floor: the offline model uses them without importing this.
from memory_demos.prompt_markers import EXTRACT_ENTITIES as EXTRACT_ENTITIES
from memory_demos.prompt_markers import PURPOSE_TAG_PREFIX as PURPOSE_TAG_PREFIX
from memory_demos.prompt_markers import REPLY as REPLY
from memory_demos.prompt_markers import SUMMARIZE as SUMMARIZE
from memory_demos.prompt_markers import SUMMARIZE_ENTITY as SUMMARIZE_ENTITY
from memory_demos.prompt_markers import purpose_from_tags, purpose_tag
from memory_demos.providers.checked_openai import DEADLINE_FINISH_REASON
from memory_demos.providers.errors import describe_error
from memory_demos.providers.tokenizer import (
    REPLY_PRIMING_TOKENS,
    count_message_tokens,
    count_messages_tokens,
    count_text_tokens,
    message_text,
)
from memory_demos.providers.tool_tokens import TOOL_TOKENS_METHOD, count_tool_tokens
from memory_demos.turn import NOT_BILLED_SOURCE as NOT_BILLED_SOURCE
from memory_demos.turn import REPORTED_SOURCE as REPORTED_SOURCE
from memory_demos.turn import ModelCall, PromptMessage

# Why a reply stopped early although the call succeeded (``ModelCall.cut_by``).
CUT_BY_MAX_TOKENS = "max_tokens"
CUT_BY_DEADLINE = "deadline"
# "length" with the server's own count at the window (its usage): the context filled, not max_tokens.
CUT_BY_CONTEXT = "context_window"
_CUT_REASONS = {"length": CUT_BY_MAX_TOKENS, "max_tokens": CUT_BY_MAX_TOKENS}
_CUT_REASONS[DEADLINE_FINISH_REASON] = CUT_BY_DEADLINE
# A reply counts as filling the window when the server's prompt + completion reach this share of it.
WINDOW_FILLED_SHARE = 0.98


def classify_call(messages: list[BaseMessage], tags: list[str] | None) -> str:
    """The purpose of a call from its tags; ``messages`` are deliberately not read (see module doc)."""
    return purpose_from_tags(tags)


def with_purpose(model: BaseChatModel, purpose: str) -> BaseChatModel:
    """A copy of ``model`` whose calls are labelled ``purpose`` (same callbacks, client and counters).

    For code that was handed one model but gives LangChain several roles (a classic memory's ``llm``
    and the reply chain): each role gets its own instance, so the call site names the purpose.
    """
    kept = [tag for tag in model.tags or [] if not tag.startswith(PURPOSE_TAG_PREFIX)]
    return model.model_copy(update={"tags": [*kept, purpose_tag(purpose)]})


def finish_reason_of(message: Any, generation_info: dict[str, Any] | None) -> str | None:
    """The finish reason a provider gave for a reply (``stop``, ``length``, ...), if any."""
    metadata = getattr(message, "response_metadata", None) or {}
    reason = metadata.get("finish_reason") or (generation_info or {}).get("finish_reason")
    return str(reason) if reason else None


def _usage_in_error(error: BaseException) -> tuple[int, int] | None:
    """(prompt, completion) tokens if the failed response carried a usage block, else None."""
    body = getattr(error, "body", None)
    usage = body.get("usage") if isinstance(body, dict) else None
    if not isinstance(usage, dict):
        return None
    try:
        return int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0)
    except (TypeError, ValueError):
        return None


def to_prompt_message(message: BaseMessage, encoding_name: str) -> PromptMessage:
    """A captured LangChain message as plain data, with its token count."""
    content = message.content if isinstance(message.content, str) else str(message.content)
    tool_calls = tuple(
        {"name": call["name"], "args": call["args"], "id": call.get("id")}
        for call in (message.tool_calls if isinstance(message, AIMessage) else ())
    )
    return PromptMessage(
        role=message.type,
        content=content,
        tokens=count_message_tokens(message, encoding_name),
        tool_calls=tool_calls,
        tool_call_id=message.tool_call_id if isinstance(message, ToolMessage) else None,
    )


def reply_tool_calls(message: Any) -> tuple[dict[str, Any], ...]:
    """The tool calls a model's answer made, as plain data (name, args, id); none for a text answer."""
    if not isinstance(message, AIMessage):
        return ()
    return tuple(
        {"name": call["name"], "args": call["args"], "id": call.get("id")} for call in message.tool_calls
    )


def cut_reason(
    reason: str | None, source: str, prompt_tokens: int, completion_tokens: int, window: int | None
) -> str | None:
    """Which limit stopped a reply the server ended with ``reason``: max_tokens unless it shows otherwise.

    ``length`` means max_tokens was reached, except when the server's own usage (never a local count,
    which for another model's tokenizer can be far off) puts prompt plus reply at the context window.
    """
    cut_by = _CUT_REASONS.get(reason or "")
    reported = source == REPORTED_SOURCE
    at_window = bool(window) and prompt_tokens + completion_tokens >= WINDOW_FILLED_SHARE * (window or 0)
    if cut_by == CUT_BY_MAX_TOKENS and reported and at_window:
        return CUT_BY_CONTEXT
    return cut_by


def failed_call_tokens(error: BaseException) -> tuple[int, int]:
    """What a failed call costs: the usage the provider reported with the error, else nothing."""
    usage = _usage_in_error(error)
    return usage if usage is not None else (0, 0)


def call_tokens(
    response: LLMResult,
    messages: list[BaseMessage],
    streamed: list[str],
    encoding_name: str,
    tools: Sequence[Mapping[str, Any]] = (),
    counted_messages: int | None = None,
) -> tuple[str, int, int, str]:
    """A finished call's output, prompt and completion tokens, and where the counts come from.

    A real provider's reported usage wins (it includes the tool definitions); otherwise (and for the
    offline model) tiktoken counts the messages and the bound ``tools`` are added as an estimate.
    ``counted_messages`` is ``count_messages_tokens(messages)`` when the caller already has it.
    """
    generation = response.generations[0][0] if response.generations and response.generations[0] else None
    message = getattr(generation, "message", None)
    output = generation.text if generation is not None else "".join(streamed)
    usage = getattr(message, "usage_metadata", None) if message is not None else None
    # The offline model reports tiktoken counts itself; only a real provider's numbers are "reported".
    from_provider = getattr(message, "response_metadata", {}).get("model_provider") != "offline"
    if usage and usage.get("input_tokens") and from_provider:
        reported = int(usage["input_tokens"]), int(usage.get("output_tokens", 0))
        return output, *reported, REPORTED_SOURCE
    if counted_messages is None:
        counted_messages = count_messages_tokens(messages, encoding_name)
    prompt_tokens = counted_messages + count_tool_tokens(tools, encoding_name)
    completion_text = message_text(message) if message is not None else output
    completion_tokens = count_text_tokens(completion_text, encoding_name)
    source = f"counted with tiktoken {encoding_name}"
    if tools:
        source += f"; tool definitions {TOOL_TOKENS_METHOD}"
    return output, prompt_tokens, completion_tokens, source


def reported_cached_tokens(response: LLMResult) -> int | None:
    """The cached prompt tokens a real provider reported (OpenAI's ``prompt_tokens_details.cached_tokens``,
    which langchain-openai puts in ``input_token_details.cache_read``); None when it reported none."""
    generation = response.generations[0][0] if response.generations and response.generations[0] else None
    message = getattr(generation, "message", None)
    if message is None or getattr(message, "response_metadata", {}).get("model_provider") == "offline":
        return None
    details = (getattr(message, "usage_metadata", None) or {}).get("input_token_details") or {}
    cached = details.get("cache_read")
    try:
        return int(cached) if cached is not None else None
    except (TypeError, ValueError):
        return None


@dataclass
class _PendingCall:
    purpose: str
    messages: list[BaseMessage]
    started: float
    max_tokens: int | None = None
    streamed: list[str] = field(default_factory=list)
    tools: tuple[dict[str, Any], ...] = ()
    first_chunk: float | None = None  # when the first streamed chunk arrived (None: not streamed)


class CallCapture(BaseCallbackHandler):
    """Collects every chat-model call made through the models that carry it.

    Thread-safe: the Compare page runs panes on worker threads, and LangChain may call
    handlers from its own executor.
    """

    raise_error = False
    run_inline = True

    def __init__(
        self,
        encoding_name: str,
        token_listener: Any | None = None,
        secrets: tuple[str, ...] = (),
        generic_errors: bool = False,
        context_window: int | None = None,
    ) -> None:
        """``context_window`` is the model's window when it is known (not assumed): see ``cut_reason``."""
        self.encoding_name = encoding_name
        self.context_window = context_window
        self.secrets = secrets
        self.generic_errors = generic_errors
        self.token_listener = token_listener
        self._lock = threading.Lock()
        self._pending: dict[UUID, _PendingCall] = {}
        self._calls: list[ModelCall] = []

    def on_chat_model_start(
        self,
        serialized: dict[str, Any],
        messages: list[list[BaseMessage]],
        *,
        run_id: UUID,
        tags: list[str] | None = None,
        **kwargs: Any,
    ) -> None:
        prompt = list(messages[0]) if messages else []
        params = kwargs.get("invocation_params") or {}
        max_tokens = params.get("max_tokens") or params.get("max_completion_tokens")
        # Tools bound with bind_tools travel in the invocation parameters, not in the messages.
        tools = tuple(dict(tool) for tool in params.get("tools") or ())
        pending = _PendingCall(purpose_from_tags(tags), prompt, time.perf_counter(), max_tokens, tools=tools)
        with self._lock:
            self._pending[run_id] = pending

    def on_llm_new_token(self, token: str, *, run_id: UUID, **kwargs: Any) -> None:
        with self._lock:
            pending = self._pending.get(run_id)
            if pending is not None:
                pending.streamed.append(token)
                if pending.first_chunk is None:
                    pending.first_chunk = time.perf_counter()
        listener = self.token_listener
        if listener is not None and pending is not None and pending.purpose == REPLY and token:
            listener(token)

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        finished = time.perf_counter()
        with self._lock:
            pending = self._pending.pop(run_id, None)
        if pending is None:
            return
        # Each message is counted once: the prompt view's counts add up to the call's prompt tokens.
        prompt = tuple(to_prompt_message(m, self.encoding_name) for m in pending.messages)
        counted = sum(m.tokens for m in prompt) + REPLY_PRIMING_TOKENS
        output, prompt_tokens, completion_tokens, source = call_tokens(
            response, pending.messages, pending.streamed, self.encoding_name, pending.tools, counted
        )
        generation = response.generations[0][0] if response.generations and response.generations[0] else None
        message = getattr(generation, "message", None)
        reason = finish_reason_of(message, getattr(generation, "generation_info", None))
        cut_by = cut_reason(reason, source, prompt_tokens, completion_tokens, self.context_window)
        self._record(
            pending,
            output,
            prompt_tokens,
            completion_tokens,
            source,
            None,
            finished,
            cut_by,
            prompt,
            reported_cached_tokens(response) if source == REPORTED_SOURCE else None,
            reply_tool_calls(message),
        )

    def on_llm_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        """A failed call costs what the provider reported for it: nothing, unless usage came back."""
        finished = time.perf_counter()
        with self._lock:
            pending = self._pending.pop(run_id, None)
        if pending is None:
            return
        usage = _usage_in_error(error)
        prompt_tokens, completion_tokens = usage if usage is not None else (0, 0)
        source = REPORTED_SOURCE if usage is not None else NOT_BILLED_SOURCE
        described = describe_error(error, *self.secrets, generic=self.generic_errors)
        self._record(pending, "", prompt_tokens, completion_tokens, source, described, finished)

    def _record(
        self,
        pending: _PendingCall,
        output: str,
        prompt_tokens: int,
        completion_tokens: int,
        source: str,
        error: str | None,
        finished: float,
        cut_by: str | None = None,
        prompt: tuple[PromptMessage, ...] | None = None,
        cached_tokens: int | None = None,
        tool_calls: tuple[dict[str, Any], ...] = (),
    ) -> None:
        if prompt is None:
            prompt = tuple(to_prompt_message(m, self.encoding_name) for m in pending.messages)
        call = ModelCall(
            purpose=pending.purpose,
            messages=prompt,
            output=output,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            token_source=source,
            seconds=finished - pending.started,
            first_token_seconds=None
            if pending.first_chunk is None
            else pending.first_chunk - pending.started,
            error=error,
            cut_by=cut_by,
            tools=pending.tools,
            tool_tokens=count_tool_tokens(pending.tools, self.encoding_name),
            cached_tokens=cached_tokens,
            reply_tool_calls=tool_calls,
        )
        with self._lock:
            self._calls.append(call)

    def last_call(self, purpose: str) -> ModelCall | None:
        """The newest finished call for ``purpose`` since the last drain (a tool reads which call asked
        for it), without draining anything."""
        with self._lock:
            return next((call for call in reversed(self._calls) if call.purpose == purpose), None)

    def drain(self) -> list[ModelCall]:
        """Return the calls recorded since the last drain, oldest first, and forget them."""
        with self._lock:
            calls, self._calls = self._calls, []
            self._pending.clear()
        return calls
