"""Scorecard: replay a scripted conversation through several strategies; recall, tokens, estimated cost."""

from __future__ import annotations

from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from memory_demos.config import DEFAULT_SYSTEM_PROMPT
from memory_demos.export import markdown_report, replay_script, result_json, scorecard_csv
from memory_demos.i18n import strategy_title, t
from memory_demos.replay import ReplayResult
from memory_demos.scenarios import (
    MAX_SCENARIO_BYTES,
    Scenario,
    ScenarioError,
    bundled_names,
    load_scenario,
    parse_scenario,
)
from memory_demos.scorecard import (
    DEFAULT_PRICE_MODEL,
    DEFAULT_PRICES,
    ESTIMATE_NOTE,
    PRICES_LABEL,
    ReplayJob,
    cost_by_model,
    price_records,
    prices_from_records,
    recall_timeline,
    scorecard_rows,
    token_series,
)
from memory_demos.session import get_session, widget_key
from memory_demos.strategies.registry import available_ids, get_info
from memory_demos.ui.frame import ensure_frame
from memory_demos.ui.text import code_span
from memory_demos.ui.workshop import usage_recorder
from memory_demos.workshop.budget import check_scripted_run

ensure_frame()

JOB_KEY = "ml_scorecard_job"
RESULT_KEY = "ml_scorecard_result"
NOTICE_KEY = "ml_scorecard_notice"
DEFAULT_STRATEGIES = ("buffer", "window", "summary_buffer", "trim", "summarization", "long_term")
POLL_SECONDS = 0.2
UPLOAD_LIMIT_MB = 1

session = get_session()
language = session.language


def _strategy_label(strategy_id: str) -> str:
    return f"{strategy_id} · {strategy_title(get_info(strategy_id))}"


