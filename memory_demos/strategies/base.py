"""The one interface every memory strategy implements, and the machinery they share.

A strategy owns its memory and its models. ``send`` runs one turn: memory is read, the model
answers, memory is written. The turn is atomic: if the reply call fails, the strategy rolls its
memory back to where it was and the error comes back in the ``Turn``, never as an exception.
"""

from __future__ import annotations

import functools
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage

from memory_demos.clock import Clock
from memory_demos.defaults import DEFAULT_SYSTEM_PROMPT, new_conversation_id, private_folder
from memory_demos.deprecations import Deprecation, capture_deprecations, merge
from memory_demos.i18n import Message
from memory_demos.lab_config import LabConfig, load_lab_config
from memory_demos.providers.api_keys import resolve_openai_key
from memory_demos.providers.chat_models import ProviderConfig, build_chat_model
from memory_demos.providers.embedding_choice import (
    AUTO,
    OFFLINE_MODEL_LABELS,
    offline_embeddings,
    offline_model_id,
)
from memory_demos.providers.embeddings import build_openai_embeddings
from memory_demos.providers.errors import error_kind
from memory_demos.providers.prompt_cache import PrefixTracker, cache_rule
from memory_demos.storage import StorageConfig
from memory_demos.strategies.info import (
    InputError,
    MemoryPart,
    ParamSpec,
    StrategyInfo,
    StrategyKind,
    Threshold,
)
from memory_demos.tracing import CUT_BY_CONTEXT, CUT_BY_DEADLINE, REPLY, CallCapture, purpose_tag
from memory_demos.turn import Turn

# A strategy module imports what it declares from here too: one import for a strategy's author.
__all__ = [
    "InputError",
    "MemoryPart",
    "ParamSpec",
    "Strategy",
    "StrategyContext",
    "StrategyInfo",
    "StrategyKind",
    "Threshold",
    "TokenListener",
    "UserBackends",
    "cut_reply_note",
    "message_problem",
    "validate_user_text",
]

_NO_POINT = object()  # send() failed before it could note where to roll back to
TokenListener = Callable[[str], None]


class UserBackends:
    """The in-process backends one user's conversations share, as a server process keeps them between
    threads: an ``InMemoryStore`` (long-term memory), an ``InMemorySaver`` (every thread's checkpoints),
    the in-memory session histories. Files and servers need nothing here: each object opens the same file.

    A fresh context has none; ``Strategy.new_conversation`` hands its own to the next conversation, so
    sharing is explicit and two users (or two panes) never share one by accident.
    """

    def __init__(self, user_id: str) -> None:
        self.user_id = user_id
        self._lock = threading.Lock()
        self._backends: dict[str, Any] = {}

    def get(self, name: str, factory: Callable[[], Any]) -> Any:
        """The backend called ``name``, made by ``factory`` the first time it is asked for."""
        with self._lock:
            if name not in self._backends:
                self._backends[name] = factory()
            return self._backends[name]


