"""The panes of a Compare conversation: what one pane holds, how it is built, and which panes come first.

A pane owns one strategy (its memory) and the turns it answered. Building goes through the registry
with a ``StrategyContext``; a build failure is kept on the pane as text, never raised.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from memory_demos.conversation_link import RestoredExchange, is_persisted, restored_exchanges
from memory_demos.defaults import new_conversation_id
from memory_demos.strategies.base import Strategy, StrategyContext
from memory_demos.strategies.registry import available_ids, build_strategy
from memory_demos.turn import Turn

MIN_PANES = 2
# Panes shown first, when their strategies exist: one of each idea the Compare page contrasts (everything,
# a window, a summary, retrieval from a store), the classic classes beside the LangChain 1.x forms
# (create_agent + SummarizationMiddleware; a LangGraph store searched by meaning).
DEFAULT_PANE_STRATEGIES: tuple[str, ...] = ("buffer", "window", "summarization", "semantic_store")
DEFAULT_PANE_COUNT = 4
# Parameters of the default panes where the strategy's own default would hide its idea in a short chat:
# at trigger_tokens=400 the middleware summarises nothing in eight messages of the offline model; at 150
# it does from the sixth, so the summary and its hidden call show in a first try.
DEFAULT_PANE_PARAMS: dict[str, dict[str, Any]] = {"summarization": {"trigger_tokens": 150}}
# Earlier conversations a pane keeps open to reopen; past this the oldest is closed (a workshop's memory).
MAX_CONVERSATIONS = 12


@dataclass
class PaneConversation:
    """One of a pane's conversations that is not on screen: its number (1, 2, ... in the order they were
    started), its strategy (this conversation's thread, history or memory object, still open) and turns."""

    number: int
    strategy: Strategy
    turns: list[Turn]
    restored: list[RestoredExchange] = field(default_factory=list)
    memory_back: bool = False

    @property
    def conversation_id(self) -> str:
        return self.strategy.conversation_id

    def release(self, persisted: bool) -> None:
        if persisted:
            self.strategy.close()
        else:
            getattr(self.strategy, "discard", self.strategy.close)()


@dataclass(frozen=True)
class ConversationRow:
    """A row of a pane's conversation list: its number, how many messages it has, whether it is shown."""

    number: int
    messages: int
    current: bool


@dataclass
class Pane:
    """One column of the Compare page: a strategy, its parameters, and the turns it has answered.

    ``turns`` is what the pane shows; a retried failed turn is replaced by its retry. ``restored`` are
    the earlier exchanges a persisted memory brought back (a conversation link): shown before ``turns``,
    their prompts and tokens were not recorded in this session.
    ``conversation_id`` (random) names this pane's memory in persisted backends; ``persisted`` says
    whether that memory outlives the process (a SQL backend, a Chroma server).
    """

    pane_id: str
    strategy_id: str
    params: dict[str, Any] = field(default_factory=dict)
    strategy: Strategy | None = None
    turns: list[Turn] = field(default_factory=list)
    build_error: str | None = None
    conversation_id: str = field(default_factory=new_conversation_id)
    persisted: bool = False
    restored: list[RestoredExchange] = field(default_factory=list)
    memory_back: bool = False  # built on a persisted memory that outlived the session (a link)
    # A what-if: the conversation's messages still to replay into this configuration, and what the
    # replay has cost so far (shown on the pane).
    replay_queue: list[str] = field(default_factory=list)
    replay_cost: ReplayCost | None = None
    # Which of the user's conversations the pane shows (1 first), and the others, still open to reopen.
    conversation_number: int = 1
    earlier: list[PaneConversation] = field(default_factory=list)

    def close(self) -> None:
        """Release the strategy's files and collections (safe to call twice)."""
        self._drop_earlier(persisted=True)
        if self.strategy is not None:
            try:
                self.strategy.close()
            finally:
                self.strategy = None

    def _drop_earlier(self, persisted: bool) -> None:
        earlier, self.earlier = self.earlier, []
        for conversation in earlier:
            conversation.release(persisted)

    # -- the user's conversations -------------------------------------------------------------
    def conversations(self) -> list[ConversationRow]:
        """The pane's conversations, by number: the one shown and the earlier ones it can reopen."""
        rows = [ConversationRow(c.number, len(c.restored) + len(c.turns), False) for c in self.earlier]
        rows.append(ConversationRow(self.conversation_number, len(self.restored) + len(self.turns), True))
        return sorted(rows, key=lambda row: row.number)

    def _stash(self) -> None:
        """Put the conversation on screen among the earlier ones (its strategy stays open)."""
        assert self.strategy is not None
        self.earlier.append(
            PaneConversation(
                self.conversation_number, self.strategy, self.turns, self.restored, self.memory_back
            )
        )

    def _show(
        self,
        number: int,
        strategy: Strategy,
        turns: list[Turn],
        restored: list[RestoredExchange],
        memory_back: bool,
    ) -> None:
        self.conversation_number = number
        self.strategy = strategy
        self.conversation_id = strategy.conversation_id
        self.turns, self.restored, self.memory_back = turns, restored, memory_back
        self.replay_queue, self.replay_cost = [], None

    def start_conversation(self) -> None:
        """The same user's next conversation (``Strategy.new_conversation``): what the strategy keeps per
        conversation starts empty, what it keeps per user carries over; this one can be reopened."""
        if self.strategy is None:
            return
        successor = self.strategy.new_conversation()
        number = max(row.number for row in self.conversations()) + 1
        self._stash()
        self._show(number, successor, [], [], False)
        while len(self.earlier) >= MAX_CONVERSATIONS:
            self.earlier.pop(0).release(self.persisted)

    def reopen(self, number: int) -> bool:
        """Show conversation ``number`` again, as it was left; True if the pane has it."""
        found = next((c for c in self.earlier if c.number == number), None)
        if found is None or self.strategy is None:
            return False
        self.earlier.remove(found)
        self._stash()
        self._show(found.number, found.strategy, found.turns, found.restored, found.memory_back)
        return True

    def release(self) -> None:
        """Free what the strategy holds in this process; discard what nobody can reopen.

        Persisted memories are only closed (a conversation link reopens them); for the others
        ``discard`` (where a strategy has it) also deletes collections kept elsewhere.
        """
        # A rebuilt pane keeps its conversation's number (it lines up with the other panes) but not the
        # earlier conversations: they belong to the memory it had.
        self._drop_earlier(self.persisted)
        strategy, self.strategy = self.strategy, None
        if strategy is None:
            return
        if self.persisted:
            strategy.close()
        else:
            getattr(strategy, "discard", strategy.close)()

    def build(self, context: StrategyContext, *, fresh: bool = True) -> None:
        """(Re)build the strategy in ``context``, forgetting the turns; a failure lands in ``build_error``.

        ``fresh`` starts a new conversation under a new id; otherwise the pane keeps its conversation
        id, so a persisted memory comes back (a conversation link, an idle session's return).
        """
        self.release()
        self.turns = []
        self.restored = []
        self.memory_back = False
        self.build_error = None
        self.replay_queue = []
        self.replay_cost = None
        if fresh:
            self.conversation_id = new_conversation_id()
        try:
            self.persisted = is_persisted(self.strategy_id, self.params, context.storage)
            own_context = replace(context, conversation_id=self.conversation_id)
            self.strategy = build_strategy(self.strategy_id, own_context, self.params)
        except Exception as exc:
            self.build_error = context.provider.describe(exc)
            return
        if not fresh and self.persisted:
            self.memory_back = True
            try:
                self.restored = restored_exchanges(self.strategy.stored_messages())
            except Exception:  # the memory is back; its messages just cannot be listed
                self.restored = []


@dataclass(frozen=True)
class ReplayCost:
    """What replaying a conversation into a pane did: messages sent again, model calls, tokens, seconds;
    ``failed_at`` is the message (1-based) whose turn failed and ended the replay, if one did."""

    messages: int
    model_calls: int
    tokens: int
    seconds: float
    failed_at: int | None = None

    def plus(self, other: ReplayCost) -> ReplayCost:
        """Both parts of a replay interrupted by a rerun and carried on in the next one."""
        return ReplayCost(
            self.messages + other.messages,
            self.model_calls + other.model_calls,
            self.tokens + other.tokens,
            self.seconds + other.seconds,
            other.failed_at or self.failed_at,
        )


def conversation_messages(panes: Sequence[Pane], number: int | None = None) -> list[str]:
    """The user messages of the conversation so far: those of the pane that has seen the most (restored
    exchanges first; panes added or reset later have seen fewer). With ``number``, only panes showing
    that conversation of the user count."""
    if number is not None:
        panes = [pane for pane in panes if pane.conversation_number == number]
    longest = max(panes, key=lambda pane: len(pane.restored) + len(pane.turns), default=None)
    if longest is None:
        return []
    return [exchange.user for exchange in longest.restored] + [turn.user_text for turn in longest.turns]


class SessionLifecycle:
    """Whether the session's strategies were released (idle clean-up), and how many turns run now;
    shared with the release callback, which declines while a turn runs (its reply would be lost)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.released = False
        self.running = 0

    def __enter__(self) -> SessionLifecycle:
        with self.lock:
            self.running += 1
        return self

    def __exit__(self, *exc: object) -> None:
        with self.lock:
            self.running -= 1


def unseen_messages(panes: Sequence[Pane], pane: Pane) -> int:
    """How many messages of the conversation ``pane`` has not seen: it was added, reset or rebuilt after
    the other panes answered them (restored exchanges count as seen by the panes that restored them).
    0 for a pane whose stored memory came back: it saw the earlier messages even if it lists none."""

    def seen(one: Pane) -> int:
        return len(one.restored) + len(one.turns)

    if pane.memory_back:
        return 0
    same = [other for other in panes if other.conversation_number == pane.conversation_number]
    return max((seen(other) for other in same), default=0) - seen(pane)


def default_strategy_ids() -> list[str]:
    """Up to four panes: preferred strategies first, then any other available; at least two."""
    available = list(available_ids())
    if not available:
        return []
    chosen = [sid for sid in DEFAULT_PANE_STRATEGIES if sid in available]
    chosen += [sid for sid in available if sid not in chosen]
    chosen = chosen[:DEFAULT_PANE_COUNT]
    while len(chosen) < MIN_PANES:
        chosen.append(available[0])
    return chosen
