"""Build the chat model a user picked: the offline teaching model, OpenAI, or an OpenAI-compatible server."""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any, Literal

import httpx
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models import BaseChatModel
from pydantic import SecretStr

from memory_demos.providers.context_window import ContextWindow, assumed_context_window, known_context_window
from memory_demos.providers.tokenizer import TokenizerChoice, choose_encoding, get_encoding
from memory_demos.providers.url_policy import EgressPolicy

logger = logging.getLogger(__name__)
ProviderKind = Literal["offline", "openai", "openai_compatible"]
PROVIDER_KINDS: tuple[ProviderKind, ...] = ("offline", "openai", "openai_compatible")
OFFLINE_MODEL_NAME = "offline-teaching-model"
OFFLINE_DISPLAY_NAME = "Offline teaching model (rule-based, not an LLM)"
DEFAULT_OPENAI_MODEL = "gpt-4o-mini"
DEFAULT_TIMEOUT_SECONDS = 60.0
DEFAULT_MAX_RETRIES = 2
DEFAULT_MAX_TOKENS = 512
DEFAULT_API_KEY_ENV = "OPENAI_API_KEY"
OFFLINE_CONTEXT_WINDOW = ContextWindow(
    8_192, "assumed: the offline teaching model has no limit; 8,192 is shown for scale", assumed=True
)


@dataclass(frozen=True)
class ProviderConfig:
    """Which chat model to build. The key is a SecretStr so it never prints in a repr or a log.

    ``hosted`` marks the workshop host's model: its key and base URL are server secrets, so the
    interface, exports and error messages name only the model. ``use_env_key`` lets an empty key fall
    back to ``OPENAI_API_KEY``; providers typed in by someone in the browser turn it off where the
    server's key would go to an address they chose.
    """

    kind: ProviderKind = "offline"
    model: str = OFFLINE_MODEL_NAME
    base_url: str | None = None
    api_key: SecretStr | None = field(default=None, repr=False)
    timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS
    max_retries: int = DEFAULT_MAX_RETRIES
    latency_ms: int = 0
    fail_on_calls: tuple[int, ...] = ()
    fail_purposes: tuple[str, ...] = ()
    drift: bool = False
    # "local" = the shipped all-MiniLM-L6-v2; "openai" = the provider's embeddings endpoint.
    embeddings: Literal["local", "openai"] = "local"
    embedding_model: str = "text-embedding-3-small"
    hosted: bool = False
    use_env_key: bool = True
    # -- bounds and the server's shape (Settings and CLI flags) --
    max_tokens: int = DEFAULT_MAX_TOKENS  # per reply; a reply that reaches it is kept, marked as cut
    max_concurrent_panes: int = 0  # answer panes at most N at a time (0: all at once)
    context_window_tokens: int | None = None  # from Settings, the CLI or the server; None: table or guess
    context_window_source: str = ""
    api_key_env: str | None = None  # the variable an empty key falls back to; None: see key_env_name
    # Set for an address typed in a workshop attendee's browser: the host's rules for server requests.
    egress: EgressPolicy | None = field(default=None, repr=False)
    # The attendee's budget gate (workshop mode), attached to every model built from this config.
    gate: Any = field(default=None, repr=False, compare=False)

    def __repr__(self) -> str:
        base_url = "[server-side]" if self.hosted and self.base_url else self.base_url
        return (
            f"ProviderConfig(kind={self.kind!r}, model={self.model!r}, base_url={base_url!r}, "
            f"hosted={self.hosted}, timeout_seconds={self.timeout_seconds})"
        )

    def secret_values(self) -> tuple[str, ...]:
        """Text that must never be shown: the key, and a hosted provider's base URL (to scrub messages)."""
        values = [self.api_key.get_secret_value() if self.api_key is not None else ""]
        if self.hosted and self.base_url:
            from urllib.parse import urlsplit

            parts = urlsplit(self.base_url)
            values += [self.base_url, self.base_url.rstrip("/"), parts.netloc, parts.hostname or ""]
        return tuple(sorted({value for value in values if value}, key=len, reverse=True))

    @property
    def display_name(self) -> str:
        if self.kind == "offline":
            return OFFLINE_DISPLAY_NAME
        if self.hosted:
            return f"Workshop model · {self.model}"
        if self.kind == "openai":
            return f"OpenAI · {self.model}"
        return f"OpenAI-compatible · {self.model} at {self.base_url}"

    @property
    def tokenizer(self) -> TokenizerChoice:
        if self.kind == "offline":
            return TokenizerChoice(self.model, "o200k_base", approximate=False)
        return choose_encoding(self.model)

    @property
    def context_window_info(self) -> ContextWindow:
        """The window in tokens and where it came from: given, the table, or assumed (labelled)."""
        if self.context_window_tokens:
            source = self.context_window_source or "Settings"
            return ContextWindow(self.context_window_tokens, source, assumed=source.startswith("assumed"))
        if self.kind == "offline":
            return OFFLINE_CONTEXT_WINDOW
        return known_context_window(self.model) or assumed_context_window(self.model)

    @property
    def context_window(self) -> int:
        return self.context_window_info.tokens

    @property
    def key_env_name(self) -> str | None:
        """The variable an empty key falls back to: the one named, else OPENAI_API_KEY for OpenAI only.

        A server at another address never gets OpenAI's key unless someone named that variable for it.
        """
        if not self.use_env_key:
            return None
        if self.api_key_env:
            return self.api_key_env
        return DEFAULT_API_KEY_ENV if self.kind == "openai" else None

    @property
    def deadline_seconds(self) -> float:
        """How long a reply may stream (the timeout setting; waiting for a first byte has the same bound)."""
        return self.timeout_seconds

    def with_overrides(self, **changes: Any) -> ProviderConfig:
        return replace(self, **changes)

    def describe(self, error: BaseException) -> str:
        """A one-line description of ``error`` without this provider's secrets.

        For an attendee-typed address in a workshop, and for the host's model, it names only the kind
        of failure: never the remote body, nor whether the port answered (a port scanner otherwise).
        """
        from memory_demos.providers.errors import STORAGE_HIDDEN, describe_error, error_kind, redact

        if self.gate is not None and error_kind(error) == "storage":  # a workshop attendee: no server paths
            logger.warning("Storage error: %s", redact(str(error), *self.secret_values()))
            return STORAGE_HIDDEN
        return describe_error(error, *self.secret_values(), generic=self.generic_errors)

    @property
    def generic_errors(self) -> bool:
        """True where errors name only their kind: the host's model, an attendee-typed address."""
        return self.egress is not None or self.hosted


