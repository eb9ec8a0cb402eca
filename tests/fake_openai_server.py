"""A real local HTTP server that speaks OpenAI's chat-completions protocol, with programmable faults.

It binds to 127.0.0.1 on a free port, answers ``POST /v1/chat/completions`` both as one JSON body
and as a Server-Sent-Events stream (chunked transfer encoding, a usage chunk when
``stream_options.include_usage`` is set, then ``data: [DONE]``), and records every request so a
test can assert on what the client really sent.

Replies are deterministic: ``"seen N messages: <last user text>"`` (so a reply echoes whatever the
user typed). LangChain's own memory prompts — a user message that *is* one of those templates, from
its first words — get short, parseable answers instead: a summary is the previous summary plus the
new lines (so a test can see what was folded in), entity and fact extraction get ``NONE``. A user
message that merely quotes a template's phrase is an ordinary message.

Server shapes a real local server can have:

- ``single_slot=True``: one request at a time, like llama-cpp-python's default
  (``interrupt_requests``): a request arriving while a reply streams ends that stream at once with
  ``data: [DONE]`` and no finish reason, then waits for the slot. ``chunk_delay`` slows streams.
- ``context_window=N``: a prompt over N (fake) tokens gets llama.cpp's 400 before any byte is
  streamed; a reply that would fill the window streams until it does, then gets an SSE error event
  naming the context (``overflow_cut=True``: the socket is cut instead, with no word). The window is
  advertised on llama.cpp's ``/props`` and in ``/v1/models``. ``reserve_max_tokens=True`` checks as
  llama-cpp-python 0.3 does: a prompt plus ``max_tokens`` over N gets a 200, then the socket is cut.
- ``POST /tokenize`` counts a text as llama.cpp does (``content``), one (fake) token per word;
  ``tokenize_paths=("/extras/tokenize",)`` answers there instead, as llama-cpp-python does (``input``),
  and ``()`` nowhere (404). These requests are counted in ``tokenize_requests``, not recorded.
- ``report_cached_tokens=True``: usage carries ``prompt_tokens_details.cached_tokens``, as OpenAI's does:
  the longest prefix (in the same fake tokens) the prompt shares with a prompt answered before.
- ``stream_usage=False``: no usage chunk even when asked (llama-cpp-python); ``reply_text``: every chat
  reply is that text (``""`` or whitespace: a model that answers nothing).
- Scripted tool calls: ``add_script(ScriptedReply(tool_calls=(("memory_append", {...}),), match=...))``
  queues a reply that asks for those tools (``finish_reason: tool_calls``, streamed as OpenAI streams
  them), consumed by the next request whose body contains ``match``, as faults are. A request whose last
  message is a tool result gets ``"tool said: <result>"`` unless a script matches it too.

Faults are queued with ``add_fault`` and consumed by the next matching requests; a fault may match
only requests whose body contains a marker (e.g. ``"Progressively summarize"``).

Usage::

    with FakeOpenAIServer() as server:
        server.add_fault(Fault("server_error", times=3))
        ...  # point a client at server.base_url
        assert server.request_count() == 3
"""

from __future__ import annotations

import contextlib
import json
import re
import socket
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

import pytest

