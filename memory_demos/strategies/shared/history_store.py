"""The ``get_session_history`` factory of ``RunnableWithMessageHistory``, done safely.

LangChain's examples keep sessions in a module-level dict and create a missing one with
"if key not in store: store[key] = ...". Two threads asking for the same new session at once
both see it missing, each creates a history, and the loser's messages vanish with the history
that was overwritten. ``SessionHistoryStore`` creates under a lock and bounds how many sessions
it holds; each strategy owns one, so nothing is shared between users through module state.

The SQL and Redis histories it hands out are LangChain's own classes (``SQLChatMessageHistory``,
``RedisChatMessageHistory``); Redis keys follow ``user:{user_id}:conv:{conversation_id}``.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from langchain_core.chat_history import BaseChatMessageHistory

from memory_demos.storage.postgres import sqlalchemy_engine_for_history, sqlalchemy_setup_lock
from memory_demos.storage.servers import StorageConfig, StorageError

DEFAULT_MAX_SESSIONS = 1000
HISTORY_TABLE = "message_store"
REDIS_MESSAGES = "messages"

HistoryFactory = Callable[[str], BaseChatMessageHistory]
ErrorFactory = Callable[[BaseException], StorageError]


class SessionHistoryStore:
    """Chat histories by session key: created once per key, least recently used evicted past a bound.

    Eviction forgets an in-memory history for good; a SQL-backed history only loses its cached
    object, its rows stay in the database.
    """

    def __init__(self, factory: HistoryFactory, max_sessions: int = DEFAULT_MAX_SESSIONS) -> None:
        if max_sessions < 1:
            raise ValueError(f"max_sessions must be at least 1; got {max_sessions}")
        self._factory = factory
        self.max_sessions = max_sessions
        self._lock = threading.Lock()
        self._sessions: OrderedDict[str, BaseChatMessageHistory] = OrderedDict()
        self.evicted = 0

    def get(self, key: str) -> BaseChatMessageHistory:
        """The history of ``key``, created on first use; marks it most recently used."""
        with self._lock:
            history = self._sessions.get(key)
            if history is None:
                history = self._factory(key)
                self._sessions[key] = history
                while len(self._sessions) > self.max_sessions:
                    self._sessions.popitem(last=False)
                    self.evicted += 1
            else:
                self._sessions.move_to_end(key)
            return history

    def keys(self) -> list[str]:
        """Session keys, least recently used first."""
        with self._lock:
            return list(self._sessions)

    def __len__(self) -> int:
        with self._lock:
            return len(self._sessions)

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._sessions

    def clear(self) -> None:
        """Drop every cached session object (stored rows are untouched)."""
        with self._lock:
            self._sessions.clear()


def session_key(user_id: str, conversation_id: str) -> str:
    """One string naming a user's conversation; percent-encoding keeps distinct pairs distinct."""
    return f"{quote(user_id, safe='')}/{quote(conversation_id, safe='')}"


def open_history_engine(path: Path) -> Any:
    """A SQLAlchemy engine on ``path`` usable from any thread, in WAL mode, after a health check.

    Raises ``StorageError`` naming the file if it exists but is not a healthy SQLite database.
    """
    engine = sqlalchemy_engine_for_history(StorageConfig(), sqlite_path=path)
    _create_history_table(engine, file_errors(path))
    return engine


def open_postgres_history_engine(config: StorageConfig) -> Any:
    """A SQLAlchemy engine on ``config.sql_url`` with the history table made (``StorageError`` if unusable).

    Every app process shares this database, so a history written by one is read by the next.
    """
    engine = sqlalchemy_engine_for_history(config)
    _create_history_table(engine, database_errors(config))
    return engine


