"""Instructor view: how the room is doing (attendees, sessions, model calls, tokens, errors), never what
anyone wrote. The counts redraw themselves every few seconds (a fragment, not a rerun of the page)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import streamlit as st

from memory_demos.i18n import t
from memory_demos.session import get_session
from memory_demos.ui.frame import run_in_frame
from memory_demos.ui.notices import show_flashes
from memory_demos.ui.room_view import error_rows, limit_rows, number
from memory_demos.ui.workshop import ROOM, instructor_unlocked, lab_config, render_host_gate
from memory_demos.workshop import WorkshopConfig

REFRESH_SECONDS = 5
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


def _now_text() -> str:
    """The time now, in the browser's time zone when it says which (else UTC)."""
    try:
        zone = ZoneInfo(st.context.timezone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    return datetime.now(UTC).astimezone(zone).strftime("%H:%M:%S")


def _table(rows: list[dict[str, Any]], columns: dict[str, str], language: str, empty_key: str) -> None:
    """Numbered rows of counts, with translated column names and grouped digits; no rows, a sentence
    (an empty table drew no headers, only the word "empty", in English in either language)."""
    if not rows:
        st.caption(t(empty_key, language))
        return
    names = {key: t(key_name, language) for key, key_name in columns.items()}
    st.dataframe(
        [{names[k]: v for k, v in row.items()} for row in rows],
        hide_index=True,
        column_config={name: st.column_config.NumberColumn(format="localized") for name in names.values()},
    )


def _metric(label_key: str, help_key: str, value: int, language: str, **help_values: Any) -> None:
    st.metric(t(label_key, language), number(value), help=t(help_key, language, **help_values), border=True)


@st.fragment(run_every=REFRESH_SECONDS)
def room_counts(language: str, session_key: str) -> None:
    """Everything that changes while the room works, redrawn on its own every ``REFRESH_SECONDS``.

    A redraw is not a run of the page, so it marks the host's session active itself: a host watching
    the room for longer than the idle time is not released as idle.
    """
    if session_key in ROOM.registry:
        ROOM.registry.touch(session_key)
    st.caption(
        ":material/autorenew: " + t("instructor.updated", language, seconds=REFRESH_SECONDS, time=_now_text())
    )
    registry = ROOM.registry
    stats = registry.stats()
    # Two rows of three: six boxes in one row cut their labels at 1440 px, and a wrapped sixth box
    # stretched across the whole page.
    people, work = st.columns(3), st.columns(3)
    with people[0]:
        hosts = number(ROOM.host_browsers)
        _metric("instructor.attendees", "instructor.attendees_help", ROOM.attendees, language, hosts=hosts)
    with people[1]:
        _metric("instructor.sessions", "instructor.sessions_help", stats.sessions, language)
    with people[2]:
        _metric("instructor.active", "instructor.active_help", stats.active_sessions, language)
    with work[0]:
        _metric("instructor.calls", "instructor.calls_help", stats.model_calls_last_hour, language)
    with work[1]:
        _metric("instructor.tokens", "instructor.tokens_help", stats.tokens_last_hour, language)
    with work[2]:
        _metric("instructor.released", "instructor.released_help", stats.released_total, language)

    st.subheader(t("instructor.errors", language), anchor=False)
    if stats.errors_last_hour:
        st.table(error_rows(stats.errors_last_hour, language), hide_index=True)
    else:
        st.caption(t("instructor.no_errors", language))

    st.subheader(t("instructor.per_session", language), anchor=False)
    _table(registry.session_rows(), SESSION_COLUMNS, language, "instructor.no_sessions")
    st.subheader(t("instructor.per_attendee", language), anchor=False)
    _table(ROOM.attendee_rows(), ATTENDEE_COLUMNS, language, "instructor.no_attendees")

    st.subheader(t("instructor.codes", language), anchor=False)
    guard = ROOM.guard.stats()
    with st.container(horizontal=True):
        for key, value in (
            ("instructor.code_failures", guard.failures_last_hour),
            ("instructor.code_throttled", guard.throttled_last_hour),
            ("instructor.code_locked_out", guard.locked_out_last_hour),
            ("instructor.code_locked_now", guard.locked_addresses),
        ):
            st.metric(t(key, language), number(value), border=True)


def room_settings(config: WorkshopConfig, language: str) -> None:
    """What the host configured: the workshop model, the limits per attendee, the allowed addresses."""
    st.subheader(t("instructor.limits", language), anchor=False)
    if config.host is not None:
        st.caption(t("instructor.host_model", language, model=config.host.model))
    else:
        st.caption(t("instructor.no_host_model", language))
    st.table(limit_rows(config.limits, language), hide_index=True)
    if config.allowed_base_urls:
        st.caption(t("instructor.allowed_urls", language))
        st.code("\n".join(config.allowed_base_urls), language=None)


def render() -> None:
    """The page: behind the host code; counts from the room only."""
    session = get_session()
    language = session.language
    config = lab_config().workshop
    st.title(t("instructor.title", language), anchor=False)
    show_flashes(session)
    if not config.enabled:
        st.info(t("instructor.off", language), icon=":material/info:")
        return
    if config.instructor_code is None:  # no code configured: nobody can open it
        st.warning(t("instructor.no_code", language), icon=":material/lock:")
        return
    if not instructor_unlocked():
        st.caption(t("instructor.locked", language))
        render_host_gate(config)
        return

    st.caption(t("instructor.intro", language))
    room_counts(language, session.registry_key)
    room_settings(config, language)


run_in_frame(render)
