"""``history``: RunnableWithMessageHistory loads a session's messages before the model and saves after it.

The chain itself is stateless; a ``get_session_history`` factory hands it the history object of
the session named in the config, either by one ``session_id`` or by ``user_id`` + ``conversation_id``.
Both name the same stored session (``session_key(user_id, conversation_id)``), so two users who
somehow share a conversation id still never see each other's messages. With ``backend=postgres`` the
histories live in the PostgreSQL server of ``MEMORY_LAB_SQL_URL``, shared by every app process; with
``backend=redis`` in the Redis server of ``MEMORY_LAB_REDIS_URL``, under the key
``user:{user}:conv:{conversation}:messages`` with a time to live (``ttl_seconds``), so a conversation nobody
continues is forgotten by the server.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from langchain_core.chat_history import BaseChatMessageHistory, InMemoryChatMessageHistory
from langchain_core.messages import BaseMessage, SystemMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
from langchain_core.runnables import ConfigurableFieldSpec, RunnableConfig
from langchain_core.runnables.history import RunnableWithMessageHistory

from memory_demos.storage import StorageError, redis_client, sqlite_file
from memory_demos.strategies.base import ParamSpec, Strategy, StrategyInfo
from memory_demos.strategies.shared.classic import messages_as_json
from memory_demos.strategies.shared.history_store import (
    DEFAULT_MAX_SESSIONS,
    ErrorFactory,
    SessionHistoryStore,
    database_errors,
    file_errors,
    key_ttls,
    open_history_engine,
    open_postgres_history_engine,
    redis_history_factory,
    session_key,
    sql_history_factory,
)

HISTORY_FILE = "histories.sqlite"
# The seed book: a history without a TTL keeps a user's messages forever; enforce one, e.g. 30 days.
DEFAULT_REDIS_TTL_S = 30 * 24 * 60 * 60

T = TypeVar("T")

INFO = StrategyInfo(
    id="history",
    title="RunnableWithMessageHistory",
    kind="modern",
    langchain_classes=(
        "langchain_core.runnables.history.RunnableWithMessageHistory",
        "langchain_core.chat_history.InMemoryChatMessageHistory",
        "langchain_community.chat_message_histories.SQLChatMessageHistory",
        "langchain_community.chat_message_histories.RedisChatMessageHistory",
    ),
    summary=(
        "Wraps a stateless prompt | model chain; a session factory loads and saves each session's "
        "messages, in memory, in SQLite, in PostgreSQL or in Redis. Sends the whole history every turn."
    ),
    title_zh="RunnableWithMessageHistory",
    summary_zh=(
        "包装无状态的 prompt | model 链；"
        "会话工厂按会话加载和保存消息（内存、SQLite、PostgreSQL 或 Redis），每轮发送全部历史。"
    ),
    params=(
        ParamSpec(
            "backend",
            "memory",
            "Where histories live: memory (lost on restart), sqlite (histories.sqlite in the data folder), "
            "postgres (the server of MEMORY_LAB_SQL_URL, shared by every app process) or redis (the server "
            "of MEMORY_LAB_REDIS_URL; the messages expire ttl_seconds after the last one was written).",
            choices=("memory", "sqlite", "postgres", "redis"),
            help_zh="历史保存在哪里：memory（重启后丢失）、sqlite（数据目录中的 histories.sqlite）、postgres"
            "（MEMORY_LAB_SQL_URL 的服务器，所有应用进程共用）或 redis（MEMORY_LAB_REDIS_URL 的服务器；"
            "消息在最后一条写入 ttl_seconds 秒后过期）。",
        ),
        ParamSpec(
            "ttl_seconds",
            DEFAULT_REDIS_TTL_S,
            "backend=redis only: seconds the conversation's key lives after its last message "
            "(RedisChatMessageHistory renews the TTL on every write, not on reads). 0: never expires, the "
            "class's default, which keeps every user's messages forever. Default 30 days.",
            minimum=0,
            applies_when=("backend", "redis"),
            help_zh="仅 backend=redis：对话的键在最后一条消息之后保留的秒数（RedisChatMessageHistory 每次写入"
            "都会续期，读取不会）。0：永不过期，即这个类的默认值，会永远保留每个用户的消息。默认 30 天。",
        ),
        ParamSpec(
            "keying",
            "user_conversation",
            "How the session is named in the config: one session_id, or user_id + conversation_id.",
            choices=("session", "user_conversation"),
            help_zh="配置中如何命名会话：一个 session_id，或 user_id + conversation_id。",
        ),
    ),
)


class HistoryStrategy(Strategy):
    """``RunnableWithMessageHistory`` around ``prompt | model`` with a bounded, thread-safe session store."""

    info = INFO

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.backend: str = self.params["backend"]
        self.keying: str = self.params["keying"]
        self.session_key = session_key(self.context.user_id, self.context.conversation_id)
        self._engine: Any = None
        self.history_path: Path | None = None
        self._errors: ErrorFactory | None = None
        self._redis: Any = None
        if self.backend == "sqlite":
            self.history_path = sqlite_file(HISTORY_FILE, self.context.folder())
            self._engine = open_history_engine(self.history_path)
            self._errors = file_errors(self.history_path)
            factory = sql_history_factory(self._engine, self._errors)
        elif self.backend == "postgres":
            self._engine = open_postgres_history_engine(self.context.storage)
            self._errors = database_errors(self.context.storage)
            factory = sql_history_factory(self._engine, self._errors)
        elif self.backend == "redis":
            storage = self.context.storage
            self._redis = redis_client(storage, "history.backend=redis")
            url = storage.require_redis_url("history.backend=redis")
            factory = redis_history_factory(self._redis, url, self.params["ttl_seconds"])
        else:
            factory = _new_in_memory_history
        if self.backend == "memory":  # one store of sessions for the user's conversations, as a process has
            self.store = self.shared_backend(
                "sessions", lambda: SessionHistoryStore(factory, max_sessions=DEFAULT_MAX_SESSIONS)
            )
        else:
            self.store = SessionHistoryStore(factory, max_sessions=DEFAULT_MAX_SESSIONS)
        if self.backend == "memory":
            # Made now rather than on the first turn, so InMemoryChatMessageHistory's deprecation is
            # captured while building, with RunnableWithMessageHistory's, and the pane shows both.
            self.store.get(self.session_key)
        self.chain = self._build_chain()

    def _build_chain(self) -> RunnableWithMessageHistory:
        prompt = ChatPromptTemplate(
            [
                SystemMessage(self.system_prompt),
                MessagesPlaceholder("history"),
                ("human", "{input}"),
            ]
        )
        if self.keying == "session":
            return RunnableWithMessageHistory(
                prompt | self.reply_model,
                self.get_session_history,
                input_messages_key="input",
                history_messages_key="history",
            )
        return RunnableWithMessageHistory(
            prompt | self.reply_model,
            self.get_user_conversation_history,
            input_messages_key="input",
            history_messages_key="history",
            history_factory_config=[
                ConfigurableFieldSpec(
                    id="user_id",
                    annotation=str,
                    name="User id",
                    description="Who is talking.",
                    is_shared=True,
                ),
                ConfigurableFieldSpec(
                    id="conversation_id",
                    annotation=str,
                    name="Conversation id",
                    description="Which of the user's conversations.",
                    is_shared=True,
                ),
            ],
        )

    # -- session factories ------------------------------------------------------------------
    def get_session_history(self, session_id: str) -> BaseChatMessageHistory:
        """The factory for ``keying=session``: one opaque key per conversation."""
        return self.store.get(session_id)

    def get_user_conversation_history(self, user_id: str, conversation_id: str) -> BaseChatMessageHistory:
        """The factory for ``keying=user_conversation``: a user's conversation, never another user's."""
        return self.store.get(session_key(user_id, conversation_id))

    def run_config(self) -> RunnableConfig:
        """The config that names this conversation's session."""
        if self.keying == "session":
            return {"configurable": {"session_id": self.session_key}}
        return {
            "configurable": {"user_id": self.context.user_id, "conversation_id": self.context.conversation_id}
        }

    def history(self) -> BaseChatMessageHistory:
        """This conversation's history object (the one the chain reads and writes)."""
        return self.store.get(self.session_key)

    def stored_messages(self) -> list[BaseMessage]:
        """This conversation's messages as stored (read from the database for ``sqlite``/``postgres``)."""
        return self._guard(lambda: list(self.history().messages))

    # -- the turn ---------------------------------------------------------------------------
    def _respond(self, user_text: str) -> str:
        before = len(self.stored_messages())
        reply = self._guard(lambda: self.chain.invoke({"input": user_text}, self.run_config()))
        saved = [(m.type, m.content) for m in self.stored_messages()[before:]]
        turn = [("human", user_text), ("ai", reply.content)]
        # RunnableWithMessageHistory saves in an on-end listener whose errors are only logged:
        # without this check a failed save looks like a good turn that is then forgotten.
        if not any(saved[i : i + 2] == turn for i in range(len(saved) - 1)):
            where = self.history_path or self._database() or "the in-memory history"
            raise StorageError(
                f"RunnableWithMessageHistory did not save this turn to {where} (its save callback "
                "failed; the log has the cause), so it would be forgotten."
            )
        return reply.content if isinstance(reply.content, str) else str(reply.content)

    def _guard(self, action: Callable[[], T]) -> T:
        """Run ``action``; a SQL fault becomes a ``StorageError`` naming the file or database."""
        if self._errors is None:
            return action()
        from sqlalchemy.exc import SQLAlchemyError

        try:
            return action()
        except SQLAlchemyError as exc:
            raise self._errors(exc) from None

    def _database(self) -> str | None:
        """The server holding the histories, password hidden (None for memory and sqlite)."""
        if self.backend == "redis":
            return self.context.storage.redacted_redis_url
        return self.context.storage.redacted_sql_url if self.backend == "postgres" else None

    def snapshot(self) -> dict[str, Any]:
        state = {
            "backend": self.backend,
            "keying": self.keying,
            "session_key": self.session_key,
            "config": self.run_config()["configurable"],
            "history_file": str(self.history_path) if self.history_path else None,
            "database": self._database(),
            "messages": messages_as_json(self.stored_messages()),
        }
        if self._redis is not None:
            state["redis_keys"] = key_ttls(self._redis, [self.history().key])
        return state

    def _rollback_point(self) -> list[BaseMessage]:
        return self.stored_messages()

    def _rollback(self, point: list[BaseMessage]) -> None:
        # RunnableWithMessageHistory only writes on success, so usually there is nothing to undo.
        if self.stored_messages() == point:
            return
        history = self.history()
        self._guard(history.clear)
        self._guard(lambda: history.add_messages(point))

    def clear(self) -> None:
        self._guard(self.history().clear)

    def close(self) -> None:
        if self.backend != "memory":  # the in-memory sessions are the user's other conversations too
            self.store.clear()
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None
        if self._redis is not None:
            self._redis.close()
            self._redis = None


def _new_in_memory_history(_key: str) -> BaseChatMessageHistory:
    return InMemoryChatMessageHistory()


STRATEGY = HistoryStrategy
