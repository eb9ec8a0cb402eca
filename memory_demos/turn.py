"""Plain records of what happened in a turn: the data every page renders and every test checks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Role = Literal["system", "human", "ai", "tool"]

# ``ModelCall.token_source``: the provider's usage, a tiktoken count ("counted with tiktoken <encoding>…"),
# or a failed call that came back with no usage. ``counted_by`` names them for JSON and the views.
REPORTED_SOURCE = "reported by the provider"
NOT_BILLED_SOURCE = "failed call: the provider reported no usage (nothing billed)"
COUNTED_BY_PROVIDER = "provider"
COUNTED_BY_NOTHING = "none"  # nothing was reported: a failed call, or a turn with no call
TIKTOKEN_PREFIX = "tiktoken:"


@dataclass(frozen=True)
class PromptMessage:
    """One message exactly as the chat model received it."""

    role: str
    content: str
    tokens: int = 0
    tool_calls: tuple[dict[str, Any], ...] = ()
    tool_call_id: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.tool_calls:
            data["tool_calls"] = [dict(call) for call in self.tool_calls]
        if self.tool_call_id:
            data["tool_call_id"] = self.tool_call_id
        return data


@dataclass(frozen=True)
class ModelCall:
    """One call to the chat model, captured by the tracing callback."""

    purpose: str
    messages: tuple[PromptMessage, ...]
    output: str
    prompt_tokens: int
    completion_tokens: int
    token_source: str
    seconds: float
    error: str | None = None
    cut_by: str | None = None  # "max_tokens" or "deadline" when a reply was stopped early, kept as cut
    # The tool definitions bound to the call (OpenAI format) and their share of ``prompt_tokens``.
    tools: tuple[dict[str, Any], ...] = ()
    tool_tokens: int = 0
    # Streamed calls: seconds from the request to the first chunk (the server's queue and its reading of
    # the prompt); the rest of ``seconds`` is generation. None for a call that was not streamed.
    first_token_seconds: float | None = None
    # Prompt caching (``providers.prompt_cache``): the leading tokens this call shares with an earlier call
    # of its pane (same model and tools), and the part of them the provider's rule lets it serve from its
    # cache, both computed from the captured prompts; ``cached_tokens`` is what the provider itself
    # reported (usage.prompt_tokens_details.cached_tokens), None where it reported nothing.
    shared_prefix_tokens: int = 0
    cacheable_prompt_tokens: int = 0
    cached_tokens: int | None = None
    # The tool calls the model answered with ({"name", "args", "id"}): a call that decides by tool (a
    # memory manager, an agent's tool round) often has no text at all.
    reply_tool_calls: tuple[dict[str, Any], ...] = ()

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    @property
    def cached_input_tokens(self) -> int:
        """The prompt tokens billed at the cached rate: the provider's figure when it sent one, else the
        estimate."""
        return self.cached_tokens if self.cached_tokens is not None else self.cacheable_prompt_tokens

    def to_json(self, with_text: bool = False) -> dict[str, Any]:
        """The call for ``replay --json``: purpose, tokens, their source and seconds; its text if asked."""
        data: dict[str, Any] = {
            "purpose": self.purpose,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "counted_by": self.counted_by,
            "seconds": round(self.seconds, 3),
            "first_token_seconds": None
            if self.first_token_seconds is None
            else round(self.first_token_seconds, 3),
            "error": self.error,
            "shared_prefix_tokens": self.shared_prefix_tokens,
            "cacheable_prompt_tokens": self.cacheable_prompt_tokens,
            "cached_tokens": self.cached_tokens,
        }
        if with_text:
            data["prompt"] = [message.to_json() for message in self.messages]
            data["output"] = self.output
            if self.reply_tool_calls:
                data["tool_calls"] = [dict(call) for call in self.reply_tool_calls]
        return data

    @property
    def counted_by(self) -> str:
        """Where the counts came from: ``provider``, ``tiktoken:<encoding>`` or ``none`` (none reported)."""
        prefix = "counted with tiktoken "
        if self.token_source.startswith(prefix):
            # The source may go on with "; tool definitions estimated …": the encoding is the first word.
            return TIKTOKEN_PREFIX + self.token_source[len(prefix) :].split(";", 1)[0].split()[0]
        if self.token_source == NOT_BILLED_SOURCE:
            return COUNTED_BY_NOTHING
        return COUNTED_BY_PROVIDER


@dataclass
class Turn:
    """Everything one user message caused: the reply, the injected prompt, tokens and memory state.

    ``reply_call`` is the model call that produced the reply; ``memory_calls`` are the other calls
    memory made during the turn (summaries, entity extraction, ...): the hidden cost of memory.
    ``tool_round_calls`` are earlier reply-model calls of an agent that asked for a tool first.
    """

    user_text: str
    reply: str
    seconds: float
    reply_call: ModelCall | None
    memory_calls: list[ModelCall] = field(default_factory=list)
    tool_round_calls: list[ModelCall] = field(default_factory=list)
    state: dict[str, Any] = field(default_factory=dict)
    # Data, not sentences: each is a catalogue ``Message`` (its ``str`` is English); views translate them.
    error: str | None = None
    notes: list[str] = field(default_factory=list)
    error_kind: str | None = None  # a short class of the error (timeout, rate_limit, ...), for counting
    approximate: bool = False  # counts made with a tiktoken encoding that is not the model's own
    # Tool definitions went with the reply call, but this server has not shown it reads them (no tool call
    # seen yet from an OpenAI-compatible server; llama-cpp-python's GGUF templates drop them): a local
    # count leaves them out of the prompt and the total.
    tools_unconfirmed: bool = False
    # Seconds this turn waited for one of the app's own call slots ("answer panes at most N at a time")
    # before it started; ``seconds`` starts after it.
    slot_wait_seconds: float = 0.0
    # When the message was sent, by the conversation's clock (ISO 8601, UTC): a scenario's simulated time.
    at: str | None = None

    @property
    def calls(self) -> list[ModelCall]:
        """Every model call of the turn: tool rounds, the reply, then memory's calls."""
        reply = [self.reply_call] if self.reply_call is not None else []
        return [*self.tool_round_calls, *reply, *self.memory_calls]

    @property
    def failed_calls(self) -> list[ModelCall]:
        """Calls that failed: they cost only what the provider reported for them (usually nothing)."""
        return [call for call in self.calls if call.error is not None]

    @property
    def cut_by(self) -> str | None:
        """Which limit ended the reply early ("max_tokens" or "deadline"), if one did."""
        return self.reply_call.cut_by if self.reply_call is not None and self.ok else None

    @property
    def counted_by(self) -> str:
        """Where this turn's counts came from: one source, ``mixed:<a>+<b>`` when its calls were counted
        differently (a streamed reply without usage beside reported hidden calls), ``none`` when nothing
        was reported (every call failed without usage)."""
        sources = list(dict.fromkeys(call.counted_by for call in self.calls))
        counted = [source for source in sources if source != COUNTED_BY_NOTHING]
        if not counted:
            return COUNTED_BY_NOTHING
        return counted[0] if len(counted) == 1 else "mixed:" + "+".join(counted)

    @property
    def counts_are_approximate(self) -> bool:
        """True when tiktoken counted a call with another model's encoding, or estimated tool definitions."""
        return any(
            call.counted_by.startswith(TIKTOKEN_PREFIX) and (self.approximate or call.tool_tokens > 0)
            for call in self.calls
        )

    @property
    def waiting_seconds(self) -> float:
        """Time spent waiting: for the app's slot, then for each streamed call's first chunk."""
        first_chunks = sum(call.first_token_seconds or 0.0 for call in self.calls)
        return self.slot_wait_seconds + first_chunks

    @property
    def generating_seconds(self) -> float:
        """Time the streamed calls spent streaming, first chunk to last: the model generating."""
        return sum(
            call.seconds - call.first_token_seconds
            for call in self.calls
            if call.first_token_seconds is not None
        )

    @property
    def unsplit_seconds(self) -> float:
        """Time in calls that were not streamed (hidden memory calls): their wait and generation together."""
        return sum(call.seconds for call in self.calls if call.first_token_seconds is None)

    def timing_json(self) -> dict[str, float]:
        """Where the turn's time went, for ``replay --json`` (rounded to milliseconds)."""
        return {
            "seconds": round(self.seconds, 3),
            "slot_wait_seconds": round(self.slot_wait_seconds, 3),
            "waiting_seconds": round(self.waiting_seconds, 3),
            "generating_seconds": round(self.generating_seconds, 3),
            "not_streamed_seconds": round(self.unsplit_seconds, 3),
        }

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def empty_reply(self) -> bool:
        """The call succeeded but the model said nothing (empty or whitespace only): a failed answer."""
        return self.ok and self.reply_call is not None and not self.reply.strip()

    @property
    def injected_prompt(self) -> tuple[PromptMessage, ...]:
        return self.reply_call.messages if self.reply_call else ()

    @property
    def prompt_tokens(self) -> int:
        """The reply call's prompt; tool definitions that may never have reached the model are left out."""
        if self.reply_call is None:
            return 0
        return self.reply_call.prompt_tokens - self.unconfirmed_tool_tokens

    @property
    def unconfirmed_tool_tokens(self) -> int:
        """The estimated tool tokens a local count would add although the server may ignore the tools."""
        call = self.reply_call
        counted_here = call is not None and call.counted_by.startswith(TIKTOKEN_PREFIX)
        return self.tool_tokens if self.tools_unconfirmed and counted_here else 0

    @property
    def tool_schemas(self) -> tuple[dict[str, Any], ...]:
        """The tool definitions the reply call carried: part of the prompt, though not a message."""
        return self.reply_call.tools if self.reply_call else ()

    @property
    def tool_tokens(self) -> int:
        return self.reply_call.tool_tokens if self.reply_call else 0

    @property
    def completion_tokens(self) -> int:
        return self.reply_call.completion_tokens if self.reply_call else 0

    @property
    def cacheable_prompt_tokens(self) -> int:
        """The reply prompt's leading tokens the provider can serve from its cache (an estimate)."""
        return self.reply_call.cacheable_prompt_tokens if self.reply_call else 0

    @property
    def cached_tokens(self) -> int | None:
        """The reply prompt's cached tokens as the provider reported them; None where it did not."""
        return self.reply_call.cached_tokens if self.reply_call else None

    @property
    def memory_tokens(self) -> int:
        return sum(call.total_tokens for call in self.memory_calls)

    @property
    def total_tokens(self) -> int:
        tool_rounds = sum(call.total_tokens for call in self.tool_round_calls)
        return self.prompt_tokens + self.completion_tokens + self.memory_tokens + tool_rounds

    @property
    def model_calls(self) -> int:
        return (1 if self.reply_call else 0) + len(self.memory_calls) + len(self.tool_round_calls)

    def to_json(self) -> dict[str, Any]:
        """The fixed JSON shape of a turn used by the CLI's ``replay --json``."""
        return {
            "user": self.user_text,
            "at": self.at,
            "reply": self.reply,
            "empty_reply": self.empty_reply,
            "injected_prompt": [message.to_json() for message in self.injected_prompt],
            "prompt_tokens": self.prompt_tokens,
            "cacheable_prompt_tokens": self.cacheable_prompt_tokens,
            "cached_tokens": self.cached_tokens,
            "tool_schemas": [dict(tool) for tool in self.tool_schemas],
            "tool_tokens": self.tool_tokens,
            "tools_may_be_ignored": self.tools_unconfirmed,
            "completion_tokens": self.completion_tokens,
            # Each hidden call with what it was sent and what it answered: a run can be examined afterwards.
            "memory_calls": [call.to_json(with_text=True) for call in self.memory_calls],
            "reply_call": self.reply_call.to_json() if self.reply_call is not None else None,
            "tool_round_calls": [call.to_json() for call in self.tool_round_calls],
            "timing": self.timing_json(),
            "state": self.state,
            "error": self.error,
            "error_kind": self.error_kind,
            "counted_by": self.counted_by,
            "approximate": self.counts_are_approximate,
            "cut_by": self.cut_by,
        }
