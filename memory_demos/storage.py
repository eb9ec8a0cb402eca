"""SQLite files in the data folder: opened safely for Streamlit's threads, checked for corruption.

Every persisted strategy opens its file through here, so WAL mode, busy timeouts and a readable
error for a damaged file are handled once.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from memory_demos.config import DATA_DIR_ENV, data_dir

BUSY_TIMEOUT_MS = 10_000


class StorageError(RuntimeError):
    """A database that cannot be used; the message names the file and how to reset it."""


def sqlite_file(name: str, folder: Path | None = None) -> Path:
    """Path of a named SQLite file inside the data folder."""
    base = folder if folder is not None else data_dir()
    base.mkdir(parents=True, exist_ok=True)
    return base / name


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
