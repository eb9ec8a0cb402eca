"""Scorecard: replay a scripted conversation through several strategies; recall, tokens, estimated cost."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from memory_demos.i18n import current_language, strategy_title, t, translate
from memory_demos.page_state import scripted_refusal
from memory_demos.scenarios import (
    MAX_SCENARIO_BYTES,
    Scenario,
    ScenarioError,
    bundled_names,
    load_scenario,
    parse_scenario,
)
from memory_demos.scorecard import ReplayJob
from memory_demos.session import LabSession, get_session, widget_key
from memory_demos.strategies.registry import available_ids, get_info
from memory_demos.ui.frame import run_in_frame
from memory_demos.ui.scorecard_view import render_results
from memory_demos.ui.text import code_span, duration_words, provider_label
from memory_demos.ui.workshop import usage_recorder

DEFAULT_STRATEGIES = ("buffer", "window", "summary_buffer", "trim", "summarization", "long_term")
# The scenario first offered, per interface language (its Chinese twin in a Chinese session).
DEFAULT_SCENARIOS = {"en": "name_recall", "zh": "name_recall_zh"}
POLL_SECONDS = 0.2
UPLOAD_LIMIT_MB = 1


def _strategy_label(strategy_id: str) -> str:
    return f"{strategy_id} · {strategy_title(get_info(strategy_id))}"


def _choose_scenario(session: LabSession) -> Scenario | None:
    """The scenario to replay; an invalid one is shown as an error and clears the last scorecard (whose
    results would otherwise look like this scenario's)."""
    source = st.segmented_control(
        t("scorecard.source"),
        ["bundled", "upload"],
        format_func=lambda value: t(f"scorecard.source.{value}"),
        default="bundled",
        required=True,
        key=widget_key("scorecard_source"),
    )
    try:
        if source == "upload":
            uploaded = st.file_uploader(
                t("scorecard.upload", kb=MAX_SCENARIO_BYTES // 1024),
                type=["yaml", "yml"],
                max_upload_size=UPLOAD_LIMIT_MB,
                key=widget_key("scorecard_upload"),
            )
            if uploaded is None:
                st.info(t("scorecard.upload_needed"))
                return None
            return parse_scenario(uploaded.getvalue(), source=uploaded.name)
        names = bundled_names()
        default = DEFAULT_SCENARIOS.get(current_language(), DEFAULT_SCENARIOS["en"])
        titles = {bundled: load_scenario(bundled).name for bundled in names}  # small YAML files
        name = st.selectbox(
            t("scorecard.bundled"),
            names,
            index=names.index(default) if default in names else 0,
            format_func=titles.__getitem__,
            key=widget_key("scorecard_bundled"),
        )
        return load_scenario(name)
    except ScenarioError as exc:
        session.scorecard.outcome = None
        st.error(t("scorecard.invalid"))
        st.code(exc.describe(), language=None, wrap_lines=True)
        return None


def _show_progress(job: ReplayJob) -> None:
    """Progress bars updated in place until the replay ends; a Cancel click reruns the page and cancels."""
    st.caption(t("scorecard.provider", provider=code_span(provider_label(job.provider))))
    st.button(
        t("scorecard.cancel"),
        icon=":material/stop_circle:",
        on_click=job.cancel,
        disabled=job.cancel_requested,
        key=widget_key("scorecard_cancel"),
    )
    bars = {strategy_id: st.empty() for strategy_id in job.strategy_ids}
    while True:
        for strategy_id, (turn, total) in job.progress().items():
            text = (
                t("scorecard.progress", strategy=strategy_id, k=turn, n=total)
                if turn
                else t("scorecard.waiting", strategy=strategy_id)
            )
            bars[strategy_id].progress(turn / total if total else 0.0, text=text)
        if job.wait(POLL_SECONDS):
            break


def _scenario_preview(scenario: Scenario) -> None:
    st.caption(t("scorecard.preview", turns=len(scenario.turns), probes=scenario.probes))
    with st.expander(t("scorecard.turns_preview")):
        st.text(scenario.name)
        # Turns numbered from 1, as the results number them ("14 · What's my name?"); headers translated.
        columns: dict[str, Any] = {
            t("scorecard.col.turn"): range(1, len(scenario.turns) + 1),
            t("scorecard.col.user_message"): [turn.user for turn in scenario.turns],
            t("scorecard.col.expected"): [", ".join(turn.expect) for turn in scenario.turns],
        }
        if scenario.sessions > 1:  # which conversation each message is in ("2 · after 3 days" at a break)
            columns[t("scorecard.col.session")] = [
                t("scorecard.col.session_after", n=turn.session, after=duration_words(turn.after))
                if turn.new_session and turn.after
                else str(turn.session)
                for turn in scenario.turns
            ]
            columns[t("scorecard.col.kind")] = [
                t(f"scorecard.kind.{turn.probe_kind}") if turn.probe_kind else "" for turn in scenario.turns
            ]
        turns = pd.DataFrame(columns)
        st.dataframe(
            turns,
            width="stretch",
            hide_index=True,
            column_config={t("scorecard.col.turn"): st.column_config.NumberColumn(width="small")},
        )


def _run_button(session: LabSession, scenario: Scenario | None, strategy_ids: list[str]) -> None:
    """Start a replay, unless it would not fit the workshop budget (sized before it starts)."""
    state = session.scorecard
    running = state.job is not None and not state.job.done
    if not st.button(
        t("scorecard.run"),
        type="primary",
        icon=":material/play_arrow:",
        disabled=running or scenario is None or not strategy_ids,
        key=widget_key("scorecard_run"),
    ):
        return
    assert scenario is not None  # the button is disabled without one
    hit = state.run_refusal(session.budget, session.provider, scenario, len(strategy_ids))
    if hit is not None:
        st.warning(translate(scripted_refusal(hit, "scenario")))
    else:
        state.start(ReplayJob(scenario, strategy_ids, session.provider).start())


def render() -> None:
    """The page: a scenario, the strategies to replay it through, the run's progress, then the results."""
    session = get_session()
    st.title(t("scorecard.title"), anchor=False)
    st.caption(t("scorecard.intro"))
    scenario = _choose_scenario(session)
    if scenario is not None:
        _scenario_preview(scenario)
    available = list(available_ids())
    strategy_ids = st.multiselect(
        t("scorecard.strategies"),
        available,
        default=[sid for sid in DEFAULT_STRATEGIES if sid in available],
        format_func=_strategy_label,
        key=widget_key("scorecard_strategies"),
    )
    if not strategy_ids:
        st.warning(t("scorecard.strategies_needed"))
    _run_button(session, scenario, strategy_ids)

    state = session.scorecard
    job = state.job
    if job is not None:
        was_running = not job.done
        if was_running:
            _show_progress(job)
        # A replay spends the session's workshop budget like messages on the Compare page do.
        state.collect(usage_recorder(session))
        if was_running:
            st.rerun()  # redraw without the finished progress bars
    if state.notice:
        kind, text, detail = state.notice
        (st.info if kind == "info" else st.error)(translate(text))
        if detail:
            st.code(translate(detail), language=None, wrap_lines=True)
    if state.outcome is not None:
        render_results(state.outcome.result, state.outcome.scenario, state.outcome.provider)


run_in_frame(render)
