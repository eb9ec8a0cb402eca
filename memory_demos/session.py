"""Typed access to one user's state in ``st.session_state``: prefixed keys, set with ``setdefault``.

Everything per user lives here (language, provider and key, panes with their strategies and turns,
the in-flight message, what each page keeps between runs); nothing of it is cached across sessions.
The accessor also works on a plain dict, so it can be tested without Streamlit.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator, MutableMapping
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import streamlit as st

from memory_demos.conversation_link import ConversationManifest, PaneManifest
from memory_demos.defaults import MAX_PANES, default_system_prompt, new_conversation_id
from memory_demos.lab_config import LabConfig, load_lab_config
from memory_demos.page_state import FailureLabState, MigrationState, ScorecardState
from memory_demos.panes import DEFAULT_PANE_PARAMS, MIN_PANES, Pane, SessionLifecycle, default_strategy_ids
from memory_demos.providers.chat_models import ProviderConfig
from memory_demos.providers.errors import error_detail
from memory_demos.runner import BroadcastJob
from memory_demos.strategies.base import InputError, StrategyContext
from memory_demos.strategies.registry import parse_params, server_backed_params
from memory_demos.workshop.budget import BudgetGate, SessionBudget

KEY_PREFIX = "ml_"
WIDGET_PREFIX = KEY_PREFIX + "w_"
Language = Literal["en", "zh"]
LANGUAGES: tuple[Language, ...] = ("en", "zh")
DEFAULT_LANGUAGE: Language = "en"

T = TypeVar("T")


def widget_key(*parts: str) -> str:
    """A prefixed Streamlit widget key, e.g. ``ml_w_pane_3_k``."""
    return WIDGET_PREFIX + "_".join(parts)


@dataclass(frozen=True)
class Limits:
    """What one session may do: message length (characters) and pane count."""

    max_message_chars: int
    min_panes: int = MIN_PANES
    max_panes: int = MAX_PANES


NoticePlace = Literal["page", "chat"]


@dataclass(frozen=True)
class Notice:
    """A one-shot message for the next render: kind is info, success, warning or error.

    ``place`` is where it is drawn: at the top of the page, or by the chat box (a refused message,
    where the attendee is looking).
    """

    kind: str
    message: str
    detail: str | None = None
    place: NoticePlace = "page"


class WidgetValues(MutableMapping[str, Any]):
    """The widget values in a session's state: only keys made by ``widget_key`` may be read or set."""

    def __init__(self, state: MutableMapping[str, Any]) -> None:
        self._state = state

    def _checked(self, key: str) -> str:
        if not key.startswith(WIDGET_PREFIX):
            raise KeyError(f"{key!r} is not a widget key")
        return key

    def __getitem__(self, key: str) -> Any:
        return self._state[self._checked(key)]

    def __setitem__(self, key: str, value: Any) -> None:
        self._state[self._checked(key)] = value

    def __delitem__(self, key: str) -> None:
        del self._state[self._checked(key)]

    def __iter__(self) -> Iterator[str]:
        return (key for key in list(self._state) if str(key).startswith(WIDGET_PREFIX))

    def __len__(self) -> int:
        return sum(1 for _ in self)


