"""Build the chat model a user picked: the offline teaching model, OpenAI, or an OpenAI-compatible server."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models import BaseChatModel
from pydantic import SecretStr

from memory_demos.providers.tokenizer import TokenizerChoice, choose_encoding, get_encoding

ProviderKind = Literal["offline", "openai", "openai_compatible"]
PROVIDER_KINDS: tuple[ProviderKind, ...] = ("offline", "openai", "openai_compatible")
OFFLINE_MODEL_NAME = "offline-teaching-model"
OFFLINE_DISPLAY_NAME = "Offline teaching model (rule-based, not an LLM)"
DEFAULT_OPENAI_MODEL = "gpt-4o-mini"
DEFAULT_TIMEOUT_SECONDS = 30.0
DEFAULT_MAX_RETRIES = 2
# Context windows used by the gauge; unknown models get a conservative default, labelled as such.
CONTEXT_WINDOWS = {
    "gpt-4o": 128_000,
    "gpt-4.1": 1_047_576,
    "gpt-5": 400_000,
    "gpt-4": 8_192,
    "gpt-3.5": 16_385,
}
DEFAULT_CONTEXT_WINDOW = 8_192


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
            values += [self.base_url, self.base_url.rstrip("/")]
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
    def context_window(self) -> int:
        name = self.model.lower()
        for prefix in sorted(CONTEXT_WINDOWS, key=len, reverse=True):
            if name.startswith(prefix):
                return CONTEXT_WINDOWS[prefix]
        return DEFAULT_CONTEXT_WINDOW

    def with_overrides(self, **changes: Any) -> ProviderConfig:
        return replace(self, **changes)


def _stream_finished(chunk: Any) -> bool:
    info = getattr(chunk, "generation_info", None) or {}
    metadata = getattr(getattr(chunk, "message", None), "response_metadata", None) or {}
    return bool(info.get("finish_reason") or metadata.get("finish_reason"))


def _checked_chat_openai_class() -> type:
    """ChatOpenAI that treats a stream ending without a finish reason as a cut connection.

    Neither the openai SDK nor ChatOpenAI checks that a stream finished: a server that closes the
    stream cleanly mid-reply would otherwise have its half reply stored as the answer.
    """
    from langchain_openai import ChatOpenAI

    from memory_demos.providers.errors import IncompleteStreamError

    class CheckedChatOpenAI(ChatOpenAI):
        def _stream(self, *args: Any, **kwargs: Any) -> Any:
            finished = False
            for chunk in super()._stream(*args, **kwargs):
                finished = finished or _stream_finished(chunk)
                yield chunk
            if not finished:
                raise IncompleteStreamError("the stream ended without a finish reason")

        async def _astream(self, *args: Any, **kwargs: Any) -> Any:
            finished = False
            async for chunk in super()._astream(*args, **kwargs):
                finished = finished or _stream_finished(chunk)
                yield chunk
            if not finished:
                raise IncompleteStreamError("the stream ended without a finish reason")

    return CheckedChatOpenAI


def resolve_openai_key(config: ProviderConfig) -> SecretStr | None:
    """The key from the config, else (if ``use_env_key``) from ``OPENAI_API_KEY``; never logged."""
    if config.api_key is not None and config.api_key.get_secret_value():
        return config.api_key
    if not config.use_env_key:
        return None
    from_env = os.environ.get("OPENAI_API_KEY")
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
    return _checked_chat_openai_class()(
        model=config.model,
        api_key=key or SecretStr("not-needed"),
        base_url=config.base_url or None,
        timeout=config.timeout_seconds,
        max_retries=config.max_retries,
        streaming=streaming,
        stream_usage=True,
        tiktoken_model_name="gpt-4o" if choice.encoding_name == "o200k_base" else "gpt-4",
        callbacks=callbacks,
        tags=tags,
    )
