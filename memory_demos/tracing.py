"""The callback that records what the chat model really received and returned.

Every model a strategy builds carries one ``CallCapture`` in its own ``callbacks``, so calls
made deep inside LangChain (a classic memory's summary chain, an agent middleware) are seen
as well as the reply call. Nothing here rebuilds a prompt from a template.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import BaseMessage
from langchain_core.outputs import LLMResult

from memory_demos.providers.errors import describe_error
from memory_demos.providers.tokenizer import (
    count_message_tokens,
    count_messages_tokens,
    count_text_tokens,
    message_text,
)
from memory_demos.turn import ModelCall, PromptMessage

PURPOSE_TAG_PREFIX = "purpose:"
REPLY = "reply"
SUMMARIZE = "summarize"
EXTRACT_ENTITIES = "extract entities"
SUMMARIZE_ENTITY = "summarize entity"

# Markers of LangChain's own memory prompts, so a call is labelled by what it asked for.
_PROMPT_MARKERS: tuple[tuple[str, str], ...] = (
    ("Progressively summarize the lines of conversation provided", SUMMARIZE),
    ("Extract all of the proper nouns from the last line of conversation", EXTRACT_ENTITIES),
    ("Update the summary of the provided entity", SUMMARIZE_ENTITY),
    ("Context Extraction Assistant", SUMMARIZE),
)


def purpose_tag(purpose: str) -> str:
    """The tag that marks a model (or a call) with the purpose the capture reports."""
    return f"{PURPOSE_TAG_PREFIX}{purpose}"


def classify_call(messages: list[BaseMessage], tags: list[str] | None) -> str:
    """Name what a model call was for: its prompt's known marker first, then its purpose tag."""
    first_text = " ".join(str(m.content)[:600] for m in messages[:2])
    for marker, purpose in _PROMPT_MARKERS:
        if marker in first_text:
            return purpose
    for tag in tags or []:
        if tag.startswith(PURPOSE_TAG_PREFIX):
            return tag[len(PURPOSE_TAG_PREFIX) :]
    return REPLY


def to_prompt_message(message: BaseMessage, encoding_name: str) -> PromptMessage:
    """A captured LangChain message as plain data, with its token count."""
    content = message.content if isinstance(message.content, str) else str(message.content)
    tool_calls = tuple(
        {"name": call["name"], "args": call["args"], "id": call.get("id")}
        for call in getattr(message, "tool_calls", None) or []
    )
    return PromptMessage(
        role=message.type,
        content=content,
        tokens=count_message_tokens(message, encoding_name),
        tool_calls=tool_calls,
        tool_call_id=getattr(message, "tool_call_id", None),
    )


@dataclass
class _PendingCall:
    purpose: str
    messages: list[BaseMessage]
    started: float
    streamed: list[str] = field(default_factory=list)


class CallCapture(BaseCallbackHandler):
    """Collects every chat-model call made through the models that carry it.

    Thread-safe: the Compare page runs panes on worker threads, and LangChain may call
    handlers from its own executor.
    """

    raise_error = False
    run_inline = True

    def __init__(
        self, encoding_name: str, token_listener: Any | None = None, secrets: tuple[str, ...] = ()
    ) -> None:
        self.encoding_name = encoding_name
        self.secrets = secrets
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
        with self._lock:
            self._pending[run_id] = _PendingCall(classify_call(prompt, tags), prompt, time.perf_counter())

    def on_llm_new_token(self, token: str, *, run_id: UUID, **kwargs: Any) -> None:
        with self._lock:
            pending = self._pending.get(run_id)
            if pending is not None:
                pending.streamed.append(token)
        listener = self.token_listener
        if listener is not None and pending is not None and pending.purpose == REPLY and token:
            listener(token)

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        finished = time.perf_counter()
        with self._lock:
            pending = self._pending.pop(run_id, None)
        if pending is None:
            return
        generation = response.generations[0][0] if response.generations and response.generations[0] else None
        message = getattr(generation, "message", None)
        output = generation.text if generation is not None else "".join(pending.streamed)
        usage = getattr(message, "usage_metadata", None) if message is not None else None
        # The offline model reports tiktoken counts itself; only a real provider's numbers are "reported".
        from_provider = getattr(message, "response_metadata", {}).get("model_provider") != "offline"
        if usage and usage.get("input_tokens") and from_provider:
            prompt_tokens = int(usage["input_tokens"])
            completion_tokens = int(usage.get("output_tokens", 0))
            source = "reported by the provider"
        else:
            prompt_tokens = count_messages_tokens(pending.messages, self.encoding_name)
            completion_text = message_text(message) if message is not None else output
            completion_tokens = count_text_tokens(completion_text, self.encoding_name)
            source = f"counted with tiktoken {self.encoding_name}"
        self._record(pending, output, prompt_tokens, completion_tokens, source, None, finished)

    def on_llm_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        finished = time.perf_counter()
        with self._lock:
            pending = self._pending.pop(run_id, None)
        if pending is None:
            return
        prompt_tokens = count_messages_tokens(pending.messages, self.encoding_name)
        source = f"counted with tiktoken {self.encoding_name}"
        self._record(pending, "", prompt_tokens, 0, source, describe_error(error, *self.secrets), finished)

    def _record(
        self,
        pending: _PendingCall,
        output: str,
        prompt_tokens: int,
        completion_tokens: int,
        source: str,
        error: str | None,
        finished: float,
    ) -> None:
        call = ModelCall(
            purpose=pending.purpose,
            messages=tuple(to_prompt_message(m, self.encoding_name) for m in pending.messages),
            output=output,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            token_source=source,
            seconds=finished - pending.started,
            error=error,
        )
        with self._lock:
            self._calls.append(call)

    def drain(self) -> list[ModelCall]:
        """Return the calls recorded since the last drain, oldest first, and forget them."""
        with self._lock:
            calls, self._calls = self._calls, []
            self._pending.clear()
        return calls
