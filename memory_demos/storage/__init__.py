"""Where persisted memories live: SQLite files in the data folder, or shared servers.

Every persisted strategy opens its storage through here. Embedded (the default): SQLite files opened
safely for Streamlit's threads, in WAL mode, with a readable error for a damaged file (``sqlite``), and
an in-process chromadb (``chroma``). Scaled out (several app processes behind a load balancer):
``StorageConfig`` (``config``) names a PostgreSQL server (``postgres``: chat histories, LangGraph
checkpoints and stores, entity notes), a Chroma server (vector memories) and a Redis server (``redis``:
chat histories and entity notes that expire), and passwords are kept out of every message it produces.

The names below are re-exported so ``from memory_demos.storage import X`` keeps working.
"""

from memory_demos.storage.chroma import chroma_client, chroma_collection_name
from memory_demos.storage.postgres import (
    APPLICATION_NAME,
    CONNECT_TIMEOUT_S,
    SETUP_LOCK_KEY,
    SETUP_LOCK_POLL_S,
    SETUP_LOCK_TIMEOUT_S,
    postgres_connection,
    postgres_engine,
    postgres_setup_lock,
    run_postgres_setup,
    sqlalchemy_engine_for_history,
    sqlalchemy_setup_lock,
)
from memory_demos.storage.redis import REDIS_TIMEOUT_S, redis_client
from memory_demos.storage.servers import (
    CHROMA_SCHEMES,
    CHROMA_URL_ENV,
    POSTGRES_SCHEMES,
    REDACTED,
    REDIS_SCHEMES,
    REDIS_URL_ENV,
    SQL_URL_ENV,
    StorageConfig,
    StorageError,
    redact_url,
)
from memory_demos.storage.sqlite import (
    BUSY_TIMEOUT_MS,
    check_sqlite_file,
    connect,
    run_sqlite_setup,
    sqlalchemy_url,
    sqlite_engine,
    sqlite_file,
)

__all__ = [
    "APPLICATION_NAME",
    "BUSY_TIMEOUT_MS",
    "CHROMA_SCHEMES",
    "CHROMA_URL_ENV",
    "CONNECT_TIMEOUT_S",
    "POSTGRES_SCHEMES",
    "REDACTED",
    "REDIS_SCHEMES",
    "REDIS_TIMEOUT_S",
    "REDIS_URL_ENV",
    "SETUP_LOCK_KEY",
    "SETUP_LOCK_POLL_S",
    "SETUP_LOCK_TIMEOUT_S",
    "SQL_URL_ENV",
    "StorageConfig",
    "StorageError",
    "check_sqlite_file",
    "chroma_client",
    "chroma_collection_name",
    "connect",
    "postgres_connection",
    "postgres_engine",
    "postgres_setup_lock",
    "redact_url",
    "redis_client",
    "run_postgres_setup",
    "run_sqlite_setup",
    "sqlalchemy_engine_for_history",
    "sqlalchemy_setup_lock",
    "sqlalchemy_url",
    "sqlite_engine",
    "sqlite_file",
]