def _stream_finished(chunk: Any) -> bool:
    info = getattr(chunk, "generation_info", None) or {}
    metadata = getattr(getattr(chunk, "message", None), "response_metadata", None) or {}
    return bool(info.get("finish_reason") or metadata.get("finish_reason"))


def _deadline_chunk() -> Any:
    """The last chunk of a reply stopped at its deadline: no text, a finish reason saying why."""
    from langchain_core.messages import AIMessageChunk
    from langchain_core.outputs import ChatGenerationChunk

    from memory_demos.tracing import DEADLINE_FINISH_REASON

    message = AIMessageChunk(content="", response_metadata={"finish_reason": DEADLINE_FINISH_REASON})
    return ChatGenerationChunk(message=message, generation_info={"finish_reason": DEADLINE_FINISH_REASON})


class StreamEndWatch(httpx.BaseTransport):
    """An httpx transport that notes whether a streamed body carried ``data: [DONE]``.

    A stream that ends with ``[DONE]`` but no finish reason was ended on purpose by the server:
    llama-cpp-python does that to a running reply when another request arrives, and without this it
    looks exactly like a cut connection. One model instance serves one turn at a time, so one flag
    per instance is enough. It also drops the ``Authorization`` header when there is no key: the SDK
    always sends one, and a server that was given no key should get none.
    """

    def __init__(self, send_authorization: bool = True, inner: httpx.BaseTransport | None = None) -> None:
        self.done_seen = False
        self.send_authorization = send_authorization
        self._inner = inner or httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if not self.send_authorization:
            request.headers.pop("Authorization", None)
        response = self._inner.handle_request(request)
        response.stream = _WatchedStream(response.stream, self)  # type: ignore[arg-type]
        return response

    def close(self) -> None:
        self._inner.close()

    def http_client(self, timeout: float) -> httpx.Client:
        """A client for ChatOpenAI's ``http_client`` that sends every request through this transport."""
        return httpx.Client(transport=self, timeout=timeout, follow_redirects=False)


