"""Compare: one message, several memory strategies side by side, with what each put in the prompt."""

from __future__ import annotations

from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from memory_demos import compare
from memory_demos.i18n import relabel_after_language_switch, strategy_title, t
from memory_demos.panes import Pane, conversation_messages, unseen_messages
from memory_demos.providers.context_window import describe_source
from memory_demos.providers.prompt_cache import cache_rule
from memory_demos.providers.tokenizer import count_text_tokens
from memory_demos.runner import BroadcastJob
from memory_demos.session import LabSession, get_session, widget_key
from memory_demos.strategies.registry import available_ids, get_info
from memory_demos.ui.broadcast import stream_into
from memory_demos.ui.cache_view import render_pane_cache_costs
from memory_demos.ui.charts import PANE_COLOURS, CostPoint, render_cost_charts
from memory_demos.ui.conversation_export import render_conversation_export
from memory_demos.ui.failures import failure_lines
from memory_demos.ui.focus_view import render_focus
from memory_demos.ui.frame import run_in_frame
from memory_demos.ui.notices import show_flashes, show_notices
from memory_demos.ui.pane import (
    PaneActions,
    PaneSlots,
    PaneView,
    conversation_height,
    finish_pane,
    keep_newest_questions_in_view,
    render_newest_replies,
    render_pane,
    shown_turns,
)
from memory_demos.ui.text import code_span, provider_label, select_width_px
from memory_demos.ui.workshop import lab_config, render_conversation_link, usage_recorder


# -- actions (button callbacks run before the page is drawn; the core decides, the page reruns) -----
def _add_pane() -> None:
    session = get_session()
    compare.add_pane(session, session.widgets.get(widget_key("add_strategy")))


def _remove_pane(pane_id: str) -> None:
    compare.remove_pane(get_session(), pane_id)


def _reset_pane(pane_id: str) -> None:
    compare.reset_pane(get_session(), pane_id)


def _reset_all() -> None:
    compare.reset_all(get_session())


def _new_conversation() -> None:
    compare.new_conversation(get_session())


def _reopen(pane_id: str, number: int) -> None:
    compare.reopen_conversation(get_session(), pane_id, number)


def _forget_user() -> None:
    compare.forget_user(get_session())


def _retry(pane_id: str) -> None:
    session = get_session()
    compare.retry_pane(session, pane_id, on_done=usage_recorder(session))


def _apply_params(pane_id: str, values: dict[str, Any], replay: bool) -> None:
    compare.apply_params(get_session(), pane_id, values, replay=replay)


def _replay(pane_id: str) -> None:
    compare.replay_into_pane(get_session(), pane_id)


FOCUS_KEY = widget_key("focus_pane")  # the pane whose turn the focus view shows (None: closed)


def _focus(pane_id: str) -> None:
    get_session().widgets[FOCUS_KEY] = pane_id


def _close_focus() -> None:
    get_session().widgets[FOCUS_KEY] = None


ACTIONS = PaneActions(
    apply_params=_apply_params,
    reset=_reset_pane,
    remove=_remove_pane,
    retry=_retry,
    focus=_focus,
    replay=_replay,
    reopen=_reopen,
)


# -- the page ---------------------------------------------------------------------------------
ADD_BOX_MIN_PX, ADD_BOX_MAX_PX = 320, 720


def toolbar(session: LabSession) -> tuple[int, bool]:
    """Add a pane, reset all, layout and gauge scale; returns (panes per row, zoom)."""
    ids = list(available_ids())
    # Labels are made now, in the script run (AppTest also calls format_func outside it).
    labels = {sid: f"{t('kind.' + get_info(sid).kind)} · {strategy_title(get_info(sid))}" for sid in ids}
    relabel_after_language_switch(session.widgets, widget_key("add_strategy"), session.language)
    # Wide enough for the longest name (plus the arrow and padding): a clipped name cannot be told apart.
    # The controls after it wrap onto a second line where the page is too narrow for all of them.
    box_width = select_width_px(labels.values(), ADD_BOX_MIN_PX, ADD_BOX_MAX_PX)
    # Labels folded away (the options say what they are): the toolbar is one line, the panes need the height.
    with st.container(horizontal=True, vertical_alignment="center", gap="small"):
        st.selectbox(
            t("compare.add_strategy"),
            ids,
            format_func=labels.get,
            key=widget_key("add_strategy"),
            width=box_width,
            label_visibility="collapsed",
        )
        st.button(
            t("compare.add_pane"),
            icon=":material/add:",
            key=widget_key("add_pane"),
            on_click=_add_pane,
            disabled=len(session.panes) >= session.limits.max_panes,
            help=t("compare.add_pane_help", max=session.limits.max_panes),
        )
        st.button(t("compare.reset_all"), icon=":material/delete_sweep:", on_click=_reset_all)
        per_row_label = t("compare.per_row_option", n="{n}")
        per_row = st.segmented_control(
            t("compare.per_row"),
            [2, 3, 4],
            default=4,
            key=widget_key("per_row"),
            required=True,
            format_func=lambda n: per_row_label.format(n=n),
            label_visibility="collapsed",
        )
        zoom = st.toggle(t("compare.zoom"), key=widget_key("zoom"), help=t("compare.zoom_help"))
    return int(per_row or 4), bool(zoom)