def _choose_scenario() -> Scenario | None:
    source = st.segmented_control(
        t("scorecard.source"),
        ["bundled", "upload"],
        format_func=lambda value: t(f"scorecard.source.{value}", language),
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
        name = st.selectbox(
            t("scorecard.bundled"),
            names,
            index=names.index("name_recall") if "name_recall" in names else 0,
            key=widget_key("scorecard_bundled"),
        )
        return load_scenario(name)
    except ScenarioError as exc:
        st.error(t("scorecard.invalid"))
        st.code(str(exc), language=None, wrap_lines=True)
        return None


def _show_progress(job: ReplayJob) -> None:
    """Progress bars updated in place until the replay ends; a Cancel click reruns the page and cancels."""
    st.caption(t("scorecard.provider", provider=code_span(job.provider.display_name)))
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


def _collect(job: ReplayJob) -> None:
    """Move a finished job's outcome into the session: a result to show, or a notice."""
    st.session_state.pop(JOB_KEY, None)
    if job.result is not None:
        # A replay spends the session's workshop budget like messages on the Compare page do.
        usage_recorder(session)([turn for run in job.result.runs for turn in run.turns])
        st.session_state[RESULT_KEY] = {
            "result": job.result,
            "scenario": job.scenario,
            "provider": job.provider,
        }
    elif job.cancelled:
        st.session_state[NOTICE_KEY] = ("info", t("scorecard.cancelled"), None)
    else:
        st.session_state[NOTICE_KEY] = ("error", t("scorecard.failed"), job.error)


def _price_table() -> tuple[list[Any], Any] | None:
    st.caption(PRICES_LABEL)
    edited = st.data_editor(
        pd.DataFrame(price_records(DEFAULT_PRICES)),
        num_rows="dynamic",
        hide_index=True,
        column_config={
            "model": st.column_config.TextColumn("model", required=True, max_chars=60),
            "input_per_million": st.column_config.NumberColumn(
                "input / 1M (USD)", min_value=0.0, format="%.3f"
            ),
            "output_per_million": st.column_config.NumberColumn(
                "output / 1M (USD)", min_value=0.0, format="%.3f"
            ),
        },
        key=widget_key("scorecard_prices"),
    )
    try:
        prices = prices_from_records(edited.to_dict("records"))
    except ValueError as exc:
        st.error(t("scorecard.prices_invalid"))
        st.code(str(exc), language=None)
        return None
    models = [price.model for price in prices]
    chosen = st.selectbox(
        t("scorecard.price_model"),
        models,
        index=models.index(DEFAULT_PRICE_MODEL) if DEFAULT_PRICE_MODEL in models else 0,
        key=widget_key("scorecard_price_model"),
    )
    return prices, next(price for price in prices if price.model == chosen)


def _line_chart(series: pd.DataFrame, value: str, title: str) -> None:
    st.caption(title)
    table = series.pivot(index="turn", columns="strategy", values=value)
    st.line_chart(table, x_label=t("scorecard.col.turn"), y_label=value.replace("_", " "))


def _recall_chart(timeline: list[dict[str, Any]]) -> None:
    st.caption(t("scorecard.chart_recall"))
    if not timeline:
        st.info(t("scorecard.no_probes"))
        return
    frame = pd.DataFrame(
        {
            "strategy": [entry["strategy"] for entry in timeline],
            "turn": [entry["turn"] for entry in timeline],
            "outcome": [t("scorecard.recalled") if e["passed"] else t("scorecard.missed") for e in timeline],
            "recalled": [", ".join(entry["recalled"]) for entry in timeline],
            "expected": [", ".join(entry["expected"]) for entry in timeline],
        }
    )
    chart = (
        alt.Chart(frame)
        .mark_rect(stroke="white")
        .encode(
            x=alt.X("turn:O", title=t("scorecard.col.turn")),
            y=alt.Y("strategy:N", title=None, sort=list(dict.fromkeys(frame["strategy"]))),
            color=alt.Color(
                "outcome:N",
                scale=alt.Scale(
                    domain=[t("scorecard.recalled"), t("scorecard.missed")], range=["#2e7d32", "#c62828"]
                ),
                title=None,
            ),
            tooltip=["strategy", "turn", "expected", "recalled"],
        )
    )
    st.altair_chart(chart, width="stretch")
    table = pd.DataFrame(
        {
            t("scorecard.col.turn"): [entry["turn"] for entry in timeline],
            t("scorecard.col.question"): [entry["question"] for entry in timeline],
            "strategy": [entry["strategy"] for entry in timeline],
            "cell": [", ".join(e["recalled"]) if e["passed"] else t("scorecard.missed") for e in timeline],
        }
    ).pivot_table(
        index=[t("scorecard.col.turn"), t("scorecard.col.question")],
        columns="strategy",
        values="cell",
        aggfunc="first",
    )
    table = table.reindex(columns=list(dict.fromkeys(entry["strategy"] for entry in timeline)))
    st.dataframe(table.reset_index(), hide_index=True, width="stretch")


def _render_results(result: ReplayResult, scenario: Scenario, provider: Any) -> None:
    st.subheader(t("scorecard.table"), anchor=False)
    st.text(f"{scenario.name} · {result.provider}")
    with st.expander(t("scorecard.prices")):
        priced = _price_table()
    if priced is None:
        return
    prices, price = priced
    rows = scorecard_rows(result, price)
    table = pd.DataFrame(
        {
            t("scorecard.col.strategy"): [row.strategy for row in rows],
            t("scorecard.col.recall"): [row.recall for row in rows],
            t("scorecard.col.prompt_tokens"): [row.prompt_tokens for row in rows],
            t("scorecard.col.memory_tokens"): [row.memory_tokens for row in rows],
            t("scorecard.col.total_tokens"): [row.total_tokens for row in rows],
            t("scorecard.col.model_calls"): [row.model_calls for row in rows],
            t("scorecard.col.errors"): [row.errors for row in rows],
            f"{t('scorecard.col.cost')} · {price.model}": [row.estimated_cost_usd for row in rows],
            t("scorecard.col.latency"): [row.mean_latency_seconds for row in rows],
        }
    )
    st.dataframe(
        table,
        hide_index=True,
        width="stretch",
        column_config={
            f"{t('scorecard.col.cost')} · {price.model}": st.column_config.NumberColumn(format="~$%.6f"),
            t("scorecard.col.latency"): st.column_config.NumberColumn(format="%.3f"),
        },
        key=widget_key("scorecard_table"),
    )
    st.caption(ESTIMATE_NOTE)
    with st.expander(t("scorecard.cost_by_model")):
        costs = pd.DataFrame(cost_by_model(result, prices))
        st.dataframe(
            costs,
            hide_index=True,
            width="stretch",
            column_config={p.model: st.column_config.NumberColumn(format="~$%.6f") for p in prices},
        )

    series = pd.DataFrame(token_series(result))
    left, right = st.columns(2, gap="medium")
    with left:
        _line_chart(series, "prompt_tokens", t("scorecard.chart_prompt"))
    with right:
        _line_chart(series, "cumulative_total_tokens", t("scorecard.chart_cumulative"))
    timeline = recall_timeline(result, scenario)
    _recall_chart(timeline)

    st.subheader(t("scorecard.downloads"), anchor=False)
    stem = "memory_lab_" + "".join(ch if ch.isalnum() else "_" for ch in scenario.name.lower())[:40]
    columns = st.columns(4)
    downloads = (
        ("scorecard.download_json", result_json(result), f"{stem}.json", "application/json"),
        ("scorecard.download_csv", scorecard_csv(rows), f"{stem}.csv", "text/csv"),
        (
            "scorecard.download_md",
            markdown_report(result, rows, scenario=scenario, prices=prices, timeline=timeline),
            f"{stem}.md",
            "text/markdown",
        ),
        (
            "scorecard.download_script",
            replay_script(result, scenario, provider),
            f"{stem}.py",
            "text/x-python",
        ),
    )
    for column, (label, data, file_name, mime) in zip(columns, downloads, strict=True):
        column.download_button(
            t(label),
            data=data,
            file_name=file_name,
            mime=mime,
            icon=":material/download:",
            on_click="ignore",
            help=t("scorecard.script_help") if label == "scorecard.download_script" else None,
            key=widget_key("scorecard", label),
        )


st.title(t("scorecard.title"), anchor=False)
st.caption(t("scorecard.intro"))

job = st.session_state.get(JOB_KEY)
scenario = _choose_scenario()
if scenario is not None:
    st.caption(t("scorecard.preview", turns=len(scenario.turns), probes=scenario.probes))
    with st.expander(t("scorecard.turns_preview")):
        st.text(scenario.name)
        turns = pd.DataFrame(
            {
                "user": [turn.user for turn in scenario.turns],
                "expect": [", ".join(turn.expect) for turn in scenario.turns],
            }
        )
        st.dataframe(turns, width="stretch")

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

running = isinstance(job, ReplayJob) and not job.done
if st.button(
    t("scorecard.run"),
    type="primary",
    icon=":material/play_arrow:",
    disabled=running or scenario is None or not strategy_ids,
    key=widget_key("scorecard_run"),
):
    assert scenario is not None  # the button is disabled without one
    budget = session.budget
    hit = None
    if budget is not None:  # sized before it starts; the gate still checks every call it makes
        texts = [turn.user for turn in scenario.turns]
        system = scenario.system or DEFAULT_SYSTEM_PROMPT
        encoding = session.provider.tokenizer.encoding_name
        hit = check_scripted_run(budget, texts, system, len(strategy_ids), encoding)
    if hit is not None:
        st.warning(t(f"workshop.limit.{hit.kind}", limit=f"{hit.limit:,}", current=f"{hit.current:,}"))
    else:
        st.session_state.pop(RESULT_KEY, None)
        st.session_state.pop(NOTICE_KEY, None)
        job = ReplayJob(scenario, strategy_ids, session.provider).start()
        st.session_state[JOB_KEY] = job

if isinstance(job, ReplayJob):
    was_running = not job.done
    if was_running:
        _show_progress(job)
    _collect(job)
    if was_running:
        st.rerun()  # redraw without the finished progress bars

notice = st.session_state.get(NOTICE_KEY)
if notice:
    kind, text, detail = notice
    (st.info if kind == "info" else st.error)(text)
    if detail:
        st.code(detail, language=None, wrap_lines=True)

stored = st.session_state.get(RESULT_KEY)
if stored:
    _render_results(stored["result"], stored["scenario"], stored["provider"])
