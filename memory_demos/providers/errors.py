"""Turn provider exceptions into one short sentence a user can act on, with no secret in it."""

from __future__ import annotations

import re

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
_CONTEXT_OVERFLOW = {"ContextOverflowError"}
_CONNECTION = {"APIConnectionError", "ModelConnectionError"}
_SERVER = {"InternalServerError", "ModelAPIError"}
_REJECTED = {"APIStatusError", "BadRequestError", "UnprocessableEntityError", "ConflictError"}
_REJECTED |= {"ModelInvalidRequestError"}
_MALFORMED = {"JSONDecodeError", "APIResponseValidationError"}
# Causes of a connection error meaning the server was reached but the reply was cut off.
_DROPPED = {"RemoteProtocolError", "ReadError", "IncompleteRead", "ConnectionResetError", "EndOfStream"}


class InjectedFault(RuntimeError):
    """Raised by the offline teaching model when a fault was asked for (tests, failure demos)."""


class IncompleteStreamError(ConnectionError):
    """A streamed reply that ended before the provider said it was finished."""


def redact(text: str, *secrets: str | None) -> str:
    """Remove anything key-shaped, and the given secrets, from ``text``."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "[redacted]")
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


def error_kind(error: BaseException) -> str:
    """A short class of a failed call, for counting (the instructor view): timeout, rate_limit, ..."""
    names = _class_names(error)
    if isinstance(error, InjectedFault):
        return "injected"
    if names & _TIMEOUT:
        return "timeout"
    if names & _RATE_LIMIT:
        return "rate_limit"
    if names & _AUTHENTICATION:
        return "authentication"
    if names & _PERMISSION:
        return "permission"
    if names & _NOT_FOUND:
        return "not_found"
    if names & _CONTEXT_OVERFLOW or (names & _REJECTED and "context_length_exceeded" in str(error)):
        return "context_overflow"
    if isinstance(error, IncompleteStreamError) or (names & _CONNECTION and _cause_names(error) & _DROPPED):
        return "connection_dropped"
    if names & _CONNECTION:
        return "connection"
    if names & _SERVER:
        return "server"
    if names & _REJECTED:
        return "rejected"
    if names & _MALFORMED or (
        isinstance(error, ValueError | KeyError | TypeError) and "json" in str(error).lower()
    ):
        return "malformed"
    if "InputError" in names:
        return "input"
    if "StorageError" in names:
        return "storage"
    return "other"


_MESSAGES = {
    "timeout": "The model did not answer in time (timeout). Try again.",
    "rate_limit": "The provider is rate limiting requests (429). Wait a moment and retry.",
    "authentication": "The provider refused the API key (401). Check the key in Settings.",
    "permission": "The provider denied access to this model (403).",
    "not_found": "The provider does not know this model or URL (404).",
    "context_overflow": (
        "The prompt is longer than the model's context window. Clear the chat or trim the memory."
    ),
    "connection_dropped": "The connection to the provider dropped before the reply was complete. Try again.",
    "connection": "Cannot reach the provider: check the base URL and that the server is running.",
    "server": "The provider had an internal error (5xx). Retry in a moment.",
    "malformed": "The provider sent a malformed response.",
}


def describe_error(error: BaseException, *secrets: str | None) -> str:
    """A one-line, user-facing description of a failed model call."""
    kind = error_kind(error)
    if kind == "injected":
        message = f"Injected fault: {error}"
    elif kind == "rejected":
        message = f"The provider rejected the request: {error}"
    elif kind in _MESSAGES:
        message = _MESSAGES[kind]
    else:
        message = f"{type(error).__name__}: {error}"
    message = " ".join(message.split())
    if len(message) > 300:
        message = message[:297] + "..."
    return redact(message, *secrets)
