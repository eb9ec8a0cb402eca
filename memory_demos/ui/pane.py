"""One Compare pane: a compact header and parameter editor, the conversation, and the context gauge.

The conversation comes first: the header is two short lines (title; badges, parameters and buttons),
the strategy's description and LangChain's warnings open on demand (tooltips), and the turn inspector
is the focus view (``focus_view``), at full width. The pane gets plain data (a ``PaneView``) and
callbacks (``PaneActions``); it never builds or runs a strategy itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from memory_demos.conversation_link import RestoredExchange
from memory_demos.deprecations import Deprecation
from memory_demos.i18n import current_language, strategy_summary, strategy_title, t, translate
from memory_demos.panes import ConversationRow
from memory_demos.prompt_sections import section_totals, turn_prompt_parts
from memory_demos.providers.prompt_cache import CacheRule
from memory_demos.session import widget_key
from memory_demos.strategies.base import MemoryPart, ParamSpec, StrategyInfo
from memory_demos.turn import Turn
from memory_demos.ui.cache_view import pane_cache_line
from memory_demos.ui.charts import render_context_gauge
from memory_demos.ui.deprecation_status import deprecation_help
from memory_demos.ui.text import code_span, embedding_model_text, wrappable_identifiers
from memory_demos.ui.thresholds import gauge_lines, threshold_caption

# One row of panes. The newest question sits at the box's top, so the box needs room for one exchange, not
# two: at 270 px the toolbar at a pane's foot was below a 1920x1080 window's fold with four panes.
CONVERSATION_HEIGHT = 240
# Two rows get less, so both fit a 900 px window; their gauges show the figure only.
TWO_ROW_CONVERSATION_HEIGHT = 170


def conversation_height(rows: int) -> int:
    """The height of each pane's conversation when the panes take ``rows`` rows: the newest reply of every
    pane stays in a 1440x900 window, and with one row each pane's toolbar in a 1920x1080 one (measured in
    Chromium; tests/e2e/test_compare_layout.py)."""
    return CONVERSATION_HEIGHT if rows <= 1 else TWO_ROW_CONVERSATION_HEIGHT


# Turns drawn on every run; earlier ones sit in a folded expander, drawn when it is opened.
RECENT_TURNS = 2

# Streamlit keeps a scrolling chat box at its end, so a reply taller than the box less its question pushed the
# question out at the top; and a box scrolled to its end showed the slice of the turn before that fitted, its
# avatar and first lines cut at the box's top. Instead the newest question always sits at the box's top and
# its reply reads on below it: under a short reply the box gets blank room (its bottom padding) to scroll
# that far. A question is new when its turn number (in its key) changes; until then a reader's own
# scrolling is left alone. Static text, no data in it (the house style's rule is about untrusted text).
NEWEST_QUESTION_SCRIPT = """
<script>
(() => {
  if (window.memoryLabNewestQuestion) return;
  window.memoryLabNewestQuestion = true;
  const asked = new WeakMap();  // box -> the key class of the question it was last aligned to
  const scrolledByReader = new WeakSet();
  const align = () => {
    document.querySelectorAll('[class*="st-key-ml_w_pane_"][class*="_chat"]').forEach((box) => {
      const questions = box.querySelectorAll('[class*="_asked_"]');
      const question = questions[questions.length - 1];
      if (!question) return;
      const name = [...question.classList].find((c) => c.includes('_asked_'));
      if (!asked.has(box)) {
        ['wheel', 'pointerdown', 'touchstart', 'keydown'].forEach((kind) =>
          box.addEventListener(kind, () => scrolledByReader.add(box), {passive: true}));
      }
      if (asked.get(box) !== name) {
        asked.set(box, name);
        scrolledByReader.delete(box);
      }
      const top = question.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
      const padding = parseFloat(box.style.paddingBottom) || 0;
      const room = top > 1 ? Math.max(0, top + box.clientHeight - (box.scrollHeight - padding)) : 0;
      if (Math.abs(room - padding) > 1) box.style.paddingBottom = `${room}px`;
      if (scrolledByReader.has(box)) return;
      box.scrollTop = Math.max(0, Math.min(box.scrollHeight - box.clientHeight, top));
    });
  };
  let queued = false;
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; align(); });
  }).observe(document.body, {childList: true, subtree: true, characterData: true});
  align();
})();
</script>
"""


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
    conversation_height: int = CONVERSATION_HEIGHT
    gauge_scale: int = 0  # zoomed gauges share this scale (the largest prompt of any pane), so size compares
    replay_note: str | None = None  # what replaying the conversation into this pane did and cost
    conversation_length: int = 0  # messages of the conversation so far (a new configuration can replay them)
    # Which of the user's conversations the pane shows, its id, and every conversation the pane holds.
    conversation_number: int = 1
    conversation_id: str = ""
    conversations: tuple[ConversationRow, ...] = ()

    @property
    def label(self) -> str:
        return f"{self.number} · {strategy_title(self.info)}"


def part_names(parts: Sequence[MemoryPart]) -> str:
    """The parts of a memory in the session's language, or "nothing"."""
    return ", ".join(t(f"memory.part.{part.name}") for part in parts) or t("pane.nothing")


