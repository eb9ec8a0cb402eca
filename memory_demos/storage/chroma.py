"""Vector memories: an in-process chromadb, or the Chroma server of ``MEMORY_LAB_CHROMA_URL``."""

from __future__ import annotations

import hashlib
import re
from typing import Any
from urllib.parse import urlsplit

from memory_demos.storage.servers import CHROMA_URL_ENV, StorageConfig, StorageError, redact_url

_SAFE_NAME_PART = re.compile(r"^[A-Za-z0-9_]{0,127}[A-Za-z0-9]$")
_COLLECTION_SAFE = re.compile(r"^[A-Za-z0-9._-]{1,400}$")


def chroma_client(config: StorageConfig) -> Any:
    """chromadb's ``HttpClient`` on ``config.chroma_url``, else an in-process ``EphemeralClient``.

    All ``EphemeralClient``s of a process share their collections, so collections are named per conversation.
    Telemetry is off either way. Raises ``StorageError`` if the server cannot be reached.
    """
    import chromadb
    from chromadb.config import Settings

    settings = Settings(anonymized_telemetry=False)
    if config.chroma_url is None:
        return chromadb.EphemeralClient(settings=settings)
    parts = urlsplit(config.chroma_url)
    ssl = parts.scheme.lower() == "https"
    try:
        return chromadb.HttpClient(
            host=parts.hostname or "127.0.0.1",
            port=parts.port or (443 if ssl else 8000),
            ssl=ssl,
            settings=settings,
        )
    except Exception as exc:  # chromadb raises ValueError/ConnectError for an unreachable server
        detail = config.redact(str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__)
        raise StorageError(
            f"The Chroma server at {redact_url(config.chroma_url)} cannot be reached ({detail}). "
            f"Start it with `chroma run --path <folder>` or unset {CHROMA_URL_ENV}."
        ) from None


def chroma_collection_name(prefix: str, conversation_id: str, user_id: str | None = None) -> str:
    """A valid, unique Chroma collection name for a conversation (and its user, on a shared server).

    Without ``user_id``: ``prefix + conversation_id`` (hashed if not a safe name), as in-process collections
    have always been named. With it: ``prefix + user + "." + conversation``, each part kept if it is plain
    ``[A-Za-z0-9_]`` and hashed (``h-<sha256>``, which no plain part can look like) otherwise.
    """
    if user_id is None:
        if _COLLECTION_SAFE.match(conversation_id) and conversation_id[-1].isalnum():
            return prefix + conversation_id
        return prefix + _digest(conversation_id)

    def part(value: str) -> str:
        return value if _SAFE_NAME_PART.match(value) else "h-" + _digest(value)

    return f"{prefix}{part(user_id)}.{part(conversation_id)}"


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()[:32]
