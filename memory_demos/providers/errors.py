"""Turn provider exceptions into one short message a user can act on, with no secret in it.

A description is data (a ``Message``: a catalogue key and its values); the view shows it in its language.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from memory_demos.i18n import Message

_KEY_PATTERN = re.compile(r"(sk-[A-Za-z0-9_\-]{6,}|Bearer\s+\S+)")
# Matched against every class in the exception's MRO: langchain-openai re-raises the SDK's errors as
# subclasses (``OpenAITimeoutError(openai.APITimeoutError, ModelTimeoutError)``), so the exact class name
# is never the SDK's. Other providers raise the langchain_core ``Model*Error`` bases.
_TIMEOUT = {"APITimeoutError", "ModelTimeoutError", "TimeoutError", "TimeoutException"}
_TIMEOUT |= {"ReadTimeout", "ConnectTimeout", "WriteTimeout", "PoolTimeout"}
_RATE_LIMIT = {"RateLimitError", "ModelRateLimitError"}
_AUTHENTICATION = {"AuthenticationError", "ModelAuthenticationError"}
_PERMISSION = {"PermissionDeniedError", "ModelPermissionDeniedError"}
_NOT_FOUND = {"NotFoundError", "ModelNotFoundError"}
_CONTEXT_OVERFLOW = {"ContextOverflowError", "ContextWindowExceeded"}
# What servers write when a prompt does not fit (OpenAI, vLLM, llama.cpp, llama-cpp-python, LM Studio).
_CONTEXT_TEXT = re.compile(
    r"context_length_exceeded|exceed_context_size|maximum context length|exceeds? (the )?(available )?"
    r"context (size|window|length)|exceed context window|context the overflows|context length exceeded"
    r"|prompt is too long",
    re.IGNORECASE,
)
_PROVIDER_ERRORS = {"APIError", "APIStatusError", "ModelAPIError", "ModelInvalidRequestError"}
_CONNECTION = {"APIConnectionError", "ModelConnectionError"}
_SERVER = {"InternalServerError", "ModelAPIError"}
_REJECTED = {"APIStatusError", "BadRequestError", "UnprocessableEntityError", "ConflictError"}
_REJECTED |= {"ModelInvalidRequestError"}
_MALFORMED = {"JSONDecodeError", "APIResponseValidationError"}
# Causes of a connection error meaning the server was reached but the reply was cut off.
_DROPPED = {"RemoteProtocolError", "ReadError", "IncompleteRead", "ConnectionResetError", "EndOfStream"}


# What a workshop attendee sees for a storage fault (a catalogue key): the full text goes to the server log.
STORAGE_HIDDEN_KEY = "error.storage_hidden"


class InjectedFault(RuntimeError):
    """Raised by the offline teaching model when a fault was asked for (tests, failure demos)."""


class IncompleteStreamError(ConnectionError):
    """A streamed reply that ended before the provider said it was finished."""


class ServerInterruptedError(IncompleteStreamError):
    """The server ended a running stream on purpose (``[DONE]``, no finish reason) for another request."""


class ContextWindowExceeded(RuntimeError):
    """A stream died with the prompt at the model's context window: an overflow, not a network fault.

    The evidence travels as data: the server's own prompt count (its ``/tokenize``), the reply limit
    and the window; the view words it (``error.overflow_evidence``).
    """

    def __init__(self, prompt_tokens: int = 0, max_tokens: int = 0, window: int = 0) -> None:
        super().__init__(
            f"the server's tokenizer counts {prompt_tokens:,} prompt tokens; with max_tokens {max_tokens:,} "
            f"that passes the context window of {window:,}"
        )
        self.prompt_tokens, self.max_tokens, self.window = prompt_tokens, max_tokens, window


class PossibleOverflowDrop(IncompleteStreamError):
    """A stream cut off with no word, its prompt near the window by a local count only (no evidence).

    Reported as a dropped connection, with the figures that make an overflow worth checking.
    """

    def __init__(self, prompt_tokens: int, max_tokens: int, window: int) -> None:
        super().__init__(f"the stream was cut with about {prompt_tokens:,} prompt tokens (tiktoken)")
        self.prompt_tokens, self.max_tokens, self.window = prompt_tokens, max_tokens, window


def _mentions_context_overflow(error: BaseException) -> bool:
    body = getattr(error, "body", None)
    return bool(_CONTEXT_TEXT.search(f"{error} {body if body is not None else ''}"))


def redact(text: str, *secrets: str | None) -> str:
    """Remove anything key-shaped, and the given secrets (in any letter case), from ``text``."""
    for secret in sorted((s for s in secrets if s), key=len, reverse=True):
        text = re.sub(re.escape(secret), "[redacted]", text, flags=re.IGNORECASE)
    return _KEY_PATTERN.sub("[redacted]", text)


def _class_names(error: BaseException) -> set[str]:
    return {cls.__name__ for cls in type(error).__mro__}


def _cause_names(error: BaseException) -> set[str]:
    """Class names of everything ``error`` was raised from (``__cause__``/``__context__``), bounded."""
    names: set[str] = set()
    seen: set[int] = set()
    current = error.__cause__ or error.__context__
    while current is not None and id(current) not in seen and len(seen) < 20:
        seen.add(id(current))
        names |= _class_names(current)
        current = current.__cause__ or current.__context__
    return names


def _is_context_overflow(error: BaseException, names: set[str]) -> bool:
    """An overflow by class, or a provider error whose text says the prompt did not fit."""
    provider_error = names & (_REJECTED | _SERVER | _PROVIDER_ERRORS)
    return bool(names & _CONTEXT_OVERFLOW) or bool(provider_error and _mentions_context_overflow(error))


def _is_dropped(error: BaseException, names: set[str]) -> bool:
    """A stream cut short, or a connection error caused by a reply cut off mid-way."""
    return isinstance(error, IncompleteStreamError) or bool(
        names & _CONNECTION and _cause_names(error) & _DROPPED
    )


def _is_malformed(error: BaseException, names: set[str]) -> bool:
    """A reply that could not be read: by class, or a parse error about JSON."""
    return bool(names & _MALFORMED) or (
        isinstance(error, ValueError | KeyError | TypeError) and "json" in str(error).lower()
    )


def _named(classes: set[str]) -> Callable[[BaseException, set[str]], bool]:
    """A test that matches when any class in the error's MRO is one of ``classes``."""
    return lambda _error, names: bool(names & classes)