@dataclass(frozen=True)
class PaneActions:
    """What the pane's buttons do; each takes the pane id (and, for parameters, the new values)."""

    apply_params: Callable[[str, dict[str, Any], bool], None]  # pane id, values, replay the conversation
    reset: Callable[[str], None]
    remove: Callable[[str], None]
    retry: Callable[[str], None]
    focus: Callable[[str], None] = lambda _pane_id: None  # open the focus view (the inspector)
    replay: Callable[[str], None] = lambda _pane_id: None  # replay the messages a late pane has not seen
    reopen: Callable[[str, int], None] = lambda _pane_id, _number: None  # show an earlier conversation


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
    """The parameter popover; its form (one widget per parameter) is built only while it is open.

    Apply is a callback: it reads the form's values, applies them and closes the popover, before the
    page is drawn again (a popover left open would cover the pane it just changed).
    """
    popover_key = widget_key("pane", view.pane_id, "params")
    popover = st.popover(
        ":material/tune:",
        help=t("pane.params"),
        disabled=not view.info.params,
        key=popover_key,
        on_change="rerun",
        type="tertiary",
    )
    if not popover.open:
        return
    keys = {spec.name: widget_key("pane", view.pane_id, "param", spec.name) for spec in view.info.params}
    replay_key = widget_key("pane", view.pane_id, "param_replay")

    def apply() -> None:
        values = {name: st.session_state[key] for name, key in keys.items() if key in st.session_state}
        replay = bool(st.session_state.get(replay_key, False)) and view.conversation_length > 0
        st.session_state[popover_key] = False
        actions.apply_params(view.pane_id, values, replay)

    with popover, st.form(key=widget_key("pane", view.pane_id, "params_form"), border=False):
        for spec in view.info.params:
            _param_widget(spec, view.params.get(spec.name, spec.default), keys[spec.name])
        if view.conversation_length:
            st.toggle(
                t("pane.params_replay", n=view.conversation_length),
                value=True,
                key=replay_key,
                help=t("pane.params_replay_help"),
            )
        else:
            st.caption(t("pane.params_restart"))
        st.form_submit_button(t("pane.params_apply"), icon=":material/check:", on_click=apply)


def _header(view: PaneView, actions: PaneActions) -> None:
    """The title; the kind badge (the description in its tooltip), the deprecation badge (LangChain's
    warnings in its tooltip) and the parameters, wrapping as the pane's width allows. The buttons sit at
    the pane's foot, under its gauge: the header stays short, so the conversation starts high."""
    st.markdown(f"**{view.number}. {wrappable_identifiers(strategy_title(view.info))}**")
    with st.container(horizontal=True, gap="small", vertical_alignment="center"):
        st.badge(
            t(f"kind.{view.info.kind}"),
            color="violet" if view.info.kind == "classic" else "green",
            help=strategy_summary(view.info),
        )
        st.badge(
            t("pane.conversation", n=view.conversation_number),
            icon=":material/forum:",
            color="blue",
            help=t(
                "pane.conversation_help",
                empty=part_names(view.info.per_conversation),
                carried=part_names(view.info.carries_over),
            ),
        )
        if view.deprecations:
            st.badge(
                t("deprecation.raised"),
                icon=":material/warning:",
                color="orange",
                help=deprecation_help(view.deprecations),
            )
        shown_params = view.info.params_in_effect(view.params)
        if shown_params:
            summary = " ".join(code_span(f"{name}={value}") for name, value in shown_params.items())
            st.caption(summary, width="content")
        if view.embedding_model:
            model = code_span(embedding_model_text(view.embedding_model))
            st.caption(":material/scatter_plot: " + t("pane.embedding_model", model=model), width="content")
    if view.unseen_messages:
        st.caption(
            ":material/schedule: "
            + t("pane.joined_late", start=view.unseen_messages + 1, n=view.unseen_messages)
        )
    if view.replay_note:
        st.caption(":material/replay: " + view.replay_note)
    if view.conversation_number > 1:  # what the new conversation brought along, or that it brought nothing
        if view.info.carries_over:
            st.caption(
                ":material/move_up: " + t("pane.carried_over", parts=part_names(view.info.carries_over))
            )
        else:
            st.caption(
                ":material/restart_alt: "
                + t("pane.started_empty", parts=part_names(view.info.per_conversation))
            )


