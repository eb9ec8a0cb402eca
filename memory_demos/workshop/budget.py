"""One attendee's workshop budget, and the gate every chat model built for them goes through.

``SessionBudget`` holds an attendee's limits and spending (tokens, calls, calls running now); the room
keeps one per attendee, so every tab and every page of that attendee spends the same budget.
``BudgetGate`` puts it at the model layer: ``build_chat_model`` adds the gate's callback first on every
model, so a call is checked before it leaves (tokens left, concurrency) and counted when it ends —
hidden memory calls, Scorecard replays, the Migration guide and the Failure lab included, without any
page having to remember. Up-front checks (``check``, ``check_run``) refuse a message or a whole run
before anything starts, so nothing is half done.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import BaseMessage
from langchain_core.outputs import LLMResult

from memory_demos.i18n import Message
from memory_demos.providers.tokenizer import count_messages_tokens, count_text_tokens
from memory_demos.providers.tool_tokens import count_tool_tokens
from memory_demos.tracing import call_tokens, failed_call_tokens

if TYPE_CHECKING:
    from memory_demos.workshop.settings import WorkshopLimits

LimitKind = Literal["message_chars", "turns", "tokens", "run_turns", "run_tokens"]
BudgetReason = Literal["tokens", "concurrency"]  # why a model call was refused: error.budget.<reason>
# Tokens held back for a reply when a call is checked: the call is refused unless its prompt plus this
# still fits what is left. A reply longer than this may take the attendee past the limit by the rest.
REPLY_RESERVE_TOKENS = 256
# How long a model call waits for one of the attendee's concurrency slots before it is refused.
SLOT_WAIT_SECONDS = 120.0
# A run is estimated with replies of this many tokens (the offline model's replies are shorter).
ESTIMATED_REPLY_TOKENS = 30
PER_MESSAGE_OVERHEAD_TOKENS = 4


class BudgetExceeded(RuntimeError):
    """A model call the attendee's budget refused before it was sent; ``reason`` says which limit.

    Its text is the catalogue's ``error.budget.<reason>`` (English in logs; ``describe_error`` shows it in
    the session's language).
    """

    def __init__(self, reason: BudgetReason, **numbers: str) -> None:
        super().__init__(Message(f"error.budget.{reason}", **numbers))
        self.reason = reason
        self.numbers = numbers


@dataclass(frozen=True)
class LimitHit:
    """A limit a message or run would break: which one, its value, and what the attendee is at.

    ``run_turns``: a scripted run (scorecard scenario, guide run) has more messages (``current``) than
    one conversation may (``limit``); ``turns``: a conversation already holds ``limit`` messages.
    """

    kind: LimitKind
    limit: int
    current: int


class SessionBudget:
    """One attendee's limits and spending; thread-safe (worker threads record, the script thread checks).

    ``check`` is asked before a message goes out; ``call_slot`` bounds how many model calls run at once
    (the others wait for a slot); ``record`` adds spent tokens. ``set_limits`` follows a host's change of
    the limits while keeping what was spent. Refusals are counted for the instructor: calls the gate
    refused (``refused_calls``) and messages or runs refused before they started (``refused_up_front``).
    """

    def __init__(self, limits: WorkshopLimits) -> None:
        self.limits = limits
        self._lock = threading.Lock()
        self._tokens = 0
        self._reserved = 0
        self._calls = 0
        self._refused = 0
        self._refused_up_front = 0
        self._slots = threading.BoundedSemaphore(limits.max_concurrent_calls_per_session)
        self._running = 0
        self._peak = 0

    def set_limits(self, limits: WorkshopLimits) -> None:
        with self._lock:
            if limits.max_concurrent_calls_per_session != self.limits.max_concurrent_calls_per_session:
                self._slots = threading.BoundedSemaphore(limits.max_concurrent_calls_per_session)
            self.limits = limits

    @property
    def tokens_used(self) -> int:
        with self._lock:
            return self._tokens

    @property
    def tokens_left(self) -> int:
        """Tokens not yet spent nor held for calls running now."""
        with self._lock:
            return max(0, self.limits.max_tokens_per_session - self._tokens - self._reserved)

    @property
    def model_calls(self) -> int:
        with self._lock:
            return self._calls

    @property
    def refused_calls(self) -> int:
        with self._lock:
            return self._refused

    @property
    def refused_up_front(self) -> int:
        """Messages and scripted runs refused before anything was sent (the attendee saw why)."""
        with self._lock:
            return self._refused_up_front

    def count_refusal(self, hit: LimitHit | None) -> LimitHit | None:
        """Count ``hit`` (when there is one) as a refusal the attendee was shown; returns it."""
        if hit is not None:
            with self._lock:
                self._refused_up_front += 1
        return hit

    @property
    def running(self) -> int:
        with self._lock:
            return self._running

    @property
    def peak_concurrency(self) -> int:
        """The most model calls this attendee ever ran at once (for tests and the instructor view)."""
        with self._lock:
            return self._peak

    def check(self, text: str, turns_so_far: int) -> LimitHit | None:
        """The first limit ``text`` would break as the next message of a conversation, or None."""
        limits = self.limits
        if len(text) > limits.max_message_chars:
            return LimitHit("message_chars", limits.max_message_chars, len(text))
        if turns_so_far >= limits.max_turns_per_conversation:
            return LimitHit("turns", limits.max_turns_per_conversation, turns_so_far)
        used = self.tokens_used
        if self.tokens_left < REPLY_RESERVE_TOKENS:  # no call could pass the gate: refuse it now
            return LimitHit("tokens", limits.max_tokens_per_session, used)
        return None

    def check_run(self, texts: Sequence[str], estimated_tokens: int) -> LimitHit | None:
        """The first limit a scripted run (a scorecard replay, a guide run) would break, or None.

        Every scripted message must pass the message checks; the estimate must fit what is left.
        """
        for text in texts:
            hit = self.check(text, 0)
            if hit is not None:
                return hit
        if len(texts) > self.limits.max_turns_per_conversation:
            return LimitHit("run_turns", self.limits.max_turns_per_conversation, len(texts))
        left = self.tokens_left
        if estimated_tokens > left:
            return LimitHit("run_tokens", left, estimated_tokens)
        return None

    def record(self, tokens: int, calls: int = 0, *, release: int = 0) -> None:
        """Add spent tokens and calls; ``release`` frees what ``admit_call`` held for the call."""
        with self._lock:
            self._tokens += max(0, int(tokens))
            self._calls += max(0, int(calls))
            self._reserved = max(0, self._reserved - release)

    def admit_call(self, prompt_tokens: int) -> int:
        """Hold the tokens a call may spend (its prompt and a reply reserve) and return them.

        Raises ``BudgetExceeded`` if they do not fit what is left, counting what calls running now hold,
        so panes answering in parallel cannot together go past the limit.
        """
        needed = prompt_tokens + REPLY_RESERVE_TOKENS
        with self._lock:
            left = self.limits.max_tokens_per_session - self._tokens - self._reserved
            if needed > left:
                self._refused += 1
                raise BudgetExceeded(
                    "tokens",
                    needed=f"{needed:,}",
                    left=f"{max(0, left):,}",
                    limit=f"{self.limits.max_tokens_per_session:,}",
                )
            self._reserved += needed
            return needed

    def acquire_slot(self, timeout: float = SLOT_WAIT_SECONDS) -> threading.BoundedSemaphore:
        """Take one concurrency slot (waiting up to ``timeout``); returns the semaphore to release."""
        with self._lock:
            slots = self._slots
        if not slots.acquire(timeout=timeout):
            with self._lock:
                self._refused += 1
            raise BudgetExceeded("concurrency")
        with self._lock:
            self._running += 1
            self._peak = max(self._peak, self._running)
        return slots

    def release_slot(self, slots: threading.BoundedSemaphore) -> None:
        with self._lock:
            self._running -= 1
        slots.release()

    @contextlib.contextmanager
    def call_slot(self) -> Iterator[None]:
        """Hold one of the attendee's slots for the duration of the block."""
        slots = self.acquire_slot()
        try:
            yield
        finally:
            self.release_slot(slots)


