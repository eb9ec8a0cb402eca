"""The Scorecard's results: the table, cost by model, token and recall charts, and the downloads."""

from __future__ import annotations

from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from memory_demos.export import export_stem, markdown_report, replay_script, result_json, scorecard_csv
from memory_demos.i18n import current_language, t, translate
from memory_demos.providers.errors import error_detail
from memory_demos.providers.prompt_cache import cache_rule
from memory_demos.replay import ReplayResult
from memory_demos.scenarios import PROBE_KINDS, Scenario
from memory_demos.scorecard import (
    DEFAULT_PRICE_MODEL,
    DEFAULT_PRICES,
    FAILED,
    MISSED,
    PASSED,
    PRICE_DATE,
    ScorecardRow,
    cost_by_model,
    kind_recall,
    price_records,
    prices_from_records,
    recall_timeline,
    scorecard_rows,
    session_recall,
    token_series,
)
from memory_demos.session import widget_key
from memory_demos.ui.cache_view import price_source_text, scorecard_cache_table, strategy_label
from memory_demos.ui.failures import kind_words, render_failure_summary, render_stopped
from memory_demos.ui.text import duration_words, provider_label


def _price_table() -> tuple[list[Any], Any] | None:
    st.caption(t("scorecard.prices_label", source=price_source_text(), date=PRICE_DATE))
    edited = st.data_editor(
        pd.DataFrame(price_records(DEFAULT_PRICES)),
        num_rows="dynamic",
        hide_index=True,
        column_config={
            "model": st.column_config.TextColumn(t("scorecard.price.model"), required=True, max_chars=60),
            "input_per_million": st.column_config.NumberColumn(
                t("scorecard.price.input"), min_value=0.0, format="%.3f"
            ),
            "output_per_million": st.column_config.NumberColumn(
                t("scorecard.price.output"), min_value=0.0, format="%.3f"
            ),
            "cached_input_per_million": st.column_config.NumberColumn(
                t("scorecard.price.cached"), min_value=0.0, format="%.3f"
            ),
        },
        key=widget_key("scorecard_prices"),
    )
    try:
        prices = prices_from_records(edited.to_dict("records"))
    except ValueError as exc:
        st.error(t("scorecard.prices_invalid"))
        st.code(translate(error_detail(exc)), language=None)
        return None
    models = [price.model for price in prices]
    chosen = st.selectbox(
        t("scorecard.price_model"),
        models,
        index=models.index(DEFAULT_PRICE_MODEL) if DEFAULT_PRICE_MODEL in models else 0,
        key=widget_key("scorecard_price_model"),
    )
    return prices, next(price for price in prices if price.model == chosen)


LEGEND_COLUMNS = 2  # ten strategies wrap onto five lines below the chart instead of being cut off
CHART_HEIGHT = 300  # plot and axes; each legend row below adds LEGEND_ROW_HEIGHT, so it squeezes nothing
LEGEND_ROW_HEIGHT = 26
# The scorecard's columns that hold counts (tokens, calls, replies).
COUNT_COLUMNS = (
    "scorecard.col.prompt_tokens",
    "scorecard.col.memory_tokens",
    "scorecard.col.total_tokens",
    "scorecard.col.model_calls",
    "scorecard.col.empty_replies",
)
ROW_HEIGHT = 35  # a st.dataframe row: the table is as tall as its rows, so none hides behind a scroll
# Paul Tol's colour-blind-safe "muted" scheme, then Okabe-Ito's darkest hues: one colour per strategy, the
# same on every chart of the page; a shape per strategy tells apart the hues that are close.
STRATEGY_COLOURS = (
    "#332288", "#88CCEE", "#44AA99", "#117733", "#999933", "#DDCC77",
    "#CC6677", "#882255", "#AA4499", "#0072B2", "#D55E00", "#000000",
)  # fmt: skip
STRATEGY_SHAPES = ("circle", "square", "triangle-up", "diamond", "triangle-down", "cross")
# Recall outcomes, also colour-blind-safe (Okabe-Ito blue and orange, a neutral grey), each cell labelled.
OUTCOME_COLOURS = {PASSED: "#0072B2", MISSED: "#E69F00", FAILED: "#BBBBBB"}


def strategy_scale(strategy_ids: list[str]) -> tuple[alt.Scale, alt.Scale]:
    """The colour and shape of every strategy of the run, in run order: the same on every chart."""
    colours = [STRATEGY_COLOURS[i % len(STRATEGY_COLOURS)] for i in range(len(strategy_ids))]
    shapes = [STRATEGY_SHAPES[i % len(STRATEGY_SHAPES)] for i in range(len(strategy_ids))]
    return alt.Scale(domain=strategy_ids, range=colours), alt.Scale(domain=strategy_ids, range=shapes)