class LabSession:
    """The typed accessor: one property per thing a user owns, stored under ``ml_``-prefixed keys."""

    def __init__(self, state: MutableMapping[str, Any] | None = None) -> None:
        self._state = st.session_state if state is None else state

    def _setdefault(self, name: str, factory: Callable[[], T]) -> T:
        key = KEY_PREFIX + name
        try:  # one lookup: every interface text asks for the language, hundreds of times a run
            return self._state[key]
        except KeyError:
            self._state[key] = value = factory()
            return value

    def _set(self, name: str, value: Any) -> None:
        self._state[KEY_PREFIX + name] = value

    # -- language ---------------------------------------------------------------------------
    @property
    def language(self) -> Language:
        value = self._setdefault("language", lambda: DEFAULT_LANGUAGE)
        return value if value in LANGUAGES else DEFAULT_LANGUAGE

    @language.setter
    def language(self, value: str) -> None:
        language = value if value in LANGUAGES else DEFAULT_LANGUAGE
        changed = language != self.language
        self._set("language", language)
        if changed:
            self._follow_language()

    def _follow_language(self) -> None:
        """Rebuild the panes that have answered nothing and whose embedding model follows the language.

        A pane with turns keeps the model its memory was embedded with (its header names it): vectors of
        two models cannot be compared, so switching would make its earlier exchanges unfindable.
        """
        context = self.strategy_context()
        for pane in self._state.get(KEY_PREFIX + "panes", []):
            strategy = pane.strategy
            if strategy is None or pane.turns or pane.restored or pane.memory_back:
                continue
            in_use = strategy.embedding_model()
            if in_use is not None and in_use != context.embedding_model(strategy.params["embeddings"]):
                self.build(pane)

    # -- who and what -----------------------------------------------------------------------
    @property
    def user_id(self) -> str:
        """A random id per browser session (in a workshop, the attendee's: ``adopt_user``): long-term stores
        are namespaced by it, so users never mix.

        It is also the owner id of the session's conversation link; opening a link adopts its owner id.
        """
        return self._setdefault("user_id", lambda: "u" + uuid.uuid4().hex)

    def adopt_user(self, user_id: str) -> None:
        """Make ``user_id`` (a workshop attendee's, from their signed cookie) this session's user, so their
        long-term memory in a shared store follows them to a reload or a new tab. A session that already
        has a user (its panes are built for it, or a conversation link made it the link's owner) keeps it.
        """
        self._setdefault("user_id", lambda: user_id)

    @property
    def conversation_id(self) -> str:
        """The random id of this session's Compare conversation (what a conversation link names)."""
        return self._setdefault("conversation_id", new_conversation_id)

    @property
    def registry_key(self) -> str:
        """An opaque key for the process-wide session registry (unrelated to every other id)."""
        return self._setdefault("registry_key", lambda: "s" + uuid.uuid4().hex)

    @property
    def lifecycle(self) -> SessionLifecycle:
        return self._setdefault("lifecycle", SessionLifecycle)

    @property
    def budget(self) -> SessionBudget | None:
        """The attendee's workshop budget (None outside workshop mode)."""
        return self._state.get(KEY_PREFIX + "budget")

    @property
    def gate(self) -> BudgetGate | None:
        """The gate every model of this session goes through (None outside workshop mode)."""
        return self._state.get(KEY_PREFIX + "gate")

    def configure(
        self,
        config: LabConfig,
        budget: SessionBudget | None = None,
        gate_factory: Callable[[SessionBudget], BudgetGate] | None = None,
    ) -> None:
        """Apply the configuration: limits, storage, a budget and its gate, the host's model to start with.

        Called on every script run; only the first call sets the starting model. ``budget`` is the
        attendee's (the room keeps it across reloads and tabs); without one the session gets its own,
        replaced only when the limits changed (the tokens spent so far are carried over).
        """
        self._set("config", config)
        workshop = config.workshop
        if workshop.host is not None and KEY_PREFIX + "provider" not in self._state:
            self._set("provider", workshop.host.provider_config())
        current = self.budget
        if not workshop.enabled:
            budget = None
        elif budget is None and (current is None or current.limits != workshop.limits):
            budget = SessionBudget(workshop.limits)
            budget.record(current.tokens_used if current is not None else 0)
        elif budget is None:
            budget = current
        if budget is not current or (budget is not None and self.gate is None):
            self._set("budget", budget)
            gate = None if budget is None else (gate_factory or BudgetGate)(budget)
            self._set("gate", gate)

    @property
    def provider(self) -> ProviderConfig:
        """The chat model this session uses, carrying the session's budget gate (workshop mode).

        The API key, if any, is a SecretStr held only here.
        """
        provider = self._setdefault("provider", ProviderConfig)
        gate = self.gate
        return provider if provider.gate is gate else provider.with_overrides(gate=gate)

    @provider.setter
    def provider(self, value: ProviderConfig) -> None:
        self._set("provider", value)

    @property
    def config(self) -> LabConfig:
        """The configuration the frame applied (``configure``); before that, the environment's."""
        return self._state.get(KEY_PREFIX + "config") or load_lab_config()

    @property
    def limits(self) -> Limits:
        config = self.config
        return Limits(max_message_chars=config.max_message_chars, max_panes=config.max_panes)

    # -- panes ------------------------------------------------------------------------------
    @property
    def panes(self) -> list[Pane]:
        """The Compare page's panes, in display order (created with defaults on first use)."""
        panes = self._setdefault("panes", list)
        if not panes and not self._state.get(KEY_PREFIX + "panes_initialised"):
            self._set("panes_initialised", True)
            for strategy_id in default_strategy_ids():
                chosen = DEFAULT_PANE_PARAMS.get(strategy_id)
                server = server_backed_params(strategy_id, self.config.storage.sql_url)
                panes.append(self.new_pane(strategy_id, {**server, **chosen} if chosen else None))
        return panes

    def new_pane(self, strategy_id: str, params: dict[str, Any] | None = None) -> Pane:
        """A pane with a freshly built strategy (not yet added to ``panes``)."""
        counter = self._setdefault("pane_counter", lambda: 0) + 1
        self._set("pane_counter", counter)
        if params is None:
            params = server_backed_params(strategy_id, self.config.storage.sql_url)
        pane = Pane(pane_id=f"p{counter}", strategy_id=strategy_id, params=dict(params))
        self.build(pane)
        return pane

    def pane(self, pane_id: str) -> Pane | None:
        return next((pane for pane in self.panes if pane.pane_id == pane_id), None)

    def strategy_context(self) -> StrategyContext:
        """What this session's strategies are built with: its model, user id, message limit and storage."""
        return StrategyContext.from_config(
            self.config,
            provider=self.provider,
            user_id=self.user_id,
            language=self.language,
            system_prompt=default_system_prompt(self.language),  # a Chinese page's prompt is Chinese
        )

    def build(self, pane: Pane, *, fresh: bool = True) -> None:
        """(Re)build a pane's strategy for the current provider (see ``Pane.build``)."""
        pane.build(self.strategy_context(), fresh=fresh)

    def parse_pane_params(self, strategy_id: str, raw: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
        """The typed parameters for a pane of ``strategy_id`` and None, or ``{}`` and why ``raw`` cannot be
        used (``registry.parse_params`` in this session's context); builds nothing."""
        try:
            return parse_params(strategy_id, raw, self.strategy_context()), None
        except InputError as exc:
            return {}, error_detail(exc)

    def rebuild_all(self) -> int:
        """Rebuild every pane (after a provider change); returns how many panes were rebuilt."""
        panes = self.panes
        for pane in panes:
            self.build(pane)
        return len(panes)

    def remove_pane(self, pane_id: str) -> None:
        panes = self.panes
        for index, pane in enumerate(panes):
            if pane.pane_id == pane_id:
                pane.release()
                del panes[index]
                return

    # -- idle clean-up and conversation links -------------------------------------------------
    def releaser(self) -> Callable[[], bool]:
        """The callback the session registry calls when this session has been idle too long.

        It holds the real pane list (never ``st.session_state``, which means whichever session is
        running): the registry may call it from another session's script thread.
        """
        panes = self.panes
        lifecycle = self.lifecycle

        def release() -> bool:
            with lifecycle.lock:
                if lifecycle.running:
                    return False  # a turn is running: its reply would be lost; the next sweep retries
                lifecycle.released = True
                for pane in list(panes):
                    pane.release()
                return True

        return release

    def revive(self) -> bool:
        """After an idle release: rebuild every pane (persisted memories come back); True if it did."""
        lifecycle = self.lifecycle
        with lifecycle.lock:
            if not lifecycle.released:
                return False
            lifecycle.released = False
            for pane in self.panes:
                turns = pane.turns if pane.persisted else []
                self.build(pane, fresh=False)
                pane.turns = turns
        self.job = None
        return True

    def manifest(self) -> ConversationManifest:
        """The panes as a conversation link reopens them: strategies, parameters and conversation ids."""
        return ConversationManifest(
            panes=tuple(
                PaneManifest(pane.strategy_id, dict(pane.params), pane.conversation_id, pane.persisted)
                for pane in self.panes
            )
        )

    def restore(self, owner_id: str, conversation_id: str, manifest: ConversationManifest) -> None:
        """Become the owner of a linked conversation and rebuild its panes (persisted memories come back)."""
        panes = self.panes
        for pane in panes:
            pane.release()
        panes.clear()  # the same list object: the registry's release callback holds it
        self._set("user_id", owner_id)
        self._set("conversation_id", conversation_id)
        self.job = None
        for item in manifest.panes:
            counter = self._setdefault("pane_counter", lambda: 0) + 1
            self._set("pane_counter", counter)
            pane = Pane(
                pane_id=f"p{counter}",
                strategy_id=item.strategy_id,
                params=dict(item.params),
                conversation_id=item.conversation_id,
            )
            self.build(pane, fresh=False)
            panes.append(pane)

    # -- the message in flight ---------------------------------------------------------------
    @property
    def job(self) -> BroadcastJob | None:
        return self._state.get(KEY_PREFIX + "job")

    @job.setter
    def job(self, value: BroadcastJob | None) -> None:
        self._set("job", value)

    @property
    def busy(self) -> bool:
        """True while a message is still being answered."""
        job = self.job
        return job is not None and not job.finished

    @property
    def chat_refill(self) -> str | None:
        """A refused Compare message, to put back into the chat box (Streamlit empties it on submit)."""
        return self._state.get(KEY_PREFIX + "chat_refill")

    @chat_refill.setter
    def chat_refill(self, text: str | None) -> None:
        self._set("chat_refill", text)

    # -- what the teaching pages keep between runs ----------------------------------------------
    def migration(self, step_count: int) -> MigrationState:
        """The migration guide's state (a guide of ``step_count`` steps)."""
        return self._setdefault("migration", lambda: MigrationState(step_count))

    @property
    def failure_lab(self) -> FailureLabState:
        return self._setdefault("failure_lab", FailureLabState)

    @property
    def scorecard(self) -> ScorecardState:
        return self._setdefault("scorecard", ScorecardState)

    @property
    def widgets(self) -> WidgetValues:
        """The values of this session's widgets, by ``widget_key`` (Streamlit keeps them in this state)."""
        return WidgetValues(self._state)

    # -- one-shot notices shown after a rerun --------------------------------------------------
    def flash(
        self, kind: str, message: str, detail: str | None = None, *, place: NoticePlace = "page"
    ) -> None:
        """Queue a notice: ``message`` is interface text; ``detail`` (an error) is shown as plain text."""
        self._setdefault("flash", list).append(Notice(kind, message, detail, place))

    @property
    def has_flashes(self) -> bool:
        """True if a notice waits to be shown."""
        return bool(self._state.get(KEY_PREFIX + "flash"))

    def take_flashes(self, place: NoticePlace | None = None) -> list[Notice]:
        """The queued notices for ``place`` (all of them when None), forgotten once taken."""
        queued = list(self._setdefault("flash", list))
        taken = [notice for notice in queued if place is None or notice.place == place]
        self._set("flash", [notice for notice in queued if notice not in taken])
        return taken


def get_session() -> LabSession:
    """The accessor over the running Streamlit session's state."""
    return LabSession()
