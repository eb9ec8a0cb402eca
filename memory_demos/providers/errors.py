"""Turn provider exceptions into one short sentence a user can act on, with no secret in it."""

from __future__ import annotations

import re

_KEY_PATTERN = re.compile(r"(sk-[A-Za-z0-9_\-]{6,}|Bearer\s+\S+)")


class InjectedFault(RuntimeError):
    """Raised by the offline teaching model when a fault was asked for (tests, failure demos)."""


def redact(text: str, *secrets: str | None) -> str:
    """Remove anything key-shaped, and the given secrets, from ``text``."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "[redacted]")
    return _KEY_PATTERN.sub("[redacted]", text)


def describe_error(error: BaseException, *secrets: str | None) -> str:
    """A one-line, user-facing description of a failed model call."""
    name = type(error).__name__
    if isinstance(error, InjectedFault):
        message = f"Injected fault: {error}"
    elif name in {"APITimeoutError", "TimeoutError", "ReadTimeout", "ConnectTimeout"}:
        message = "The model did not answer in time (timeout). Try again."
    elif name == "RateLimitError":
        message = "The provider is rate limiting requests (429). Wait a moment and retry."
    elif name == "AuthenticationError":
        message = "The provider refused the API key (401). Check the key in Settings."
    elif name == "PermissionDeniedError":
        message = "The provider denied access to this model (403)."
    elif name == "NotFoundError":
        message = "The provider does not know this model or URL (404)."
    elif name == "APIConnectionError":
        message = "Cannot reach the provider: check the base URL and that the server is running."
    elif name == "InternalServerError":
        message = "The provider had an internal error (5xx). Retry in a moment."
    elif name in {"APIStatusError", "BadRequestError", "UnprocessableEntityError"}:
        message = f"The provider rejected the request: {error}"
    elif isinstance(error, ValueError | KeyError | TypeError) and "json" in str(error).lower():
        message = "The provider sent a malformed response."
    else:
        message = f"{name}: {error}"
    message = " ".join(message.split())
    if len(message) > 300:
        message = message[:297] + "..."
    return redact(message, *secrets)
