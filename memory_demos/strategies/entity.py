"""``entity``: ConversationEntityMemory keeps a note per person, place or thing the user mentions.

Each turn goes load → model → save: ``load_memory_variables`` asks the model which entities the
new message names, ``save_context`` asks it once per entity to update that entity's note.

``store=postgres`` keeps the notes in the PostgreSQL server of ``MEMORY_LAB_SQL_URL`` (through
``SQLEntityStore``, a small adapter: langchain_classic has no PostgreSQL entity store) and the recent
messages there too (``SQLChatMessageHistory``), so any app process can continue the conversation.
``store=redis`` keeps both in the Redis server of ``MEMORY_LAB_REDIS_URL`` (``RedisEntityStore`` and
``RedisChatMessageHistory``), where they expire: the notes ``ttl_seconds`` after they were written, renewed
to ``recall_ttl_seconds`` whenever the memory reads them; the recent messages ``ttl_seconds`` after the
last turn.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

from memory_demos.defaults import is_conversation_id
from memory_demos.i18n import Message
from memory_demos.storage import StorageConfig, connect, redis_client, sqlite_file
from memory_demos.strategies.base import MemoryPart, ParamSpec, StrategyInfo, Threshold
from memory_demos.strategies.shared.classic import ClassicStrategy, import_classic_memory
from memory_demos.strategies.shared.entity_redis_store import (
    DEFAULT_RECALL_TTL_S,
    DEFAULT_TTL_S,
    MESSAGES_NAME,
    is_redis_entity_store,
    open_redis_entity_store,
    redis_entity_rows,
    redis_note_keys,
)
from memory_demos.strategies.shared.entity_sql_store import SQLEntityStore
from memory_demos.strategies.shared.history_store import (
    database_errors,
    key_ttls,
    open_postgres_history_engine,
    redis_history_factory,
    session_key,
    sql_history_factory,
)
from memory_demos.strategies.window import windowed_rows
from memory_demos.tracing import EXTRACT_ENTITIES, SUMMARIZE_ENTITY

ENTITY_HEADER = "Notes on the people, places and things just mentioned (from the entity store):"
ENTITY_DB_FILE = "classic_entities.sqlite"
ENTITY_TABLE = "entities"
STORE_CHOICES = ("memory", "sqlite", "postgres", "redis")
ENTITY_HISTORY_PREFIX = "entity:"

INFO = StrategyInfo(
    id="entity",
    title="Entity memory (notes per name)",
    kind="classic",
    langchain_classes=(
        "langchain_classic.memory.ConversationEntityMemory",
        "langchain_classic.memory.InMemoryEntityStore",
        "langchain_classic.memory.SQLiteEntityStore",
        "langchain_classic.memory.RedisEntityStore",
        "langchain_community.chat_message_histories.SQLChatMessageHistory",
        "langchain_community.chat_message_histories.RedisChatMessageHistory",
    ),
    summary=(
        "Extracts names each turn and keeps a note per name: recall by name, several model calls a turn. "
        "The class keeps every name the model returns, junk included (see Failure lab)."
    ),
    title_zh="实体记忆（按名字记笔记）",
    summary_zh=(
        "每轮抽取名字并为每个名字维护一条笔记：按名字回忆，每轮多次模型调用。"
        "这个类会保留模型返回的每一个名字，包括垃圾（见故障实验室）。"
    ),
    params=(
        ParamSpec(
            "k",
            3,
            "Recent exchanges sent verbatim and read when extracting and updating entities.",
            minimum=1,
            help_zh="原样发送的最近几轮，抽取和更新实体时也读这几轮。",
        ),
        ParamSpec(
            "store",
            "memory",
            "Where the entity notes live: in memory, in a SQLite file, in the PostgreSQL server of "
            "MEMORY_LAB_SQL_URL, or in the Redis server of MEMORY_LAB_REDIS_URL (postgres and redis: notes "
            "and recent messages, shared by every app process; redis: they expire).",
            choices=STORE_CHOICES,
            help_zh="实体笔记保存在哪里：内存、SQLite 文件、MEMORY_LAB_SQL_URL 的 PostgreSQL 服务器，或 "
            "MEMORY_LAB_REDIS_URL 的 Redis 服务器（postgres 和 redis：笔记和最近消息由所有应用进程共用；"
            "redis：它们会过期）。",
        ),
        ParamSpec(
            "ttl_seconds",
            DEFAULT_TTL_S,
            "store=redis only: seconds a note lives after it is written (RedisEntityStore's default: one "
            "day); the recent messages expire this long after the last turn. 0: never expires.",
            minimum=0,
            applies_when=("store", "redis"),
            help_zh="仅 store=redis：笔记写入后保留的秒数（RedisEntityStore 的默认值：一天）；"
            "最近消息在最后一轮之后这么久过期。0：永不过期。",
        ),
        ParamSpec(
            "recall_ttl_seconds",
            DEFAULT_RECALL_TTL_S,
            "store=redis only: each time the memory reads a note its TTL is reset to this (default: three "
            "days). 0: reset to ttl_seconds.",
            minimum=0,
            applies_when=("store", "redis"),
            help_zh="仅 store=redis：记忆每读一次笔记，就把它的 TTL 重设为这个值（默认：三天）。"
            "0：重设为 ttl_seconds。",
        ),
    ),
    thresholds=(Threshold("k", "keep", "exchanges"),),
    keeps=(MemoryPart("messages", "conversation"), MemoryPart("entities", "conversation")),
)


def entity_session_id(conversation_id: str) -> str:
    """A Python identifier naming this conversation's table (SQLiteEntityStore refuses anything else)."""
    if is_conversation_id(conversation_id):
        return f"c_{conversation_id}"
    return f"c_{hashlib.sha256(conversation_id.encode()).hexdigest()[:32]}"


