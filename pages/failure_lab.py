"""Failure lab: ways memory goes wrong, each reproduced next to its fix."""

from __future__ import annotations

import inspect

import streamlit as st

from memory_demos.failure_lab import DEMOS, Demo, DemoResult
from memory_demos.i18n import t
from memory_demos.page_state import FailureLabState
from memory_demos.providers.chat_models import CallGate
from memory_demos.providers.errors import describe_error
from memory_demos.session import get_session, widget_key
from memory_demos.storage import REDIS_URL_ENV
from memory_demos.ui.frame import run_in_frame
from memory_demos.ui.workshop import lab_config

# Demos that run against a real Redis server (MEMORY_LAB_REDIS_URL): without one they cannot run.
REDIS_DEMOS = frozenset({"expiring_notes"})


def _render_result(result: DemoResult) -> None:
    naive_column, fixed_column = st.columns(2, gap="medium")
    with naive_column:
        st.markdown(f"**{t('failure.naive')}**")
        if result["failed"]:
            st.error(t("failure.failed_yes"), icon=":material/error:")
        else:
            st.info(t("failure.failed_no"))
        st.json(result["naive"], expanded=2)
    with fixed_column:
        st.markdown(f"**{t('failure.fixed')}**")
        if result["fixed_ok"]:
            st.success(t("failure.fixed_yes"), icon=":material/check_circle:")
        else:
            st.warning(t("failure.fixed_no"))
        st.json(result["fixed"], expanded=2)


def _missing_service(demo: Demo) -> str | None:
    """What ``demo`` needs that this server lacks, as the message to show instead of a run; None if nothing.

    The variable is the host's to set: a workshop attendee is told so, not asked to set it.
    """
    if demo.id not in REDIS_DEMOS:
        return None
    config = lab_config()
    if config.storage.redis_url is not None:
        return None
    if config.workshop.enabled:
        return t("failure.needs_redis_workshop")
    return t("failure.needs_redis", variable=REDIS_URL_ENV)


def _render_demo(demo: Demo, state: FailureLabState, language: str, gate: CallGate | None) -> None:
    st.subheader(t(demo.title_key), anchor=False)
    st.markdown(t(demo.explanation_key))
    missing = _missing_service(demo)
    if missing is not None:
        st.info(missing, icon=":material/dns:")
    if st.button(
        t("failure.run"),
        type="primary",
        icon=":material/play_arrow:",
        key=widget_key("failure", demo.id),
        disabled=missing is not None,
    ):
        try:
            state.results[demo.id] = demo.run(language, gate=gate)
        except Exception as exc:  # a demo that breaks says why; the other demos stay usable
            state.results.pop(demo.id, None)
            st.error(t("failure.error"))
            st.code(describe_error(exc), language=None, wrap_lines=True)
    result = state.results.get(demo.id)
    if result is not None:
        _render_result(result)
    st.markdown(f"**{t('failure.fix')}**: {t(demo.fix_key)}")
    if demo.code:
        with st.expander(t("failure.code")):
            for function in demo.code:
                st.code(inspect.getsource(function), language="python")


def render() -> None:
    """The page: one tab per demo, each run on demand next to its fix."""
    session = get_session()
    language = session.language
    st.title(t("failure.title"), anchor=False)
    st.caption(t("failure.intro"))
    for demo, tab in zip(DEMOS, st.tabs([t(demo.title_key) for demo in DEMOS]), strict=True):
        with tab:
            _render_demo(demo, session.failure_lab, language, session.gate)


run_in_frame(render)
