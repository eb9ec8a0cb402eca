"""One Compare pane: header and parameter editor, context gauge, conversation, and the turn inspector.

The pane gets plain data (a ``PaneView``) and callbacks (``PaneActions``); it never builds or runs a
strategy itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from memory_demos.conversation_link import RestoredExchange
from memory_demos.deprecations import Deprecation
from memory_demos.i18n import current_language, strategy_summary, strategy_title, t, translate
from memory_demos.prompt_sections import diff_prompts, section_totals, turn_prompt_parts
from memory_demos.providers.prompt_cache import CacheRule
from memory_demos.session import widget_key
from memory_demos.strategies.base import ParamSpec, StrategyInfo
from memory_demos.turn import Turn
from memory_demos.ui.cache_view import pane_cache_line
from memory_demos.ui.charts import render_context_gauge
from memory_demos.ui.deprecation_status import render_deprecation_status
from memory_demos.ui.prompt_view import render_changes, render_prompt
from memory_demos.ui.state_view import render_state
from memory_demos.ui.text import code_span
from memory_demos.ui.thresholds import gauge_lines, threshold_caption
from memory_demos.ui.token_view import render_turn_tokens

CONVERSATION_HEIGHT = 340
# Turns drawn on every run; earlier ones sit in a folded expander, drawn when it is opened.
RECENT_TURNS = 2


@dataclass(frozen=True)
class PaneView:
    """Everything a pane shows, as plain data."""

    pane_id: str
    number: int
    info: StrategyInfo
    params: Mapping[str, Any]
    turns: list[Turn]
    build_error: str | None
    pending_text: str | None
    retrying: bool
    context_window: int
    system_prompt: str
    approximate: bool
    count_tokens: Callable[[str], int]
    zoom: bool
    can_remove: bool
    context_window_assumed: bool = False
    no_context_window: bool = False  # the offline model: the gauge is drawn to a scale, not a window
    deprecations: tuple[Deprecation, ...] = ()
    # Earlier exchanges a persisted memory brought back; messages the other panes answered before this one
    # started (added or reset mid-conversation).
    restored: tuple[RestoredExchange, ...] = ()
    unseen_messages: int = 0
    memory_back: bool = False  # its stored memory came back (it may hold notes or facts, not messages)
    embedding_model: str | None = None  # the name of the model a retrieval strategy embeds with
    cache_rule: CacheRule | None = None  # the provider's prompt-caching rule (the Tokens view's prefix row)

    @property
    def label(self) -> str:
        return f"{self.number} · {strategy_title(self.info)}"


@dataclass(frozen=True)
class PaneActions:
    """What the pane's buttons do; each takes the pane id (and, for parameters, the new values)."""

    apply_params: Callable[[str, dict[str, Any]], None]
    reset: Callable[[str], None]
    remove: Callable[[str], None]
    retry: Callable[[str], None]


def _param_widget(spec: ParamSpec, current: Any, key: str) -> Any:
    help_text = spec.help_in(current_language())
    if spec.choices:
        index = spec.choices.index(current) if current in spec.choices else 0
        return st.selectbox(spec.name, spec.choices, index=index, key=key, help=help_text)
    if isinstance(spec.default, bool):
        return st.toggle(spec.name, value=bool(current), key=key, help=help_text)
    if isinstance(spec.default, int):
        return st.number_input(
            spec.name,
            min_value=spec.minimum,
            max_value=spec.maximum,
            value=int(current),
            step=1,
            key=key,
            help=help_text,
        )
    return st.text_input(spec.name, value=str(current), key=key, help=help_text)


def _param_editor(view: PaneView, actions: PaneActions) -> None:
    """The parameter popover; its form (one widget per parameter) is built only while it is open."""
    popover = st.popover(
        ":material/tune:",
        help=t("pane.params"),
        disabled=not view.info.params,
        key=widget_key("pane", view.pane_id, "params"),
        on_change="rerun",
    )
    if not popover.open:
        return
    with popover, st.form(key=widget_key("pane", view.pane_id, "params_form"), border=False):
        values = {
            spec.name: _param_widget(
                spec,
                view.params.get(spec.name, spec.default),
                widget_key("pane", view.pane_id, "param", spec.name),
            )
            for spec in view.info.params
        }
        st.caption(t("pane.params_restart"))
        if st.form_submit_button(t("pane.params_apply"), icon=":material/check:"):
            actions.apply_params(view.pane_id, values)


