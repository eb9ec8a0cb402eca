"""PostgreSQL: engines and connections on ``MEMORY_LAB_SQL_URL``, and table set-up one process at a time."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from memory_demos.storage.servers import StorageConfig, StorageError
from memory_demos.storage.sqlite import sqlite_engine

CONNECT_TIMEOUT_S = 10
APPLICATION_NAME = "memory_lab"
# The key of the PostgreSQL advisory lock held while tables are created: two processes starting at once
# would otherwise both run LangGraph's migrations and one would fail on a duplicate migration row.
SETUP_LOCK_KEY = 0x4D656D4C6162  # "MemLab"
SETUP_LOCK_TIMEOUT_S = 60.0
SETUP_LOCK_POLL_S = 0.05


def _postgres_url(url: str, scheme: str) -> str:
    """``url`` with its scheme replaced: ``postgresql`` for libpq, ``postgresql+psycopg`` for SQLAlchemy."""
    return f"{scheme}://{url.split('://', 1)[1]}"


def postgres_engine(config: StorageConfig, what: str) -> Any:
    """A SQLAlchemy engine on ``config.sql_url`` through psycopg 3 (StorageError if it is not configured).

    A small pool per engine: connections are checked before use, so a restarted server is survived.
    """
    from sqlalchemy import create_engine

    url = config.require_sql_url(what)
    return create_engine(
        _postgres_url(url, "postgresql+psycopg"),
        pool_size=1,
        max_overflow=4,
        pool_pre_ping=True,
        pool_recycle=1800,
        hide_parameters=True,
        connect_args={"connect_timeout": CONNECT_TIMEOUT_S, "application_name": APPLICATION_NAME},
    )


def sqlalchemy_engine_for_history(config: StorageConfig, sqlite_path: Path | None = None) -> Any:
    """The engine ``SQLChatMessageHistory`` runs on: the SQLite file ``sqlite_path``, else PostgreSQL.

    PostgreSQL needs ``config.sql_url``; without it this raises ``StorageError``.
    """
    if sqlite_path is not None:
        return sqlite_engine(sqlite_path)
    return postgres_engine(config, "history.backend=postgres")


def postgres_connection(config: StorageConfig, what: str) -> Any:
    """A psycopg connection as ``PostgresSaver``/``PostgresStore`` need: autocommit, dict rows, no prepares.

    One connection per strategy: both classes serialise their use of it. Raises ``StorageError`` (password
    scrubbed) when ``sql_url`` is not configured or the server cannot be reached.
    """
    import psycopg
    from psycopg.rows import dict_row

    url = config.require_sql_url(what)
    try:
        return psycopg.Connection.connect(
            _postgres_url(url, "postgresql"),
            autocommit=True,
            prepare_threshold=0,
            row_factory=dict_row,
            connect_timeout=CONNECT_TIMEOUT_S,
            application_name=APPLICATION_NAME,
        )
    except psycopg.Error as exc:
        raise config.error(f"{what}: the PostgreSQL server", exc) from None


@contextmanager
def postgres_setup_lock(connection: Any) -> Iterator[None]:
    """Hold the advisory lock ``SETUP_LOCK_KEY`` on an autocommit psycopg connection.

    Wrap ``PostgresSaver.setup()``/``PostgresStore.setup()`` in it: migrations then run one process at a
    time. The lock is polled, never waited for inside a statement: LangGraph's migrations run
    ``CREATE INDEX CONCURRENTLY``, which waits for every open snapshot, so a session blocked in
    ``pg_advisory_lock`` would deadlock with the lock's holder.
    """

    def try_lock() -> bool:
        row = connection.execute("SELECT pg_try_advisory_lock(%s) AS locked", (SETUP_LOCK_KEY,)).fetchone()
        return bool(row["locked"] if isinstance(row, Mapping) else row[0])

    _poll_lock(try_lock)
    try:
        yield
    finally:
        connection.execute("SELECT pg_advisory_unlock(%s)", (SETUP_LOCK_KEY,))


@contextmanager
def sqlalchemy_setup_lock(engine: Any) -> Iterator[Any]:
    """An autocommit connection of a PostgreSQL ``engine`` holding the lock ``SETUP_LOCK_KEY``.

    For creating tables with SQLAlchemy, one process at a time and without deadlocking LangGraph's
    migrations (see ``postgres_setup_lock``).
    """
    from sqlalchemy import text

    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        lock = text("SELECT pg_try_advisory_lock(:key)")
        _poll_lock(lambda: bool(connection.execute(lock, {"key": SETUP_LOCK_KEY}).scalar()))
        try:
            yield connection
        finally:
            connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": SETUP_LOCK_KEY})


def run_postgres_setup(config: StorageConfig, connection: Any, setup: Callable[[], None], what: str) -> None:
    """Run a LangGraph saver's or store's ``setup()`` under ``postgres_setup_lock``.

    A server error closes the connection and raises ``StorageError`` naming ``what``, password scrubbed.
    """
    import psycopg

    try:
        with postgres_setup_lock(connection):
            setup()
    except psycopg.Error as exc:
        connection.close()
        raise config.error(what, exc) from None


def _poll_lock(try_lock: Callable[[], bool]) -> None:
    deadline = time.monotonic() + SETUP_LOCK_TIMEOUT_S
    while not try_lock():
        if time.monotonic() > deadline:
            raise StorageError(
                f"Waited {SETUP_LOCK_TIMEOUT_S:.0f} s for another process to finish creating Memory Lab's "
                "tables in PostgreSQL; is one stuck?"
            )
        time.sleep(SETUP_LOCK_POLL_S)