# Tried in order, the first that matches names the kind: the specific kinds come before the broad ones.
_KINDS: tuple[tuple[str, Callable[[BaseException, set[str]], bool]], ...] = (
    ("injected", lambda error, _names: isinstance(error, InjectedFault)),
    ("budget", _named({"BudgetExceeded"})),
    ("url_refused", lambda error, names: "UrlRefused" in names | _cause_names(error)),
    ("timeout", _named(_TIMEOUT)),
    ("rate_limit", _named(_RATE_LIMIT)),
    ("authentication", _named(_AUTHENTICATION)),
    ("permission", _named(_PERMISSION)),
    ("not_found", _named(_NOT_FOUND)),
    ("context_overflow", _is_context_overflow),
    ("interrupted", lambda error, _names: isinstance(error, ServerInterruptedError)),
    ("connection_dropped", _is_dropped),
    ("connection", _named(_CONNECTION)),
    ("server", _named(_SERVER)),
    ("rejected", _named(_REJECTED)),
    ("malformed", _is_malformed),
    ("input", _named({"InputError"})),
    ("storage", _named({"StorageError"})),
)


def error_kind(error: BaseException) -> str:
    """A short class of a failed call, for counting (the instructor view): timeout, rate_limit, ..."""
    names = _class_names(error)
    return next((kind for kind, matches in _KINDS if matches(error, names)), "other")


# The kinds described by a sentence of our own, from the catalogue (``error.<kind>``); never cut short.
_OWN_SENTENCES = (
    "timeout",
    "rate_limit",
    "authentication",
    "permission",
    "not_found",
    "context_overflow",
    "interrupted",
    "connection_dropped",
    "connection",
    "server",
    "malformed",
    "url_refused",
)
OWN_SENTENCE_KINDS = _OWN_SENTENCES  # the views name what helps with these kinds from the same sentences
_WITH_DETAIL = ("injected", "rejected")  # error.<kind> around the error's own text
# What an attendee sees for a model at an address they typed in a workshop: the kind, never the remote
# body, and "connection" for both "cannot reach" and "dropped" (else the server answers port scans).
_GENERIC_KINDS = {"connection_dropped": "connection", "malformed": "server", "rejected": "rejected"}
_GENERIC_SENTENCES = ("rejected", "other")  # error.generic.<kind>


def _message(error: BaseException, kind: str, generic: bool) -> Message:
    """The catalogue message for ``kind``; the error's own text only where it helps and is allowed."""
    if kind == "budget":  # a workshop BudgetExceeded: which limit, and its numbers
        reason, numbers = getattr(error, "reason", "tokens"), getattr(error, "numbers", {})
        return Message(f"error.budget.{reason}", **numbers)
    if generic:
        kind = _GENERIC_KINDS.get(kind, kind)
        if kind in _GENERIC_SENTENCES:
            return Message(f"error.generic.{kind}")
        return Message(f"error.{kind}") if kind in _OWN_SENTENCES else Message("error.generic.other")
    if kind in _WITH_DETAIL:
        return Message(f"error.{kind}", detail=error_detail(error))
    if kind in _OWN_SENTENCES:
        if isinstance(error, ContextWindowExceeded | PossibleOverflowDrop):
            key = "error.overflow_evidence" if kind == "context_overflow" else "error.maybe_overflow"
            names = ("prompt_tokens", "max_tokens", "window")
            numbers = {name: f"{getattr(error, name):,}" for name in names}
            return Message(
                "error.with_evidence", message=Message(f"error.{kind}"), evidence=Message(key, **numbers)
            )
        return Message(f"error.{kind}")
    return Message("error.raw", name=type(error).__name__, detail=error_detail(error))


def error_detail(error: BaseException) -> Any:
    """What an exception says: its ``Message`` when the core raised one (shown in the reader's language),
    else its text."""
    if len(error.args) == 1 and isinstance(error.args[0], Message):
        return error.args[0]
    return str(error)


def _tidy(value: Any, *secrets: str | None) -> Any:
    """A plain text value on one line and without secrets; messages and numbers as they are."""
    return redact(" ".join(value.split()), *secrets) if isinstance(value, str) else value


def describe_error(error: BaseException, *secrets: str | None, generic: bool = False) -> Message:
    """A one-line, user-facing description of a failed model call, as data: a catalogue key and values.

    ``generic`` (an attendee-typed address in a workshop) names only the kind of failure. Our own
    sentences are never cut; an error's own text is cut so the English line stays within 300 characters.
    """
    kind = error_kind(error)
    message = _message(error, kind, generic).with_values(lambda value: _tidy(value, *secrets))
    overflow = len(message) - 300
    detail = message.values.get("detail")
    if kind not in _OWN_SENTENCES and overflow > 0 and isinstance(detail, str):
        message = Message(message.key, **{**message.values, "detail": detail[: -(overflow + 3)] + "..."})
    return message
