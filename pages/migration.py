"""Migration guide: each classic memory next to its modern replacement, run on the same messages."""

from __future__ import annotations

import json
from types import ModuleType

import streamlit as st

from memory_demos.defaults import default_system_prompt
from memory_demos.i18n import t, translate
from memory_demos.migration import (
    MAX_GUIDE_INPUTS,
    STEP_IDS,
    MigrationRun,
    VersionTurn,
    built_deprecations,
    default_inputs,
    load_step,
    prompt_lines,
    run_both,
    shown_programs,
)
from memory_demos.page_state import MigrationState, scripted_refusal
from memory_demos.session import LabSession, get_session, widget_key
from memory_demos.ui.deprecation_status import render_deprecation_status
from memory_demos.ui.frame import run_in_frame
from memory_demos.ui.text import code_span, provider_label
from memory_demos.workshop.budget import check_scripted_run

CODE_HEIGHT = 560  # px: a program scrolls inside its box, the two boxes stay side by side


def _go(delta: int) -> None:
    get_session().migration(len(STEP_IDS)).go(delta)


def _jump() -> None:
    session = get_session()
    session.migration(len(STEP_IDS)).step_index = STEP_IDS.index(
        session.widgets[widget_key("migration_jump")]
    )


def _step_title(step_id: str, language: str) -> str:
    return t(load_step(step_id).TITLE_KEY, language)


def _parse_inputs(text: str, limit: int) -> list[str] | None:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines or len(lines) > MAX_GUIDE_INPUTS or any(len(line) > limit for line in lines):
        return None
    return lines


def _render_side(title: str, side: VersionTurn) -> None:
    st.markdown(f"**{title}**")
    st.metric(t("migration.tokens"), side.prompt_tokens)
    if side.memory_calls:
        st.caption(t("migration.memory_calls", count=len(side.memory_calls), tokens=side.memory_tokens))
    if side.tool_rounds:
        st.caption(t("migration.tool_rounds", count=side.tool_rounds))
    st.caption(t("migration.prompt"))
    st.code("\n".join(prompt_lines(side.injected_prompt)) or " ", language=None, wrap_lines=True)
    st.caption(t("migration.reply"))
    st.text(side.reply or "—")


def _render_deprecations(step: ModuleType, state: MigrationState) -> None:
    """Each side's status, from the warnings LangChain raised while that side built its memory."""
    classic, modern = state.deprecations(step.STEP_ID, lambda: built_deprecations(step))
    st.caption(t("migration.deprecations_built"))
    left, right = st.columns(2, gap="medium")
    for column, version, found in ((left, "classic", classic), (right, "modern", modern)):
        with column:
            st.caption(t(f"migration.{version}"))
            render_deprecation_status(found, full_text=True)


def _render_verdict(run: MigrationRun) -> None:
    """The run's verdict first: a failed side means nothing was compared, never "differ on 0 turns"."""
    if run.failed_side is not None:
        st.warning(t(f"migration.could_not_compare.{run.failed_side}"), icon=":material/error:")
    elif run.all_same:
        st.success(t("migration.all_same"), icon=":material/check_circle:")
    elif run.turns:
        st.info(
            t("migration.some_differ", count=run.differing_turns, total=len(run.turns)),
            icon=":material/difference:",
        )
    for version, error in (("classic", run.classic_error), ("modern", run.modern_error)):
        if error:
            st.error(t("migration.error", version=t(f"migration.{version}")))
            st.code(translate(error), language=None, wrap_lines=True)


def _render_recordings(run: MigrationRun) -> None:
    """Each side's recorded replies, so its program replays this very run at home (``--replay``)."""
    columns = st.columns(2, gap="medium")
    for column, version, recording in zip(
        columns, ("classic", "modern"), (run.classic_recording, run.modern_recording), strict=True
    ):
        if recording.get("replies"):
            column.download_button(
                t("migration.recording", version=t(f"migration.{version}")),
                json.dumps(recording, ensure_ascii=False, indent=1),
                file_name=f"{run.step_id}_{version}.recording.json",
                mime="application/json",
                icon=":material/download:",
                key=widget_key("migration_recording", run.step_id, version),
            )


def _render_run(run: MigrationRun) -> None:
    _render_verdict(run)
    _render_recordings(run)
    for turn in run.turns:
        with st.expander(t("migration.turn", n=turn.index), expanded=turn.index == len(run.turns)):
            st.caption(t("migration.user"))
            st.text(turn.user)
            st.caption(t("migration.equivalence"))
            st.code(translate(turn.equivalence.message), language=None, wrap_lines=True)
            left, right = st.columns(2, gap="medium")
            with left:
                _render_side(t("migration.classic"), turn.classic)
            with right:
                _render_side(t("migration.modern"), turn.modern)
            st.caption(t("migration.diff"))
            st.code("\n".join(turn.diff) or t("migration.no_diff"), language="diff", wrap_lines=True)


