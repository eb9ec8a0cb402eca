"""``semantic_store``: past exchanges in a LangGraph store with an ``index``, searched with ``query=``.

LangChain 1.x's form of ``VectorStoreRetrieverMemory``: ``InMemoryStore(index={"embed": MiniLM,
"dims": 384, "fields": ["text"]})`` holds one item per exchange under the user's namespace. A
middleware searches it with the new message before every model call and appends the hits to the
system message (the same text the classic memory injects), and writes the exchange after the agent
answered. Only the last ``recent_turns`` exchanges travel as messages (0: none, like the classic memory),
so once a turn is answered the middleware removes older messages from the thread (``RemoveMessage``):
every exchange is already in the store, LangGraph loads and saves the whole message list at every step,
and a thread that kept them all made each turn cost more as the conversation grew. The state says how
many were removed. What still grows is ``InMemoryStore``'s search: a brute-force cosine similarity over
every stored exchange (no approximate index).

The vector index lives in this process: on this machine ``SqliteStore`` cannot load sqlite-vec (Python's
sqlite3 was built without extension loading) and PostgreSQL has no pgvector. With ``store=sqlite`` or
``postgres`` every item is also written to a ``SqliteStore``/``PostgresStore`` without an index, and a new
object re-embeds them into its index, so the memory survives restarts.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, NotRequired

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, RemoveMessage, SystemMessage

from memory_demos import storage
from memory_demos.i18n import Message
from memory_demos.strategies.base import MemoryPart, ParamSpec, StrategyContext, StrategyInfo, Threshold
from memory_demos.strategies.shared.checkpointed_graph import (
    CheckpointedGraphStrategy,
    open_postgres_saver,
    open_sqlite_saver,
)
from memory_demos.strategies.shared.classic import messages_as_json
from memory_demos.strategies.shared.embedding_param import EMBEDDINGS_PARAM
from memory_demos.strategies.shared.fact_screen import instructs_assistant
from memory_demos.strategies.shared.langgraph_store import (
    TTL_PARAMS,
    check_ttl_params,
    expiry_state,
    namespace_label,
    open_postgres_store,
    open_sqlite_store,
    seconds_left,
    sweep_expired,
    ttl_config,
    ttl_unsupported,
)
from memory_demos.strategies.shared.paging import paged
from memory_demos.strategies.turn_trim import split_turns
from memory_demos.strategies.vector import DEFAULT_K, system_with_retrieved

if TYPE_CHECKING:
    from langgraph.checkpoint.base import BaseCheckpointSaver
    from langgraph.store.base import BaseStore

MAX_ITEMS = 10_000

INFO = StrategyInfo(
    id="semantic_store",
    title="LangGraph store with a vector index",
    kind="modern",
    langchain_classes=(
        "langchain.agents.create_agent",
        "langchain.agents.middleware.AgentMiddleware",
        "langgraph.store.memory.InMemoryStore",
        "langgraph.store.sqlite.SqliteStore",
        "langgraph.store.postgres.PostgresStore",
    ),
    summary=(
        "Every exchange goes into a LangGraph store with an embedding index; before each call the agent "
        "searches it with the new message and sends the closest ones: recall by meaning."
    ),
    title_zh="带向量索引的 LangGraph 存储",
    summary_zh=(
        "每轮对话存入带嵌入索引的 LangGraph 存储；每次调用前用新消息检索，发送最接近的几条：按语义回忆。"
    ),
    params=(
        ParamSpec(
            "k",
            DEFAULT_K,
            "Past exchanges found by store.search(query=...) and sent with each message.",
            minimum=1,
            help_zh="用 store.search(query=...) 找到、随每条消息发送的过往对话轮数。",
        ),
        ParamSpec(
            "recent_turns",
            0,
            "Recent exchanges also sent as messages (0: none).",
            minimum=0,
            help_zh="另外作为消息发送的最近几轮（0：不发送）。",
        ),
        ParamSpec(
            "store",
            "memory",
            "Where the exchanges live: memory (lost on restart), sqlite (long_term_store.sqlite and "
            "checkpoints.sqlite in the data folder) or postgres (MEMORY_LAB_SQL_URL); the index is rebuilt "
            "in this process from them.",
            choices=("memory", "sqlite", "postgres"),
            help_zh="对话轮保存在哪里：memory（重启后丢失）、sqlite（数据目录中的 long_term_store.sqlite 和 "
            "checkpoints.sqlite）或 postgres（MEMORY_LAB_SQL_URL）；索引由本进程根据它们重建。",
        ),
        EMBEDDINGS_PARAM,
        *TTL_PARAMS,
        ParamSpec(
            "screen_writes",
            False,
            "Screen what is written to the store: an exchange whose message tells the assistant what to do "
            "('always recommend ...', 'from now on answer ...', 'ignore the rules') is not stored, and the "
            "state lists it. Off: every exchange is stored, and a planted instruction comes back whenever "
            "a later message resembles it (memory poisoning).",
            help_zh="筛查写入存储的内容：如果某轮对话中的消息是在告诉助手该做什么（“总是推荐……”、“从现在起回答……”、"
            "“忽略规则”），就不存储这一轮，并在状态中列出。关闭：每轮对话都会存储，植入的指令会在以后相似的消息中"
            "被检索回来（记忆投毒）。",
        ),
    ),
    thresholds=(Threshold("recent_turns", "keep", "exchanges"),),
    keeps=(MemoryPart("messages", "conversation"), MemoryPart("exchanges", "user")),
)


def exchange_key() -> str:
    """A new item's key: sorts in time order, and two panes of one user never pick the same one."""
    return f"exchange-{time.time_ns():020d}-{uuid.uuid4().hex[:8]}"