def _conversation_list(view: PaneView, actions: PaneActions) -> None:
    """The pane's conversations (a thread list): the one shown, and buttons reopening the earlier ones."""
    popover_key = widget_key("pane", view.pane_id, "conversations")
    popover = st.popover(
        ":material/history:",
        help=t("pane.conversations_help"),
        disabled=len(view.conversations) < 2,
        key=popover_key,
        on_change="rerun",
        type="tertiary",
    )

    def reopen(number: int) -> None:
        st.session_state[popover_key] = False  # closed: the list would cover the pane it just changed
        actions.reopen(view.pane_id, number)

    with popover:
        for row in view.conversations:
            key = "pane.conversation_current" if row.current else "pane.conversation_row"
            st.button(
                t(key, n=row.number, messages=row.messages),
                key=widget_key("pane", view.pane_id, "reopen", str(row.number)),
                on_click=reopen,
                args=(row.number,),
                disabled=row.current,
                type="tertiary",
            )


def _buttons(view: PaneView, actions: PaneActions) -> None:
    """Parameters, conversations, reset, focus view (and replay, for a pane that joined late), then
    remove: small icon buttons a gap apart (side by side, the popovers' arrows ran into the next icon),
    the one that drops the pane last, away from the others."""
    toolbar = st.container(
        horizontal=True,
        gap="small",
        width="content",
        vertical_alignment="center",
        key=widget_key("pane", view.pane_id, "toolbar"),
    )
    with toolbar:
        _param_editor(view, actions)
        _conversation_list(view, actions)
        st.button(
            # Sweeping away, not a circular arrow: the replay button that may stand beside it is one.
            ":material/delete_sweep:",
            key=widget_key("pane", view.pane_id, "reset"),
            on_click=actions.reset,
            args=(view.pane_id,),
            help=t("pane.reset_help")
            + " "
            + t(
                "pane.reset_help_parts",
                parts=part_names(view.info.per_conversation),
                kept=part_names(view.info.carries_over),
            ),
            type="tertiary",
        )
        st.button(
            ":material/open_in_full:",
            key=widget_key("pane", view.pane_id, "focus"),
            on_click=actions.focus,
            args=(view.pane_id,),
            # A pane drawn while its first reply streams gets its turn in this run: the button works then.
            disabled=not view.turns and view.pending_text is None,
            help=t("pane.focus_help"),
            type="tertiary",
        )
        if view.unseen_messages and not view.memory_back:
            st.button(
                ":material/replay:",
                key=widget_key("pane", view.pane_id, "replay"),
                on_click=actions.replay,
                args=(view.pane_id,),
                help=t("pane.replay_help", n=view.unseen_messages),
                type="tertiary",
            )
        st.button(
            ":material/close:",
            key=widget_key("pane", view.pane_id, "remove"),
            on_click=actions.remove,
            args=(view.pane_id,),
            disabled=not view.can_remove,
            help=t("pane.remove_help"),
            type="tertiary",
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
        st.text(wrappable_identifiers(translate(note)))  # a pane is narrow: no break inside a word


def _question(view: PaneView, text: str, number: int | None) -> None:
    """A user message; the newest (``number`` given) in a container keyed by its turn number, which
    ``NEWEST_QUESTION_SCRIPT`` keeps in view."""
    if number is None:
        with st.chat_message("user"):
            st.text(text)
        return
    newest = st.container(key=widget_key("pane", view.pane_id, "asked", str(number)), gap=None)
    with newest, st.chat_message("user"):
        st.text(text)


def _turn_messages(
    view: PaneView, actions: PaneActions, turns: list[Turn], last_index: int, newest_number: int | None = None
) -> None:
    """The turns' messages; ``newest_number`` (when given) is the turn number of the last of them, whose
    question is the newest one."""
    for index, turn in enumerate(turns):
        newest = newest_number is not None and index == len(turns) - 1
        _question(view, turn.user_text, newest_number if newest else None)
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
    height = view.conversation_height if filled and not failed_last else "content"
    # Not kept at its end by Streamlit: NEWEST_QUESTION_SCRIPT scrolls it.
    with st.container(
        height=height, border=False, autoscroll=False, key=widget_key("pane", view.pane_id, "chat")
    ):
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
        newest = len(shown) if view.pending_text is None else None
        _turn_messages(view, actions, shown[split:], last_index=len(shown) - split - 1, newest_number=newest)
        if view.pending_text is not None:
            _question(view, view.pending_text, len(shown) + 1)
            with st.chat_message("assistant"):
                placeholder = st.empty()
    return placeholder


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
        scale=view.gauge_scale,
        chart=view.conversation_height >= CONVERSATION_HEIGHT,
        sent=latest.prompt_tokens if latest is not None and not tools_aside else 0,
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
    """Draw the pane: header, conversation, gauge; ``finish_pane`` redraws what a pending reply changes.

    Returns the pane's slots (None for a pane whose strategy failed to build). ``slots.reply`` is the
    ``st.empty()`` a pending reply streams into.
    """
    # As tall as the tallest pane of its row, its buttons at its foot: panes whose headers or gauge notes
    # take more lines no longer end at different heights, their toolbars out of line.
    box = st.container(
        border=True, key=widget_key("pane", view.pane_id, "box"), gap="small", height="stretch"
    )
    with box:
        _header(view, actions)
        if view.build_error is not None:
            st.error(t("pane.build_error"), icon=":material/error:")
            st.text(translate(view.build_error))
            _buttons(view, actions)  # reset builds it again; remove drops it
            return None
        shown = shown_turns(view)
        reply = _conversation(view, actions, shown)
        gauge = st.empty()
        # The gauge's lines (figure, bar, legend, limits, cache) close together: they read as one block,
        # and the toolbar under them stays in a 1920x1080 window.
        with gauge.container(gap="xsmall"):
            _gauge(view, shown, "pending" if view.pending_text is not None else "")
        st.space("stretch")
        _buttons(view, actions)
    return PaneSlots(box=box, gauge=gauge, reply=reply)


def finish_pane(slots: PaneSlots, view: PaneView, actions: PaneActions) -> None:
    """Draw what depends on the finished turn: the reply in its slot and the new gauge."""
    shown = shown_turns(view)
    if slots.reply is not None:
        with slots.gauge.container(gap="xsmall"):
            _gauge(view, shown, "")
        with slots.reply.container():
            if shown:
                _assistant(view, actions, shown[-1], last=True)


def keep_newest_questions_in_view() -> None:
    """Install ``NEWEST_QUESTION_SCRIPT`` in the page (once per browser page; drawing it again is a no-op)."""
    st.html(NEWEST_QUESTION_SCRIPT, unsafe_allow_javascript=True, width=1)


def render_newest_replies(views: Sequence[PaneView], per_row: int, key_suffix: str = "") -> None:
    """Every pane's newest reply in one grid, for panes two rows deep (the second row is below a 900 px
    window's fold): the answers to compare, in view after each message; each pane below keeps its turns.
    ``key_suffix`` tells apart the grid drawn while replies stream from the one drawn when they are in."""
    st.caption(":material/forum: " + t("compare.newest_replies"))
    for start in range(0, len(views), per_row):
        row = views[start : start + per_row]
        for column, view in zip(st.columns(per_row, gap="small")[: len(row)], row, strict=True):
            with column:
                cell = st.container(border=True, key=widget_key("pane", view.pane_id, "newest", key_suffix))
            with cell:
                st.caption(f"**{wrappable_identifiers(view.label)}**")
                shown = shown_turns(view)
                turn = shown[-1] if shown else None
                if view.pending_text is not None:
                    st.caption(t("compare.newest_pending"))
                elif turn is None:
                    st.caption(t("pane.empty"))
                elif turn.empty_reply:
                    st.caption(t("pane.empty_reply", chars=len(turn.reply)))
                elif turn.error is not None:
                    st.caption(":material/error: " + t("pane.error"))
                else:
                    st.text(turn.reply)