@dataclass
class StrategyContext:
    """Everything a strategy needs from outside: the model to build, who the user is, where files go.

    The data folder, message limit and storage come from one ``LabConfig``: ``from_config`` takes them
    from the one given; fields left out default to the process's configuration (``load_lab_config``).
    ``language`` is the session's (or a scenario's): it picks the offline embedding model of a strategy
    whose ``embeddings`` parameter is ``auto``, so a strategy never asks the session.
    """

    provider: ProviderConfig = field(default_factory=ProviderConfig)
    conversation_id: str = field(default_factory=new_conversation_id)
    user_id: str = "local"
    system_prompt: str = DEFAULT_SYSTEM_PROMPT
    data_dir: Path | None = None  # None: the configuration's (set in __post_init__)
    embeddings: Embeddings | None = None  # given: used by every strategy, whatever its parameter says
    language: str = "en"
    max_message_chars: int = field(default_factory=lambda: load_lab_config().max_message_chars)
    storage: StorageConfig = field(default_factory=lambda: load_lab_config().storage)
    # What time the conversation's messages carry: the wall clock, or a scenario's simulated clock.
    clock: Clock = field(default_factory=Clock)
    # The in-process backends shared with the user's other conversations (None: this object's own).
    backends: UserBackends | None = None
    # The provider's embeddings, built on first use: they carry the user's key, so never shared.
    _provider_embeddings: Embeddings | None = field(default=None, init=False, repr=False, compare=False)

    @classmethod
    def from_config(cls, config: LabConfig, **fields: Any) -> StrategyContext:
        """A context with ``config``'s data folder, message limit and storage; ``fields`` set the rest."""
        return cls(
            data_dir=config.data_dir,
            max_message_chars=config.max_message_chars,
            storage=config.storage,
            **fields,
        )

    def __post_init__(self) -> None:
        if self.data_dir is None:
            self.data_dir = load_lab_config().data_dir

    def folder(self) -> Path:
        """The data folder (created owner-only on demand)."""
        return private_folder(Path(self.data_dir or load_lab_config().data_dir).expanduser())

    def _uses_provider_embeddings(self, choice: str) -> bool:
        return choice == AUTO and self.provider.embeddings == "openai" and self.provider.kind != "offline"

    def embedding_model(self, choice: str = AUTO) -> str:
        """The name of the model ``get_embeddings(choice)`` gives, without loading it."""
        if self.embeddings is not None:
            return type(self.embeddings).__name__
        if self._uses_provider_embeddings(choice):
            return f"{self.provider.embedding_model} ({self.provider.kind})"
        return OFFLINE_MODEL_LABELS[offline_model_id(choice, self.language)]

    def get_embeddings(self, choice: str = AUTO) -> Embeddings:
        """The embedding model for a strategy's ``embeddings`` parameter ``choice``.

        The one given wins; ``auto`` then takes the provider's when configured, else the offline model
        for ``language`` (``providers.embedding_choice``); a named offline model is used as named.
        """
        if self.embeddings is not None:
            return self.embeddings
        if not self._uses_provider_embeddings(choice):
            return offline_embeddings(offline_model_id(choice, self.language))
        if self._provider_embeddings is None:
            key = resolve_openai_key(self.provider)
            if key is None and self.provider.kind == "openai":
                raise InputError(Message("strategy.error.embeddings_key"))
            self._provider_embeddings = build_openai_embeddings(
                key or "not-needed", self.provider.base_url, self.provider.embedding_model
            )
        return self._provider_embeddings


def cut_reply_note(cut_by: str, provider: ProviderConfig) -> Message:
    """The pane's note for a reply a limit stopped early: which limit, and that the text is kept."""
    if cut_by == CUT_BY_DEADLINE:
        return Message("strategy.note.cut_by_deadline", seconds=f"{provider.deadline_seconds:g}")
    if cut_by == CUT_BY_CONTEXT:
        return Message("strategy.note.cut_by_context", tokens=f"{provider.context_window_info.tokens:,}")
    return Message("strategy.note.cut_by_max_tokens", max_tokens=provider.max_tokens)


def message_problem(text: str, limit: int) -> Message | None:
    """Why ``text`` may not be sent (empty, or longer than ``limit`` characters), or None: the one check
    of a message's length, with one wording, for the panes, the command line and the strategies."""
    if not isinstance(text, str) or not text.strip():
        return Message("compare.empty_message")
    if len(text) > limit:
        return Message("compare.too_long", length=f"{len(text):,}", limit=f"{limit:,}")
    return None


def validate_user_text(text: str, limit: int) -> str:
    """The message to send, or ``InputError`` (``message_problem``'s message) if it may not be sent."""
    problem = message_problem(text, limit)
    if problem is not None:
        raise InputError(problem)
    return text