class _WatchedStream(httpx.SyncByteStream):
    """A response body passed through unchanged, noting ``[DONE]`` as it goes by."""

    def __init__(self, inner: Any, watch: StreamEndWatch) -> None:
        self._inner = inner
        self._watch = watch

    def __iter__(self) -> Iterator[bytes]:
        tail = b""
        for part in self._inner:
            if b"[DONE]" in tail + part:
                self._watch.done_seen = True
            tail = part[-16:]
            yield part

    def close(self) -> None:
        self._inner.close()


def _bounded_stream(chunks: Iterator[Any], deadline_seconds: float | None) -> Generator[Any, None, bool]:
    """Yield ``chunks``, cut ``deadline_seconds`` after the first one; True if the reply is complete.

    A cut reply ends with a "deadline" chunk and counts as complete: the reply so far is kept. The
    deadline runs from the first chunk; waiting for it is the timeout's business.
    """
    started: float | None = None
    finished = False
    for chunk in chunks:
        started = time.monotonic() if started is None else started
        finished = finished or _stream_finished(chunk)
        yield chunk
        late = deadline_seconds and time.monotonic() - started > deadline_seconds
        if late and not finished:
            yield _deadline_chunk()
            return True
    return finished


def _overflow_or(error: Exception, model: Any, messages: Any) -> Exception:
    """``error``, or a context overflow if the connection died with ``model``'s prompt at its window."""
    from memory_demos.providers.errors import ContextWindowExceeded, error_kind

    window = model.context_window_tokens
    if not window or error_kind(error) != "connection_dropped":
        return error
    try:
        prompt_tokens = model.get_num_tokens_from_messages(list(messages))
    except Exception:
        return error
    if prompt_tokens + 16 < window * 0.95:
        return error
    return ContextWindowExceeded(
        f"the stream stopped with about {prompt_tokens:,} prompt tokens against a context window "
        f"of {window:,}"
    )


def _checked_stream(model: Any, chunks: Iterator[Any], messages: Any) -> Iterator[Any]:
    """``chunks`` bounded by ``model.deadline_seconds``; an error if the stream ended unfinished.

    A dropped connection with the prompt at the context window is reported as a context overflow.
    """
    if model.stream_watch is not None:
        model.stream_watch.done_seen = False
    try:
        finished = yield from _bounded_stream(chunks, model.deadline_seconds)
    except Exception as exc:
        explained = _overflow_or(exc, model, messages)
        if explained is exc:
            raise
        raise explained from exc
    finally:
        chunks.close()
    if not finished:
        raise _overflow_or(_unfinished(model.stream_watch), model, messages)


def _unfinished(stream_watch: Any) -> Exception:
    """Why a stream ended without a finish reason: the server's ``[DONE]`` (on purpose) or a cut."""
    from memory_demos.providers.errors import IncompleteStreamError, ServerInterruptedError

    if stream_watch is not None and stream_watch.done_seen:
        return ServerInterruptedError("the server ended the stream ([DONE]) without a finish reason")
    return IncompleteStreamError("the stream ended without a finish reason")


@cache
def _checked_chat_openai_class() -> type:
    """ChatOpenAI that bounds a reply and says why a stream ended early.

    Neither the openai SDK nor ChatOpenAI checks that a stream finished: a server that closes the
    stream cleanly mid-reply would otherwise have its half reply stored as the answer. This class
    also stops reading at ``deadline_seconds`` (the reply so far is kept, finish reason "deadline"),
    tells a server's deliberate interruption from a cut connection, and reports a stream that died
    with the prompt at the context window as a context overflow.
    """
    from langchain_openai import ChatOpenAI

    class CheckedChatOpenAI(ChatOpenAI):
        deadline_seconds: float | None = None
        context_window_tokens: int | None = None
        legacy_max_tokens: bool = False  # send ``max_tokens`` (every compatible server reads it)
        stream_watch: Any = None

        def _get_request_payload(self, *args: Any, **kwargs: Any) -> dict:
            payload = super()._get_request_payload(*args, **kwargs)
            if self.legacy_max_tokens and "max_completion_tokens" in payload:
                payload["max_tokens"] = payload.pop("max_completion_tokens")
            return payload

        def _stream(self, messages: Any, *args: Any, **kwargs: Any) -> Any:
            yield from _checked_stream(self, super()._stream(messages, *args, **kwargs), messages)

        async def _astream(self, *args: Any, **kwargs: Any) -> Any:
            from memory_demos.providers.errors import IncompleteStreamError

            finished = False
            async for chunk in super()._astream(*args, **kwargs):
                finished = finished or _stream_finished(chunk)
                yield chunk
            if not finished:
                raise IncompleteStreamError("the stream ended without a finish reason")

    return CheckedChatOpenAI