def _step_navigation(session: LabSession, state: MigrationState, step: ModuleType) -> None:
    step_index = state.step_index
    st.progress(
        (step_index + 1) / len(STEP_IDS),
        text=t(
            "migration.progress",
            n=step_index + 1,
            total=len(STEP_IDS),
            title=t(step.TITLE_KEY),
        ),
    )
    back, jump, forward = st.columns([1, 3, 1], vertical_alignment="bottom")
    back.button(
        t("migration.previous"),
        icon=":material/arrow_back:",
        on_click=_go,
        args=(-1,),
        disabled=step_index == 0,
        key=widget_key("migration_previous"),
        width="stretch",
    )
    session.widgets[widget_key("migration_jump")] = STEP_IDS[step_index]
    jump.selectbox(
        t("migration.jump"),
        STEP_IDS,
        # The session's language, bound here: Streamlit may format the options outside this run.
        format_func=lambda step_id, language=session.language: _step_title(step_id, language),
        key=widget_key("migration_jump"),
        on_change=_jump,
    )
    forward.button(
        t("migration.next"),
        icon=":material/arrow_forward:",
        on_click=_go,
        args=(1,),
        disabled=step_index == len(STEP_IDS) - 1,
        key=widget_key("migration_next"),
        width="stretch",
    )


def _render_code(step: ModuleType) -> None:
    """The step's summary and both sides' programs: the text shown is the text run and exported."""
    st.subheader(t(step.TITLE_KEY), anchor=False)
    st.markdown(t(step.SUMMARY_KEY))
    st.caption(t("migration.meant_to_match") if step.meant_to_match else t("migration.not_meant_to_match"))
    st.caption(t("migration.program_caption"))
    columns = st.columns(2, gap="medium")
    for column, version, api, program in zip(
        columns,
        ("classic", "modern"),
        (step.CLASSIC_API, step.MODERN_API),
        shown_programs(step, get_session().language),
        strict=True,
    ):
        with column:
            st.markdown(f"**{t(f'migration.{version}')}**")
            st.caption(api)
            # Long lines wrap inside the box and long programs scroll in it; st.code adds the copy button.
            st.code(program.text, language="python", wrap_lines=True, height=CODE_HEIGHT)


def _run_form(session: LabSession, state: MigrationState, step: ModuleType) -> None:
    """The messages to run both sides on, and the run (sized against a workshop budget first)."""
    limit = session.limits.max_message_chars
    inputs_text = st.text_area(
        t("migration.inputs"),
        value="\n".join(default_inputs(step, session.language)),
        height=140,
        help=t("migration.inputs_help", max=MAX_GUIDE_INPUTS),
        key=widget_key("migration_inputs", step.STEP_ID),
    )
    inputs = _parse_inputs(inputs_text, limit)
    if inputs is None:
        st.warning(t("migration.inputs_invalid", max=MAX_GUIDE_INPUTS, chars=limit))
    st.caption(t("migration.provider", provider=code_span(provider_label(session.provider))))
    if not st.button(
        t("migration.run"),
        type="primary",
        icon=":material/play_arrow:",
        disabled=inputs is None,
        key=widget_key("migration_run", step.STEP_ID),
    ):
        return
    budget = session.budget  # workshop mode: sized before it starts, and every call goes through the gate
    encoding = session.provider.tokenizer.encoding_name
    system_prompt = default_system_prompt(session.language)  # the prompt the shown programs send
    hit = check_scripted_run(budget, inputs, system_prompt, 2, encoding) if budget and inputs else None
    if hit is not None:
        st.warning(translate(scripted_refusal(hit, "guide")))
    elif inputs is not None:
        with st.spinner(t("migration.running")):
            state.runs[step.STEP_ID] = run_both(step, inputs, session.provider, session.language)


def _render_pitfalls_and_decision(step: ModuleType) -> None:
    st.subheader(t("migration.pitfalls"), anchor=False)
    st.markdown("\n".join(f"- {t(key)}" for key in step.PITFALL_KEYS))
    if not hasattr(step, "SITUATIONS"):
        return
    st.subheader(t("migration.decision"), anchor=False)
    situation = st.radio(
        t("migration.decision_pick"),
        [rec.situation for rec in step.SITUATIONS],
        format_func=lambda value: t(step.recommend(value).label_key),
        horizontal=True,
        key=widget_key("migration_situation"),
    )
    recommendation = step.recommend(situation)
    with st.container(border=True):
        st.markdown(f"**{t('migration.decision_pattern')}**: {t(recommendation.pattern_key)}")
        st.markdown(f"**{t('migration.decision_why')}**: {t(recommendation.why_key)}")
        st.markdown(f"**{t('migration.decision_watch')}**: {t(recommendation.watch_out_key)}")
        st.markdown(
            f"**{t('migration.decision_strategies')}**: "
            + ", ".join(f"`{strategy_id}`" for strategy_id in recommendation.strategies)
        )


def render() -> None:
    """The page: one step of the guide, its code side by side, a run of both sides and the pitfalls."""
    session = get_session()
    state = session.migration(len(STEP_IDS))
    state.step_index = min(max(int(state.step_index), 0), len(STEP_IDS) - 1)
    step = load_step(STEP_IDS[state.step_index])
    st.title(t("migration.title"), anchor=False)
    st.caption(t("migration.intro"))
    _step_navigation(session, state, step)
    _render_code(step)
    _run_form(session, state, step)
    last_run = state.runs.get(step.STEP_ID)
    _render_deprecations(step, state)
    if last_run is not None:
        _render_run(last_run)
    _render_pitfalls_and_decision(step)


run_in_frame(render)
