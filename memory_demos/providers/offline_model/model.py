"""The LangChain chat model class of the offline teaching model, and its shared call counter."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.messages.ai import UsageMetadata
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import ConfigDict, Field

from memory_demos.providers.errors import InjectedFault
from memory_demos.providers.offline_model.lexicon import (
    DEFAULT_MODEL_NAME,
    ENCODING_NAME,
)
from memory_demos.providers.offline_model.reply import call_purpose, compose_reply, stream_chunks
from memory_demos.providers.tokenizer import (
    count_messages_tokens,
    count_text_tokens,
    encode,
    message_text,
)

# --------------------------------------------------------------------------------------------
# The chat model


class CallCounter:
    """A thread-safe call counter that several models of one strategy share (1-based)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._count = 0

    def next(self) -> int:
        """Count one more call and return its number."""
        with self._lock:
            self._count += 1
            return self._count

    @property
    def count(self) -> int:
        """How many calls were counted so far."""
        with self._lock:
            return self._count

    def __repr__(self) -> str:
        return f"CallCounter(count={self.count})"

    def __getstate__(self) -> dict[str, int]:
        return {"count": self.count}

    def __setstate__(self, state: dict[str, int]) -> None:
        self._lock = threading.Lock()
        self._count = int(state.get("count", 0))


class OfflineTeachingModel(BaseChatModel):
    """A deterministic, instant chat model that knows only the messages it receives.

    Not an LLM: rules read facts from the prompt, so what a memory strategy drops is visibly forgotten.
    Faults, latency, summary drift and chatty entity output can be switched on for the failure lab.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    model_name: str = DEFAULT_MODEL_NAME
    latency_ms: int = 0
    fail_on_calls: frozenset[int] = frozenset()
    fail_purposes: frozenset[str] = frozenset()
    drift: bool = False
    chatty_entities: bool = False
    streaming: bool = False
    call_counter: CallCounter = Field(default_factory=CallCounter)

    @property
    def _llm_type(self) -> str:
        return "offline-teaching"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {
            "model_name": self.model_name,
            "latency_ms": self.latency_ms,
            "drift": self.drift,
            "chatty_entities": self.chatty_entities,
            "fail_on_calls": sorted(self.fail_on_calls),
            "fail_purposes": sorted(self.fail_purposes),
        }

    def _get_ls_params(self, stop: list[str] | None = None, **kwargs: Any) -> Any:
        params = super()._get_ls_params(stop=stop, **kwargs)
        params["ls_provider"] = "offline"
        params["ls_model_name"] = self.model_name
        return params

    def get_token_ids(self, text: str) -> list[int]:
        """Token ids from tiktoken o200k_base (offline), never a downloaded GPT-2 tokenizer."""
        return encode(text, ENCODING_NAME)

    def get_num_tokens_from_messages(
        self, messages: list[BaseMessage], tools: Sequence[Any] | None = None
    ) -> int:
        """Prompt tokens counted exactly like the tracing callback counts them."""
        return count_messages_tokens(messages, ENCODING_NAME)

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """Bind tools as OpenAI tool dicts; the model calls the weather and order tools when asked."""
        formatted = [convert_to_openai_tool(tool) for tool in tools]
        if tool_choice is not None:
            kwargs["tool_choice"] = tool_choice
        return self.bind(tools=formatted, **kwargs)

    def _start_call(self, messages: list[BaseMessage], run_manager: CallbackManagerForLLMRun | None) -> None:
        number = self.call_counter.next()
        if number in self.fail_on_calls:
            raise InjectedFault(f"call #{number} fails on purpose (fail_on_calls)")
        purpose = call_purpose(run_manager.tags if run_manager else None)
        if purpose in self.fail_purposes:
            raise InjectedFault(f"the {purpose!r} call #{number} fails on purpose (fail_purposes)")

    def _reply_message(self, messages: list[BaseMessage], stop: list[str] | None, **kwargs: Any) -> AIMessage:
        reply = compose_reply(
            messages,
            tools=kwargs.get("tools") or (),
            drift=self.drift,
            chatty_entities=self.chatty_entities,
        )
        text = reply.text
        for token in stop or []:
            if token and token in text:
                text = text[: text.index(token)]
        message = AIMessage(
            content=text,
            tool_calls=[{**call, "type": "tool_call"} for call in reply.tool_calls],
            response_metadata={
                "model_name": self.model_name,
                "model_provider": "offline",
                "finish_reason": "tool_calls" if reply.tool_calls else "stop",
            },
        )
        message.usage_metadata = self._usage(messages, message)
        return message

    @staticmethod
    def _usage(messages: list[BaseMessage], message: AIMessage) -> UsageMetadata:
        input_tokens = count_messages_tokens(messages, ENCODING_NAME)
        output_tokens = count_text_tokens(message_text(message), ENCODING_NAME)
        return {
            "input_tokens": input_tokens,
            "output_tokens": output_tokens,
            "total_tokens": input_tokens + output_tokens,
        }

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self._start_call(messages, run_manager)
        message = self._reply_message(messages, stop, **kwargs)
        if self.latency_ms > 0:
            time.sleep(self.latency_ms / 1000)
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        self._start_call(messages, run_manager)
        message = self._reply_message(messages, stop, **kwargs)
        metadata = dict(message.response_metadata)
        if message.tool_calls:
            pieces: list[str] = [""]
        else:
            pieces = stream_chunks(str(message.content)) or [""]
        pause = self.latency_ms / 1000 / len(pieces) if self.latency_ms > 0 else 0.0
        for index, piece in enumerate(pieces):
            if pause:
                time.sleep(pause)
            last = index == len(pieces) - 1
            chunk_message = AIMessageChunk(
                content=piece,
                tool_call_chunks=[
                    {
                        "name": c["name"],
                        "args": json.dumps(c["args"]),
                        "id": c["id"],
                        "index": i,
                    }
                    for i, c in enumerate(message.tool_calls)
                ]
                if last
                else [],
                usage_metadata=message.usage_metadata if last else None,
                response_metadata=metadata if last else {},
            )
            if last:
                chunk_message.chunk_position = "last"
            chunk = ChatGenerationChunk(message=chunk_message)
            if run_manager:
                run_manager.on_llm_new_token(piece, chunk=chunk)
            yield chunk