def exchange_text(user_text: str, reply: str) -> str:
    """One stored exchange, in the format ``VectorStoreRetrieverMemory`` saves."""
    return f"input: {user_text}\noutput: {reply}"


def older_than_next_prompt(messages: list[BaseMessage], recent_turns: int) -> list[BaseMessage]:
    """The messages no later prompt can include: all but the last ``recent_turns`` turns.

    The next prompt takes the last ``recent_turns`` turns before its new message, so keeping only those
    gives the same prompt the whole thread would.
    """
    turns = split_turns(messages)
    older = turns[: max(len(turns) - recent_turns, 0)]
    return [message for turn in older for message in turn]


class SemanticRecallMiddleware:
    """Reads the store before the model is called and writes the exchange after the agent answered.

    Built as an ``AgentMiddleware`` subclass at run time (``build``), so importing this module stays cheap.
    """

    @staticmethod
    def build(
        namespace: tuple[str, ...],
        k: int,
        recent_turns: int,
        on_hits: Callable[[list[Any]], None],
        on_write: Callable[[str | None, str], None],
        item_fields: Callable[[], dict[str, str]] = dict,
        screen: Callable[[str], Any] | None = None,
        language: str = "en",
    ) -> Any:
        from langchain.agents.middleware import AgentMiddleware, AgentState

        class SemanticRecallState(AgentState):
            removed_messages: NotRequired[int]  # messages removed from the thread so far

        class SemanticRecall(AgentMiddleware):
            state_schema = SemanticRecallState

            def wrap_model_call(self, request: Any, handler: Any) -> Any:
                question = next(m for m in reversed(request.messages) if isinstance(m, HumanMessage))
                hits = request.runtime.store.search(namespace, query=question.text, limit=k)
                on_hits(hits)
                system = system_with_retrieved(
                    request.system_message.text, "\n".join(hit.value["text"] for hit in hits), language
                )
                turns = split_turns(request.messages)[-(recent_turns + 1) :]
                return handler(
                    request.override(
                        system_message=SystemMessage(system), messages=[m for turn in turns for m in turn]
                    )
                )

            def after_agent(self, state: Any, runtime: Any) -> dict[str, Any] | None:
                messages = state["messages"]
                question = next(
                    i for i in range(len(messages) - 1, -1, -1) if isinstance(messages[i], HumanMessage)
                )
                answer = messages[-1]
                if not isinstance(answer, AIMessage) or answer.tool_calls:
                    return None
                user_text = messages[question].text
                if screen is not None and screen(user_text) is not None:
                    on_write(None, answer.text)  # refused: the reply stands, the store is unchanged
                else:
                    key = exchange_key()
                    runtime.store.put(
                        namespace, key, {"text": exchange_text(user_text, answer.text), **item_fields()}
                    )
                    on_write(key, answer.text)
                removed = older_than_next_prompt(messages, recent_turns)
                if not removed:
                    return None
                return {
                    "messages": [RemoveMessage(id=str(message.id)) for message in removed],
                    "removed_messages": state.get("removed_messages", 0) + len(removed),
                }

        return SemanticRecall()