def _header(view: PaneView, actions: PaneActions) -> None:
    colour = "violet" if view.info.kind == "classic" else "green"
    kind = t(f"kind.{view.info.kind}")
    st.markdown(f"**{view.number}. {strategy_title(view.info)}** :{colour}-badge[{kind}]")
    st.caption(strategy_summary(view.info))
    render_deprecation_status(view.deprecations)
    if view.unseen_messages:
        st.caption(
            ":material/schedule: "
            + t("pane.joined_late", start=view.unseen_messages + 1, n=view.unseen_messages)
        )
    shown_params = view.info.params_in_effect(view.params)
    if shown_params:
        st.caption(" ".join(code_span(f"{name}={value}") for name, value in shown_params.items()))
    if view.embedding_model:
        model = code_span(view.embedding_model)
        st.caption(":material/scatter_plot: " + t("pane.embedding_model", model=model))
    with st.container(horizontal=True, gap="small"):
        _param_editor(view, actions)
        st.button(
            ":material/restart_alt:",
            key=widget_key("pane", view.pane_id, "reset"),
            on_click=actions.reset,
            args=(view.pane_id,),
            help=t("pane.reset_help"),
        )
        st.button(
            ":material/close:",
            key=widget_key("pane", view.pane_id, "remove"),
            on_click=actions.remove,
            args=(view.pane_id,),
            disabled=not view.can_remove,
            help=t("pane.remove_help"),
        )


def shown_turns(view: PaneView) -> list[Turn]:
    """The turns the pane shows: a failed turn being retried is replaced by the pending retry."""
    shown = list(view.turns)
    if view.retrying and shown and shown[-1].error is not None:
        shown = shown[:-1]
    return shown


def _assistant(view: PaneView, actions: PaneActions, turn: Turn, last: bool) -> None:
    """A turn's reply (or its error, with a retry button on the last turn), then its notes."""
    if turn.empty_reply:
        st.warning(t("pane.empty_reply", chars=len(turn.reply)), icon=":material/block:")
    elif turn.error is None:
        st.text(turn.reply)
    else:
        st.error(t("pane.error"), icon=":material/error:")
        st.text(translate(turn.error))
        if last and view.pending_text is None:
            st.button(
                t("pane.retry"),
                icon=":material/replay:",
                key=widget_key("pane", view.pane_id, "retry"),
                on_click=actions.retry,
                args=(view.pane_id,),
            )
    for note in turn.notes:
        st.caption(":material/info: " + t("pane.note"))
        st.text(translate(note))


def _turn_messages(view: PaneView, actions: PaneActions, turns: list[Turn], last_index: int) -> None:
    for index, turn in enumerate(turns):
        with st.chat_message("user"):
            st.text(turn.user_text)
        with st.chat_message("assistant"):
            _assistant(view, actions, turn, last=index == last_index)


def _restored_messages(restored: Sequence[RestoredExchange]) -> None:
    """The exchanges a persisted memory brought back, marked as such (no inspector: not recorded here)."""
    if not restored:
        return
    st.caption(":material/history: " + t("pane.restored", n=len(restored)))
    for exchange in restored:
        with st.chat_message("user"):
            st.text(exchange.user)
        with st.chat_message("assistant"):
            st.text(exchange.reply or "—")
    st.divider()


def _conversation(view: PaneView, actions: PaneActions, shown: list[Turn]) -> Any:
    """The chat, older turns folded away; returns the placeholder a pending reply streams into (or None).

    Only the last ``RECENT_TURNS`` turns are drawn on every run; the earlier ones are drawn when their
    expander is open, so a long conversation does not make every message cost more to draw.
    """
    placeholder = None
    filled = shown or view.restored or view.pending_text is not None
    # A failed last turn (error, provider message, Retry) is taller than a reply: a fixed-height box
    # would scroll to its end and clip the message that failed, so the box takes its content's height.
    failed_last = bool(shown) and shown[-1].error is not None and view.pending_text is None
    height = CONVERSATION_HEIGHT if filled and not failed_last else "content"
    with st.container(height=height, border=False):
        if not filled:
            st.caption(t("pane.restored_no_messages" if view.memory_back else "pane.empty"))
        _restored_messages(view.restored)
        split = max(len(shown) - RECENT_TURNS, 0)
        if split:
            # A fixed label: a label that changed with the count would make it a new, closed expander.
            earlier = st.expander(
                t("pane.earlier_turns"),
                icon=":material/history:",
                key=widget_key("pane", view.pane_id, "earlier"),
                on_change="rerun",
            )
            if earlier.open:
                with earlier:
                    _turn_messages(view, actions, shown[:split], last_index=-1)
        _turn_messages(view, actions, shown[split:], last_index=len(shown) - split - 1)
        if view.pending_text is not None:
            with st.chat_message("user"):
                st.text(view.pending_text)
            with st.chat_message("assistant"):
                placeholder = st.empty()
    return placeholder


