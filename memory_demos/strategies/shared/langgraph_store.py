"""The LangGraph stores ``long_term`` and ``semantic_store`` keep: where they live and how they are opened.

``SqliteStore`` sits on one file of the data folder; ``PostgresStore`` on the server of
``MEMORY_LAB_SQL_URL``. Both are migrated when opened, and a failure is a ``StorageError`` naming it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memory_demos import storage
from memory_demos.strategies.base import StrategyContext

if TYPE_CHECKING:
    from langgraph.store.base import BaseStore

STORE_FILE = "long_term_store.sqlite"


def namespace_label(value: str) -> str:
    """A store namespace label: LangGraph forbids periods and empty labels."""
    cleaned = value.replace(".", "_").replace("\x00", "")
    return cleaned or "anonymous"


def open_sqlite_store(context: StrategyContext) -> Any:
    """A ``SqliteStore`` on the data folder's store file, migrated; ``StorageError`` names a damaged file."""
    from langgraph.store.sqlite import SqliteStore

    path = storage.sqlite_file(STORE_FILE, context.folder())
    connection = storage.connect(path)
    # SqliteStore issues its own BEGIN/COMMIT, so the connection must be in autocommit mode.
    connection.isolation_level = None
    store = SqliteStore(connection)
    storage.run_sqlite_setup(connection, path, store.setup, "the long-term store")
    return store


def open_postgres_store(config: storage.StorageConfig, connection: Any) -> BaseStore:
    """A ``PostgresStore`` on an autocommit, dict-row psycopg ``connection``, migrated.

    Raises ``StorageError`` (password scrubbed) if the tables cannot be created.
    """
    from langgraph.store.postgres import PostgresStore

    store = PostgresStore(connection)
    storage.run_postgres_setup(config, connection, store.setup, "The long-term store")
    return store