def build_entity_store(
    kind: str,
    conversation_id: str,
    folder: Path,
    *,
    storage: StorageConfig,
    user_id: str = "local",
    engine: Any = None,
    ttl_seconds: int = DEFAULT_TTL_S,
    recall_ttl_seconds: int = DEFAULT_RECALL_TTL_S,
) -> Any:
    """An ``InMemoryEntityStore``, a ``SQLiteEntityStore`` whose connection works from any thread,
    (``postgres``) a ``SQLEntityStore`` keyed by user and conversation on ``engine`` or a new engine, or
    (``redis``) a ``RedisEntityStore`` keyed by user and conversation whose notes expire.
    """
    classic = import_classic_memory()
    if kind == "memory":
        return classic.InMemoryEntityStore()
    if kind == "redis":
        return open_redis_entity_store(
            storage,
            user_id,
            conversation_id,
            ttl_seconds=ttl_seconds,
            recall_ttl_seconds=recall_ttl_seconds,
        )
    if kind == "postgres":
        storage.require_sql_url("entity.store=postgres")
        return SQLEntityStore.open(
            engine if engine is not None else open_postgres_history_engine(storage),
            session_key(user_id, conversation_id),
            where=storage.redacted_sql_url or "PostgreSQL",
            redact=storage.redact,
        )
    path = sqlite_file(ENTITY_DB_FILE, folder)
    # connect() checks the file first and opens it with check_same_thread=False; the store's own
    # connection is bound to this thread and fails on Streamlit's next rerun (ProgrammingError).
    connection = connect(path)
    store = classic.SQLiteEntityStore(
        session_id=entity_session_id(conversation_id), db_file=str(path), table_name=ENTITY_TABLE
    )
    store.conn.close()
    store.conn = connection
    return store