def token_line_chart(
    series: pd.DataFrame, value: str, y_title: str, strategy_ids: list[str] | None = None
) -> alt.Chart:
    """One line per strategy over the answered turns, its legend below the chart with full names."""
    order = strategy_ids or list(dict.fromkeys(series["strategy"]))
    colour, shape = strategy_scale(order)
    legend = alt.Legend(orient="bottom", columns=LEGEND_COLUMNS, labelLimit=0, symbolLimit=0)
    return (
        alt.Chart(series)
        .mark_line(point=alt.OverlayMarkDef(size=60, filled=True))
        .encode(
            x=alt.X("turn:Q", title=t("scorecard.col.turn"), axis=alt.Axis(tickMinStep=1, format="d")),
            y=alt.Y(f"{value}:Q", title=y_title, axis=alt.Axis(format=",d", tickMinStep=1)),
            color=alt.Color("strategy:N", sort=order, scale=colour, title=None, legend=legend),
            shape=alt.Shape("strategy:N", sort=order, scale=shape, title=None, legend=legend),
            tooltip=[
                alt.Tooltip("strategy:N", title=t("scorecard.col.strategy")),
                alt.Tooltip("turn:Q", title=t("scorecard.col.turn")),
                alt.Tooltip(f"{value}:Q", title=y_title),
            ],
        )
    )


