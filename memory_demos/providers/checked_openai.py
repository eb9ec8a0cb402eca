"""``ChatOpenAI`` made to say how each streamed reply ended: finished, cut at its deadline, interrupted
by the server, cut off, or stopped by a full context window.

Neither the openai SDK nor ``ChatOpenAI`` checks that a stream finished. ``checked_chat_openai_class``
adds that check and the per-reply deadline; ``StreamEndWatch`` is the httpx transport that notices the
server's ``[DONE]``. ``chat_models.build_chat_model`` builds every OpenAI and compatible model with them.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Iterator
from functools import cache
from typing import Any

import httpx

from memory_demos.providers.errors import (
    ContextWindowExceeded,
    IncompleteStreamError,
    PossibleOverflowDrop,
    ServerInterruptedError,
    error_kind,
)

TOKENIZE_TIMEOUT_SECONDS = 3.0
TOKENIZE_PATHS = ("/tokenize", "/extras/tokenize")  # llama.cpp's, then llama-cpp-python's (0.2.x+)
# What a chat template adds around each message (role markers, separators), on top of its text.
TEMPLATE_TOKENS_PER_MESSAGE = 4
# The finish reason of a reply stopped at its deadline; the capture (tracing) reads it as a cut.
DEADLINE_FINISH_REASON = "deadline"


def _stream_finished(chunk: Any) -> bool:
    info = getattr(chunk, "generation_info", None) or {}
    metadata = getattr(getattr(chunk, "message", None), "response_metadata", None) or {}
    return bool(info.get("finish_reason") or metadata.get("finish_reason"))


def _deadline_chunk() -> Any:
    """The last chunk of a reply stopped at its deadline: no text, a finish reason saying why."""
    from langchain_core.messages import AIMessageChunk
    from langchain_core.outputs import ChatGenerationChunk

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


def server_prompt_tokens(model: Any, messages: Any) -> int | None:
    """The prompt's length by the server's own tokenizer: llama.cpp's ``/tokenize``, else llama-cpp-python's
    ``/extras/tokenize``.

    The messages' texts are counted, plus ``TEMPLATE_TOKENS_PER_MESSAGE`` each for the chat template the
    server wraps them in. None when the server has neither endpoint or does not answer in time.
    """
    base_url = str(getattr(model, "openai_api_base", None) or "")
    client = getattr(model, "http_client", None)
    if not base_url or client is None:
        return None
    root = base_url.rstrip("/").removesuffix("/v1")
    texts = [_text_of(message) for message in messages]
    # llama.cpp reads "content", llama-cpp-python "input" (and "model"); each ignores the other's field.
    body = {"content": "\n".join(texts), "input": "\n".join(texts), "model": getattr(model, "model_name", "")}
    key = getattr(model, "openai_api_key", None)
    secret = key.get_secret_value() if key is not None else ""
    headers = {"Authorization": f"Bearer {secret}"} if secret and secret != "not-needed" else {}
    for path in TOKENIZE_PATHS:
        try:
            url = f"{root}{path}"
            response = client.post(url, json=body, headers=headers, timeout=TOKENIZE_TIMEOUT_SECONDS)
            tokens = response.json().get("tokens") if response.status_code == 200 else None
        except httpx.TransportError:  # refused, cut, too slow: no other path of it will answer either
            return None
        except Exception:  # not JSON, an odd shape: this path does not tell
            tokens = None
        if isinstance(tokens, list):
            return len(tokens) + TEMPLATE_TOKENS_PER_MESSAGE * len(texts)
    return None


def _text_of(message: Any) -> str:
    content = getattr(message, "content", "")
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") if isinstance(part, dict) else str(part) for part in content)


def _overflow_or(error: Exception, model: Any, messages: Any) -> Exception:
    """``error``, or a context overflow if the server's own count puts the prompt at ``model``'s window.

    A stream cut with no word is an overflow only on evidence: the server's tokenizer counts a prompt
    that, with the reply limit (llama-cpp-python checks prompt + max_tokens), does not fit. Without
    that count a local one near the window only adds the figures to the dropped connection's message.
    """
    window = model.context_window_tokens
    if not window or error_kind(error) != "connection_dropped":
        return error
    reply_limit = int(getattr(model, "max_tokens", None) or 0)
    counted = server_prompt_tokens(model, messages)
    if counted is not None:
        if counted + reply_limit > window or counted >= 0.95 * window:
            return ContextWindowExceeded(counted, reply_limit, window)
        return error
    try:
        local = model.get_num_tokens_from_messages(list(messages))
    except Exception:
        return error
    if local + reply_limit < window * 0.95:
        return error
    return PossibleOverflowDrop(local, reply_limit, window)


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
    if stream_watch is not None and stream_watch.done_seen:
        return ServerInterruptedError("the server ended the stream ([DONE]) without a finish reason")
    return IncompleteStreamError("the stream ended without a finish reason")


@cache
def checked_chat_openai_class() -> type:
    """ChatOpenAI that bounds a reply and says why a stream ended early.

    Neither the openai SDK nor ChatOpenAI checks that a stream finished: a server that closes the
    stream cleanly mid-reply would otherwise have its half reply stored as the answer. This class
    also stops reading at ``deadline_seconds`` (the reply so far is kept, finish reason "deadline"),
    tells a server's deliberate interruption from a cut connection, and reports a stream that died
    with the prompt at the context window (by the server's own count) as a context overflow.
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
            finished = False
            async for chunk in super()._astream(*args, **kwargs):
                finished = finished or _stream_finished(chunk)
                yield chunk
            if not finished:
                raise IncompleteStreamError("the stream ended without a finish reason")

    return CheckedChatOpenAI