UsageSink = Callable[[int, int], None]


class BudgetGate:
    """Binds an attendee's budget to the models of one browser session; ``handler()`` per model.

    ``on_usage(calls, tokens)`` is told what each finished call spent (the room's instructor counts).
    """

    def __init__(self, budget: SessionBudget, on_usage: UsageSink | None = None) -> None:
        self.budget = budget
        self.on_usage = on_usage

    def handler(self, encoding_name: str) -> BaseCallbackHandler:
        """A fresh callback for one model; ``encoding_name`` counts when the provider reports nothing."""
        return _GateHandler(self, encoding_name)


@dataclass
class _RunningCall:
    prompt: list[BaseMessage]
    slots: threading.BoundedSemaphore
    held: int
    streamed: list[str] = field(default_factory=list)
    tools: tuple[dict[str, Any], ...] = ()  # bound tool definitions: billed with the prompt


class _GateHandler(BaseCallbackHandler):
    """Checks a call before it is sent (raising refuses it) and counts it when it ends."""

    raise_error = True
    run_inline = True

    def __init__(self, gate: BudgetGate, encoding_name: str) -> None:
        self.gate = gate
        self.encoding_name = encoding_name
        self._lock = threading.Lock()
        self._running: dict[UUID, _RunningCall] = {}

    def on_chat_model_start(
        self, serialized: dict[str, Any], messages: list[list[BaseMessage]], *, run_id: UUID, **kwargs: Any
    ) -> None:
        prompt = list(messages[0]) if messages else []
        tools = tuple(dict(tool) for tool in (kwargs.get("invocation_params") or {}).get("tools") or ())
        budget = self.gate.budget
        prompt_tokens = count_messages_tokens(prompt, self.encoding_name)
        held = budget.admit_call(prompt_tokens + count_tool_tokens(tools, self.encoding_name))
        try:
            slots = budget.acquire_slot()
        except BudgetExceeded:
            budget.record(0, release=held)
            raise
        with self._lock:
            self._running[run_id] = _RunningCall(prompt, slots, held, tools=tools)

    def on_llm_new_token(self, token: str, *, run_id: UUID, **kwargs: Any) -> None:
        with self._lock:
            running = self._running.get(run_id)
        if running is not None and token:
            running.streamed.append(token)

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        running = self._finish(run_id)
        if running is not None:
            _output, prompt_tokens, completion_tokens, _source = call_tokens(
                response, running.prompt, running.streamed, self.encoding_name, running.tools
            )
            self._count(prompt_tokens + completion_tokens, running.held)

    def on_llm_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        running = self._finish(run_id)
        if running is not None:  # what the provider reported for the failed call, as the pane shows
            self._count(sum(failed_call_tokens(error)), running.held)

    def _finish(self, run_id: UUID) -> _RunningCall | None:
        with self._lock:
            running = self._running.pop(run_id, None)
        if running is not None:
            self.gate.budget.release_slot(running.slots)
        return running

    def _count(self, tokens: int, held: int) -> None:
        self.gate.budget.record(tokens, calls=1, release=held)
        if self.gate.on_usage is not None:
            self.gate.on_usage(1, tokens)


