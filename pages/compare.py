"""Compare: one message, several memory strategies side by side, with what each put in the prompt."""

from __future__ import annotations

from typing import Any

import streamlit as st

from memory_demos.i18n import strategy_title, t
from memory_demos.providers.tokenizer import count_text_tokens
from memory_demos.session import BroadcastJob, LabSession, Pane, get_session, widget_key
from memory_demos.strategies.registry import available_ids, get_info
from memory_demos.ui.broadcast import finish_broadcast, start_broadcast, stream_into
from memory_demos.ui.charts import CostPoint, render_cost_charts
from memory_demos.ui.conversation_export import render_conversation_export
from memory_demos.ui.frame import run_in_frame
from memory_demos.ui.notices import show_flashes
from memory_demos.ui.pane import PaneActions, PaneSlots, PaneView, finish_pane, parse_params, render_pane
from memory_demos.ui.text import code_span, provider_label
from memory_demos.ui.workshop import render_conversation_link, usage_recorder, workshop_config
from memory_demos.workshop.budget import estimate_next_turn_tokens

# A refused message goes back into the chat box on the next run (Streamlit empties it on submit).
REFILL_KEY = "ml_compare_refill"


# -- actions (button callbacks run before the page is drawn) ----------------------------------
def add_pane() -> None:
    session = get_session()
    strategy_id = st.session_state.get(widget_key("add_strategy"))
    if session.busy or not strategy_id or len(session.panes) >= session.limits.max_panes:
        return
    session.panes.append(session.new_pane(strategy_id))


def remove_pane(pane_id: str) -> None:
    session = get_session()
    if not session.busy and len(session.panes) > session.limits.min_panes:
        session.remove_pane(pane_id)


def reset_pane(pane_id: str) -> None:
    session = get_session()
    pane = session.pane(pane_id)
    if session.busy or pane is None:
        return
    if pane.strategy is None:
        session.build(pane)
        return
    pane.strategy.clear()
    pane.turns = []


def reset_all() -> None:
    session = get_session()
    for pane in list(session.panes):
        reset_pane(pane.pane_id)
    session.flash("info", t("compare.reset_all_done"))


def send_to(session: LabSession, panes: list[Pane], text: str, *, retry: bool = False) -> None:
    """Start a broadcast; the session's budget gate checks and counts each model call it makes.

    At most the provider's "answer panes at most N at a time" panes run at once; the workshop's
    concurrency limit is the gate's, per model call, so it is not a pane slot here.
    """
    from memory_demos.runner import pane_slots

    start_broadcast(
        session,
        panes,
        text,
        retry=retry,
        call_slot=pane_slots(session.provider.max_concurrent_panes),
        on_done=usage_recorder(session),
    )


def within_limits(session: LabSession, text: str, *, retry: bool = False) -> bool:
    """False (with a warning saying which limit and why) if a workshop limit refuses this message."""
    budget = session.budget
    if budget is None:
        return True
    turns = max((len(pane.turns) for pane in session.panes), default=0)
    last_prompts = [pane.turns[-1].prompt_tokens if pane.turns else 0 for pane in session.panes]
    needed = estimate_next_turn_tokens(last_prompts, text, session.provider.tokenizer.encoding_name)
    hit = budget.check(text, turns - 1 if retry else turns) or budget.check_run([text], needed)
    if hit is None:
        return True
    session.flash(
        "warning", t(f"workshop.limit.{hit.kind}", limit=f"{hit.limit:,}", current=f"{hit.current:,}")
    )
    if not retry:
        st.session_state[REFILL_KEY] = text
    return False


def retry(pane_id: str) -> None:
    session = get_session()
    pane = session.pane(pane_id)
    if session.busy or pane is None or not pane.turns or pane.turns[-1].error is None:
        return
    text = pane.turns[-1].user_text
    if within_limits(session, text, retry=True):
        send_to(session, [pane], text, retry=True)


def apply_params(pane_id: str, values: dict[str, Any]) -> None:
    session = get_session()
    pane = session.pane(pane_id)
    if session.busy or pane is None:
        return
    params, error = parse_params(get_info(pane.strategy_id), values)
    if error is None:
        error = session.check_params(pane.strategy_id, params)
    if error is not None:
        session.flash("warning", t("pane.params_invalid"), error)
    else:
        pane.params = params
        session.build(pane)
        session.flash("info", t("pane.params_applied", pane=session.panes.index(pane) + 1))
    st.rerun()


ACTIONS = PaneActions(apply_params=apply_params, reset=reset_pane, remove=remove_pane, retry=retry)


def handle_message(text: str) -> None:
    """Refuse empty or over-long messages with a reason; otherwise send to every pane."""
    session = get_session()
    limit = session.limits.max_message_chars
    if not text.strip():
        session.flash("info", t("compare.empty_message"))
        return
    if len(text) > limit:
        session.flash("warning", t("compare.too_long", length=f"{len(text):,}", limit=f"{limit:,}"))
        st.session_state[REFILL_KEY] = text
        return
    job = session.job
    if job is not None and not job.finished:  # a message sent while another was still answering
        job.future.result()
        finish_broadcast(session, job)
    if within_limits(session, text):
        send_to(session, session.panes, text)