def _line_chart(series: pd.DataFrame, value: str, title: str, y_title: str, strategy_ids: list[str]) -> None:
    st.caption(title)
    legend_rows = -(-len(strategy_ids) // LEGEND_COLUMNS)
    st.altair_chart(
        token_line_chart(series, value, y_title, strategy_ids),
        width="stretch",
        height=CHART_HEIGHT + LEGEND_ROW_HEIGHT * legend_rows,
    )


def _cell_text(entry: dict[str, Any]) -> str:
    """A probe's outcome in words: what was recalled, passed, what wrong thing was said, or the failure."""
    if entry["outcome"] == FAILED:
        return t("scorecard.cell.failed", kind=kind_words(entry.get("error_kind")))
    if entry["passed"]:
        return ", ".join(entry["recalled"]) or t("scorecard.cell.passed")
    if entry["rejected"]:
        return t("scorecard.cell.said", said=", ".join(entry["rejected"]))
    return t("scorecard.outcome.missed")


def recall_chart(timeline: list[dict[str, Any]], strategy_ids: list[str] | None = None) -> alt.Chart:
    """A cell per strategy and probed turn: passed, missed, or its call failed (its own state, grey), in
    colour-blind-safe colours and labelled in the tooltip; turn labels stay horizontal."""
    outcomes = [entry.get("outcome") or (PASSED if entry["passed"] else MISSED) for entry in timeline]
    labels = {outcome: t(f"scorecard.outcome.{outcome}") for outcome in OUTCOME_COLOURS}
    frame = pd.DataFrame(
        {
            "strategy": [entry["strategy"] for entry in timeline],
            "turn": [entry["turn"] for entry in timeline],
            "outcome": [labels[outcome] for outcome in outcomes],
            "mark": [{PASSED: "\u2713", MISSED: "\u2717", FAILED: "!"}[outcome] for outcome in outcomes],
            "result": [
                _cell_text({**entry, "outcome": o}) for entry, o in zip(timeline, outcomes, strict=True)
            ],
            "expected": [", ".join(entry["expected"]) for entry in timeline],
        }
    )
    order = strategy_ids or list(dict.fromkeys(frame["strategy"]))
    base = alt.Chart(frame).encode(
        x=alt.X("turn:O", title=t("scorecard.col.turn"), axis=alt.Axis(labelAngle=0)),
        y=alt.Y("strategy:N", title=None, sort=order, axis=alt.Axis(labelLimit=0)),
        tooltip=[
            alt.Tooltip("strategy:N", title=t("scorecard.col.strategy")),
            alt.Tooltip("turn:O", title=t("scorecard.col.turn")),
            alt.Tooltip("expected:N", title=t("scorecard.col.expected")),
            alt.Tooltip("result:N", title=t("scorecard.col.recalled")),
        ],
    )
    cells = base.mark_rect(stroke="white").encode(
        color=alt.Color(
            "outcome:N",
            scale=alt.Scale(domain=list(labels.values()), range=list(OUTCOME_COLOURS.values())),
            legend=alt.Legend(orient="bottom", title=None, labelLimit=0),
        )
    )
    marks = base.mark_text(fontSize=14, fontWeight="bold", color="white").encode(text="mark:N")
    return alt.layer(cells, marks)


def _recall_chart(timeline: list[dict[str, Any]], strategy_ids: list[str]) -> None:
    st.caption(t("scorecard.chart_recall"))
    if not timeline:
        st.info(t("scorecard.no_probes"))
        return
    height = 60 + 32 * len(strategy_ids)
    st.altair_chart(recall_chart(timeline, strategy_ids), width="stretch", height=height)
    st.dataframe(
        recall_table(timeline, strategy_ids),
        hide_index=True,
        width="stretch",
        height=_table_height(len(strategy_ids)),
    )


def recall_table(timeline: list[dict[str, Any]], strategy_ids: list[str]) -> pd.DataFrame:
    """A row per strategy, a column per probe ("turn · question"): a scenario has a few probes and a run
    many strategies, so the table grows down, in view, rather than out to the right."""
    probes = {entry["turn"]: f"{entry['turn']} · {entry['question']}" for entry in timeline}
    cells = {(entry["strategy"], entry["turn"]): _cell_text(entry) for entry in timeline}
    columns: dict[str, list[str]] = {t("scorecard.col.strategy"): list(strategy_ids)}
    for turn, header in sorted(probes.items()):
        columns[header] = [cells.get((sid, turn), "") for sid in strategy_ids]
    return pd.DataFrame(columns)


def session_table(result: ReplayResult) -> pd.DataFrame:
    """A row per strategy, a column per conversation of the scenario ("passed/asked" in each): recall
    before and after each session break, side by side."""
    rows = session_recall(result)
    columns: dict[str, list[str]] = {t("scorecard.col.strategy"): [row["strategy"] for row in rows]}
    for index, start in enumerate(rows[0]["sessions"] if rows else []):
        key = "scorecard.session_after" if start["after"] else "scorecard.session"
        header = t(key, n=start["session"], after=duration_words(start["after"] or ""))
        columns[header] = [
            f"{row['sessions'][index]['passed']}/{row['sessions'][index]['asked']}"
            if index < len(row["sessions"]) and row["sessions"][index]["asked"]
            else "—"
            for row in rows
        ]
    return pd.DataFrame(columns)


def kind_table(result: ReplayResult) -> pd.DataFrame:
    """A row per strategy, a column per probe kind the scenario has ("passed/asked")."""
    rows = kind_recall(result)
    kinds = [kind for kind in PROBE_KINDS if any(kind in row["kinds"] for row in rows)]
    columns: dict[str, list[str]] = {t("scorecard.col.strategy"): [row["strategy"] for row in rows]}
    for kind in kinds:
        columns[t(f"scorecard.kind.{kind}")] = [
            f"{row['kinds'][kind]['passed']}/{row['kinds'][kind]['asked']}" if kind in row["kinds"] else "—"
            for row in rows
        ]
    return pd.DataFrame(columns)


def _recall_by_session_and_kind(result: ReplayResult, scenario: Scenario) -> None:
    """Recall per conversation (for a scenario with ``- session: new``) and per probe kind."""
    if scenario.sessions > 1:
        st.markdown(f"**:material/forum: {t('scorecard.by_session')}**")
        st.caption(t("scorecard.by_session_caption"))
        st.dataframe(session_table(result), hide_index=True, width="stretch", key=widget_key("by_session"))
    st.markdown(f"**:material/category: {t('scorecard.by_kind')}**")
    st.dataframe(kind_table(result), hide_index=True, width="stretch", key=widget_key("by_kind"))


def _table_height(rows: int) -> int:
    """Every row and the header, so no row hides behind an inner scroll bar."""
    return ROW_HEIGHT * (rows + 1) + 3


def _status(row: ScorecardRow) -> str:
    if not row.errors:
        return t("scorecard.status.ok")
    key = "scorecard.status.all_failed" if row.all_failed else "scorecard.status.some_failed"
    return t(key, failed=row.errors, total=row.turns_played)


def _recall(row: ScorecardRow) -> str:
    if not row.recall_failed:
        return f"{row.recall_passed}/{row.recall_asked}"
    return t(
        "scorecard.recall_failed", passed=row.recall_passed, asked=row.recall_asked, failed=row.recall_failed
    )


def _measured(row: ScorecardRow, value: float | int) -> float | int | None:
    """A run whose every turn failed measured nothing: its zero would read as free, so it stays empty."""
    return None if row.all_failed else value


def _show_failures(result: ReplayResult) -> bool:
    """The run's failures before anything else; True when it stopped early and nothing was measured."""
    if result.stopped is not None:
        stop = result.stopped
        render_stopped(stop.kind, stop.failed_turns, stop.error)
        return True
    render_failure_summary(result.failure_counts(), result.played_turns)
    return False


def temperature_label(temperature: float | None) -> str:
    """The temperature the run's calls were sent, or that the server chose."""
    if temperature is None:
        return t("scorecard.temperature_default")
    return t("scorecard.temperature", value=f"{temperature:g}")


def render_results(result: ReplayResult, scenario: Scenario, provider: Any) -> None:
    st.subheader(t("scorecard.table"), anchor=False)
    st.text(f"{scenario.name} · {provider_label(provider)} · {temperature_label(result.temperature)}")
    if _show_failures(result):
        return
    strategy_ids = [run.strategy_id for run in result.runs]
    with st.expander(t("scorecard.prices")):
        priced = _price_table()
    if priced is None:
        return
    prices, price = priced
    rows = scorecard_rows(result, price)
    cost = t("scorecard.col.cost")
    columns: dict[str, list[Any]] = {t("scorecard.col.strategy"): [row.strategy for row in rows]}
    if any(row.errors for row in rows):  # only then: a column of "all answered" would crowd the table out
        columns[t("scorecard.col.status")] = [_status(row) for row in rows]
    columns |= {
        t("scorecard.col.recall"): [_recall(row) for row in rows],
        t("scorecard.col.prompt_tokens"): [_measured(row, row.prompt_tokens) for row in rows],
        t("scorecard.col.memory_tokens"): [_measured(row, row.memory_tokens) for row in rows],
        t("scorecard.col.total_tokens"): [_measured(row, row.total_tokens) for row in rows],
        t("scorecard.col.model_calls"): [row.model_calls for row in rows],
        t("scorecard.col.empty_replies"): [row.empty_replies for row in rows],
        cost: [_measured(row, row.estimated_cost_usd) for row in rows],
        t("scorecard.col.latency"): [_measured(row, row.mean_latency_seconds) for row in rows],
    }
    st.dataframe(
        pd.DataFrame(columns),
        hide_index=True,
        width="stretch",
        height=_table_height(len(rows)),
        column_config={
            cost: st.column_config.NumberColumn(format="~$%.6f"),
            t("scorecard.col.latency"): st.column_config.NumberColumn(format="%.3f"),
            # Counts with thousands separators, like every other count on screen ("3,956", not "3956").
            **{t(key): st.column_config.NumberColumn(format="localized") for key in COUNT_COLUMNS},
        },
        key=widget_key("scorecard_table"),
    )
    st.caption(t("scorecard.cost_priced_as", model=price.model))
    labels = [strategy_label(run.strategy_id, run.params) for run in result.runs]
    scorecard_cache_table(rows, labels, cache_rule(getattr(provider, "kind", "offline")))
    st.caption(t("scorecard.estimate_note"))
    with st.expander(t("scorecard.cost_by_model")):
        costs = pd.DataFrame(cost_by_model(result, prices)).rename(
            columns={"strategy": t("scorecard.col.strategy")}
        )
        st.dataframe(
            costs,
            hide_index=True,
            width="stretch",
            column_config={p.model: st.column_config.NumberColumn(format="~$%.6f") for p in prices},
        )

    series = pd.DataFrame(
        token_series(result),
        columns=[
            "strategy",
            "turn",
            "prompt_tokens",
            "memory_tokens",
            "turn_total_tokens",
            "cumulative_total_tokens",
        ],
    )
    left, right = st.columns(2, gap="medium")
    with left:
        _line_chart(
            series,
            "prompt_tokens",
            t("scorecard.chart_prompt"),
            t("scorecard.col.prompt_tokens"),
            strategy_ids,
        )
    with right:
        _line_chart(
            series,
            "cumulative_total_tokens",
            t("scorecard.chart_cumulative"),
            t("scorecard.axis_cumulative"),
            strategy_ids,
        )
    if result.failed_turns:
        st.caption(t("scorecard.gaps"))
    timeline = recall_timeline(result, scenario)
    _recall_chart(timeline, strategy_ids)
    _recall_by_session_and_kind(result, scenario)

    st.subheader(t("scorecard.downloads"), anchor=False)
    stem = export_stem(scenario)
    columns = st.columns(4)
    downloads = (
        ("scorecard.download_json", result_json(result), f"{stem}.json", "application/json"),
        ("scorecard.download_csv", scorecard_csv(rows), f"{stem}.csv", "text/csv"),
        (
            "scorecard.download_md",
            markdown_report(
                result, rows, scenario=scenario, prices=prices, timeline=timeline, language=current_language()
            ),
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
