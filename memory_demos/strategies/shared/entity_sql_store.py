"""``SQLEntityStore``: ConversationEntityMemory's notes in PostgreSQL (or any database SQLAlchemy reaches).

langchain_classic ships ``InMemoryEntityStore``, ``SQLiteEntityStore`` and Redis stores, but nothing
for PostgreSQL. This is a storage adapter only: it implements ``BaseEntityStore`` (get, set, delete,
exists, clear) so the memory stays the real ``ConversationEntityMemory``. All conversations share one
table; each row carries a session key naming the user *and* the conversation, so two users who share
a conversation id never see each other's notes, and every app process reads the same notes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from pydantic import ConfigDict, PrivateAttr

from memory_demos.storage.postgres import sqlalchemy_setup_lock
from memory_demos.storage.servers import StorageError
from memory_demos.strategies.shared.classic import import_classic_memory

ENTITY_TABLE = "memory_lab_entities"


def _base_entity_store() -> Any:
    """langchain_classic's ``BaseEntityStore``, imported on first use."""
    import_classic_memory()
    from langchain_classic.memory.entity import BaseEntityStore

    return BaseEntityStore


def entity_table(name: str = ENTITY_TABLE) -> Any:
    """The table definition: ``(session_id, key)`` is the primary key, ``value`` the note."""
    from sqlalchemy import Column, MetaData, Table, Text

    return Table(
        name,
        MetaData(),
        Column("session_id", Text, primary_key=True),
        Column("key", Text, primary_key=True),
        Column("value", Text, nullable=False),
    )


class SQLEntityStore(_base_entity_store()):  # type: ignore[misc]
    """Entity notes of one session in a shared SQL table; build it with ``SQLEntityStore.open``.

    Database faults become ``StorageError`` with the database named and any password scrubbed.
    """

    session_id: str
    engine: Any
    table_name: str = ENTITY_TABLE
    where: str = "the entity database"

    model_config = ConfigDict(arbitrary_types_allowed=True)

    _table: Any = PrivateAttr(default=None)
    _redact: Callable[[str], str] = PrivateAttr(default=lambda text: text)

    @classmethod
    def open(
        cls,
        engine: Any,
        session_id: str,
        *,
        where: str = "the entity database",
        redact: Callable[[str], str] | None = None,
        table_name: str = ENTITY_TABLE,
    ) -> SQLEntityStore:
        """A store on ``engine`` for ``session_id``, creating the table if needed (one process at a time)."""
        store = cls(session_id=session_id, engine=engine, table_name=table_name, where=where)
        if redact is not None:
            store._redact = redact
        with store._guard("create its table"):
            store._create_table()
        return store

    def _create_table(self) -> None:
        if self.engine.dialect.name == "postgresql":
            with sqlalchemy_setup_lock(self.engine) as connection:
                self.table.metadata.create_all(connection)
            return
        with self.engine.begin() as connection:
            self.table.metadata.create_all(connection)

    @property
    def table(self) -> Any:
        if self._table is None:
            self._table = entity_table(self.table_name)
        return self._table

    @contextmanager
    def _guard(self, action: str) -> Iterator[None]:
        from sqlalchemy.exc import SQLAlchemyError

        try:
            yield
        except SQLAlchemyError as exc:
            detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            message = f"The entity store at {self.where} could not {action} ({detail})."
            raise StorageError(self._redact(message)) from None

    def _mine(self) -> Any:
        return self.table.c.session_id == self.session_id

    # -- BaseEntityStore ----------------------------------------------------------------------
    def get(self, key: str, default: str | None = None) -> str | None:
        from sqlalchemy import select

        query = select(self.table.c.value).where(self._mine(), self.table.c.key == key)
        with self._guard("read a note"), self.engine.connect() as connection:
            value = connection.execute(query).scalar_one_or_none()
        return default if value is None else value

    def set(self, key: str, value: str | None) -> None:
        """Insert or replace a note; an empty note deletes the entity, as ``SQLiteEntityStore`` does."""
        if not value:
            self.delete(key)
            return
        with self._guard("save a note"), self.engine.begin() as connection:
            self._upsert(connection, {key: value})

    def delete(self, key: str) -> None:
        from sqlalchemy import delete

        with self._guard("delete a note"), self.engine.begin() as connection:
            connection.execute(delete(self.table).where(self._mine(), self.table.c.key == key))

    def exists(self, key: str) -> bool:
        return self.get(key) is not None

    def clear(self) -> None:
        """Delete this session's notes (other sessions' rows are untouched)."""
        from sqlalchemy import delete

        with self._guard("clear its notes"), self.engine.begin() as connection:
            connection.execute(delete(self.table).where(self._mine()))

    # -- beyond BaseEntityStore: what the Lab shows and rolls back ----------------------------
    def rows(self) -> dict[str, str]:
        """Every entity of this session and its note, sorted by name."""
        from sqlalchemy import select

        query = select(self.table.c.key, self.table.c.value).where(self._mine()).order_by(self.table.c.key)
        with self._guard("list its notes"), self.engine.connect() as connection:
            return {key: value or "" for key, value in connection.execute(query)}

    def replace(self, rows: Mapping[str, str]) -> None:
        """Make this session's notes exactly ``rows``, in one transaction."""
        from sqlalchemy import delete

        with self._guard("restore its notes"), self.engine.begin() as connection:
            connection.execute(delete(self.table).where(self._mine()))
            self._upsert(connection, {key: value for key, value in rows.items() if value})

    def close(self) -> None:
        """Release the engine's pooled connections (the notes stay in the database)."""
        self.engine.dispose()

    def _upsert(self, connection: Any, rows: Mapping[str, str]) -> None:
        if not rows:
            return
        values = [{"session_id": self.session_id, "key": k, "value": v} for k, v in rows.items()]
        dialect = self.engine.dialect.name
        if dialect in {"postgresql", "sqlite"}:
            if dialect == "postgresql":
                from sqlalchemy.dialects.postgresql import insert
            else:
                from sqlalchemy.dialects.sqlite import insert
            statement = insert(self.table)
            connection.execute(
                statement.on_conflict_do_update(
                    index_elements=[self.table.c.session_id, self.table.c.key],
                    set_={"value": statement.excluded.value},
                ),
                values,
            )
            return
        from sqlalchemy import delete, insert

        connection.execute(delete(self.table).where(self._mine(), self.table.c.key.in_(list(rows))))
        connection.execute(insert(self.table), values)