def entity_store_rows(store: Any) -> dict[str, str]:
    """Every entity and its note, sorted by name (the stores have no "list all" method)."""
    classic = import_classic_memory()
    if isinstance(store, classic.InMemoryEntityStore):
        return {key: value or "" for key, value in sorted(store.store.items())}
    if is_redis_entity_store(store):
        return redis_entity_rows(store)
    if isinstance(store, SQLEntityStore):
        return store.rows()
    if isinstance(store, classic.SQLiteEntityStore):
        # The table name is a validated identifier (the store checks it), so formatting it in is safe.
        rows = store.conn.execute(f'SELECT key, value FROM "{store.full_table_name}" ORDER BY key').fetchall()
        return {key: value or "" for key, value in rows}
    raise TypeError(f"Cannot list the entities of a {type(store).__name__}")


def restore_entity_store(store: Any, rows: Mapping[str, str]) -> None:
    """Replace the store's contents with ``rows`` (one transaction for SQLite and PostgreSQL)."""
    if isinstance(store, SQLEntityStore):
        store.replace(rows)
        return
    classic = import_classic_memory()
    if isinstance(store, classic.SQLiteEntityStore):
        table = store.full_table_name
        with store.conn:
            store.conn.execute(f'DELETE FROM "{table}"')
            store.conn.executemany(
                f'INSERT INTO "{table}" (key, value) VALUES (?, ?)',
                [(key, value) for key, value in rows.items() if value],
            )
        return
    store.clear()
    for key, value in rows.items():
        store.set(key, value)


def system_with_entities(system_prompt: str, entities: Mapping[str, Any]) -> str:
    """The system message plus one ``Name: note`` line per entity that has a note yet."""
    lines = [f"{name}: {note}" for name, note in entities.items() if note and str(note).strip()]
    if not lines:
        return system_prompt
    return f"{system_prompt}\n\n{ENTITY_HEADER}\n" + "\n".join(lines)


def entity_fallback_variables(entity_memory: Any) -> dict[str, Any]:
    """What the entity memory returns when it found no entities: its recent messages and no notes."""
    entity_memory.entity_cache = []
    return {entity_memory.chat_history_key: entity_memory.buffer[-entity_memory.k * 2 :], "entities": {}}


class EntityAwareStrategy(ClassicStrategy):
    """Shared by ``entity`` and ``combined``: entity notes in the system message, a load step that
    calls the model and degrades if that call fails, and rollback of the entity store.
    """

    def entity_memory(self) -> Any:
        """The ``ConversationEntityMemory`` inside ``self.memory``."""
        return self.memory

    def prompt(self) -> ChatPromptTemplate:
        return ChatPromptTemplate.from_messages(
            [("system", "{system}"), MessagesPlaceholder(self.memory_key), ("human", "{input}")]
        )

    def prompt_inputs(self, memory_variables: dict[str, Any], user_text: str) -> dict[str, Any]:
        return {
            "system": system_with_entities(self.system_prompt, memory_variables["entities"]),
            self.memory_key: memory_variables[self.memory_key],
            "input": user_text,
        }

    def _fallback_variables(self, inputs: dict[str, Any]) -> dict[str, Any]:
        return entity_fallback_variables(self.entity_memory())

    def _use_entity_model(self, purpose: str) -> None:
        """Hand the entity memory the model of this step: extraction in load, note updates in save.

        ConversationEntityMemory has one ``llm`` for both; swapping the instance per step is what
        labels each call by its call site.
        """
        self.entity_memory().llm = self.model_for(purpose)

    def _load(self, inputs: dict[str, Any]) -> dict[str, Any]:
        self._use_entity_model(EXTRACT_ENTITIES)
        try:
            return self.memory.load_memory_variables(inputs)
        except Exception as exc:  # degrade: answer without entity notes this turn
            variables = self._fallback_variables(inputs)
            self.note(Message("strategy.note.entity_skipped", error=f"{type(exc).__name__}: {exc}"))
            return variables

    def _respond(self, user_text: str) -> str:
        inputs = {"input": user_text}
        memory_variables = self._load(inputs)
        reply = (self.prompt() | self.reply_model).invoke(self.prompt_inputs(memory_variables, user_text))
        reply_text = reply.content if isinstance(reply.content, str) else str(reply.content)
        self._use_entity_model(SUMMARIZE_ENTITY)
        self._save(inputs, reply_text)
        return reply_text

    def _rollback_fields(self) -> dict[str, Any]:
        memory = self.entity_memory()
        return {
            "entity_rows": entity_store_rows(memory.entity_store),
            "entity_cache": list(memory.entity_cache),
        }

    def _restore_fields(self, fields: dict[str, Any]) -> None:
        memory = self.entity_memory()
        restore_entity_store(memory.entity_store, fields["entity_rows"])
        memory.entity_cache = list(fields["entity_cache"])

    def entity_state(self) -> dict[str, Any]:
        memory = self.entity_memory()
        return {
            "entities": [
                {"entity": name, "summary": note}
                for name, note in entity_store_rows(memory.entity_store).items()
            ],
            "extracted_this_turn": list(memory.entity_cache),
        }

    def close(self) -> None:
        """Release the store's connection; persisted notes and messages stay."""
        store = self.entity_memory().entity_store
        conn = getattr(store, "conn", None)
        if conn is not None:
            conn.close()
        if isinstance(store, SQLEntityStore):  # disposes the engine it shares with the message history
            store.close()


