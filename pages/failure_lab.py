"""Failure lab: ways memory goes wrong, each reproduced next to its fix."""

from __future__ import annotations

import inspect
from typing import Any

import streamlit as st

from memory_demos.failure_lab import DEMOS, Demo, DemoResult
from memory_demos.i18n import t, translate
from memory_demos.page_state import FailureLabState
from memory_demos.providers.chat_models import CallGate
from memory_demos.providers.errors import describe_error, error_kind
from memory_demos.session import get_session, widget_key
from memory_demos.storage import REDIS_URL_ENV
from memory_demos.ui.failures import kind_words
from memory_demos.ui.frame import run_in_frame
from memory_demos.ui.text import embedding_model_text
from memory_demos.ui.workshop import lab_config

DEMO_KEY = widget_key("failure_demo")
# Demos that run against a real Redis server (MEMORY_LAB_REDIS_URL): without one they cannot run.
REDIS_DEMOS = frozenset({"expiring_notes"})


def _evidence(value: Any) -> str:
    """A verdict cell as plain text: a list one item a line, a yes/no in words, nothing said so."""
    if isinstance(value, bool):
        return t("failure.value.yes" if value else "failure.value.no")
    if isinstance(value, list | tuple):
        return "\n".join(f"• {translate(item)}" for item in value) if value else t("failure.value.none")
    if value is None or value == "":
        return t("failure.value.none")
    return embedding_model_text(str(translate(value)))


VERDICT_COLUMNS = (1.1, 2, 2)


def _render_verdict(demo: Demo, result: DemoResult) -> None:
    """What went wrong and what the fix changed, a row per check, the evidence written out."""
    head = st.columns(VERDICT_COLUMNS, gap="medium")
    head[0].markdown(f"**{t('failure.verdict.check')}**")
    with head[1]:
        st.markdown(f"**{t('failure.naive')}**")
        if result["failed"]:
            st.error(t("failure.failed_yes"), icon=":material/error:")
        else:
            st.info(t("failure.failed_no"))
    with head[2]:
        st.markdown(f"**{t('failure.fixed')}**")
        if result["fixed_ok"]:
            st.success(t("failure.fixed_yes"), icon=":material/check_circle:")
        else:
            st.warning(t("failure.fixed_no"))
    outcome = st.columns(VERDICT_COLUMNS, gap="medium")
    outcome[0].markdown(f"**{t('failure.verdict.outcome')}**")
    harm = f"failure.harm.{demo.harm}" if result["failed"] else "failure.harm.none"
    outcome[1].markdown(f":red[**{t(harm)}**]" if result["failed"] else t(harm))
    fixed = "failure.verdict.fixed_ok" if result["fixed_ok"] else "failure.verdict.not_fixed"
    outcome[2].markdown(f":green[**{t(fixed)}**]" if result["fixed_ok"] else f":orange[**{t(fixed)}**]")
    for row in demo.verdict(result) if demo.verdict is not None else ():
        st.divider()
        cells = st.columns(VERDICT_COLUMNS, gap="medium")
        cells[0].markdown(f"**{t(row.label_key, **dict(row.label_args))}**")
        cells[1].text(_evidence(row.naive))
        cells[2].text(_evidence(row.fixed))


def _render_result(demo: Demo, result: DemoResult) -> None:
    _render_verdict(demo, result)
    # The raw results stay one click away; a demo without a verdict shows them at once.
    if demo.verdict is not None and not st.toggle(
        t("failure.show_json"), key=widget_key("failure_json", demo.id)
    ):
        return
    naive_column, fixed_column = st.columns(2, gap="medium")
    naive_column.json(result["naive"], expanded=2)
    fixed_column.json(result["fixed"], expanded=2)


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
    if demo.scripted_key:
        st.warning(t(demo.scripted_key), icon=":material/theater_comedy:")
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
            st.error(f"{t('failure.error')} {kind_words(error_kind(exc))}", icon=":material/error:")
            st.code(translate(describe_error(exc)), language=None, wrap_lines=True)
    result = state.results.get(demo.id)
    if result is not None:
        _render_result(demo, result)
    st.markdown(t("failure.fix_line", label=t("failure.fix"), fix=t(demo.fix_key)))
    if demo.code:
        with st.expander(t("failure.code")):
            for function in demo.code:
                st.code(inspect.getsource(function), language="python")


def render() -> None:
    """The page: the demos as choices that wrap onto more lines when they do not fit (tabs would hide
    some behind an arrow), the chosen one run on demand next to its fix."""
    session = get_session()
    language = session.language
    st.title(t("failure.title"), anchor=False)
    st.caption(t("failure.intro"))
    titles = {demo.id: t(demo.title_key) for demo in DEMOS}
    chosen = st.pills(
        t("failure.choose"),
        list(titles),
        format_func=titles.__getitem__,
        default=DEMOS[0].id,
        required=True,
        key=DEMO_KEY,
        width="stretch",
        wrap=True,
    )
    demo = next((demo for demo in DEMOS if demo.id == chosen), DEMOS[0])
    _render_demo(demo, session.failure_lab, language, session.gate)


run_in_frame(render)
