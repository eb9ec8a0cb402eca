"""The LangGraph stores ``long_term`` and ``semantic_store`` keep: where they live, how they are opened, and
their time to live.

``SqliteStore`` sits on one file of the data folder; ``PostgresStore`` on the server of
``MEMORY_LAB_SQL_URL``. Both are migrated when opened, and a failure is a ``StorageError`` naming it.

A TTL is LangGraph's own ``TTLConfig`` (``default_ttl`` in minutes, ``refresh_on_read``). Both stores take
the time from the wall clock, with no way to hand them another one: ``SqliteStore`` computes ``expires_at``
with ``datetime.now()`` when it writes and compares it with SQLite's ``CURRENT_TIMESTAMP`` when it refreshes
or sweeps; ``PostgresStore`` uses the server's ``NOW()`` for all three. So a scenario clock cannot age a
store item: expiry is real time only. ``SqliteStore`` still returns expired items until ``sweep_ttl()``
deletes them (its sweeper thread runs every ``sweep_interval_minutes``, whole minutes), so the strategies
sweep before each turn reads the store; ``PostgresStore`` is opened with ``omit_expired`` and hides them at
once.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from memory_demos import storage
from memory_demos.clock import Clock, ScenarioClock
from memory_demos.i18n import Message
from memory_demos.strategies.base import InputError, ParamSpec, StrategyContext

if TYPE_CHECKING:
    from langgraph.store.base import BaseStore, TTLConfig

STORE_FILE = "long_term_store.sqlite"
NO_TTL = -1  # a row's seconds left when it has no TTL, as Redis's TTL command says it
GONE = -2  # ... and when it is not there any more
STORE_TTLS = "store_ttls"  # the state key of each item's seconds left, shown like the Redis keys' TTLs

TTL_PARAMS = (
    ParamSpec(
        "ttl_seconds",
        0,
        "store=sqlite or postgres: seconds each stored item lives (LangGraph's TTLConfig default_ttl, which "
        "is in minutes: ttl_seconds / 60). 0: no TTL, items never expire (the default). Real time: "
        "neither store can be given another clock. InMemoryStore does not support TTL.",
        minimum=0,
        applies_when=("ttl_seconds", "!0"),  # a pane header shows it only when a TTL is set
        help_zh="仅 store=sqlite 或 postgres：每个存储项的存活秒数（LangGraph 的 TTLConfig default_ttl，"
        "单位是分钟：ttl_seconds / 60）。0：没有 TTL，永不过期（默认）。按真实时间计：两种存储都不能换用"
        "别的时钟。InMemoryStore 不支持 TTL。",
    ),
    ParamSpec(
        "refresh_on_read",
        True,
        "With a TTL: each read of an item renews its TTL (TTLConfig refresh_on_read, LangGraph's default), "
        "so a fact used every turn never expires; off: it expires ttl_seconds after it was written.",
        applies_when=("ttl_seconds", "!0"),
        help_zh="有 TTL 时：每次读取一项都会续期（TTLConfig refresh_on_read，LangGraph 的默认值），所以每轮都"
        "用到的事实永不过期；关闭：写入 ttl_seconds 秒后过期。",
    ),
)


def namespace_label(value: str) -> str:
    """A store namespace label: LangGraph forbids periods and empty labels."""
    cleaned = value.replace(".", "_").replace("\x00", "")
    return cleaned or "anonymous"


def ttl_config(ttl_seconds: int, refresh_on_read: bool) -> TTLConfig | None:
    """LangGraph's ``TTLConfig`` for items that live ``ttl_seconds`` (0: no TTL, so None)."""
    if ttl_seconds <= 0:
        return None
    from langgraph.store.base import TTLConfig

    # omit_expired: PostgresStore hides an expired item before the sweep deletes it (SqliteStore ignores it).
    return TTLConfig(default_ttl=ttl_seconds / 60, refresh_on_read=refresh_on_read, omit_expired=True)


def check_ttl_params(strategy_id: str, params: Mapping[str, Any]) -> None:
    """Refuse a TTL PostgresStore would renew wrongly: its ``ttl_minutes`` column is an INT, so a TTL that is
    not whole minutes is stored rounded (5 s as 0 min), and ``refresh_on_read`` then renews it to that (an
    item read once expires at once; measured on PostgreSQL 15 with langgraph-checkpoint-postgres 3.2.0)."""
    ttl_seconds = params.get("ttl_seconds", 0)
    if params.get("store") != "postgres" or ttl_seconds <= 0 or ttl_seconds % 60 == 0:
        return
    if params.get("refresh_on_read", True):
        raise InputError(
            Message(
                "strategy.error.postgres_ttl_minutes",
                param=f"{strategy_id}.ttl_seconds",
                value=ttl_seconds,
                minutes=round(ttl_seconds / 60),
            )
        )


