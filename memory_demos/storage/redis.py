"""The Redis server of ``MEMORY_LAB_REDIS_URL``: chat histories and entity notes that expire."""

from __future__ import annotations

from typing import Any

from memory_demos.storage.servers import StorageConfig

REDIS_TIMEOUT_S = 5


def redis_client(config: StorageConfig, what: str, *, decode_responses: bool = False) -> Any:
    """A redis-py client on ``config.redis_url``, checked with PING; ``StorageError`` if unusable.

    Every command has a timeout, and any Redis fault (server down, timeout, wrong password) is raised
    as a ``StorageError`` naming ``what`` and the server, password scrubbed: a bare redis-py
    ``TimeoutError`` would otherwise read as a slow model.
    """
    import redis

    url = config.require_redis_url(what)

    class NamedRedis(redis.Redis):
        def execute_command(self, *args: Any, **options: Any) -> Any:
            try:
                return super().execute_command(*args, **options)
            except redis.RedisError as exc:
                raise config.redis_error(what, exc) from None

    try:
        client = NamedRedis.from_url(
            url,
            decode_responses=decode_responses,
            socket_timeout=REDIS_TIMEOUT_S,
            socket_connect_timeout=REDIS_TIMEOUT_S,
            health_check_interval=30,
        )
    except ValueError as exc:  # a URL redis-py cannot parse
        raise config.redis_error(what, exc) from None
    client.ping()
    return client