def resolve_openai_key(config: ProviderConfig) -> SecretStr | None:
    """The key from the config, else from the variable ``config.key_env_name`` names; never logged."""
    if config.api_key is not None and config.api_key.get_secret_value():
        return config.api_key
    if config.key_env_name is None:
        return None
    from_env = os.environ.get(config.key_env_name)
    return SecretStr(from_env) if from_env else None


def build_chat_model(
    config: ProviderConfig,
    *,
    callbacks: list[BaseCallbackHandler] | None = None,
    tags: list[str] | None = None,
    streaming: bool = True,
    shared_state: Any | None = None,
) -> BaseChatModel:
    """A fresh chat model for one strategy; it counts tokens with the real tiktoken encoder.

    ``shared_state`` lets several models of one strategy share the offline model's call counter,
    so "fail on the Nth call" counts every call the strategy makes.
    """
    callbacks = _with_gate(config, callbacks)
    if config.kind == "offline":
        from memory_demos.providers.offline_model import OfflineTeachingModel

        kwargs: dict[str, Any] = {
            "latency_ms": config.latency_ms,
            "fail_on_calls": frozenset(config.fail_on_calls),
            "fail_purposes": frozenset(config.fail_purposes),
            "drift": config.drift,
            "streaming": streaming,
            "callbacks": callbacks,
            "tags": tags,
        }
        if shared_state is not None:
            kwargs["call_counter"] = shared_state
        return OfflineTeachingModel(**kwargs)

    key = resolve_openai_key(config)
    if config.kind == "openai" and key is None:
        raise ValueError(
            "OpenAI needs an API key: set OPENAI_API_KEY, add it to secrets, or paste it in Settings."
        )
    if config.kind == "openai_compatible" and not config.base_url:
        raise ValueError("An OpenAI-compatible provider needs a base URL, e.g. http://localhost:11434/v1.")
    choice = config.tokenizer
    get_encoding(choice.encoding_name)
    timeout = config.timeout_seconds
    egress_clients: dict[str, Any] = {}
    if config.egress is not None:  # an attendee-typed address: vetted requests, no redirects, capped wait
        config.egress.check_url(config.base_url or "")
        timeout = min(timeout, config.egress.max_timeout_seconds)
        egress_clients["http_async_client"] = config.egress.clients(timeout)[1]
    inner = config.egress.transport() if config.egress is not None else None
    watch = StreamEndWatch(send_authorization=key is not None, inner=inner)
    window = config.context_window_info
    return _checked_chat_openai_class()(
        model=config.model,
        api_key=key or SecretStr("not-needed"),
        base_url=config.base_url or None,
        timeout=timeout,
        max_retries=config.max_retries,
        max_tokens=config.max_tokens,
        **egress_clients,
        streaming=streaming,
        stream_usage=True,
        tiktoken_model_name="gpt-4o" if choice.encoding_name == "o200k_base" else "gpt-4",
        callbacks=callbacks,
        tags=tags,
        http_client=watch.http_client(timeout),
        stream_watch=watch,
        deadline_seconds=min(config.deadline_seconds, timeout),
        context_window_tokens=None if window.assumed else window.tokens,
        legacy_max_tokens=config.kind == "openai_compatible",
    )


def _with_gate(
    config: ProviderConfig, callbacks: list[BaseCallbackHandler] | None
) -> list[BaseCallbackHandler]:
    """``callbacks`` with the attendee's budget gate first (so a refusal stops the call before it goes)."""
    from memory_demos.workshop.budget import current_gate

    gate = config.gate or current_gate()
    handlers = list(callbacks or [])
    return [gate.handler(config.tokenizer.encoding_name), *handlers] if gate is not None else handlers