FaultKind = Literal[
    "delay",  # wait ``seconds`` before answering (past the client's timeout), then answer normally
    "stall_stream",  # streamed: send ``chunks_before`` chunks, then stall for ``seconds``
    "rate_limit",  # 429 with ``Retry-After: retry_after``
    "server_error",  # 500 with an OpenAI-shaped error body
    "status",  # any ``status`` with an OpenAI-shaped error body (401, 403, 404, 400, 422, ...)
    "drop",  # streamed: some chunks, then the socket closes; plain: half a body, then close
    "malformed",  # plain: a 200 whose JSON body is cut short; streamed: ``data:`` lines that are not JSON
    "truncated_stream",  # streamed: a clean end of the body after some chunks, no finish_reason, no [DONE]
]
SUMMARY_MARKER = "Progressively summarize the lines of conversation provided"
ENTITY_EXTRACTION_MARKER = "Extract all of the proper nouns from the last line of conversation"
ENTITY_SUMMARY_MARKER = "Update the summary of the provided entity"
FACT_EXTRACTION_MARKER = "Extract the stable facts the user states about themselves"
# How each template begins: a message is that prompt only if it starts this way.
SUMMARY_START = SUMMARY_MARKER
ENTITY_EXTRACTION_START = "You are an AI assistant reading the transcript of a conversation"
ENTITY_SUMMARY_START = "You are an AI assistant helping a human keep track of facts"
FACT_EXTRACTION_START = FACT_EXTRACTION_MARKER
CONTEXT_ERROR_MESSAGE = "the request exceeds the available context size, try increasing it"
_SUMMARY_PARTS = re.compile(
    r"Current summary:\n(.*?)\n\nNew lines of conversation:\n(.*?)\n\nNew summary:", re.DOTALL
)


@dataclass
class Fault:
    """One misbehaviour for the next ``times`` requests whose body contains ``match`` (``times=None``: all)."""

    kind: FaultKind
    times: int | None = 1
    match: str | None = None
    seconds: float = 0.0
    retry_after: str = "1"
    status: int = 500
    message: str = ""
    chunks_before: int = 2

    def applies_to(self, body_text: str) -> bool:
        return self.match is None or self.match in body_text


@dataclass
class ScriptedReply:
    """The next ``times`` replies to requests whose body contains ``match``: these tool calls, this text.

    ``tool_calls`` are ``(name, arguments)`` pairs; each gets the id ``call_<n>_<i>`` (n counts the
    server's completions), so a test can find its result in the next request.
    """

    tool_calls: tuple[tuple[str, dict[str, Any]], ...] = ()
    content: str = ""
    match: str | None = None
    times: int = 1

    def applies_to(self, body_text: str) -> bool:
        return self.match is None or self.match in body_text


@dataclass(frozen=True)
class RecordedRequest:
    """What one request looked like when it reached the server."""

    path: str
    headers: dict[str, str]  # names lower-cased
    body: Any
    raw_body: str
    received_at: float
    fault: str | None

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages", [])) if isinstance(self.body, dict) else []

    @property
    def streamed(self) -> bool:
        return isinstance(self.body, dict) and bool(self.body.get("stream"))

    @property
    def last_user_text(self) -> str:
        for message in reversed(self.messages):
            if message.get("role") == "user":
                return content_text(message.get("content"))
        return ""


def content_text(content: Any) -> str:
    """The text of a message's ``content`` (a string, or a list of typed parts)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return "" if content is None else str(content)


def reply_for(messages: list[dict[str, Any]]) -> str:
    """The deterministic answer to a list of chat messages."""
    last_user = next((m for m in reversed(messages) if m.get("role") == "user"), None)
    text = content_text(last_user.get("content")) if last_user else ""
    opening = text.lstrip()
    if opening.startswith(SUMMARY_START):
        # The prompt's worked example has the same headings: the real ones are the last.
        found = _SUMMARY_PARTS.findall(text)
        current, new_lines = found[-1] if found else ("", "")
        return " ".join(f"{current} {new_lines}".split())
    if opening.startswith((ENTITY_EXTRACTION_START, FACT_EXTRACTION_START)):
        return "NONE"
    if opening.startswith(ENTITY_SUMMARY_START):
        return "Entity summary."
    if messages and messages[-1].get("role") == "tool":
        return f"tool said: {content_text(messages[-1].get('content'))}"
    return f"seen {len(messages)} messages: {text}"


def usage_for(messages: list[dict[str, Any]], reply: str) -> dict[str, int]:
    """Token usage in OpenAI's shape: words plus 3 per message (deterministic, not tiktoken)."""
    prompt = sum(len(content_text(m.get("content")).split()) + 3 for m in messages)
    completion = len(reply.split())
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def prompt_fake_tokens(messages: list[dict[str, Any]]) -> list[str]:
    """The prompt as ``usage_for`` counts it: 3 framing tokens (one naming the role) and its words."""
    tokens: list[str] = []
    for message in messages:
        tokens += [
            "<start>",
            f"<{message.get('role')}>",
            *content_text(message.get("content")).split(),
            "<end>",
        ]
    return tokens