class EntityStrategy(EntityAwareStrategy):
    """Recent ``k`` exchanges as messages, entity notes in the system message."""

    info = INFO

    def _build_memory(self) -> Any:
        classic = import_classic_memory()
        extra: dict[str, Any] = {}
        engine = None
        self._redis_messages: Any = None
        if self.params["store"] == "redis":
            config = self.context.storage
            self._redis_messages = redis_client(config, "entity.store=redis")
            # The recent messages expire with the notes: a forgotten note must not live on in them.
            extra["chat_memory"] = redis_history_factory(
                self._redis_messages,
                config.require_redis_url("entity.store=redis"),
                self.params["ttl_seconds"],
                name=MESSAGES_NAME,
            )(session_key(self.context.user_id, self.context.conversation_id))
        elif self.params["store"] == "postgres":
            config = self.context.storage
            config.require_sql_url("entity.store=postgres")
            engine = open_postgres_history_engine(config)
            # The recent messages go to PostgreSQL too: notes without them would confuse another process.
            key = ENTITY_HISTORY_PREFIX + session_key(self.context.user_id, self.context.conversation_id)
            extra["chat_memory"] = sql_history_factory(engine, database_errors(config))(key)
        return classic.ConversationEntityMemory(
            llm=self.model_for(EXTRACT_ENTITIES),
            k=self.params["k"],
            chat_history_key=self.memory_key,
            input_key="input",
            return_messages=True,
            entity_store=build_entity_store(
                self.params["store"],
                self.context.conversation_id,
                self.context.folder(),
                user_id=self.context.user_id,
                storage=self.context.storage,
                engine=engine,
                ttl_seconds=self.params["ttl_seconds"],
                recall_ttl_seconds=self.params["recall_ttl_seconds"],
            ),
            **extra,
        )

    def snapshot(self) -> dict[str, Any]:
        stored = self.stored_messages()
        store = self.params["store"]
        database = {
            "postgres": self.context.storage.redacted_sql_url,
            "redis": self.context.storage.redacted_redis_url,
        }
        state = {
            "store": store,
            "database": database.get(store),
            **self.entity_state(),
            "messages": windowed_rows(stored, len(self.memory.buffer[-self.memory.k * 2 :])),
        }
        if store == "redis":
            notes = self.memory.entity_store
            keys = [self.memory.chat_memory.key, *redis_note_keys(notes)]
            state["redis_keys"] = key_ttls(notes.redis_client, keys)
        return state

    def close(self) -> None:
        """Release the connections; persisted notes and messages stay (until their TTL, on Redis)."""
        super().close()
        store = self.memory.entity_store
        if is_redis_entity_store(store):
            store.redis_client.close()
        if self._redis_messages is not None:
            self._redis_messages.close()
            self._redis_messages = None


STRATEGY = EntityStrategy