class Strategy(ABC):
    """Base class of every strategy: a subclass sets ``info`` and implements the four hooks.

    Hooks: ``_respond`` (read memory, call ``self.reply_model``, write memory, return the reply),
    ``snapshot`` (plain-data memory state), ``_rollback_point``/``_rollback`` (undo a failed turn),
    and ``clear``.
    """

    info: ClassVar[StrategyInfo]
    # What LangChain warned while this strategy was built and run (see ``memory_demos.deprecations``).
    deprecations: tuple[Deprecation, ...] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Wrap each subclass's ``__init__`` so the deprecation warnings raised while building are kept."""
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get("__init__")
        if init is None:
            return

        @functools.wraps(init)
        def capturing_init(self: Strategy, *args: Any, **kw: Any) -> None:
            if getattr(self, "_building", False):  # a subclass's __init__ already captures
                init(self, *args, **kw)
                return
            self._building = True
            try:
                with capture_deprecations() as raised:
                    init(self, *args, **kw)
            finally:
                self._building = False
            self.deprecations = merge(self.deprecations, raised)

        cls.__init__ = capturing_init  # type: ignore[method-assign]

    def __init__(
        self, context: StrategyContext | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
        """``params`` are typed and checked already (``registry.parse_params``); None means the defaults."""
        self.context = context or StrategyContext()
        if self.context.backends is None or self.context.backends.user_id != self.context.user_id:
            self.context = replace(self.context, backends=UserBackends(self.context.user_id))
        self.params = dict(params) if params is not None else self.info.defaults()
        provider = self.context.provider
        self.capture = CallCapture(
            provider.tokenizer.encoding_name,
            secrets=provider.secret_values(),
            generic_errors=provider.generic_errors,
            context_window=None if provider.context_window_info.assumed else provider.context_window,
        )
        # This pane's earlier prompts, to tell what each call shares with them (the prompt cache).
        self.prefixes = PrefixTracker(
            provider.model, cache_rule(provider.kind), provider.tokenizer.encoding_name
        )
        self._model_counter: Any = None
        self._turn_lock = threading.Lock()
        self._notes: list[Message] = []
        self.turns: list[Turn] = []
        # OpenAI and the offline model read tool definitions; another server has shown it does once it
        # asked for a tool (until then its template may have dropped them).
        self._tools_confirmed = provider.kind != "openai_compatible"

    def describe(self, error: BaseException) -> Message:
        """A one-line, key-free description of ``error`` for the pane."""
        return self.context.provider.describe(error)

    # -- models -----------------------------------------------------------------------------
    def make_model(self, purpose: str = REPLY, *, streaming: bool | None = None) -> BaseChatModel:
        """A chat model carrying this strategy's capture callback and a purpose tag."""
        if self._model_counter is None and self.context.provider.kind == "offline":
            # Lazy: the offline model's rule set loads only for a strategy that uses it.
            from memory_demos.providers.offline_model import CallCounter

            self._model_counter = CallCounter()
        return build_chat_model(
            self.context.provider,
            callbacks=[self.capture],
            tags=[purpose_tag(purpose)],
            streaming=(purpose == REPLY) if streaming is None else streaming,
            shared_state=self._model_counter,
        )

    def model_for(self, purpose: str) -> BaseChatModel:
        """This strategy's one model for ``purpose``, built on first use.

        One instance per role is what labels a call: LangChain calls it from deep inside a memory
        class, and the capture reads the purpose from that instance's tag, never from the text.
        """
        models: dict[str, BaseChatModel] = self.__dict__.setdefault("_role_models", {})
        if purpose not in models:
            models[purpose] = self.make_model(purpose)
        return models[purpose]

    @property
    def reply_model(self) -> BaseChatModel:
        return self.model_for(REPLY)

    def embeddings(self) -> Embeddings:
        """The embedding model this strategy's ``embeddings`` parameter picks in its context."""
        return self.context.get_embeddings(self.params.get("embeddings", AUTO))

    def embedding_model(self) -> str | None:
        """The name of the embedding model in use; None for a strategy that embeds nothing."""
        if "embeddings" not in self.params:
            return None
        return self.context.embedding_model(self.params["embeddings"])

    @property
    def system_prompt(self) -> str:
        return self.context.system_prompt

    @property
    def backends(self) -> UserBackends:
        """The in-process backends this user's conversations share (see ``UserBackends``)."""
        assert self.context.backends is not None  # set in __init__
        return self.context.backends

    def shared_backend(self, name: str, factory: Callable[[], Any]) -> Any:
        """An in-process backend shared with the user's other conversations of this strategy."""
        return self.backends.get(f"{self.info.id}.{name}", factory)

    # -- conversations ------------------------------------------------------------------------
    @property
    def conversation_id(self) -> str:
        return self.context.conversation_id

    def new_conversation(self, conversation_id: str | None = None) -> Strategy:
        """The same user's next conversation: this strategy's class and parameters, built in a context that
        differs only in its conversation id (a new one unless given).

        What ``info.keeps`` says is per conversation starts empty there, because the real classes are keyed
        by it (a new ``thread_id``, ``session_id``, collection or memory object); what is kept per user (a
        store namespace ``("users", user_id, ...)``) carries over: in-process backends are shared through
        ``UserBackends``, files and servers by being the same. This object is left as it is, so the
        earlier conversation can be reopened; the caller closes it when it is done with it.
        """
        context = replace(self.context, conversation_id=conversation_id or new_conversation_id())
        return type(self)(context, self.params)

    def forget_user(self) -> None:  # noqa: B027 - most strategies keep nothing per user
        """Delete what this strategy keeps about the user across conversations (its ``user``-scoped parts
        in ``info.keeps``). Separate from ``clear``, which forgets only this conversation."""

    # -- the turn ---------------------------------------------------------------------------
    def note(self, text: Message) -> None:
        """Attach a remark to the current turn (a catalogue message, e.g. "summary skipped: ...")."""
        self._notes.append(text)

    def send(self, user_text: str, on_token: TokenListener | None = None) -> Turn:
        """Run one turn. Never raises for model or memory faults: they come back in ``Turn.error``.

        Raises ``InputError`` (before touching memory) for an empty or over-long message.
        """
        validate_user_text(user_text, self.context.max_message_chars)
        with self._turn_lock:
            sent_at = self.context.clock.now().isoformat()
            self.capture.drain()
            self._notes = []
            self.capture.token_listener = on_token
            started = time.perf_counter()
            error: Message | None = None
            kind: str | None = None
            reply = ""
            point: Any = _NO_POINT
            try:
                # Inside the try: reading a persisted memory can fail too (a database or Redis that is
                # down), and that must become this pane's error, not an exception that sinks every pane.
                point = self._rollback_point()
                reply = self._respond(user_text)
            except Exception as exc:
                error = self.describe(exc)
                kind = error_kind(exc)
                try:
                    if point is not _NO_POINT:
                        self._rollback(point)
                except Exception as rollback_exc:
                    error = Message(
                        "error.rollback_failed", error=error, rollback=self.describe(rollback_exc)
                    )
            finally:
                self.capture.token_listener = None
            seconds = time.perf_counter() - started
            calls = self.prefixes.annotate(self.capture.drain())
            reply_calls = [c for c in calls if c.purpose == REPLY]
            memory_calls = [c for c in calls if c.purpose != REPLY]
            # An agent may call the model more than once for one reply (a tool round trip): the last
            # reply call produced the answer.
            reply_call = reply_calls[-1] if reply_calls else None
            if error is not None:
                reply = ""
            elif reply_call is not None and reply_call.cut_by is not None:
                self.note(cut_reply_note(reply_call.cut_by, self.context.provider))
            try:
                state = self.snapshot()
            except Exception as exc:
                state = {"error": self.describe(exc)}
            asked_for_tool = bool(reply_calls[:-1]) or any(
                message.tool_calls for call in reply_calls for message in call.messages
            )
            self._tools_confirmed = self._tools_confirmed or asked_for_tool
            turn = Turn(
                user_text=user_text,
                reply=reply,
                seconds=seconds,
                reply_call=reply_call,
                memory_calls=memory_calls,
                tool_round_calls=reply_calls[:-1],
                state=state,
                error=error,
                notes=list(self._notes),
                error_kind=kind,
                approximate=self.context.provider.tokenizer.approximate,
                tools_unconfirmed=bool(reply_call and reply_call.tools) and not self._tools_confirmed,
                at=sent_at,
            )
            self.context.clock.tick()  # a scenario's next message comes a minute later
            self.turns.append(turn)
            return turn

    # -- hooks ------------------------------------------------------------------------------
    @abstractmethod
    def _respond(self, user_text: str) -> str:
        """Read memory, call ``self.reply_model``, write memory; return the reply text."""

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """The memory's inner state as plain JSON-able data."""

    @abstractmethod
    def _rollback_point(self) -> Any:
        """Whatever ``_rollback`` needs to restore memory to its state before this turn."""

    @abstractmethod
    def _rollback(self, point: Any) -> None:
        """Restore memory to ``point``."""

    @abstractmethod
    def clear(self) -> None:
        """Forget what this strategy remembers for this conversation (its ``conversation``-scoped parts in
        ``info.keeps``); what it keeps about the user stays (``forget_user`` deletes that)."""

    def stored_messages(self) -> list[BaseMessage]:
        """The conversation's messages as this memory keeps them ([] for memories that keep none)."""
        return []

    @classmethod  # noqa: B027 - most strategies accept any valid values
    def check_params(cls, params: Mapping[str, Any], context: StrategyContext) -> None:
        """Raise ``InputError`` if ``params`` (already range-checked) cannot work in ``context``.

        ``registry.parse_params`` asks this after converting the values, so a budget no message could fit
        is refused before anything is built. Most strategies accept any valid values.
        """

    def close(self) -> None:  # noqa: B027 - most strategies hold nothing to release
        """Release files, connections and collections. Safe to call twice."""

    def fork_at(self, turn_index: int) -> None:
        """Go back to the state after turn ``turn_index`` (only strategies with checkpoints)."""
        raise InputError(Message("strategy.error.no_fork", strategy=self.info.id))