def shared_prefix(a: list[str], b: list[str]) -> int:
    length = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        length += 1
    return length


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        """Silence the default stderr access log."""

    def do_GET(self) -> None:
        window = self.server.owner.context_window
        if self.path.rstrip("/").endswith("/models"):
            row: dict[str, Any] = {"id": "test-model", "object": "model"}
            if window is not None:
                row["meta"] = {"n_ctx_train": window * 4}  # llama.cpp: the trained length, not the runtime
            self._send_json(200, {"object": "list", "data": [row]})
        elif self.path.rstrip("/") == "/props" and window is not None:
            self._send_json(200, {"default_generation_settings": {"n_ctx": window}, "total_slots": 1})
        else:
            self._send_json(404, _error_body("Not found", "invalid_request_error"))

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length).decode("utf-8", "replace")
        try:
            body: Any = json.loads(raw)
        except ValueError:
            body = None
        owner = self.server.owner
        if self.path.rstrip("/") in ("/tokenize", "/extras/tokenize"):
            self._tokenize(body)
            return
        fault = owner.take_fault(raw)
        script = owner.take_script(raw) if fault is None else None
        owner.record(
            RecordedRequest(
                path=self.path,
                headers={name.lower(): value for name, value in self.headers.items()},
                body=body,
                raw_body=raw,
                received_at=time.monotonic(),
                fault=fault.kind if fault else None,
            )
        )
        try:
            with owner.slot():
                self._answer(body, fault, script)
        except OSError:
            # The client gave up (a timeout) or we cut the connection on purpose.
            self.close_connection = True

    def _tokenize(self, body: Any) -> None:
        owner = self.server.owner
        with owner._lock:
            owner.tokenize_requests += 1
        if self.path.rstrip("/") not in owner.tokenize_paths or not isinstance(body, dict):
            self._send_json(404, _error_body("Not found", "invalid_request_error"))
            return
        text = str(body.get("content") or body.get("input") or "")
        self._send_json(200, {"tokens": list(range(len(text.split())))})

    # -- answering --------------------------------------------------------------------------
    def _answer(self, body: Any, fault: Fault | None, script: ScriptedReply | None = None) -> None:
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._send_json(404, _error_body(f"Unknown path {self.path}", "invalid_request_error"))
            return
        if not isinstance(body, dict):
            self._send_json(400, _error_body("The request body is not JSON.", "invalid_request_error"))
            return
        owner = self.server.owner
        if fault is not None and fault.kind == "delay":
            owner.stopping.wait(fault.seconds)
            fault = None
        if fault is not None and fault.kind == "rate_limit":
            message = fault.message or "Rate limit reached for test-model. Please try again in 1s."
            self._send_json(
                429,
                _error_body(message, "requests", code="rate_limit_exceeded"),
                {"Retry-After": fault.retry_after},
            )
            return
        if fault is not None and fault.kind in {"server_error", "status"}:
            status = 500 if fault.kind == "server_error" else fault.status
            message = fault.message or f"Fake server error {status}."
            self._send_json(
                status, _error_body(message, "server_error" if status >= 500 else "invalid_request")
            )
            return

        messages = list(body.get("messages", []))
        reply = reply_for(messages) if owner.reply_text is None else owner.reply_text
        if script is not None:
            reply = script.content
        model = str(body.get("model", "test-model"))
        prompt_tokens = usage_for(messages, "")["prompt_tokens"]
        if owner.context_window is not None and prompt_tokens > owner.context_window:
            # llama.cpp's answer, before any byte of a stream is sent.
            error = _error_body(CONTEXT_ERROR_MESSAGE, "exceed_context_size_error")
            error["error"].update(
                {"code": 400, "n_prompt_tokens": prompt_tokens, "n_ctx": owner.context_window}
            )
            self._send_json(400, error)
            return
        number = owner.next_completion_id()
        tool_calls = [
            {
                "id": f"call_{number}_{index}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments)},
            }
            for index, (name, arguments) in enumerate(script.tool_calls if script else ())
        ]
        usage: dict[str, Any] = dict(usage_for(messages, reply))
        if tool_calls:  # the calls' arguments are generated tokens too
            words = sum(len(call["function"]["arguments"].split()) + 1 for call in tool_calls)
            usage["completion_tokens"] += words
            usage["total_tokens"] += words
        if owner.report_cached_tokens:
            usage["prompt_tokens_details"] = {"cached_tokens": owner.cached_prefix(messages)}
        if body.get("stream"):
            include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
            include_usage = include_usage and owner.stream_usage
            limit = body.get("max_tokens") or body.get("max_completion_tokens")
            self._stream(number, model, reply, usage, include_usage, fault, limit, tool_calls)
        else:
            self._complete(number, model, reply, usage, fault, tool_calls)

    def _complete(
        self,
        number: int,
        model: str,
        reply: str,
        usage: dict[str, Any],
        fault: Fault | None,
        tool_calls: list[dict[str, Any]] | None = None,
    ) -> None:
        message: dict[str, Any] = {"role": "assistant", "content": reply, "refusal": None}
        if tool_calls:
            message["tool_calls"] = tool_calls
        payload = {
            "id": f"chatcmpl-fake-{number}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "logprobs": None,
                    "finish_reason": "tool_calls" if tool_calls else "stop",
                }
            ],
            "usage": usage,
        }
        data = json.dumps(payload).encode()
        if fault is not None and fault.kind == "malformed":
            self._send_bytes(200, data[: len(data) // 2], "application/json")
            return
        if fault is not None and fault.kind == "drop":
            # Promise the whole body, send half of it, then cut the connection.
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data[: len(data) // 2])
            self.wfile.flush()
            self._cut()
            return
        self._send_bytes(200, data, "application/json")

    def _stream(
        self,
        number: int,
        model: str,
        reply: str,
        usage: dict[str, Any],
        include_usage: bool,
        fault: Fault | None,
        max_tokens: int | None = None,
        tool_calls: list[dict[str, Any]] | None = None,
    ) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

        def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
            data: dict[str, Any] = {
                "id": f"chatcmpl-fake-{number}",
                "object": "chat.completion.chunk",
                "created": int(time.time()),
                "model": model,
                "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}],
            }
            if include_usage:
                data["usage"] = None
            return data

        pieces = re.findall(r"\S+\s*|\s+", reply) or [""]
        finish_reason = "stop"
        if max_tokens is not None and len(pieces) > max_tokens:  # one piece is one (fake) token
            pieces, finish_reason = pieces[:max_tokens], "length"
            usage = {**usage, "completion_tokens": max_tokens}
        events = [chunk({"role": "assistant", "content": "", "refusal": None})]
        events += [chunk({"content": piece}) for piece in pieces]
        for index, call in enumerate(tool_calls or ()):
            # OpenAI streams a call's id and name first, then its arguments in pieces.
            arguments = call["function"]["arguments"]
            head = {"index": index, "id": call["id"], "type": "function"}
            head["function"] = {"name": call["function"]["name"], "arguments": ""}
            events.append(chunk({"tool_calls": [head]}))
            half = len(arguments) // 2
            for part in (arguments[:half], arguments[half:]):
                events.append(chunk({"tool_calls": [{"index": index, "function": {"arguments": part}}]}))
        if tool_calls:
            finish_reason = "tool_calls"
        events.append(chunk({}, finish_reason))
        if include_usage:
            usage_chunk = chunk({})
            usage_chunk["choices"] = []
            usage_chunk["usage"] = usage
            events.append(usage_chunk)

        if fault is not None and fault.kind == "malformed":
            self._write_chunk(b"data: " + json.dumps(events[0]).encode() + b"\n\n")
            self._write_chunk(b'data: {"id": "chatcmpl-fake", "choices": [{"delta": {"content": "oops\n\n')
            self._write_chunk(b"data: this is not json\n\n")
            self._write_chunk(b"data: [DONE]\n\n")
            self._end_chunks()
            return
        owner = self.server.owner
        room = None if owner.context_window is None else owner.context_window - usage["prompt_tokens"]
        if room is not None and owner.reserve_max_tokens and (max_tokens or 0) > room:
            self._cut()  # llama-cpp-python: "Requested tokens (...) exceed context window" after the 200
            return
        for index, event in enumerate(events):
            if owner.chunk_delay and index:
                owner.stopping.wait(owner.chunk_delay)
            if owner.single_slot and owner.someone_waiting():
                # llama-cpp-python with interrupt_requests: end this reply now, no finish reason.
                self._write_chunk(b"data: [DONE]\n\n")
                self._end_chunks()
                owner.note_interrupted()
                return
            if room is not None and 0 < index <= len(pieces) and index > room:
                if owner.overflow_cut:
                    self._cut()
                    return
                error = _error_body(CONTEXT_ERROR_MESSAGE, "exceed_context_size_error", code="400")
                self._write_chunk(b"data: " + json.dumps(error).encode() + b"\n\n")
                self._end_chunks()
                return
            if fault is not None and index == fault.chunks_before:
                if fault.kind == "drop":
                    self._cut()
                    return
                if fault.kind == "stall_stream":
                    self.server.owner.stopping.wait(fault.seconds)
                    self._cut()
                    return
                if fault.kind == "truncated_stream":
                    self._end_chunks()
                    return
            self._write_chunk(b"data: " + json.dumps(event).encode() + b"\n\n")
        self._write_chunk(b"data: [DONE]\n\n")
        self._end_chunks()

    # -- wire helpers -----------------------------------------------------------------------
    def _send_json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        self._send_bytes(status, json.dumps(payload).encode(), "application/json", headers)

    def _send_bytes(
        self, status: int, data: bytes, content_type: str, headers: dict[str, str] | None = None
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("x-request-id", f"req-fake-{self.server.owner.request_count()}")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def _write_chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):X}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    def _end_chunks(self) -> None:
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def _cut(self) -> None:
        """Close the socket without finishing the response (a proxy restart, a crashed worker)."""
        self.close_connection = True
        with contextlib.suppress(OSError):
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)


def _error_body(message: str, error_type: str, code: str | None = None) -> dict[str, Any]:
    return {"error": {"message": message, "type": error_type, "param": None, "code": code}}


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    owner: FakeOpenAIServer

    def process_request(self, request: Any, client_address: Any) -> None:
        self.owner.track(request)
        super().process_request(request, client_address)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client hanging up (a timeout, a closed pool) is normal here; anything else is printed."""
        if not isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            super().handle_error(request, client_address)


@dataclass
class FakeOpenAIServer:
    """The server, its recorded requests and its fault queue; a context manager that starts and stops it."""

    host: str = "127.0.0.1"
    single_slot: bool = False
    chunk_delay: float = 0.0
    context_window: int | None = None
    overflow_cut: bool = False
    reserve_max_tokens: bool = False
    tokenize_paths: tuple[str, ...] = ("/tokenize",)  # llama.cpp; llama-cpp-python: ("/extras/tokenize",)
    stream_usage: bool = True
    reply_text: str | None = None
    report_cached_tokens: bool = False
    tokenize_requests: int = 0
    stopping: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _requests: list[RecordedRequest] = field(default_factory=list)
    _faults: list[Fault] = field(default_factory=list)
    _scripts: list[ScriptedReply] = field(default_factory=list)
    _sockets: list[socket.socket] = field(default_factory=list)
    _completions: int = 0
    _answered_prompts: list[list[str]] = field(default_factory=list)
    _interrupted: int = 0
    _waiting: int = 0
    _slot: threading.Lock = field(default_factory=threading.Lock)
    _server: _Server | None = None
    _thread: threading.Thread | None = None

    # -- lifecycle --------------------------------------------------------------------------
    def start(self) -> FakeOpenAIServer:
        server = _Server((self.host, 0), _Handler)
        server.owner = self
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, name="fake-openai", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        with self._lock:
            sockets, self._sockets = self._sockets, []
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._server is not None, "the server is not started"
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    def cached_prefix(self, messages: list[dict[str, Any]]) -> int:
        """The fake tokens this prompt shares with the longest-matching prompt answered before; remembers it."""
        tokens = prompt_fake_tokens(messages)
        with self._lock:
            shared = max((shared_prefix(tokens, seen) for seen in self._answered_prompts), default=0)
            self._answered_prompts.append(tokens)
        return shared

    # -- faults -----------------------------------------------------------------------------
    def add_fault(self, fault: Fault) -> None:
        """Queue a fault; faults apply in the order they were added."""
        with self._lock:
            self._faults.append(fault)

    def clear_faults(self) -> None:
        with self._lock:
            self._faults.clear()

    def take_fault(self, body_text: str) -> Fault | None:
        """The fault for a request with this body, if any; one use of it is consumed."""
        with self._lock:
            for fault in self._faults:
                if fault.applies_to(body_text):
                    if fault.times is not None:
                        fault.times -= 1
                        if fault.times <= 0:
                            self._faults.remove(fault)
                    return fault
        return None

    def add_script(self, script: ScriptedReply) -> None:
        """Queue a scripted reply (tool calls); scripts apply in the order they were added."""
        with self._lock:
            self._scripts.append(script)

    def take_script(self, body_text: str) -> ScriptedReply | None:
        """The scripted reply for a request with this body, if any; one use of it is consumed."""
        with self._lock:
            for script in self._scripts:
                if script.applies_to(body_text):
                    script.times -= 1
                    if script.times <= 0:
                        self._scripts.remove(script)
                    return script
        return None

    # -- one request at a time -------------------------------------------------------------
    @contextlib.contextmanager
    def slot(self) -> Iterator[None]:
        """In single-slot mode, hold the server's only slot while answering (others wait for it)."""
        if not self.single_slot:
            yield
            return
        with self._lock:
            self._waiting += 1
        with self._slot:
            with self._lock:
                self._waiting -= 1
            yield

    def someone_waiting(self) -> bool:
        with self._lock:
            return self._waiting > 0

    def note_interrupted(self) -> None:
        with self._lock:
            self._interrupted += 1

    @property
    def interrupted(self) -> int:
        """How many streams were ended early to serve another request (single-slot mode)."""
        with self._lock:
            return self._interrupted

    # -- records ----------------------------------------------------------------------------
    def record(self, request: RecordedRequest) -> None:
        with self._lock:
            self._requests.append(request)

    def track(self, sock: socket.socket) -> None:
        with self._lock:
            self._sockets.append(sock)

    def next_completion_id(self) -> int:
        with self._lock:
            self._completions += 1
            return self._completions

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every request received so far, oldest first (a copy)."""
        with self._lock:
            return list(self._requests)

    def request_count(self, match: str | None = None) -> int:
        """How many requests arrived (only those whose body contains ``match``, if given)."""
        with self._lock:
            return sum(1 for r in self._requests if match is None or match in r.raw_body)

    def reset_requests(self) -> None:
        with self._lock:
            self._requests.clear()

    def wait_for_requests(self, count: int, timeout: float = 5.0) -> list[RecordedRequest]:
        """Wait until at least ``count`` requests arrived; returns them."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            requests = self.requests
            if len(requests) >= count:
                return requests
            time.sleep(0.01)
        return self.requests


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAIServer]:
    """A started fake OpenAI server, stopped after the test."""
    with FakeOpenAIServer() as server:
        yield server
