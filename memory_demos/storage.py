"""Where persisted memories live: SQLite files in the data folder, or shared servers.

Every persisted strategy opens its storage through here. Embedded (the default): SQLite files opened
safely for Streamlit's threads, in WAL mode, with a readable error for a damaged file, and an in-process
chromadb. Scaled out (several app processes behind a load balancer): ``StorageConfig`` names a
PostgreSQL server (chat histories, LangGraph checkpoints and stores, entity notes), a Chroma server
(vector memories) and a Redis server (chat histories and entity notes that expire), and passwords are
kept out of every message it produces.
"""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit, urlunsplit

from memory_demos.config import DATA_DIR_ENV, data_dir, private_folder

BUSY_TIMEOUT_MS = 10_000


class StorageError(RuntimeError):
    """A database that cannot be used; the message names the file and how to reset it."""


def sqlite_file(name: str, folder: Path | None = None) -> Path:
    """Path of a named SQLite file inside the data folder, created owner-only (0600): it holds messages.

    SQLite gives its -wal and -shm files the database file's mode.
    """
    base = private_folder(folder) if folder is not None else data_dir()
    path = base / name
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


# -- shared servers: PostgreSQL and a Chroma server ------------------------------------------------
SQL_URL_ENV = "MEMORY_LAB_SQL_URL"
CHROMA_URL_ENV = "MEMORY_LAB_CHROMA_URL"
REDIS_URL_ENV = "MEMORY_LAB_REDIS_URL"
REDIS_SCHEMES = ("redis", "rediss", "unix")
REDIS_TIMEOUT_S = 5
REDACTED = "***"
POSTGRES_SCHEMES = ("postgresql", "postgres", "postgresql+psycopg")
CHROMA_SCHEMES = ("http", "https")
CONNECT_TIMEOUT_S = 10
APPLICATION_NAME = "memory_lab"
# The key of the PostgreSQL advisory lock held while tables are created: two processes starting at once
# would otherwise both run LangGraph's migrations and one would fail on a duplicate migration row.
SETUP_LOCK_KEY = 0x4D656D4C6162  # "MemLab"
SETUP_LOCK_TIMEOUT_S = 60.0
SETUP_LOCK_POLL_S = 0.05
_SAFE_NAME_PART = re.compile(r"^[A-Za-z0-9_]{0,127}[A-Za-z0-9]$")
_COLLECTION_SAFE = re.compile(r"^[A-Za-z0-9._-]{1,400}$")


