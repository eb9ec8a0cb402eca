"""Charts: the per-pane context gauge and the cost of each pane across turns (Altair, plain data in)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import altair as alt
import pandas as pd
import streamlit as st

from memory_demos.i18n import t
from memory_demos.ui.prompt_sections import SECTION_PALETTE, SECTIONS, Section

GAUGE_HEIGHT = 48
COST_CHART_HEIGHT = 250
LEGEND_ROW_HEIGHT = 30
# Eight clearly different hues, one per pane (Compare shows at most eight).
PANE_COLOURS = ("#3b82f6", "#e0682b", "#079464", "#9b5de5", "#d94a57", "#bb8300", "#0ea5b7", "#6b7280")


def render_context_gauge(
    totals: Mapping[Section, int], context_window: int, zoom: bool, key: str, assumed: bool = False
) -> None:
    """A stacked bar of the prompt's sections against the model's context window (or the prompt, zoomed).

    ``assumed`` marks a window that is a guess (an unknown model whose server did not say).
    """
    used = sum(totals.values())
    share = used / context_window if context_window else 0.0
    caption = t("gauge.caption", used=f"{used:,}", window=f"{context_window:,}", percent=f"{share:.1%}")
    st.caption(":material/speed: " + caption + (" " + t("gauge.assumed") if assumed else ""))
    present = [s for s in SECTIONS if totals.get(s)]
    frame = pd.DataFrame(
        [
            {"section": t(f"section.{s}"), "tokens": totals[s], "order": SECTIONS.index(s), "row": ""}
            for s in present
        ]
        or [{"section": t("section.system"), "tokens": 0, "order": 0, "row": ""}]
    )
    domain_max = max(used, 1) if zoom else max(context_window, 1)
    chart = (
        alt.Chart(frame)
        .mark_bar(size=16)
        .encode(
            x=alt.X(
                "tokens:Q",
                stack="zero",
                scale=alt.Scale(domain=[0, domain_max]),
                axis=alt.Axis(title=None, format="~s", tickCount=4),
            ),
            y=alt.Y("row:N", axis=None),
            color=alt.Color(
                "section:N",
                scale=alt.Scale(
                    domain=[t(f"section.{s}") for s in SECTIONS],
                    range=[SECTION_PALETTE[s][1] for s in SECTIONS],
                ),
                legend=None,
            ),
            order=alt.Order("order:Q"),
            tooltip=[
                alt.Tooltip("section:N", title=t("gauge.section")),
                alt.Tooltip("tokens:Q", title=t("gauge.tokens")),
            ],
        )
        .properties(height=18)
    )
    st.altair_chart(chart, width="stretch", height=GAUGE_HEIGHT, key=key)
    if present:
        st.caption(
            "  ".join(f":{SECTION_PALETTE[s][0]}[\u25a0 {t(f'section.{s}')} {totals[s]:,}]" for s in present)
        )


@dataclass(frozen=True)
class CostPoint:
    """One pane's numbers for one turn."""

    pane: str
    turn: int
    prompt_tokens: int
    total_tokens: int


def render_cost_charts(points: Sequence[CostPoint]) -> None:
    """Prompt tokens per turn, and the running total of every token spent (memory calls included)."""
    if not points:
        st.caption(t("cost.empty"))
        return
    frame = pd.DataFrame([p.__dict__ for p in points]).sort_values(["pane", "turn"])
    frame["cumulative"] = frame.groupby("pane")["total_tokens"].cumsum()
    pane_title = t("cost.pane")
    turn_title = t("cost.turn")
    # The legend sits under the plot, two panes a row: make room for it so the plot keeps its size.
    height = COST_CHART_HEIGHT + LEGEND_ROW_HEIGHT * ((frame["pane"].nunique() + 1) // 2)
    left, right = st.columns(2)
    for column, field, title in (
        (left, "prompt_tokens", t("cost.prompt_per_turn")),
        (right, "cumulative", t("cost.cumulative_total")),
    ):
        chart = (
            alt.Chart(frame, title=title)
            .mark_line(point=True)
            .encode(
                x=alt.X("turn:O", title=turn_title, axis=alt.Axis(labelAngle=0)),
                y=alt.Y(f"{field}:Q", title=t("gauge.tokens")),
                color=alt.Color(
                    "pane:N",
                    title=pane_title,
                    scale=alt.Scale(range=list(PANE_COLOURS)),
                    legend=alt.Legend(orient="bottom", columns=2, labelLimit=280),
                ),
                shape=alt.Shape("pane:N", title=pane_title),
                tooltip=[
                    alt.Tooltip("pane:N", title=pane_title),
                    alt.Tooltip("turn:O", title=turn_title),
                    alt.Tooltip(f"{field}:Q", title=t("gauge.tokens")),
                ],
            )
        )
        with column:
            st.altair_chart(chart, width="stretch", height=height)
