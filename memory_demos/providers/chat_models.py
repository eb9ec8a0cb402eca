"""Build the chat model a user picked: the offline teaching model, OpenAI, or an OpenAI-compatible server."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models import BaseChatModel
from pydantic import SecretStr

from memory_demos.i18n import Message
from memory_demos.providers.api_keys import DEFAULT_API_KEY_ENV, resolve_openai_key
from memory_demos.providers.checked_openai import StreamEndWatch, checked_chat_openai_class
from memory_demos.providers.context_window import ContextWindow, assumed_context_window, known_context_window
from memory_demos.providers.errors import STORAGE_HIDDEN_KEY, describe_error, error_kind, redact
from memory_demos.providers.tokenizer import TokenizerChoice, choose_encoding, get_encoding
from memory_demos.providers.url_policy import EgressPolicy

logger = logging.getLogger(__name__)
ProviderKind = Literal["offline", "openai", "openai_compatible"]
PROVIDER_KINDS: tuple[ProviderKind, ...] = ("offline", "openai", "openai_compatible")
OFFLINE_MODEL_NAME = "offline-teaching-model"
DEFAULT_OPENAI_MODEL = "gpt-4o-mini"
DEFAULT_TIMEOUT_SECONDS = 60.0
DEFAULT_MAX_RETRIES = 2
DEFAULT_MAX_TOKENS = 512


class CallGate(Protocol):
    """What a caller hands in to guard every call of a model (a workshop's budget gate, say)."""

    def handler(self, encoding_name: str) -> BaseCallbackHandler:
        """A fresh callback for one model: it may refuse a call by raising before the call is sent."""
        ...


OFFLINE_CONTEXT_WINDOW = ContextWindow(
    8_192, "assumed: the offline teaching model has no limit; 8,192 is shown for scale", assumed=True
)


@dataclass(frozen=True)
class ProviderConfig:
    """Which chat model to build. The key is a SecretStr so it never prints in a repr or a log.

    ``hosted`` marks the workshop host's model: its key and base URL are server secrets, so the
    interface, exports and error messages name only the model. ``use_env_key`` lets an empty key fall
    back to ``OPENAI_API_KEY``; providers typed in by someone in the browser turn it off where the
    server's key would go to an address they chose. The ranges Settings accepts for the bounds below
    (timeout, max tokens, pane concurrency, context window) are in ``providers.bounds``.
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
    temperature: float | None = None  # None: the server's default (replays and the Scorecard use 0)
    max_concurrent_panes: int = 0  # answer panes at most N at a time (0: all at once)
    context_window_tokens: int | None = None  # from Settings, the CLI or the server; None: table or guess
    context_window_source: str = ""
    api_key_env: str | None = None  # the variable an empty key falls back to; None: see key_env_name
    # Set for an address typed in a workshop attendee's browser: the host's rules for server requests.
    egress: EgressPolicy | None = field(default=None, repr=False)
    # Handed in by the caller (the session, in workshop mode): it guards every model built from this config.
    gate: CallGate | None = field(default=None, repr=False, compare=False)

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
        """The provider's name in English (CLI, exports); the interface shows ``ui.text.provider_label``."""
        if self.kind == "offline":
            return Message("provider.offline")
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

    def describe(self, error: BaseException) -> Message:
        """A one-line description of ``error`` without this provider's secrets.

        For an attendee-typed address in a workshop, and for the host's model, it names only the kind
        of failure: never the remote body, nor whether the port answered (a port scanner otherwise).
        """
        if self.gate is not None and error_kind(error) == "storage":  # a workshop attendee: no server paths
            logger.warning("Storage error: %s", redact(str(error), *self.secret_values()))
            return Message(STORAGE_HIDDEN_KEY)
        return describe_error(error, *self.secret_values(), generic=self.generic_errors)

    @property
    def generic_errors(self) -> bool:
        """True where errors name only their kind: the host's model, an attendee-typed address."""
        return self.egress is not None or self.hosted


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
    callbacks = gated_callbacks(config.gate, config.tokenizer.encoding_name, callbacks)
    if config.kind == "offline":
        # Lazy: the offline model's rule set (~0.14 s to import) loads only where it answers.
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
    return checked_chat_openai_class()(
        model=config.model,
        api_key=key or SecretStr("not-needed"),
        base_url=config.base_url or None,
        timeout=timeout,
        max_retries=config.max_retries,
        max_tokens=config.max_tokens,
        # Sent only when set: a server keeps its own default otherwise (llama-cpp-python's is 0.8).
        **({"temperature": config.temperature} if config.temperature is not None else {}),
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


def gated_callbacks(
    gate: CallGate | None, encoding_name: str, callbacks: list[BaseCallbackHandler] | None
) -> list[BaseCallbackHandler]:
    """``callbacks`` with ``gate``'s handler first (so a refusal stops the call before it goes).

    The one way a gate reaches a model: every model the app builds gets its callbacks from here.
    """
    handlers = list(callbacks or [])
    return [gate.handler(encoding_name), *handlers] if gate is not None else handlers
