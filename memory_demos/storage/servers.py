"""Where shared state lives: the ``MEMORY_LAB_SQL/CHROMA/REDIS_URL`` settings, checked and password-free.

``StorageConfig`` names a PostgreSQL server, a Chroma server and a Redis server (each optional); every
message it produces has the passwords of those URLs replaced by ``***``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import parse_qsl, unquote, urlsplit, urlunsplit

SQL_URL_ENV = "MEMORY_LAB_SQL_URL"
CHROMA_URL_ENV = "MEMORY_LAB_CHROMA_URL"
REDIS_URL_ENV = "MEMORY_LAB_REDIS_URL"
REDIS_SCHEMES = ("redis", "rediss", "unix")
REDACTED = "***"
POSTGRES_SCHEMES = ("postgresql", "postgres", "postgresql+psycopg")
CHROMA_SCHEMES = ("http", "https")


class StorageError(RuntimeError):
    """A database that cannot be used; the message names the file and how to reset it."""


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
    """Where shared state lives; each field is read from its env var (``from_env``).

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
    def from_env(cls, environ: Mapping[str, str]) -> StorageConfig:
        """The configuration in ``environ``'s ``MEMORY_LAB_SQL/CHROMA/REDIS_URL`` (unset: embedded).

        The app passes the mapping ``lab_config.load_lab_config`` read; nothing here reads ``os.environ``.
        """
        return cls(
            sql_url=environ.get(SQL_URL_ENV) or None,
            chroma_url=environ.get(CHROMA_URL_ENV) or None,
            redis_url=environ.get(REDIS_URL_ENV) or None,
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
