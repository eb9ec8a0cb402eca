"""ConversationEntityMemory's notes in Redis, through langchain_classic's own ``RedisEntityStore``.

Each note is one key, ``user:{user_id}:conv:{conversation_id}:entity:{name}``. The class writes it with a
time to live (``ttl``, one day by default) and renews it to ``recall_ttl`` (three days) every time the
memory reads it back, so a note nobody mentions any more is forgotten by the server itself. Listing the
notes for the state view uses plain ``GET``: looking at the memory must not renew it.
"""

from __future__ import annotations

from typing import Any

from memory_demos.storage.redis import redis_client
from memory_demos.storage.servers import StorageConfig
from memory_demos.strategies.shared.classic import import_classic_memory
from memory_demos.strategies.shared.history_store import redis_key_prefix, session_key

# RedisEntityStore's own defaults, the figures the seed book quotes.
DEFAULT_TTL_S = 24 * 60 * 60
DEFAULT_RECALL_TTL_S = 3 * 24 * 60 * 60
NOTES_NAME = "entity"
MESSAGES_NAME = "entity_messages"


def open_redis_entity_store(
    storage: StorageConfig,
    user_id: str,
    conversation_id: str,
    *,
    ttl_seconds: int = DEFAULT_TTL_S,
    recall_ttl_seconds: int = DEFAULT_RECALL_TTL_S,
) -> Any:
    """A ``RedisEntityStore`` for one user's conversation; 0 for a TTL means "never expires".

    Raises ``StorageError`` when ``MEMORY_LAB_REDIS_URL`` is unset or the server does not answer.
    """
    what = "entity.store=redis"
    client = redis_client(storage, what, decode_responses=True)
    classic = import_classic_memory()
    store = classic.RedisEntityStore(
        session_id=NOTES_NAME,
        url=storage.require_redis_url(what),
        key_prefix=redis_key_prefix(session_key(user_id, conversation_id)),
        ttl=ttl_seconds or None,
        recall_ttl=recall_ttl_seconds or None,
        # Under pydantic 2 the class's ``redis_client: Any`` field is required, so without this argument
        # its own constructor fails ("Field required") before it can build a client from ``url``.
        redis_client=client,
    )
    # The constructor then replaced ``client`` with one built from ``url``, without timeouts; ours has
    # them and names the server in its errors.
    store.redis_client.close()
    store.redis_client = client
    return store


def is_redis_entity_store(store: Any) -> bool:
    return isinstance(store, import_classic_memory().RedisEntityStore)


def redis_note_keys(store: Any) -> list[str]:
    """The keys of every note of this conversation, sorted."""
    pattern = f"{store.full_key_prefix}:*"  # the ids are percent-encoded: no glob characters in them
    return sorted(store.redis_client.scan_iter(match=pattern, count=500))


def redis_entity_rows(store: Any) -> dict[str, str]:
    """Every entity and its note, by name, read without renewing any TTL."""
    keys = redis_note_keys(store)
    if not keys:
        return {}
    start = len(store.full_key_prefix) + 1
    values = store.redis_client.mget(keys)
    return {key[start:]: value for key, value in zip(keys, values, strict=True) if value is not None}
