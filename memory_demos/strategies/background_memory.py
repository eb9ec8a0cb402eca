"""``background_memory``: memories formed off the reply path by LangMem's memory store manager.

The reply sends the last ``recent_turns`` exchanges and the ``k`` stored memories closest to the new
message (a system block); it never waits for memory. After the reply, the exchange is handed to
``ReflectionExecutor(create_memory_store_manager(…))``, which extracts, updates and deletes memories in
the user's LangGraph store (``("memories", <user>)``, the vector index the project ships). A memory is
there only once the manager has run: a question asked before that is answered without it.

When the manager runs depends on ``clock``:

- ``turns`` (the default, and what ``replay`` and the scorecard use): a scenario clock that counts user
  messages. The exchange of turn *t* is processed right after the reply of turn *t* + ``delay``
  (``delay=0``: right after its own reply; 1 by default), so its memories are available from turn
  *t* + ``delay`` + 1, the same on every run. The executor is handed each due run with
  ``after_seconds=0`` and waited for, so its model calls are counted in the turn they ran in.
- ``seconds``: LangMem's own quiet delay. Each reply submits everything not yet processed with
  ``after_seconds=delay`` for this thread; a new message within the delay cancels the pending run and
  submits again (the executor's debounce), so memories form only once the conversation goes quiet.
  The calls a run makes between turns are counted with the next turn.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from memory_demos.i18n import Message
from memory_demos.prompt_markers import MANAGE_MEMORIES
from memory_demos.prompts import LANGMEM_MEMORIES_HEADER, header
from memory_demos.strategies.base import (
    MemoryPart,
    ParamSpec,
    Strategy,
    StrategyContext,
    StrategyInfo,
    Threshold,
    TokenListener,
)
from memory_demos.strategies.memory_tools import build_window_middleware
from memory_demos.strategies.shared.classic import messages_as_json
from memory_demos.strategies.shared.embedding_param import EMBEDDINGS_PARAM
from memory_demos.strategies.shared.langmem_agent import LangMemStoreStrategy
from memory_demos.strategies.shared.langmem_store import (
    STORE_PARAM,
    MemoryStore,
    memory_content,
    store_diff,
)
from memory_demos.strategies.shared.memory_audit import AUDIT_KEY, audit_state
from memory_demos.strategies.shared.paging import paged

if TYPE_CHECKING:
    from langgraph.checkpoint.base import BaseCheckpointSaver

    from memory_demos.turn import Turn

VIA_MANAGER = "manager"
RUN_TIMEOUT_SECONDS = 300.0

INFO = StrategyInfo(
    id="background_memory",
    title="LangMem background memory manager (ReflectionExecutor)",
    kind="modern",
    langchain_classes=(
        "langmem.create_memory_store_manager",
        "langmem.ReflectionExecutor",
        "langchain.agents.create_agent",
        "langgraph.store.memory.InMemoryStore",
        "langgraph.store.sqlite.SqliteStore",
        "langgraph.store.postgres.PostgresStore",
    ),
    summary=(
        "The reply keeps a short window and the stored memories; LangMem's memory manager forms memories "
        "in the background after a delay, so a fact is remembered only once the manager has run."
    ),
    title_zh="LangMem 后台记忆管理器（ReflectionExecutor）",
    summary_zh=(
        "回答只带一个短窗口和已存的记忆；LangMem 的记忆管理器在延迟之后于后台形成记忆，所以事实要等管理器运行"
        "之后才会被记住。"
    ),
    params=(
        ParamSpec(
            "recent_turns",
            1,
            "Recent exchanges sent as messages with the memories (0: only the new message).",
            minimum=0,
            help_zh="随记忆一起作为消息发送的最近几轮（0：只发新消息）。",
        ),
        ParamSpec(
            "k",
            5,
            "Stored memories found by store.search(query=the new message) and sent with it.",
            minimum=1,
            help_zh="用 store.search(query=新消息) 找到、随新消息发送的记忆条数。",
        ),
        ParamSpec(
            "clock",
            "turns",
            "What the delay counts: turns (user messages; the same on every run, used by replay) or seconds "
            "(LangMem's quiet delay: ReflectionExecutor's after_seconds, cancelled by a new message).",
            choices=("turns", "seconds"),
            help_zh="延迟按什么计：turns（用户消息条数；每次运行结果相同，回放使用）或 seconds（LangMem 的"
            "静默延迟：ReflectionExecutor 的 after_seconds，新消息会取消它）。",
        ),
        ParamSpec(
            "delay",
            1,
            "How long after a turn the manager processes it: further turns (clock=turns; 0: right after "
            "its reply) or seconds of quiet (clock=seconds).",
            minimum=0,
            maximum=3600,
            help_zh="一轮之后多久由管理器处理它：再过几轮（clock=turns；0：回答后立即）或安静多少秒"
            "（clock=seconds）。",
        ),
        STORE_PARAM,
        EMBEDDINGS_PARAM,
    ),
    thresholds=(Threshold("recent_turns", "keep", "exchanges"),),
    keeps=(MemoryPart("messages", "conversation"), MemoryPart("memories", "user")),
)


def memories_block(system_prompt: str, memories: list[str], language: str = "en") -> str:
    """The reply's system text: the system prompt, then each memory found, one a line, oldest first (under
    a header in ``language``)."""
    if not memories:
        return system_prompt
    # One memory a line, as written: the header says whose they are. (Prefixed "User:", a reader takes them
    # for things said in this very message.)
    lines = "\n".join(memories)
    return f"{system_prompt}\n\n{header(LANGMEM_MEMORIES_HEADER, language)}\n{lines}"


def build_memory_middleware(
    store: MemoryStore, k: int, system_prompt: str, on_hits: Any, language: str = "en"
) -> Any:
    """A middleware that puts the ``k`` memories closest to the new message into the system message."""
    from langchain.agents.middleware import AgentMiddleware

    class StoredMemories(AgentMiddleware):
        def wrap_model_call(self, request: Any, handler: Any) -> Any:
            question = next(m for m in reversed(request.messages) if isinstance(m, HumanMessage))
            hits = store.store.search(store.namespace, query=question.text, limit=k)
            found = [memory_content(hit.value) for hit in sorted(hits, key=lambda hit: hit.created_at)]
            on_hits(
                [{"key": hit.key, "content": memory_content(hit.value), "score": hit.score} for hit in hits]
            )
            return handler(
                request.override(system_message=SystemMessage(memories_block(system_prompt, found, language)))
            )

    return StoredMemories()


@dataclasses.dataclass
class ManagerRun:
    """One run of the memory manager: which turns it read, when it ran, what it wrote, what it cost."""

    number: int
    from_turns: tuple[int, ...]
    due_after_turn: int | None  # clock=turns: the turn whose reply it follows
    ran_after_turn: int | None = None  # the last turn finished when it finished
    status: str = "pending"  # pending, done, failed, cancelled
    writes: int = 0
    tokens: int | None = None
    seconds: float | None = None
    finished_at: str | None = None
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["from_turns"] = list(self.from_turns)
        data["available_from_turn"] = None if self.ran_after_turn is None else self.ran_after_turn + 1
        return data


class BackgroundMemoryStrategy(LangMemStoreStrategy):
    """``create_agent`` over a short window and the store; ``ReflectionExecutor`` forms the memories."""

    info = INFO
    memory_fields = ("content.content",)  # the manager stores {"kind": ..., "content": {"content": ...}}

    def __init__(
        self, context: StrategyContext | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
        self.runs: list[ManagerRun] = []
        self._hits: list[dict[str, Any]] = []
        self._unprocessed: list[tuple[int, list[BaseMessage]]] = []  # (turn, its exchange), oldest first
        self._between_turns: list[Any] = []  # clock=seconds: calls a run made while no turn was running
        self._lock = threading.Lock()
        self.executor: Any = None
        super().__init__(context, params)

    def _build_graph(self, checkpointer: BaseCheckpointSaver) -> Any:
        from langchain.agents import create_agent
        from langmem import ReflectionExecutor, create_memory_store_manager

        memories = self._open_memories()
        self.manager = create_memory_store_manager(
            self.make_model(MANAGE_MEMORIES),
            namespace=memories.namespace,
            store=memories.store,
            enable_deletes=True,  # LangMem leaves deletes off by default; a retraction should remove
        )
        self.executor = ReflectionExecutor(self.manager, store=memories.store)
        middleware = [
            build_memory_middleware(
                memories, self.params["k"], self.system_prompt, self._record_hits, self.context.language
            ),
            build_window_middleware(self.params["recent_turns"]),
        ]
        return create_agent(
            model=self.reply_model,
            tools=[],
            system_prompt=self.system_prompt,
            middleware=middleware,
            checkpointer=checkpointer,
            store=memories.store,
        )

    def _record_hits(self, hits: list[dict[str, Any]]) -> None:
        self._hits = hits

    # -- the turn ---------------------------------------------------------------------------
    def _respond(self, user_text: str) -> str:
        self._hits = []
        result = self._invoke({"messages": [HumanMessage(user_text)]})
        reply = result["messages"][-1]
        turn = len(self.turns) + 1
        exchange: list[BaseMessage] = [HumanMessage(user_text), AIMessage(reply.text)]
        if self.params["clock"] == "turns":
            self._unprocessed.append((turn, exchange))
            self._run_due(turn)
        else:
            self._submit_quiet(turn, exchange)
        return reply.text

    def _run_due(self, turn: int, *, everything: bool = False) -> None:
        """clock=turns: run the manager on every exchange whose delay has passed (``everything``: on all
        that wait, as when the conversation ends), oldest first."""
        delay = self.params["delay"]
        due = [(t, m) for t, m in self._unprocessed if everything or t + delay <= turn]
        self._unprocessed = [(t, m) for t, m in self._unprocessed if not everything and t + delay > turn]
        for from_turn, messages in due:
            run = ManagerRun(len(self.runs) + 1, (from_turn,), due_after_turn=turn)
            self.runs.append(run)
            assert self.memories is not None
            before = self.memories.values()
            started = time.perf_counter()
            future = self.executor.submit(
                {"messages": messages}, config=self._manager_config(), after_seconds=0
            )
            try:
                puts = future.result(timeout=RUN_TIMEOUT_SECONDS)
            except Exception as exc:  # the reply stands; the failed run and its calls are shown
                self._finish(run, before, turn, started, error=f"{type(exc).__name__}: {exc}")
                self.note(Message("strategy.note.manager_failed", run=run.number, error=run.error or ""))
                continue
            self._finish(run, before, turn, started, puts=puts)
            if run.writes:
                formed = Message(
                    "strategy.note.memory_formed",
                    run=run.number,
                    turns=from_turn,
                    writes=run.writes,
                    available=turn + 1,
                )
            else:
                formed = Message("strategy.note.memory_unchanged", run=run.number, turns=from_turn)
            self.note(formed)

    def new_conversation(self, conversation_id: str | None = None) -> Strategy:
        """The same user's next conversation. This one has ended, so it has gone quiet: the manager runs
        now on every exchange still waiting (whatever the clock), and the calls it makes are counted with
        the next conversation's first turn, where the memories it formed are available."""
        with self._turn_lock:
            for run in self.runs:
                if run.status == "pending":  # clock=seconds: run now what the delay was waiting for
                    run.status = "cancelled"
            if self.executor is not None and self._unprocessed:
                self._run_due(len(self.turns), everything=True)
            calls = self.capture.drain()
        successor = super().new_conversation(conversation_id)
        if isinstance(successor, BackgroundMemoryStrategy):
            successor._between_turns.extend(calls)
        return successor

    def _submit_quiet(self, turn: int, exchange: list[BaseMessage]) -> None:
        """clock=seconds: submit everything unprocessed; the executor cancels the run pending before."""
        assert self.memories is not None
        with self._lock:
            for run in self.runs:
                if run.status == "pending":
                    run.status = "cancelled"
            self._unprocessed.append((turn, exchange))
            turns = tuple(t for t, _ in self._unprocessed)
            messages = [m for _, exchange_messages in self._unprocessed for m in exchange_messages]
            run = ManagerRun(len(self.runs) + 1, turns, due_after_turn=None)
            self.runs.append(run)
        before = self.memories.values()
        started = time.perf_counter()
        future = self.executor.submit(
            {"messages": messages},
            config=self._manager_config(),
            after_seconds=self.params["delay"],
            thread_id=self.thread_id,
        )
        future.add_done_callback(lambda done: self._quiet_run_done(done, run, before, started))

    def _quiet_run_done(self, future: Any, run: ManagerRun, before: dict[str, Any], started: float) -> None:
        if future.cancelled() or (future.exception() is None and future.result() is None):
            return  # superseded by a newer message (the executor's debounce)
        error = future.exception()
        with self._lock:
            puts = None if error is not None else future.result()
            failed = None if error is None else repr(error)
            self._finish(run, before, len(self.turns), started, error=failed, puts=puts)
            if error is None:
                done = set(run.from_turns)
                self._unprocessed = [(t, m) for t, m in self._unprocessed if t not in done]

    def _finish(
        self,
        run: ManagerRun,
        before: dict[str, Any],
        turn: int,
        started: float,
        *,
        error: str | None = None,
        puts: list[dict[str, Any]] | None = None,
    ) -> None:
        """Record a finished run: its writes (what the store changed, limited to the keys the manager says
        it put, so another pane of this user writing meanwhile is not taken for this run's), time, status."""
        assert self.memories is not None
        new = store_diff(before, self.memories.values(), turn=max(turn, 1), where=self.where, via=VIA_MANAGER)
        if puts is not None:
            put_keys = {str(put.get("key")) for put in puts}
            new = [w for w in new if w.operation == "delete" or w.key in put_keys]
        self.memories.persist(new)
        self.writes.extend(new)
        run.writes = len(new)
        run.ran_after_turn = turn
        run.seconds = round(time.perf_counter() - started, 3)
        run.finished_at = datetime.now(UTC).isoformat(timespec="seconds")
        run.status = "failed" if error else "done"
        run.error = error

    def _manager_config(self) -> dict[str, Any]:
        return {"configurable": {"thread_id": self.thread_id}}

    def send(self, user_text: str, on_token: TokenListener | None = None) -> Turn:
        """One turn; a quiet run's calls made since the last turn count in this one, and each run made in
        this turn gets its tokens (known only once the turn's calls are drained)."""
        self._between_turns.extend(self.capture.drain())
        turn = super().send(user_text, on_token)
        early, self._between_turns = self._between_turns, []
        turn.memory_calls[:0] = early
        number = len(self.turns)
        manager_calls = [c for c in turn.memory_calls if c.purpose == MANAGE_MEMORIES]
        ran_now = [run for run in self.runs if run.ran_after_turn == number and run.tokens is None]
        if len(ran_now) == 1 and manager_calls:
            run = ran_now[0]
            run.tokens = sum(c.total_tokens for c in manager_calls)
            made = [i for i, w in enumerate(self.writes) if w.turn == number and w.via == VIA_MANAGER]
            if len(made) == 1:
                self.writes[made[0]] = dataclasses.replace(self.writes[made[0]], tokens=run.tokens)
        if AUDIT_KEY in turn.state:
            turn.state.update(audit_state(self.writes))
            turn.state["manager_runs"] = [run.to_json() for run in self.runs]
        return turn

    # -- Strategy hooks ---------------------------------------------------------------------
    def _rollback_point(self) -> Any:
        assert self.memories is not None
        return super()._rollback_point(), list(self._unprocessed)

    def _rollback(self, point: Any) -> None:
        head, unprocessed = point
        super()._rollback(head)
        self._unprocessed = unprocessed  # a failed reply hands nothing to the manager

    def clear(self) -> None:
        """Forget this conversation's thread and what waits for the manager; the user's memories stay
        (``forget_user``)."""
        super().clear()
        self._unprocessed = []
        self.writes.clear()

    def close(self) -> None:
        if self.executor is not None:
            # Its worker is not a daemon thread: stop it, or the process waits for it at exit.
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = None
        super().close()

    def snapshot(self) -> dict[str, Any]:
        assert self.memories is not None
        return {
            **self.store_state(),
            "clock": self.params["clock"],
            "delay": self.params["delay"],
            **paged("memories", self.memories.rows()),
            "memories_sent": list(self._hits),
            "waiting_for_manager": [t for t, _ in self._unprocessed],
            "manager_runs": [run.to_json() for run in self.runs],
            **audit_state(self.writes),
            "recent_turns": self.params["recent_turns"],
            "thread_id": self.thread_id,
            **paged("messages", self.messages(), messages_as_json),
            "messages_removed": self.head_values().get("removed_messages", 0),
        }


STRATEGY = BackgroundMemoryStrategy