# -- the page ---------------------------------------------------------------------------------
def toolbar(session: LabSession) -> tuple[int, bool]:
    """Add a pane, reset all, layout and gauge scale; returns (panes per row, zoom)."""
    ids = list(available_ids())
    # Labels are made now, in the script run (AppTest also calls format_func outside it).
    labels = {sid: f"{t('kind.' + get_info(sid).kind)} · {strategy_title(get_info(sid))}" for sid in ids}
    with st.container(horizontal=True, vertical_alignment="bottom", gap="small"):
        st.selectbox(
            t("compare.add_strategy"), ids, format_func=labels.get, key=widget_key("add_strategy"), width=320
        )
        st.button(
            t("compare.add_pane"),
            icon=":material/add:",
            on_click=add_pane,
            disabled=len(session.panes) >= session.limits.max_panes,
            help=t("compare.add_pane_help", max=session.limits.max_panes),
        )
        st.button(t("compare.reset_all"), icon=":material/restart_alt:", on_click=reset_all)
        per_row = st.segmented_control(
            t("compare.per_row"), [2, 3, 4], default=4, key=widget_key("per_row"), required=True
        )
        zoom = st.toggle(t("compare.zoom"), key=widget_key("zoom"), help=t("compare.zoom_help"))
    return int(per_row or 4), bool(zoom)


def pane_view(session: LabSession, pane: Pane, in_flight: BroadcastJob | None, zoom: bool) -> PaneView:
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
        context_window_assumed=provider.context_window_info.assumed,
        system_prompt=pane.strategy.system_prompt if pane.strategy is not None else "",
        approximate=provider.tokenizer.approximate,
        count_tokens=lambda text: count_text_tokens(text, encoding),
        zoom=zoom,
        can_remove=len(session.panes) > session.limits.min_panes,
        deprecations=pane.strategy.deprecations if pane.strategy is not None else (),
    )


def cost_points(session: LabSession) -> list[CostPoint]:
    points = []
    for number, pane in enumerate(session.panes, start=1):
        label = f"{number} · {strategy_title(get_info(pane.strategy_id))}"
        points += [
            CostPoint(label, turn_no, turn.prompt_tokens, turn.total_tokens)
            for turn_no, turn in enumerate(pane.turns, start=1)
        ]
    return points


def render() -> None:
    """The page, in one script run per message: toolbar and panes, the streaming of the replies into
    them, then what depends on the finished turns (inspectors, gauges, cost charts).

    Buttons are drawn enabled even while replies stream (their callbacks refuse while busy): the run
    that streams is the last run of the message, so whatever it draws is what stays on screen.
    """
    session = get_session()
    _chat_box()

    st.title(t("compare.title"), anchor=False)
    st.caption(t("compare.intro", provider=code_span(provider_label(session.provider))))
    show_flashes(session)
    _usage_caption(session)
    per_row, zoom = toolbar(session)

    job = session.job
    in_flight = job if job is not None and not job.finished else None
    panes = session.panes
    slots = _draw_panes(session, panes, per_row, zoom, in_flight)

    if in_flight is not None:
        stream_into(in_flight, {pid: s.reply for pid, s in slots.items() if s.reply is not None})
        finish_broadcast(session, in_flight)
        if session.has_flashes:
            st.rerun()  # the broadcast failed as a whole: show why, at the top of the page
    for pane in panes:
        if pane.pane_id in slots:
            finish_pane(slots[pane.pane_id], pane_view(session, pane, None, zoom), ACTIONS)

    render_conversation_link(session, workshop_config())
    render_conversation_export(session.panes, session.provider)

    st.subheader(t("cost.title"), anchor=False)
    st.caption(t("cost.caption"))
    render_cost_charts(cost_points(session))


def _chat_box() -> None:
    """The chat input (refilled with a refused message) and what a submitted message starts."""
    refill = st.session_state.pop(REFILL_KEY, None)
    if refill:
        st.session_state[widget_key("chat")] = refill
    message = st.chat_input(t("compare.chat_placeholder"), key=widget_key("chat"), submit_mode="disable")
    if message is not None:
        handle_message(message)
        if REFILL_KEY in st.session_state:
            st.rerun()  # to put the refused message back into the box


def _usage_caption(session: LabSession) -> None:
    """In a workshop, what this attendee has used of the room's limits."""
    budget = session.budget
    if budget is None:
        return
    limits = budget.limits
    st.caption(
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
    for start in range(0, len(panes), per_row):
        row = panes[start : start + per_row]
        for column, pane in zip(st.columns(per_row, gap="small")[: len(row)], row, strict=True):
            with column:
                pane_slots = render_pane(pane_view(session, pane, in_flight, zoom), ACTIONS)
            if pane_slots is not None:
                slots[pane.pane_id] = pane_slots
    return slots


run_in_frame(render)