def estimate_run_tokens(
    texts: Sequence[str], system_prompt: str, conversations: int, encoding_name: str
) -> int:
    """An estimate of what ``conversations`` replays of ``texts`` spend: every turn sends the whole history.

    That is the cost of a buffer memory (the largest prompt growth; replies estimated at
    ``ESTIMATED_REPLY_TOKENS``). Memory calls of summarising strategies are not in it: the gate still
    stops a run that goes past what is left.
    """
    system = count_text_tokens(system_prompt, encoding_name) + PER_MESSAGE_OVERHEAD_TOKENS
    history = 0
    total = 0
    for text in texts:
        user = count_text_tokens(text, encoding_name) + PER_MESSAGE_OVERHEAD_TOKENS
        total += system + history + user + ESTIMATED_REPLY_TOKENS
        history += user + ESTIMATED_REPLY_TOKENS + PER_MESSAGE_OVERHEAD_TOKENS
    return total * max(0, conversations)


def estimate_next_turn_tokens(last_prompts: Sequence[int], text: str, encoding_name: str) -> int:
    """What sending ``text`` to panes whose last reply prompts had ``last_prompts`` tokens needs, about.

    Each pane's next prompt is taken as its last one plus the new message, with a reply reserve: close
    for a buffer, generous for memories that trim (the gate counts what is really spent).
    """
    message = count_text_tokens(text, encoding_name) + PER_MESSAGE_OVERHEAD_TOKENS
    return sum(last + message + REPLY_RESERVE_TOKENS for last in last_prompts)


def check_scripted_run(
    budget: SessionBudget, texts: Sequence[str], system_prompt: str, conversations: int, encoding_name: str
) -> LimitHit | None:
    """Size a scripted run before it starts: message and system-prompt lengths, turns, estimated tokens.

    ``conversations`` is how many times the messages are played (strategies of a scorecard, the two
    versions of a guide step). A refusal is counted for the instructor: call this when the run is asked for.
    """
    hit = budget.check(system_prompt, 0)
    if hit is None:
        estimate = estimate_run_tokens(texts, system_prompt, conversations, encoding_name)
        hit = budget.check_run(texts, estimate)
    return budget.count_refusal(hit)
