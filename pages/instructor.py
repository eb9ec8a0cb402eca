"""Instructor view: how the room is doing (sessions, model calls, tokens, errors), never what anyone wrote."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import streamlit as st

from memory_demos.i18n import t
from memory_demos.session import get_session
from memory_demos.ui.frame import run_in_frame
from memory_demos.ui.notices import show_flashes
from memory_demos.ui.workshop import ROOM, instructor_unlocked, lab_config, render_host_gate

SESSION_COLUMNS = {
    "session": "instructor.col_session",
    "idle_seconds": "instructor.col_idle",
    "model_calls": "instructor.col_calls",
    "tokens": "instructor.col_tokens",
    "errors": "instructor.col_errors",
}
ATTENDEE_COLUMNS = {
    "attendee": "instructor.col_attendee",
    "tokens": "instructor.col_tokens",
    "tokens_left": "instructor.col_left",
    "model_calls": "instructor.col_calls",
    "refused_calls": "instructor.col_refused",
    "refused_up_front": "instructor.col_refused_up_front",
    "running": "instructor.col_running",
}


def _table(rows: list[dict[str, Any]], columns: dict[str, str]) -> None:
    """Numbered rows of counts, with translated column names."""
    st.dataframe([{t(columns[k]): v for k, v in row.items()} for row in rows], hide_index=True)


def render() -> None:
    """The page: behind the host code; counts from the session registry only."""
    session = get_session()
    config = lab_config().workshop
    st.title(t("instructor.title"), anchor=False)
    show_flashes(session)
    if not config.enabled:
        st.info(t("instructor.off"), icon=":material/info:")
        return
    if config.instructor_code is None:  # no code configured: nobody can open it
        st.warning(t("instructor.no_code"), icon=":material/lock:")
        return
    if not instructor_unlocked():
        st.caption(t("instructor.locked"))
        render_host_gate(config)
        return

    st.caption(t("instructor.intro"))
    st.button(t("instructor.refresh"), icon=":material/refresh:")
    registry = ROOM.registry
    stats = registry.stats()
    with st.container(horizontal=True):
        st.metric(t("instructor.attendees"), f"{ROOM.attendees:,}", border=True)
        st.metric(t("instructor.sessions"), f"{stats.sessions:,}", border=True)
        st.metric(t("instructor.active"), f"{stats.active_sessions:,}", border=True)
        st.metric(t("instructor.calls"), f"{stats.model_calls_last_hour:,}", border=True)
        st.metric(t("instructor.tokens"), f"{stats.tokens_last_hour:,}", border=True)
        st.metric(t("instructor.released"), f"{stats.released_total:,}", border=True)

    st.subheader(t("instructor.errors"), anchor=False)
    if stats.errors_last_hour:
        st.dataframe(
            [
                {t("instructor.error_kind"): kind, t("instructor.error_count"): count}
                for kind, count in stats.errors_last_hour.items()
            ],
            hide_index=True,
        )
    else:
        st.caption(t("instructor.no_errors"))

    st.subheader(t("instructor.per_session"), anchor=False)
    _table(registry.session_rows(), SESSION_COLUMNS)
    st.subheader(t("instructor.per_attendee"), anchor=False)
    _table(ROOM.attendee_rows(), ATTENDEE_COLUMNS)

    st.subheader(t("instructor.codes"), anchor=False)
    guard = ROOM.guard.stats()
    with st.container(horizontal=True):
        st.metric(t("instructor.code_failures"), f"{guard.failures_last_hour:,}", border=True)
        st.metric(t("instructor.code_throttled"), f"{guard.throttled_last_hour:,}", border=True)
        st.metric(t("instructor.code_locked_out"), f"{guard.locked_out_last_hour:,}", border=True)
        st.metric(t("instructor.code_locked_now"), f"{guard.locked_addresses:,}", border=True)

    st.subheader(t("instructor.limits"), anchor=False)
    if config.host is not None:
        st.caption(t("instructor.host_model", model=config.host.model))
    else:
        st.caption(t("instructor.no_host_model"))
    st.dataframe(
        [
            {
                t("instructor.limit_name"): spec.name,
                t("instructor.limit_value"): getattr(config.limits, spec.name),
            }
            for spec in fields(config.limits)
        ],
        hide_index=True,
    )
    if config.allowed_base_urls:
        st.caption(t("instructor.allowed_urls"))
        st.code("\n".join(config.allowed_base_urls), language=None)


run_in_frame(render)