def _create_history_table(engine: Any, errors: ErrorFactory) -> None:
    """Create SQLChatMessageHistory's table once, before any history object does.

    Each ``SQLChatMessageHistory`` runs ``create_all`` (check, then CREATE): two strategies opening a
    new database at once race, and the loser fails with "table message_store already exists". On
    PostgreSQL an advisory lock makes processes take turns; on SQLite the error is ignored.
    """
    from langchain_community.chat_message_histories.sql import create_message_model
    from sqlalchemy import text
    from sqlalchemy.exc import OperationalError, SQLAlchemyError
    from sqlalchemy.orm import declarative_base

    model = create_message_model(HISTORY_TABLE, declarative_base())
    create_index = text(
        f"CREATE INDEX IF NOT EXISTS ix_{HISTORY_TABLE}_session_id ON {HISTORY_TABLE} (session_id)"
    )
    try:
        if engine.dialect.name == "postgresql":
            with sqlalchemy_setup_lock(engine) as connection:
                model.metadata.create_all(connection)
                connection.execute(create_index)
            return
        try:
            model.metadata.create_all(engine)
        except OperationalError as exc:
            if "already exists" not in str(exc):
                raise
        with engine.begin() as connection:
            connection.execute(create_index)
    except SQLAlchemyError as exc:
        engine.dispose()
        raise errors(exc) from None


def sql_history_factory(engine: Any, where: Path | ErrorFactory) -> HistoryFactory:
    """``SQLChatMessageHistory`` objects sharing ``engine``; SQL faults become ``StorageError``.

    ``where`` is the SQLite file, or a function turning a fault into a password-free ``StorageError``.
    """
    from langchain_community.chat_message_histories import SQLChatMessageHistory
    from sqlalchemy.exc import SQLAlchemyError

    errors = file_errors(where) if isinstance(where, Path) else where

    def factory(key: str) -> BaseChatMessageHistory:
        try:
            return SQLChatMessageHistory(session_id=key, connection=engine, table_name=HISTORY_TABLE)
        except SQLAlchemyError as exc:
            raise errors(exc) from None

    return factory


def file_errors(path: Path) -> ErrorFactory:
    """Turns a SQL fault into a ``StorageError`` naming the history file."""
    return lambda exc: storage_error(path, exc)


def database_errors(config: StorageConfig) -> ErrorFactory:
    """Turns a SQL fault into a ``StorageError`` naming the PostgreSQL database, password scrubbed."""
    return lambda exc: config.error("The chat history database", exc)


def storage_error(path: Path, exc: BaseException) -> StorageError:
    """A ``StorageError`` naming the history file and how to reset it."""
    detail = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return StorageError(
        f"The chat history file {path} cannot be used ({detail}). "
        f"Delete {path} (and its -wal/-shm files) to start fresh."
    )


# -- Redis ------------------------------------------------------------------------------------------
def redis_key_prefix(key: str) -> str:
    """``user:{user_id}:conv:{conversation_id}`` for a ``session_key``, the layout the seed book uses.

    Both ids stay percent-encoded (``:`` becomes ``%3A``), so no id can reach into another user's keys.
    """
    user, _, conversation = key.partition("/")
    return f"user:{user}:conv:{conversation}"


def redis_history_factory(
    client: Any, url: str, ttl_seconds: int | None, name: str = REDIS_MESSAGES
) -> HistoryFactory:
    """``RedisChatMessageHistory`` objects on the key ``user:…:conv:…:{name}``, expiring after a TTL.

    The class refreshes the TTL on every message it adds (never on a read); None or 0 means the key
    never expires, the class's default. ``client`` replaces the one the class builds from ``url``: it
    has timeouts and turns Redis faults into ``StorageError`` (see ``storage.redis_client``).
    """
    from langchain_community.chat_message_histories import RedisChatMessageHistory

    def factory(key: str) -> BaseChatMessageHistory:
        history = RedisChatMessageHistory(
            session_id=name, url=url, key_prefix=redis_key_prefix(key) + ":", ttl=ttl_seconds or None
        )
        history.redis_client.close()
        history.redis_client = client
        return history

    return factory


def key_ttls(client: Any, keys: Sequence[str]) -> list[dict[str, Any]]:
    """Each key's remaining time to live as Redis reports it (``TTL``: -1 never expires, -2 no such key),
    with the time it was read, so a view can count down from it without asking Redis again."""
    read_at = round(time.time(), 3)
    return [{"key": key, "ttl_seconds": int(client.ttl(key)), "read_at": read_at} for key in keys]