def _section(view: PaneView, name: str, label: str, icon: str) -> Any:
    """A lazy inspector section: its content is built only while it is open (None when closed)."""
    section = st.expander(
        label, icon=icon, key=widget_key("pane", view.pane_id, "section", name), on_change="rerun"
    )
    return section if section.open else None


@st.fragment
def _inspector(view: PaneView, shown: list[Turn]) -> None:
    """The selected turn's prompt, tokens, memory state and changes; a fragment, so opening a section
    or picking another turn redraws this pane's inspector only."""
    if not shown:
        return
    index = len(shown) - 1
    if len(shown) > 1:
        turn_label = t("pane.turn_n", n="{n}")  # translated once, filled per option
        # The key carries the turn count, so a new turn brings the selector back to the latest one.
        index = st.selectbox(
            t("pane.inspect_turn"),
            list(range(len(shown))),
            index=index,
            format_func=lambda i: turn_label.format(n=i + 1),
            key=widget_key("pane", view.pane_id, "inspect", str(len(shown))),
        )
    turn = shown[index]
    previous = shown[index - 1] if index > 0 else None
    if (section := _section(view, "prompt", t("pane.prompt_sent"), ":material/input:")) is not None:
        with section:
            tool_calls = {
                i: [dict(call) for call in message.tool_calls]
                for i, message in enumerate(turn.injected_prompt)
                if message.tool_calls
            }
            parts = turn_prompt_parts(turn, view.system_prompt, view.count_tokens)
            render_prompt(parts, tool_calls)
    if (section := _section(view, "tokens", t("pane.tokens"), ":material/toll:")) is not None:
        with section:
            render_turn_tokens(turn, view.approximate, view.cache_rule)
    if (section := _section(view, "state", t("pane.memory_state"), ":material/memory:")) is not None:
        with section:
            render_state(turn.state)
    if (section := _section(view, "changes", t("pane.what_changed"), ":material/difference:")) is not None:
        with section:
            changes = diff_prompts(previous, turn, view.system_prompt, view.count_tokens)
            render_changes(changes, first_turn=previous is None)


def _gauge(view: PaneView, shown: list[Turn], key_suffix: str) -> None:
    latest = next((turn for turn in reversed(shown) if turn.reply_call is not None), None)
    parts = turn_prompt_parts(latest, view.system_prompt, view.count_tokens) if latest else []
    tools_aside = latest.unconfirmed_tool_tokens if latest is not None else 0
    if tools_aside:  # sent, but this server may never have shown them to the model: not in the bar
        parts = [part for part in parts if part.section != "tools"]
    totals = section_totals(parts)
    render_context_gauge(
        totals,
        view.context_window,
        view.zoom,
        key=widget_key("pane", view.pane_id, "gauge", key_suffix),
        assumed=view.context_window_assumed,
        no_window=view.no_context_window,
        lines=gauge_lines(view.info, view.params, totals),
    )
    if (limits := threshold_caption(view.info, view.params)) is not None:
        st.caption(":material/straighten: " + limits)
    if tools_aside:
        st.caption(":material/build: " + t("gauge.tools_unconfirmed", tokens=f"{tools_aside:,}"))
    if (cache_line := pane_cache_line(shown)) is not None:
        st.caption(":material/cached: " + cache_line)


@dataclass
class PaneSlots:
    """Where a pane drawn before its reply is finished gets the rest: its box, gauge and reply slots."""

    box: Any
    gauge: Any
    reply: Any | None


def render_pane(view: PaneView, actions: PaneActions) -> PaneSlots | None:
    """Draw the pane up to its conversation; ``finish_pane`` draws the rest once no reply is pending.

    Returns the pane's slots (None for a pane whose strategy failed to build). ``slots.reply`` is the
    ``st.empty()`` a pending reply streams into.
    """
    box = st.container(border=True, key=widget_key("pane", view.pane_id, "box"))
    with box:
        _header(view, actions)
        if view.build_error is not None:
            st.error(t("pane.build_error"), icon=":material/error:")
            st.text(translate(view.build_error))
            return None
        shown = shown_turns(view)
        gauge = st.empty()
        with gauge.container():
            _gauge(view, shown, "pending" if view.pending_text is not None else "")
        reply = _conversation(view, actions, shown)
    return PaneSlots(box=box, gauge=gauge, reply=reply)


def finish_pane(slots: PaneSlots, view: PaneView, actions: PaneActions) -> None:
    """Draw what depends on the finished turn: the reply in its slot, the new gauge, the inspector."""
    shown = shown_turns(view)
    if slots.reply is not None:
        with slots.gauge.container():
            _gauge(view, shown, "")
        with slots.reply.container():
            if shown:
                _assistant(view, actions, shown[-1], last=True)
    with slots.box:
        _inspector(view, shown)