def open_sqlite_store(context: StrategyContext, ttl: TTLConfig | None = None) -> Any:
    """A ``SqliteStore`` on the data folder's store file, migrated; ``StorageError`` names a damaged file."""
    from langgraph.store.sqlite import SqliteStore

    path = storage.sqlite_file(STORE_FILE, context.folder())
    connection = storage.connect(path)
    # SqliteStore issues its own BEGIN/COMMIT, so the connection must be in autocommit mode.
    connection.isolation_level = None
    store = SqliteStore(connection, ttl=ttl)
    storage.run_sqlite_setup(connection, path, store.setup, "the long-term store")
    return store


def open_postgres_store(
    config: storage.StorageConfig, connection: Any, ttl: TTLConfig | None = None
) -> BaseStore:
    """A ``PostgresStore`` on an autocommit, dict-row psycopg ``connection``, migrated.

    Raises ``StorageError`` (password scrubbed) if the tables cannot be created.
    """
    from langgraph.store.postgres import PostgresStore

    store = PostgresStore(connection, ttl=ttl)
    storage.run_postgres_setup(config, connection, store.setup, "The long-term store")
    return store


def sweep_expired(store: BaseStore, namespace: tuple[str, ...]) -> list[str]:
    """Delete the store's expired items now (LangGraph's ``sweep_ttl``, every namespace's, as its sweeper
    thread does); returns the keys of ``namespace`` it deleted. Nothing for a store without a TTL."""
    if not getattr(store, "ttl_config", None) or not hasattr(store, "sweep_ttl"):
        return []
    expired = sorted(
        key for key, left in seconds_left(store, namespace).items() if left != NO_TTL and left <= 0
    )
    store.sweep_ttl()
    return expired


def ttl_unsupported(store: BaseStore, ttl_seconds: int) -> Message | None:
    """What to say when a TTL was asked of a store that has none (``InMemoryStore.supports_ttl`` is False)."""
    if ttl_seconds <= 0 or store.supports_ttl:
        return None
    return Message("strategy.note.ttl_unsupported", store=type(store).__name__)


def expiry_state(
    store: BaseStore, namespace: tuple[str, ...], ttl_seconds: int, expired: list[str], clock: Clock
) -> dict[str, Any]:
    """The state view's lines about time to live: the TTL and its clock, what the last sweep deleted, and
    each item's seconds left (``store_ttls``, rows like the Redis keys' ones). Nothing without a TTL.

    On a scenario's simulated ``clock`` it says that the store does not follow it."""
    if ttl_seconds <= 0:
        return {}
    unsupported = ttl_unsupported(store, ttl_seconds)
    if unsupported is not None:
        return {"ttl": unsupported}
    config = store.ttl_config or {}  # type: ignore[attr-defined]
    renewal = "state.ttl.renewed_on_read" if config.get("refresh_on_read") else "state.ttl.not_renewed"
    read_at = time.time()
    rows = [
        {"key": key, "ttl_seconds": left if left == NO_TTL else max(math.ceil(left), 0), "read_at": read_at}
        for key, left in sorted(seconds_left(store, namespace).items())
    ]
    return {
        "ttl": Message("state.ttl.store_ttl", seconds=ttl_seconds, minutes=f"{ttl_seconds / 60:g}"),
        "ttl_renewal": Message(renewal),
        "ttl_clock": (
            Message("state.ttl.scenario_clock", store=type(store).__name__, now=clock.now().isoformat())
            if isinstance(clock, ScenarioClock)
            else Message("state.ttl.real_clock", store=type(store).__name__)
        ),
        "expired_this_turn": list(expired),
        STORE_TTLS: rows,
    }


def seconds_left(store: BaseStore, namespace: tuple[str, ...]) -> dict[str, float]:
    """Each item of ``namespace`` with the seconds its TTL has left (``NO_TTL`` for none), read from the
    store's own table without refreshing anything (a read through the store API would renew the TTL)."""
    prefix = ".".join(namespace)  # LangGraph's _namespace_to_text
    conn = getattr(store, "conn", None)
    if conn is None:
        return {}
    lock = getattr(store, "lock", None) or contextlib.nullcontext()  # both stores serialise the connection
    if type(store).__name__.startswith("Postgres"):
        sql = "SELECT key, EXTRACT(EPOCH FROM (expires_at - NOW())) AS left_s FROM store WHERE prefix = %s"
        with lock, conn.cursor() as cursor:
            cursor.execute(sql, (prefix,))
            rows = [(row["key"], row["left_s"]) for row in cursor.fetchall()]
    else:
        sql = "SELECT key, (julianday(expires_at) - julianday('now')) * 86400.0 FROM store WHERE prefix = ?"
        with lock:
            rows = list(conn.execute(sql, (prefix,)).fetchall())
    return {str(key): NO_TTL if left is None else float(left) for key, left in rows}