def replay_note(session: LabSession, pane: Pane) -> str | None:
    """What replaying the conversation into the pane did and cost, in the session's language."""
    cost = pane.replay_cost
    if cost is None:
        return None
    shown_params = get_info(pane.strategy_id).params_in_effect(pane.params)
    note = t(
        "pane.replayed",
        n=cost.messages,
        params=", ".join(f"{name}={value}" for name, value in shown_params.items()) or "—",
        calls=cost.model_calls,
        tokens=f"{cost.tokens:,}",
        seconds=f"{cost.seconds:.1f}",
    )
    if cost.failed_at is not None:
        note += " " + t("pane.replay_failed", n=cost.failed_at)
    return note


def pane_view(
    session: LabSession,
    pane: Pane,
    in_flight: BroadcastJob | None,
    zoom: bool,
    height: int | None = None,
) -> PaneView:
    """Everything one pane shows, as plain data."""
    provider = session.provider
    encoding = provider.tokenizer.encoding_name
    pending = in_flight is not None and pane.pane_id in in_flight.pane_ids
    return PaneView(
        pane_id=pane.pane_id,
        number=session.panes.index(pane) + 1,
        info=get_info(pane.strategy_id),
        params=pane.strategy.params if pane.strategy is not None else pane.params,
        turns=pane.turns,
        build_error=pane.build_error,
        pending_text=in_flight.text if pending and in_flight is not None else None,
        retrying=pending and in_flight is not None and in_flight.retry,
        context_window=provider.context_window,
        no_context_window=provider.kind == "offline",
        system_prompt=pane.strategy.system_prompt if pane.strategy is not None else "",
        approximate=provider.tokenizer.approximate,
        count_tokens=lambda text: count_text_tokens(text, encoding),
        zoom=zoom,
        can_remove=len(session.panes) > session.limits.min_panes,
        deprecations=pane.strategy.deprecations if pane.strategy is not None else (),
        restored=tuple(pane.restored),
        unseen_messages=unseen_messages(session.panes, pane),
        memory_back=pane.memory_back,
        embedding_model=pane.strategy.embedding_model() if pane.strategy is not None else None,
        cache_rule=cache_rule(provider.kind),
        conversation_height=height or conversation_height(1),
        gauge_scale=max((p.turns[-1].prompt_tokens for p in session.panes if p.turns), default=0),
        replay_note=replay_note(session, pane),
        conversation_length=len(conversation_messages(session.panes, pane.conversation_number)),
        conversation_number=pane.conversation_number,
        conversation_id=pane.conversation_id,
        conversations=tuple(pane.conversations()),
    )


def pane_colours(session: LabSession) -> dict[str, str]:
    """Each pane's chart colour, by its own number (p1, p2, …): a pane keeps it when it is rebuilt or when
    a pane before it is removed."""
    colours = {}
    for number, pane in enumerate(session.panes, start=1):
        own = int(pane.pane_id.lstrip("p") or 0) if pane.pane_id.lstrip("p").isdigit() else number
        colours[f"{number} · {strategy_title(get_info(pane.strategy_id))}"] = PANE_COLOURS[
            (own - 1) % len(PANE_COLOURS)
        ]
    return colours


def cost_points(session: LabSession) -> list[CostPoint]:
    """Every answered turn of every pane; a failed turn is left out (it cost nothing and measured nothing:
    a zero would read as a free turn)."""
    points = []
    for number, pane in enumerate(session.panes, start=1):
        label = f"{number} · {strategy_title(get_info(pane.strategy_id))}"
        points += [
            CostPoint(label, turn_no, turn.prompt_tokens, turn.total_tokens)
            for turn_no, turn in enumerate(pane.turns, start=1)
            if turn.ok
        ]
    return points


