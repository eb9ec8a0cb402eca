"""Instructor view: how the room is doing (attendees, sessions, model calls, tokens, errors), never what
anyone wrote. The counts redraw themselves every few seconds (a fragment, not a rerun of the page)."""

from __future__ import annotations

from dataclasses import fields
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import streamlit as st

from memory_demos.i18n import t
from memory_demos.session import get_session
from memory_demos.ui.frame import run_in_frame
from memory_demos.ui.notices import show_flashes
from memory_demos.ui.workshop import ROOM, instructor_unlocked, lab_config, render_host_gate
from memory_demos.workshop import WorkshopConfig, WorkshopLimits

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
# What each counted error kind is called: refused codes and links (ui/workshop.py) and the kinds of a
# failed model call (providers/errors.py). A kind not listed here is counted as "Other errors".
ERROR_KINDS = {
    "access_denied": "instructor.kind.access_denied",
    "host_code_denied": "instructor.kind.host_code_denied",
    "code_locked": "instructor.kind.code_locked",
    "code_busy": "instructor.kind.code_busy",
    "link_malformed": "instructor.kind.link_malformed",
    "link_forged": "instructor.kind.link_forged",
    "link_not_found": "instructor.kind.link_not_found",
    "timeout": "instructor.kind.timeout",
    "rate_limit": "instructor.kind.rate_limit",
    "authentication": "instructor.kind.authentication",
    "permission": "instructor.kind.permission",
    "not_found": "instructor.kind.not_found",
    "context_overflow": "instructor.kind.context_overflow",
    "interrupted": "instructor.kind.interrupted",
    "connection_dropped": "instructor.kind.connection_dropped",
    "connection": "instructor.kind.connection",
    "server": "instructor.kind.server",
    "rejected": "instructor.kind.rejected",
    "malformed": "instructor.kind.malformed",
    "input": "instructor.kind.input",
    "storage": "instructor.kind.storage",
    "budget": "instructor.kind.budget",
    "injected": "instructor.kind.injected",
    "url_refused": "instructor.kind.url_refused",
    "other": "instructor.kind.other",
}
UNKNOWN_KIND = "instructor.kind.unknown"
# Each limit per attendee: its name in words, and the unit its value is shown with.
LIMITS = {
    "max_turns_per_conversation": ("instructor.limit.max_turns_per_conversation", "instructor.unit.messages"),
    "max_message_chars": ("instructor.limit.max_message_chars", "instructor.unit.characters"),
    "max_tokens_per_session": ("instructor.limit.max_tokens_per_session", "instructor.unit.tokens"),
    "max_concurrent_calls_per_session": (
        "instructor.limit.max_concurrent_calls_per_session",
        "instructor.unit.calls",
    ),
    "max_code_failures_per_address": (
        "instructor.limit.max_code_failures_per_address",
        "instructor.unit.codes",
    ),
    "code_lockout_minutes": ("instructor.limit.code_lockout_minutes", "instructor.unit.minutes"),
    "max_code_checks_per_second": (
        "instructor.limit.max_code_checks_per_second",
        "instructor.unit.per_second",
    ),
    "idle_minutes": ("instructor.limit.idle_minutes", "instructor.unit.minutes"),
}


def number(value: float) -> str:
    """A count or limit as people read it: 150,000; 15; 0.5."""
    return f"{value:,}" if isinstance(value, int) else f"{value:,g}"


def error_rows(errors: dict[str, int], language: str) -> list[dict[str, str]]:
    """The last hour's errors, each kind named in words (unknown kinds counted together), most first."""
    counts: dict[str, int] = {}
    for kind, count in errors.items():
        label = t(ERROR_KINDS.get(kind, UNKNOWN_KIND), language)
        counts[label] = counts.get(label, 0) + count
    ordered = sorted(counts.items(), key=lambda item: -item[1])
    return [
        {t("instructor.error_kind", language): label, t("instructor.error_count", language): number(count)}
        for label, count in ordered
    ]


def limit_rows(limits: WorkshopLimits, language: str) -> list[dict[str, str]]:
    """Every limit per attendee, named in words, its value with its unit."""
    rows = []
    for spec in fields(limits):
        name_key, unit_key = LIMITS[spec.name]
        rows.append(
            {
                t("instructor.limit_name", language): t(name_key, language),
                t("instructor.limit_value", language): t(
                    unit_key, language, value=number(getattr(limits, spec.name))
                ),
            }
        )
    return rows


def _now_text() -> str:
    """The time now, in the browser's time zone when it says which (else UTC)."""
    try:
        zone = ZoneInfo(st.context.timezone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    return datetime.now(UTC).astimezone(zone).strftime("%H:%M:%S")


def _table(rows: list[dict[str, Any]], columns: dict[str, str], language: str) -> None:
    """Numbered rows of counts, with translated column names and grouped digits."""
    names = {key: t(key_name, language) for key, key_name in columns.items()}
    st.dataframe(
        [{names[k]: v for k, v in row.items()} for row in rows],
        hide_index=True,
        column_config={name: st.column_config.NumberColumn(format="localized") for name in names.values()},
    )


def _metric(label_key: str, help_key: str, value: int, language: str, **help_values: Any) -> None:
    st.metric(t(label_key, language), number(value), help=t(help_key, language, **help_values), border=True)


@st.fragment(run_every=REFRESH_SECONDS)
def room_counts(language: str) -> None:
    """Everything that changes while the room works, redrawn on its own every ``REFRESH_SECONDS``."""
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
    _table(registry.session_rows(), SESSION_COLUMNS, language)
    st.subheader(t("instructor.per_attendee", language), anchor=False)
    _table(ROOM.attendee_rows(), ATTENDEE_COLUMNS, language)

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
    room_counts(language)
    room_settings(config, language)


run_in_frame(render)
