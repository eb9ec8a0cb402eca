"""The Scorecard's results: the table, cost by model, token and recall charts, and the downloads."""

from __future__ import annotations

from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from memory_demos.export import export_stem, markdown_report, replay_script, result_json, scorecard_csv
from memory_demos.i18n import t
from memory_demos.replay import ReplayResult
from memory_demos.scenarios import Scenario
from memory_demos.scorecard import (
    DEFAULT_PRICE_MODEL,
    DEFAULT_PRICES,
    cost_by_model,
    price_records,
    prices_from_records,
    recall_timeline,
    scorecard_rows,
    token_series,
)
from memory_demos.session import widget_key
from memory_demos.ui.text import provider_label


def _price_table() -> tuple[list[Any], Any] | None:
    st.caption(t("scorecard.prices_label"))
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


LEGEND_COLUMNS = 2  # ten strategies wrap onto five lines below the chart instead of being cut off
CHART_HEIGHT = 300  # plot and axes; each legend row below adds LEGEND_ROW_HEIGHT, so it squeezes nothing
LEGEND_ROW_HEIGHT = 26


def token_line_chart(series: pd.DataFrame, value: str, y_title: str) -> alt.Chart:
    """One line per strategy over the turns, its legend below the chart with full names."""
    order = list(dict.fromkeys(series["strategy"]))
    return (
        alt.Chart(series)
        .mark_line(point=True)
        .encode(
            x=alt.X("turn:Q", title=t("scorecard.col.turn"), axis=alt.Axis(tickMinStep=1, format="d")),
            y=alt.Y(f"{value}:Q", title=y_title),
            color=alt.Color(
                "strategy:N",
                sort=order,
                title=None,
                legend=alt.Legend(orient="bottom", columns=LEGEND_COLUMNS, labelLimit=0, symbolLimit=0),
            ),
            tooltip=[
                alt.Tooltip("strategy:N", title=t("scorecard.col.strategy")),
                alt.Tooltip("turn:Q", title=t("scorecard.col.turn")),
                alt.Tooltip(f"{value}:Q", title=y_title),
            ],
        )
    )


def _line_chart(series: pd.DataFrame, value: str, title: str, y_title: str) -> None:
    st.caption(title)
    legend_rows = -(-series["strategy"].nunique() // LEGEND_COLUMNS)
    st.altair_chart(
        token_line_chart(series, value, y_title),
        width="stretch",
        height=CHART_HEIGHT + LEGEND_ROW_HEIGHT * legend_rows,
    )


def recall_chart(timeline: list[dict[str, Any]]) -> alt.Chart:
    """A cell per strategy and probed turn, green when the expected fact was in the reply; turn labels
    stay horizontal."""
    frame = pd.DataFrame(
        {
            "strategy": [entry["strategy"] for entry in timeline],
            "turn": [entry["turn"] for entry in timeline],
            "outcome": [t("scorecard.recalled") if e["passed"] else t("scorecard.missed") for e in timeline],
            "recalled": [", ".join(entry["recalled"]) for entry in timeline],
            "expected": [", ".join(entry["expected"]) for entry in timeline],
        }
    )
    return (
        alt.Chart(frame)
        .mark_rect(stroke="white")
        .encode(
            x=alt.X("turn:O", title=t("scorecard.col.turn"), axis=alt.Axis(labelAngle=0)),
            y=alt.Y("strategy:N", title=None, sort=list(dict.fromkeys(frame["strategy"]))),
            color=alt.Color(
                "outcome:N",
                scale=alt.Scale(
                    domain=[t("scorecard.recalled"), t("scorecard.missed")], range=["#2e7d32", "#c62828"]
                ),
                title=None,
            ),
            tooltip=[
                alt.Tooltip("strategy:N", title=t("scorecard.col.strategy")),
                alt.Tooltip("turn:O", title=t("scorecard.col.turn")),
                alt.Tooltip("expected:N", title=t("scorecard.col.expected")),
                alt.Tooltip("recalled:N", title=t("scorecard.col.recalled")),
            ],
        )
    )


def _recall_chart(timeline: list[dict[str, Any]]) -> None:
    st.caption(t("scorecard.chart_recall"))
    if not timeline:
        st.info(t("scorecard.no_probes"))
        return
    st.altair_chart(recall_chart(timeline), width="stretch")
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


def render_results(result: ReplayResult, scenario: Scenario, provider: Any) -> None:
    st.subheader(t("scorecard.table"), anchor=False)
    st.text(f"{scenario.name} · {provider_label(provider)}")
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
            t("scorecard.col.empty_replies"): [row.empty_replies for row in rows],
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

    series = pd.DataFrame(token_series(result))
    left, right = st.columns(2, gap="medium")
    with left:
        _line_chart(series, "prompt_tokens", t("scorecard.chart_prompt"), t("scorecard.col.prompt_tokens"))
    with right:
        _line_chart(
            series, "cumulative_total_tokens", t("scorecard.chart_cumulative"), t("scorecard.axis_cumulative")
        )
    timeline = recall_timeline(result, scenario)
    _recall_chart(timeline)

    st.subheader(t("scorecard.downloads"), anchor=False)
    stem = export_stem(scenario)
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