def last_message_failures(session: LabSession) -> dict[str, int]:
    """Panes whose last turn failed, counted by the kind of failure."""
    counts: dict[str, int] = {}
    for pane in session.panes:
        if pane.turns and not pane.turns[-1].ok:
            kind = pane.turns[-1].error_kind or "other"
            counts[kind] = counts.get(kind, 0) + 1
    return counts


def _failure_summary(session: LabSession, slot: DeltaGenerator) -> None:
    """Said first, above the panes: in how many panes the last message failed, of which kinds, what helps."""
    counts = last_message_failures(session)
    if not counts:
        return
    total = sum(1 for pane in session.panes if pane.turns)
    lines = failure_lines(counts)
    slot.warning(
        t("failures.panes", failed=sum(counts.values()), total=total) + "\n\n" + lines,
        icon=":material/error:",
    )


def render() -> None:
    """The page, in one script run per message: toolbar and panes, the streaming of the replies into
    them, then what depends on the finished turns (inspectors, gauges, cost charts).

    Buttons are drawn enabled even while replies stream (their callbacks refuse while busy): the run
    that streams is the last run of the message, so whatever it draws is what stays on screen.
    """
    session = get_session()
    _heading(session)
    flashes_slot = st.container()  # filled after the chat box has taken the notices meant for it
    usage_slot = st.empty()  # filled once this run's turn is in: the caption counts it
    failures_slot = st.empty()  # likewise: the last message's failures, before any pane
    per_row, zoom = toolbar(session)
    # The chat box sits above the panes, not pinned to the window's foot: a pinned box makes Streamlit
    # scroll to the page's end (the charts) on every message, away from the replies.
    with st.container(key=widget_key("chat_row")):
        _chat_box(session)
    with flashes_slot:
        show_flashes(session)
    _run_replays(session)

    job = session.job
    in_flight = job if job is not None and not job.finished else None
    panes = session.panes
    rows = -(-len(panes) // per_row)
    # Two rows of panes do not fit the window: their newest replies go in one grid above them.
    newest = st.empty() if rows > 1 and (in_flight is not None or any(p.turns for p in panes)) else None
    if newest is not None:
        with newest.container():
            views = [pane_view(session, p, in_flight, zoom) for p in panes]
            render_newest_replies(views, per_row, "pending" if in_flight is not None else "")
    slots = _draw_panes(session, panes, per_row, zoom, in_flight)

    if in_flight is not None:
        stream_into(in_flight, {pid: s.reply for pid, s in slots.items() if s.reply is not None})
        compare.finish_broadcast(session, in_flight)
        if session.has_flashes:
            st.rerun()  # the broadcast failed as a whole: show why, at the top of the page
        if any(pane.turns and pane.turns[-1].error for pane in panes if pane.pane_id in in_flight.pane_ids):
            st.rerun()  # redraw failed panes' chat at full height: the box drawn while streaming clips it
    _usage_caption(session, usage_slot)
    _failure_summary(session, failures_slot)
    if newest is not None and in_flight is not None:  # the replies are in: the grid again, with them
        with newest.container():
            render_newest_replies([pane_view(session, p, None, zoom) for p in panes], per_row)
    for pane in panes:
        if pane.pane_id in slots:
            view = pane_view(session, pane, None, zoom, conversation_height(rows))
            finish_pane(slots[pane.pane_id], view, ACTIONS)
    _focus_view(session, zoom)

    if any(pane.turns or pane.restored for pane in panes):
        # Only the language survives a reload: say so here, not only inside the link's expander.
        st.caption(":material/refresh: " + t("compare.reload_note"))
    render_conversation_link(session, lab_config().workshop)
    render_conversation_export(session.panes, session.provider)

    st.subheader(t("cost.title"), anchor=False)
    st.caption(t("cost.caption"))
    render_cost_charts(cost_points(session), pane_colours(session))
    _cache_costs(session)
    if any(not turn.ok for pane in panes for turn in pane.turns):
        st.caption(t("cost.gaps"))
    keep_newest_questions_in_view()  # last: its element adds no gap above anything


def _heading(session: LabSession) -> None:
    """The page's small title (the intro in its tooltip) and, once for the page, the model and what the
    gauges are scaled to."""
    heading = st.container(gap=None)  # title and context line close together: the panes need the height
    # A small title, the intro in its tooltip.
    heading.subheader(
        t("compare.title"),
        anchor=False,
        help=t("compare.intro", provider=code_span(provider_label(session.provider))),
    )
    window = session.provider.context_window_info
    # Said once for the page, not in every pane: what the gauges are scaled to, and where that figure is from.
    # The offline model has no window: the line says what the gauges are scaled to instead.
    if session.provider.kind == "offline":
        window_line = t("gauge.no_window", scale=f"{window.tokens:,}")
    else:
        window_line = t("compare.window_line", window=f"{window.tokens:,}", source=describe_source(window))
    heading.caption(":material/speed: " + window_line)  # the model's name is in the sidebar and the tooltip


def _cache_costs(session: LabSession) -> None:
    """Each pane's cost with and without prompt caching, and the turn its strategy broke the cache on."""
    panes = [
        (f"{number} · {strategy_title(get_info(pane.strategy_id))}", pane.turns)
        for number, pane in enumerate(session.panes, start=1)
    ]
    provider = session.provider
    render_pane_cache_costs(panes, provider.model, cache_rule(provider.kind))


def _run_replays(session: LabSession) -> None:
    """Replay the conversation into the panes a what-if rebuilt (a spinner says which, and how many)."""
    for number, pane in enumerate(session.panes, start=1):
        if pane.replay_queue and pane.strategy is not None:
            with st.spinner(t("compare.replaying", pane=number, n=len(pane.replay_queue))):
                compare.run_replay(session, pane, on_done=usage_recorder(session))


def _focus_view(session: LabSession, zoom: bool) -> None:
    """The focus view of the pane whose focus button was pressed, as a wide dialog (closed: nothing)."""
    pane_id = session.widgets.get(FOCUS_KEY)
    pane = session.pane(pane_id) if pane_id else None
    if pane is None:
        return
    view = pane_view(session, pane, None, zoom)
    title = t("focus.title", pane=view.label)
    st.dialog(title, width="large", on_dismiss=_close_focus)(lambda: render_focus(view, shown_turns(view)))()


def _chat_box(session: LabSession) -> None:
    """The chat input (refilled with a refused message, the refusal just above it) and what a submitted
    message starts. The refusal sits by the box, where the attendee typed."""
    refill, session.chat_refill = session.chat_refill, None
    if refill:
        session.widgets[widget_key("chat")] = refill
    show_notices(session.take_flashes(place="chat"))
    # Beside the box: the same user's next conversation, and forgetting what outlives conversations.
    with st.container(horizontal=True, vertical_alignment="center", gap="small"):
        message = st.chat_input(t("compare.chat_placeholder"), key=widget_key("chat"), submit_mode="disable")
        st.button(
            t("compare.new_conversation"),
            icon=":material/add_comment:",
            key=widget_key("new_conversation"),
            on_click=_new_conversation,
            help=t("compare.new_conversation_help"),
        )
        st.button(
            t("compare.forget_user"),
            icon=":material/person_remove:",
            key=widget_key("forget_user"),
            on_click=_forget_user,
            disabled=not any(get_info(pane.strategy_id).carries_over for pane in session.panes),
            help=t("compare.forget_user_help"),
        )
    if message is not None and not compare.send_message(session, message, on_done=usage_recorder(session)):
        st.rerun()  # to show the refusal by the box, and put the refused message back into it


def _usage_caption(session: LabSession, slot: DeltaGenerator) -> None:
    """In a workshop, what this attendee has used of the room's limits, into ``slot`` (drawn after the
    turn that streamed in this script run, so it counts that turn)."""
    budget = session.budget
    if budget is None:
        return
    limits = budget.limits
    slot.caption(
        ":material/speed: "
        + t(
            "workshop.usage",
            turns=max((len(pane.turns) for pane in session.panes), default=0),
            max_turns=limits.max_turns_per_conversation,
            tokens=f"{budget.tokens_used:,}",
            max_tokens=f"{limits.max_tokens_per_session:,}",
            concurrent=limits.max_concurrent_calls_per_session,
        )
    )


def _draw_panes(
    session: LabSession, panes: list[Pane], per_row: int, zoom: bool, in_flight: BroadcastJob | None
) -> dict[str, PaneSlots]:
    """The panes, ``per_row`` to a row; the slots of each drawn pane, by pane id, to stream into."""
    slots: dict[str, PaneSlots] = {}
    height = conversation_height(-(-len(panes) // per_row))
    # Fewer panes than a row holds share its width: two panes at "4 a row" had taken half the window,
    # narrow enough to wrap every reply and push their toolbars below the fold, beside empty space.
    columns = max(1, min(per_row, len(panes)))
    for start in range(0, len(panes), per_row):
        row = panes[start : start + per_row]
        for column, pane in zip(st.columns(columns, gap="small")[: len(row)], row, strict=True):
            with column:
                pane_slots = render_pane(pane_view(session, pane, in_flight, zoom, height), ACTIONS)
            if pane_slots is not None:
                slots[pane.pane_id] = pane_slots
    return slots


run_in_frame(render)
