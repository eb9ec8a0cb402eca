"""Turn provider exceptions into one short sentence a user can act on, with no secret in it."""

from __future__ import annotations

import re
from collections.abc import Callable

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


# What a workshop attendee sees for a storage fault: the full text (paths, settings) goes to the server log.
STORAGE_HIDDEN = (
    "The server's storage for this memory cannot be used right now; the host can see why in the log."
)


class InjectedFault(RuntimeError):
    """Raised by the offline teaching model when a fault was asked for (tests, failure demos)."""


class IncompleteStreamError(ConnectionError):
    """A streamed reply that ended before the provider said it was finished."""


class ServerInterruptedError(IncompleteStreamError):
    """The server ended a running stream on purpose (``[DONE]``, no finish reason) for another request."""


class ContextWindowExceeded(RuntimeError):
    """A stream died with the prompt at the model's context window: an overflow, not a network fault."""


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


_MESSAGES = {
    "timeout": (
        "The model did not answer in time (timeout). Raise the timeout (Settings, or --timeout) or lower "
        "max_tokens, then try again."
    ),
    "rate_limit": "The provider is rate limiting requests (429). Wait a moment and retry.",
    "authentication": (
        "The provider refused the API key (401). Check the key (in Settings, or the variable named by "
        "--api-key-env on the command line)."
    ),
    "permission": "The provider denied access to this model (403).",
    "not_found": "The provider does not know this model or URL (404).",
    "context_overflow": (
        "Context window exceeded: the prompt (or the prompt plus the reply) is longer than the model can "
        "take. This is not a network fault and retrying as is will fail again. A smaller memory budget "
        "helps (a smaller window k, max_token_limit or max_tokens for the memory), as do a lower "
        "max_tokens per reply, clearing the chat, or a larger context on the server."
    ),
    "interrupted": (
        "The server stopped this reply to answer another request: it serves one request at a time. "
        "Set 'Answer panes at most N at a time' to 1 in Settings (command line: --concurrency 1), or "
        "let the server queue requests (llama-cpp-python: --interrupt_requests false)."
    ),
    "connection_dropped": "The connection to the provider dropped before the reply was complete. Try again.",
    "connection": "Cannot reach the provider: check the base URL and that the server is running.",
    "server": "The provider had an internal error (5xx). Retry in a moment.",
    "malformed": "The provider sent a malformed response.",
    "url_refused": "The server refused to call that address (a workshop rule); nothing was sent.",
}
# What an attendee sees for a model at an address they typed in a workshop: the kind, never the remote
# body, and "connection" for both "cannot reach" and "dropped" (else the server answers port scans).
_GENERIC_KINDS = {"connection_dropped": "connection", "malformed": "server", "rejected": "rejected"}
_GENERIC_MESSAGES = {
    "rejected": "The provider rejected the request (its reply is not shown in a workshop).",
    "other": "The call to the provider failed.",
}


def describe_error(error: BaseException, *secrets: str | None, generic: bool = False) -> str:
    """A one-line, user-facing description of a failed model call.

    ``generic`` (an attendee-typed address in a workshop) names only the kind of failure.
    """
    kind = error_kind(error)
    if kind == "budget":
        message = str(error)
    elif generic:
        kind = _GENERIC_KINDS.get(kind, kind)
        message = _GENERIC_MESSAGES.get(kind) or _MESSAGES.get(kind) or _GENERIC_MESSAGES["other"]
    elif kind == "injected":
        message = f"Injected fault: {error}"
    elif kind == "rejected":
        message = f"The provider rejected the request: {error}"
    elif kind in _MESSAGES:
        message = _MESSAGES[kind]
        if isinstance(error, ContextWindowExceeded):
            message += f" ({error})"
    else:
        message = f"{type(error).__name__}: {error}"
    message = " ".join(message.split())
    if kind not in _MESSAGES and len(message) > 300:  # our own sentences are never cut
        message = message[:297] + "..."
    return redact(message, *secrets)