def redact_url(url: str) -> str:
    """``url`` with its password (in the user part or a ``password=`` query parameter) replaced by ***."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, _, hostport = netloc.rpartition("@")
        user, colon, _password = userinfo.partition(":")
        netloc = f"{user}:{REDACTED}@{hostport}" if colon else netloc
    query = "&".join(
        f"{key}={REDACTED}" if key.lower() == "password" else f"{key}={value}" if sep else key
        for key, sep, value in (item.partition("=") for item in parts.query.split("&") if item)
    )
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def _url_secrets(url: str | None) -> tuple[str, ...]:
    """The password of ``url`` as written and decoded, so it can be scrubbed from any text."""
    if not url:
        return ()
    parts = urlsplit(url)
    found: list[str] = []
    if parts.password:
        found += [parts.password, unquote(parts.password)]
    found += [value for key, value in parse_qsl(parts.query) if key.lower() == "password"]
    return tuple(sorted({secret for secret in found if secret}, key=len, reverse=True))


@dataclass(frozen=True, repr=False)
class StorageConfig:
    """Where shared state lives; each field falls back to an env var.

    ``sql_url`` (``MEMORY_LAB_SQL_URL``, ``postgresql://user:password@host:5432/db``) serves chat histories,
    LangGraph checkpoints and stores, and entity notes to every app process; None keeps the SQLite files in
    the data folder. ``chroma_url`` (``MEMORY_LAB_CHROMA_URL``, ``http://127.0.0.1:8000``) is a server
    started with ``chroma run``; None keeps vectors in an in-process chromadb. ``redis_url``
    (``MEMORY_LAB_REDIS_URL``, ``redis://:password@host:6379/0``) is the server of ``history.backend=redis``
    and ``entity.store=redis``; None leaves those choices unusable. The password is never shown.
    """

    sql_url: str | None = None
    chroma_url: str | None = None
    redis_url: str | None = None

    def __post_init__(self) -> None:
        sql_url = (self.sql_url or "").strip() or None
        chroma_url = (self.chroma_url or "").strip().rstrip("/") or None
        object.__setattr__(self, "sql_url", sql_url)
        object.__setattr__(self, "chroma_url", chroma_url)
        if sql_url is not None:
            scheme = urlsplit(sql_url).scheme.lower()
            if scheme not in POSTGRES_SCHEMES:
                raise StorageError(
                    f"{SQL_URL_ENV} must be a postgresql:// URL; got {redact_url(sql_url)!r}. "
                    "Leave it unset to keep the SQLite files in the data folder."
                )
        if chroma_url is not None:
            parts = urlsplit(chroma_url)
            usable = parts.scheme.lower() in CHROMA_SCHEMES and parts.hostname and parts.path in ("", "/")
            try:
                parts.port  # noqa: B018 - raises ValueError for a port that is not a number
            except ValueError:
                usable = False
            if not usable:
                raise StorageError(
                    f"{CHROMA_URL_ENV} must look like http://127.0.0.1:8000; got {redact_url(chroma_url)!r}."
                )
        redis_url = (self.redis_url or "").strip() or None
        object.__setattr__(self, "redis_url", redis_url)
        if redis_url is not None and urlsplit(redis_url).scheme.lower() not in REDIS_SCHEMES:
            raise StorageError(
                f"{REDIS_URL_ENV} must look like redis://:password@127.0.0.1:6379/0; "
                f"got {redact_url(redis_url)!r}."
            )

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> StorageConfig:
        """The configuration in the ``MEMORY_LAB_SQL/CHROMA/REDIS_URL`` variables (unset: embedded)."""
        env = os.environ if environ is None else environ
        return cls(
            sql_url=env.get(SQL_URL_ENV) or None,
            chroma_url=env.get(CHROMA_URL_ENV) or None,
            redis_url=env.get(REDIS_URL_ENV) or None,
        )

    @property
    def uses_postgres(self) -> bool:
        return self.sql_url is not None

    @property
    def uses_chroma_server(self) -> bool:
        return self.chroma_url is not None

    @property
    def redacted_sql_url(self) -> str | None:
        """``sql_url`` with its password replaced by ***."""
        return redact_url(self.sql_url) if self.sql_url else None

    def describe(self) -> str:
        """One line for the UI and logs: where state lives, without any password."""
        sql = f"PostgreSQL at {self.redacted_sql_url}" if self.sql_url else "SQLite files in the data folder"
        vectors = (
            f"Chroma server at {redact_url(self.chroma_url)}" if self.chroma_url else "in-process chromadb"
        )
        redis = f" · Redis at {self.redacted_redis_url}" if self.redis_url else ""
        return f"SQL: {sql} · vectors: {vectors}{redis}"

    def __repr__(self) -> str:
        chroma = redact_url(self.chroma_url) if self.chroma_url else None
        return (
            f"StorageConfig(sql_url={self.redacted_sql_url!r}, chroma_url={chroma!r}, "
            f"redis_url={self.redacted_redis_url!r})"
        )

    @property
    def redacted_redis_url(self) -> str | None:
        """``redis_url`` with its password replaced by ***."""
        return redact_url(self.redis_url) if self.redis_url else None

    def require_redis_url(self, what: str) -> str:
        """The Redis URL, or ``StorageError`` saying that ``what`` (a parameter choice) needs one."""
        if self.redis_url is None:
            raise StorageError(
                f"{what} needs a Redis server: set {REDIS_URL_ENV}=redis://127.0.0.1:6379/0 "
                "(or choose another backend)."
            )
        return self.redis_url

    def redis_error(self, what: str, exc: BaseException) -> StorageError:
        """A ``StorageError`` naming the (redacted) Redis server and the first line of ``exc``."""
        detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return StorageError(
            self.redact(f"{what}: the Redis server at {self.redacted_redis_url} cannot be used ({detail}).")
        )

    def redact(self, text: str) -> str:
        """``text`` with every password of the configured URLs replaced by ***."""
        for secret in (
            *_url_secrets(self.sql_url),
            *_url_secrets(self.chroma_url),
            *_url_secrets(self.redis_url),
        ):
            text = text.replace(secret, REDACTED)
        return text

    def require_sql_url(self, what: str) -> str:
        """The PostgreSQL URL, or ``StorageError`` saying that ``what`` (a parameter choice) needs one."""
        if self.sql_url is None:
            raise StorageError(
                f"{what} needs a PostgreSQL server: set {SQL_URL_ENV}="
                "postgresql://user:password@host:5432/db (or choose sqlite)."
            )
        return self.sql_url

    def error(self, what: str, exc: BaseException) -> StorageError:
        """A ``StorageError`` naming the (redacted) database and the first line of ``exc``, password-free."""
        detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        where = self.redacted_sql_url or "the SQLite files"
        return StorageError(self.redact(f"{what} at {where} cannot be used ({detail})."))


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
