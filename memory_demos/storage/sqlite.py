"""SQLite files in the data folder: owner-only, opened safely for Streamlit's threads, in WAL mode.

A damaged file raises ``StorageError`` with a message that names the file and how to reset it.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memory_demos.defaults import DATA_DIR_ENV, private_folder
from memory_demos.storage.servers import StorageError

BUSY_TIMEOUT_MS = 10_000


def sqlite_file(name: str, folder: Path) -> Path:
    """Path of the SQLite file ``name`` in ``folder`` (the data folder), owner-only (0600): it holds messages.

    SQLite gives its -wal and -shm files the database file's mode.
    """
    path = private_folder(folder) / name
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        for existing in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            if existing.exists() and existing.stat().st_mode & 0o077:
                existing.chmod(0o600)  # made readable by others earlier: tighten it
    except OSError as exc:
        raise StorageError(f"The data folder cannot hold {name} ({type(exc).__name__}).") from None
    return path


def _reset_hint(path: Path) -> str:
    return (
        f"Delete {path} (and its -wal/-shm files) to start fresh, or point {DATA_DIR_ENV} at another folder."
    )


def check_sqlite_file(path: Path) -> None:
    """Raise ``StorageError`` if ``path`` exists but is not a healthy SQLite database."""
    if not path.exists() or path.stat().st_size == 0:
        return
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_MS / 1000)
        try:
            result = connection.execute("PRAGMA quick_check").fetchone()
        finally:
            connection.close()
    except sqlite3.DatabaseError as exc:
        raise StorageError(f"{path} is not a readable SQLite database ({exc}). {_reset_hint(path)}") from None
    if not result or result[0] != "ok":
        raise StorageError(f"{path} failed its integrity check ({result}). {_reset_hint(path)}")


def connect(path: Path) -> sqlite3.Connection:
    """A connection usable from any thread, in WAL mode so concurrent writers do not lose rows."""
    check_sqlite_file(path)
    try:
        connection = sqlite3.connect(str(path), check_same_thread=False, timeout=BUSY_TIMEOUT_MS / 1000)
        connection.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=NORMAL")
    except sqlite3.DatabaseError as exc:
        raise StorageError(f"Cannot open {path} ({exc}). {_reset_hint(path)}") from None
    return connection


def sqlalchemy_url(path: Path) -> str:
    """The SQLAlchemy URL of a SQLite file (for ``SQLChatMessageHistory``)."""
    return f"sqlite:///{path}"


def sqlite_engine(path: Path) -> Any:
    """A SQLAlchemy engine on a SQLite file, usable from any thread, in WAL mode, after a health check."""
    from sqlalchemy import create_engine, event

    check_sqlite_file(path)
    engine = create_engine(
        sqlalchemy_url(path),
        connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000},
    )

    @event.listens_for(engine, "connect")
    def _configure(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
        finally:
            cursor.close()

    return engine


def run_sqlite_setup(
    connection: sqlite3.Connection, path: Path, setup: Callable[[], None], holds: str
) -> None:
    """Run a LangGraph saver's or store's ``setup()`` on a SQLite file's ``connection``.

    A damaged file closes the connection and raises ``StorageError`` saying it cannot hold ``holds``.
    """
    try:
        setup()
    except sqlite3.DatabaseError as exc:
        connection.close()
        raise StorageError(f"{path} cannot hold {holds} ({exc}). Delete it to start fresh.") from None
