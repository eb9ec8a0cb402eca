"""``long_term``: stable facts about the user live in a LangGraph store, apart from the message list.

A graph with two nodes: ``remember`` asks the model to extract ``key: value`` facts from the new message
and puts them in the store under ``("users", <user id>, "facts")``; ``respond`` reads every fact back
into the system message and sends only the last few messages. Facts are keyed by user, not by
conversation: ``SqliteStore`` shares them across all of a user's conversations and restarts, and
``InMemoryStore`` across the conversations this process holds for the user (``new_conversation``); each
fact records the conversation and the time (the context's clock) it was told in. The messages themselves
are short-term memory in the thread's ``InMemorySaver`` checkpoints, and only the few the next prompt
needs stay there: once a turn is answered, ``respond`` removes older messages from the thread
(``RemoveMessage``; their facts are already in the store), so a turn costs the same at turn 200 as at
turn 10 (LangGraph saves the whole message list at every step). The state says how many were removed.
With ``store=postgres`` both live in the PostgreSQL server of ``MEMORY_LAB_SQL_URL`` (``PostgresStore``
and ``PostgresSaver``), so any app process can continue the conversation.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from langchain_core.messages import BaseMessage, HumanMessage, RemoveMessage, SystemMessage, trim_messages

from memory_demos import storage
from memory_demos.i18n import Message
from memory_demos.prompts import FACT_EXTRACTION_PROMPT, LONG_TERM_FACTS_HEADER, header
from memory_demos.strategies.base import MemoryPart, ParamSpec, StrategyContext, StrategyInfo, Threshold
from memory_demos.strategies.shared.checkpointed_graph import CheckpointedGraphStrategy, open_postgres_saver
from memory_demos.strategies.shared.classic import messages_as_json
from memory_demos.strategies.shared.fact_screen import screen_fact
from memory_demos.strategies.shared.langgraph_store import (
    STORE_FILE,
    TTL_PARAMS,
    check_ttl_params,
    expiry_state,
    namespace_label,
    open_postgres_store,
    open_sqlite_store,
    sweep_expired,
    ttl_config,
    ttl_unsupported,
)
from memory_demos.strategies.shared.paging import paged

if TYPE_CHECKING:
    from langgraph.checkpoint.base import BaseCheckpointSaver
    from langgraph.graph import MessagesState
    from langgraph.runtime import Runtime
    from langgraph.store.base import BaseStore

EXTRACT_FACTS = "extract facts"
MAX_FACTS = 200
MAX_FACT_VALUE_CHARS = 200
MAX_SOURCE_CHARS = 300


def facts_in_told_order(store: BaseStore, namespace: tuple[str, ...], **options: Any) -> list[Any]:
    """A namespace's facts, first told first. Stores order by ``updated_at``, which SQLite keeps in whole
    seconds, so the prompt and the state view would reorder whenever a turn crossed a second."""
    found = store.search(namespace, limit=MAX_FACTS, **options)
    return sorted(found, key=lambda item: str(item.value.get("told_at") or ""))


# A key is a word or a few (any script: a Chinese conversation gives keys such as 门禁码), then a colon.
_FACT_LINE = re.compile(r"^\s*(?:[-*•]\s*)?`?([^\W\d_][\w -]{0,47})`?\s*[:：]\s*(.+?)\s*$")

INFO = StrategyInfo(
    id="long_term",
    title="LangGraph store (long-term facts)",
    kind="modern",
    langchain_classes=(
        "langgraph.graph.StateGraph",
        "langgraph.store.memory.InMemoryStore",
        "langgraph.store.sqlite.SqliteStore",
        "langgraph.store.postgres.PostgresStore",
        "langgraph.checkpoint.memory.InMemorySaver",
        "langgraph.checkpoint.postgres.PostgresSaver",
        "langchain_core.messages.trim_messages",
    ),
    summary=(
        "Extracts stable facts about the user into a LangGraph store and puts them in the system "
        "message; only the last few messages are sent. Facts outlive the conversation."
    ),
    title_zh="LangGraph 存储（长期事实）",
    summary_zh=(
        "把关于用户的稳定事实抽取到 LangGraph 存储并放进系统消息；只发送最后几条消息，事实比对话活得更久。"
    ),
    params=(
        ParamSpec(
            "store",
            "memory",
            f"Where facts live: memory (InMemoryStore, lost on restart), sqlite (SqliteStore on "
            f"{STORE_FILE} in the data folder, shared by the user's conversations) or postgres "
            "(PostgresStore on the server of MEMORY_LAB_SQL_URL; the messages go there too, in "
            "PostgresSaver checkpoints, so every app process sees the conversation).",
            help_zh=f"事实保存在哪里：memory（InMemoryStore，重启后丢失）、sqlite（数据目录中 {STORE_FILE} "
            "上的 SqliteStore，该用户的各个对话共用）或 postgres（MEMORY_LAB_SQL_URL 的服务器上的 "
            "PostgresStore；消息也存在那里的 PostgresSaver 检查点中，所有应用进程都能看到这段对话）。",
            choices=("memory", "sqlite", "postgres"),
        ),
        ParamSpec(
            "recent_messages",
            4,
            "How many of the latest messages are sent with the facts (trimmed to start on a user message).",
            minimum=1,
            help_zh="随事实一起发送的最新消息条数（裁剪后从一条用户消息开始）。",
        ),
        *TTL_PARAMS,
        ParamSpec(
            "screen_facts",
            False,
            "Screen what is written to the store: an extracted item that tells the assistant what to do "
            "(a rule, 'always recommend ...', 'ignore the rules') or that its message does not contain is "
            "not stored, and the state lists it with the reason. Off: every extracted line is stored, and an "
            "instruction planted as a fact steers every later conversation of the user (memory poisoning).",
            help_zh="筛查写入存储的内容：抽取出的某一项如果是在告诉助手该做什么（规则、“总是推荐……”、“忽略规则”），"
            "或者它的来源消息里并没有它，就不存储，并在状态中列出它和原因。关闭：抽取出的每一行都会存储，"
            "伪装成事实植入的指令会左右该用户以后的每段对话（记忆投毒）。",
        ),
    ),
    thresholds=(Threshold("recent_messages", "keep", "messages"),),
    keeps=(MemoryPart("messages", "conversation"), MemoryPart("facts", "user")),
)


def parse_facts(text: str) -> dict[str, str]:
    """``key: value`` lines as a dict with snake_case keys (Chinese keys kept as written); ``NONE`` or
    prose gives nothing."""
    facts: dict[str, str] = {}
    for line in text.splitlines():
        match = _FACT_LINE.match(line)
        if match is None:
            continue
        key = re.sub(r"[\W_]+", "_", match.group(1).strip().lower()).strip("_")
        value = match.group(2).strip().strip("`").strip()
        if not key or not value or value.upper() == "NONE":
            continue
        facts[key] = value[:MAX_FACT_VALUE_CHARS]
    return facts


class LongTermStrategy(CheckpointedGraphStrategy):
    """``START → remember → respond → END`` compiled with a checkpointer *and* a store."""

    info = INFO

    @classmethod
    def check_params(cls, params: Mapping[str, Any], context: StrategyContext) -> None:
        check_ttl_params(INFO.id, params)

    def __init__(
        self, context: StrategyContext | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
        self._facts_this_turn: dict[str, str] = {}
        self._expired_this_turn: list[str] = []
        self._refused_this_turn: list[dict[str, Any]] = []
        self._store_connection: sqlite3.Connection | None = None
        self._postgres_connection: Any = None
        super().__init__(context, params)

    @property
    def namespace(self) -> tuple[str, ...]:
        return ("users", namespace_label(self.context.user_id), "facts")

    # -- the graph --------------------------------------------------------------------------
    def _open_checkpointer(self) -> BaseCheckpointSaver:
        if self.params["store"] == "postgres":
            return open_postgres_saver(self.context.storage, "long_term.store=postgres")
        return super()._open_checkpointer()

    def _build_graph(self, checkpointer: BaseCheckpointSaver) -> Any:
        from langgraph.graph import END, START, MessagesState, StateGraph
        from langgraph.store.memory import InMemoryStore

        ttl = ttl_config(self.params["ttl_seconds"], self.params["refresh_on_read"])
        if self.params["store"] == "sqlite":
            self.store: BaseStore = open_sqlite_store(self.context, ttl)
            self._store_connection = self.store.conn  # type: ignore[attr-defined]
        elif self.params["store"] == "postgres":
            # Its own connection: LangGraph writes checkpoints from a background thread while a node
            # uses the store, and one psycopg connection must not be in pipeline mode for both at once.
            self._postgres_connection = storage.postgres_connection(
                self.context.storage, "long_term.store=postgres"
            )
            self.store = open_postgres_store(self.context.storage, self._postgres_connection, ttl)
        else:  # shared by this user's conversations, as a server process would keep it
            self.store = self.shared_backend("store", InMemoryStore)
        self.extract_model = self.make_model(EXTRACT_FACTS)

        class LongTermState(MessagesState):
            removed_messages: int  # messages removed from the thread so far

        builder = StateGraph(LongTermState)
        builder.add_node("remember", self._remember)
        builder.add_node("respond", self._respond_node)
        builder.add_edge(START, "remember")
        builder.add_edge("remember", "respond")
        builder.add_edge("respond", END)
        return builder.compile(checkpointer=checkpointer, store=self.store)

    def _remember(self, state: MessagesState, runtime: Runtime) -> dict[str, Any]:
        """Extract facts from the new message into the store; a failed extraction only skips this."""
        user_text = state["messages"][-1].text
        try:
            answer = self.extract_model.invoke(
                [HumanMessage(FACT_EXTRACTION_PROMPT.format(message=user_text))]
            )
        except Exception as exc:  # degrade: the reply can still use the facts already known
            self.note(Message("strategy.note.facts_skipped", error=f"{type(exc).__name__}: {exc}"))
            return {}
        facts = parse_facts(answer.text)
        if self.params["screen_facts"]:
            facts = self._screened(facts, user_text)
        for key, value in facts.items():
            runtime.store.put(
                self.namespace,
                key,
                {
                    "value": value,
                    "source": user_text[:MAX_SOURCE_CHARS],
                    "conversation_id": self.conversation_id,
                    "told_at": self.context.clock.now().isoformat(),
                },
            )
        self._facts_this_turn = facts
        return {}

    def _screened(self, facts: dict[str, str], user_text: str) -> dict[str, str]:
        """The facts the screen lets through; each refused one goes into the state and the turn's notes."""
        kept: dict[str, str] = {}
        for key, value in facts.items():
            reason = screen_fact(key, value, user_text)
            if reason is None:
                kept[key] = value
                continue
            self._refused_this_turn.append(
                {"key": key, "value": value, "source": user_text[:MAX_SOURCE_CHARS], "reason": reason}
            )
            self.note(Message("strategy.note.fact_refused", key=key, value=value, reason=reason))
        return kept

    def _respond_node(self, state: MessagesState, runtime: Runtime) -> dict[str, Any]:
        facts = facts_in_told_order(runtime.store, self.namespace)
        system_text = self.system_prompt
        if facts:
            lines = "\n".join(f"- {item.key}: {item.value.get('value', '')}" for item in facts)
            system_text = f"{system_text}\n\n{header(LONG_TERM_FACTS_HEADER, self.context.language)}\n{lines}"
        recent = trim_messages(
            state["messages"],
            max_tokens=self.params["recent_messages"],
            token_counter=len,
            strategy="last",
            start_on="human",
        )
        response = self.reply_model.invoke([SystemMessage(system_text), *recent])
        removed = self._older_than_next_prompt([*state["messages"], response])
        return {
            "messages": [response, *(RemoveMessage(id=str(message.id)) for message in removed)],
            "removed_messages": state.get("removed_messages", 0) + len(removed),
        }

    def _older_than_next_prompt(self, messages: list[BaseMessage]) -> list[BaseMessage]:
        """The messages no later prompt can include: all but the last ``recent_messages``.

        The next prompt trims the kept ones plus the next user message to the last ``recent_messages``,
        so it is the same prompt the whole thread would give.
        """
        return messages[: max(len(messages) - self.params["recent_messages"], 0)]

    def _respond(self, user_text: str) -> str:
        self._facts_this_turn, self._refused_this_turn = {}, []
        # Expired facts leave the store before this turn reads it (SqliteStore would still return them).
        self._expired_this_turn = sweep_expired(self.store, self.namespace)
        unsupported = ttl_unsupported(self.store, self.params["ttl_seconds"])
        if unsupported is not None:
            self.note(unsupported)
        return self._run_turn(user_text)

    # -- memory state -----------------------------------------------------------------------
    def stored_facts(self) -> list[dict[str, Any]]:
        """The user's facts in the store: namespace, key, value, source, updated_at."""
        return [
            {
                "namespace": list(item.namespace),
                "key": item.key,
                "value": item.value.get("value"),
                "source": item.value.get("source"),
                # Told in an earlier conversation of this user: carried over by the store, not the thread.
                "from_earlier_conversation": item.value.get("conversation_id", self.conversation_id)
                != self.conversation_id,
                "told_at": item.value.get("told_at"),
                "updated_at": str(item.updated_at),
            }
            for item in facts_in_told_order(self.store, self.namespace, refresh_ttl=False)
        ]

    def _rollback_point(self) -> Any:
        found = self.store.search(self.namespace, limit=MAX_FACTS, refresh_ttl=False)
        return super()._rollback_point(), {item.key: dict(item.value) for item in found}

    def _rollback(self, point: Any) -> None:
        head, items = point
        super()._rollback(head)
        found = self.store.search(self.namespace, limit=MAX_FACTS, refresh_ttl=False)
        current = {item.key: item.value for item in found}
        for key in current.keys() - items.keys():
            self.store.delete(self.namespace, key)
        for key, value in items.items():
            if current.get(key) != value:
                self.store.put(self.namespace, key, value)
        self._facts_this_turn = {}

    def clear(self) -> None:
        """Forget this conversation's messages; the user's facts stay (``forget_user`` deletes them)."""
        super().clear()
        self._facts_this_turn, self._expired_this_turn = {}, []

    def forget_user(self) -> None:
        """Delete the user's stored facts, in every conversation of theirs."""
        for item in self.store.search(self.namespace, limit=MAX_FACTS, refresh_ttl=False):
            self.store.delete(self.namespace, item.key)
        self._facts_this_turn, self._expired_this_turn = {}, []

    def close(self) -> None:
        super().close()
        if self._store_connection is not None:
            self._store_connection.close()
            self._store_connection = None
        if self._postgres_connection is not None:
            self._postgres_connection.close()
            self._postgres_connection = None

    def snapshot(self) -> dict[str, Any]:
        return {
            "store": self.params["store"],
            "thread_id": self.thread_id,
            "namespace": list(self.namespace),
            "items": self.stored_facts(),
            "facts_this_turn": dict(self._facts_this_turn),
            **({"refused_this_turn": list(self._refused_this_turn)} if self.params["screen_facts"] else {}),
            **expiry_state(
                self.store,
                self.namespace,
                self.params["ttl_seconds"],
                self._expired_this_turn,
                self.context.clock,
            ),
            "recent_messages": self.params["recent_messages"],
            **paged("messages", self.messages(), messages_as_json),
            "messages_removed": self.head_values().get("removed_messages", 0),
        }


STRATEGY = LongTermStrategy