class SemanticStoreStrategy(CheckpointedGraphStrategy):
    """``create_agent(middleware=[SemanticRecall], store=InMemoryStore(index=...), checkpointer=...)``."""

    info = INFO

    @classmethod
    def check_params(cls, params: Mapping[str, Any], context: StrategyContext) -> None:
        check_ttl_params(INFO.id, params)

    def __init__(
        self, context: StrategyContext | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
        self._durable: BaseStore | None = None
        self._durable_connection: Any = None
        self._hits: list[dict[str, Any]] = []
        self._query: str | None = None
        # Keys the current turn wrote: copied to the durable store, or deleted if the turn fails. Tracked
        # rather than found by listing the store before and after, which cost more every turn.
        self._written: list[str] = []
        self._reply: str | None = None
        self._expired_this_turn: list[str] = []
        self._refused_this_turn: list[dict[str, Any]] = []
        super().__init__(context, params)

    @property
    def namespace(self) -> tuple[str, ...]:
        return ("users", namespace_label(self.context.user_id), "exchanges")

    def _open_checkpointer(self) -> BaseCheckpointSaver:
        if self.params["store"] == "sqlite":
            return open_sqlite_saver(self.context.folder())
        if self.params["store"] == "postgres":
            return open_postgres_saver(self.context.storage, "semantic_store.store=postgres")
        return super()._open_checkpointer()

    def _build_graph(self, checkpointer: BaseCheckpointSaver) -> Any:
        from langchain.agents import create_agent
        from langgraph.store.memory import InMemoryStore

        embeddings = self.embeddings()
        # 384 for both shipped models; measured, so OpenAI's or a test's embeddings get their own size.
        self.dims = len(embeddings.embed_query("dimensions"))
        index = {"embed": embeddings, "dims": self.dims, "fields": ["text"]}
        if self.params["store"] == "memory":  # shared by this user's conversations, as a process keeps it
            self.store = self.shared_backend(
                f"store.{self.embedding_model()}.{self.dims}", lambda: InMemoryStore(index=index)
            )
        else:  # the index lives in this object; the durable copy is re-embedded into it
            self.store = InMemoryStore(index=index)
        self._open_durable_copy()
        middleware = SemanticRecallMiddleware.build(
            self.namespace,
            self.params["k"],
            self.params["recent_turns"],
            self._record_hits,
            self._record_write,
            self._item_fields,
            self._screen if self.params["screen_writes"] else None,
            self.context.language,
        )
        return create_agent(
            model=self.reply_model,
            tools=[],
            system_prompt=self.system_prompt,
            middleware=[middleware],
            checkpointer=checkpointer,
            store=self.store,
        )

    def _open_durable_copy(self) -> None:
        """Open the store's durable copy (``store=sqlite|postgres``) and re-embed its items into the index."""
        ttl = ttl_config(self.params["ttl_seconds"], self.params["refresh_on_read"])
        if self.params["store"] == "sqlite":
            self._durable = open_sqlite_store(self.context, ttl)
            self._durable_connection = self._durable.conn  # type: ignore[attr-defined]
        elif self.params["store"] == "postgres":
            self._durable_connection = storage.postgres_connection(
                self.context.storage, "semantic_store.store=postgres"
            )
            self._durable = open_postgres_store(self.context.storage, self._durable_connection, ttl)
        if self._durable is not None:
            # Not a read that renews: reopening the store must not extend every item's TTL.
            for item in self._durable.search(self.namespace, limit=MAX_ITEMS, refresh_ttl=False):
                self.store.put(self.namespace, item.key, dict(item.value))

    def _item_fields(self) -> dict[str, str]:
        """What a stored exchange records besides its text: the conversation and the time it was told."""
        return {"conversation_id": self.conversation_id, "told_at": self.context.clock.now().isoformat()}

    def _record_hits(self, hits: list[Any]) -> None:
        self._hits = [
            {
                "key": hit.key,
                "text": hit.value.get("text"),
                "score": hit.score,
                "from_earlier_conversation": self._from_earlier(hit.value),
            }
            for hit in hits
        ]

    def _from_earlier(self, value: Mapping[str, Any]) -> bool:
        """True for an item another conversation of this user wrote (the store carried it over)."""
        return value.get("conversation_id", self.conversation_id) != self.conversation_id

    def _record_write(self, key: str | None, reply: str) -> None:
        if key is not None:
            self._written.append(key)
        self._reply = reply

    def _screen(self, user_text: str) -> Message | None:
        """Why the exchange of ``user_text`` must not be stored (it instructs the assistant), or None."""
        if not instructs_assistant(user_text):
            return None
        reason = Message("strategy.screen.instruction")
        self._refused_this_turn.append({"text": user_text, "reason": reason})
        self.note(Message("strategy.note.exchange_refused", reason=reason))
        return reason

    def keys(self) -> set[str]:
        return {item.key for item in self.store.search(self.namespace, limit=MAX_ITEMS)}

    def _forget_expired(self) -> None:
        """Sweep the durable store's expired items and drop from the index every item it no longer holds
        (another pane or process may have swept them): the index has no TTL of its own."""
        self._expired_this_turn = []
        if self._durable is None or not getattr(self._durable, "ttl_config", None):
            return
        self._expired_this_turn = sweep_expired(self._durable, self.namespace)
        for key in self.keys() - set(seconds_left(self._durable, self.namespace)):
            self.store.delete(self.namespace, key)

    def _respond(self, user_text: str) -> str:
        self._query, self._hits, self._reply = user_text, [], None
        self._refused_this_turn = []
        self._forget_expired()
        unsupported = ttl_unsupported(self.store, self.params["ttl_seconds"])
        if self._durable is None and unsupported is not None:
            self.note(unsupported)
        result = self._invoke({"messages": [HumanMessage(user_text)]})
        # The answered turn may have been removed from the thread with the older ones (recent_turns=0).
        reply = self._reply if self._reply is not None else result["messages"][-1].text
        if self._durable is not None:
            for key in self._written:
                item = self.store.get(self.namespace, key)
                if item is not None:
                    self._durable.put(self.namespace, key, dict(item.value), index=False)
            # The search ran on the index, so the durable copy's TTLs are renewed here, by reading each hit
            # back through the store (a get renews a TTL when refresh_on_read is on).
            if (getattr(self._durable, "ttl_config", None) or {}).get("refresh_on_read"):
                for hit in self._hits:
                    self._durable.get(self.namespace, hit["key"])
        return reply

    def _rollback_point(self) -> Any:
        self._written.clear()
        return super()._rollback_point(), self._query, list(self._hits)

    def _rollback(self, point: Any) -> None:
        head, self._query, self._hits = point
        super()._rollback(head)
        for key in self._written:
            self.store.delete(self.namespace, key)
            if self._durable is not None:
                self._durable.delete(self.namespace, key)
        self._written.clear()

    def clear(self) -> None:
        """Forget this conversation's thread; the user's stored exchanges stay (``forget_user``)."""
        super().clear()
        self._hits, self._query = [], None

    def forget_user(self) -> None:
        """Delete the user's stored exchanges, in every conversation of theirs."""
        for key in self.keys():
            self.store.delete(self.namespace, key)
            if self._durable is not None:
                self._durable.delete(self.namespace, key)
        self._hits, self._query = [], None

    def close(self) -> None:
        super().close()
        if self._durable_connection is not None:
            self._durable_connection.close()
            self._durable_connection = None

    def snapshot(self) -> dict[str, Any]:
        items = sorted(self.store.search(self.namespace, limit=MAX_ITEMS), key=lambda item: item.key)
        return {
            "store": self.params["store"],
            "embedding_model": self.embedding_model(),
            "namespace": list(self.namespace),
            "index": {
                "dims": self.dims,
                "fields": ["text"],
            },
            **paged(
                "items",
                items,
                lambda page: [
                    {
                        "key": i.key,
                        "text": i.value.get("text"),
                        "from_earlier_conversation": self._from_earlier(i.value),
                        "told_at": i.value.get("told_at"),
                    }
                    for i in page
                ],
            ),
            "format_note": Message("strategy.exchange_format_note"),  # 'input:'/'output:' are sent as is
            "query": self._query,
            "hits": self._hits,
            **({"refused_this_turn": list(self._refused_this_turn)} if self.params["screen_writes"] else {}),
            "k": self.params["k"],
            "recent_turns": self.params["recent_turns"],
            **expiry_state(
                self._durable or self.store,
                self.namespace,
                self.params["ttl_seconds"],
                self._expired_this_turn,
                self.context.clock,
            ),
            "thread_id": self.thread_id,
            **self.checkpoints_state(),
            **paged("messages", self.messages(), messages_as_json),
            "messages_removed": self.head_values().get("removed_messages", 0),
        }


STRATEGY = SemanticStoreStrategy
