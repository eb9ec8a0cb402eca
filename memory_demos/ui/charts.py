"""Charts: the per-pane context gauge and the cost of each pane across turns (Vega-Lite, plain data in).

The specs are written as plain Vega-Lite dicts: Altair validates every chart against the whole
Vega-Lite JSON schema when it is drawn, which cost more server CPU than everything else on a Compare run.
The rows sit inside a one-layer spec (``inline``): Streamlit converts top-level data to an Arrow table
through pandas, which for a few dozen rows costs more than the JSON it replaces.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from memory_demos.i18n import t
from memory_demos.prompt_sections import SECTION_PALETTE, SECTIONS, Section

GAUGE_HEIGHT = 48
COST_CHART_HEIGHT = 250
LEGEND_ROW_HEIGHT = 30
# Eight clearly different hues, one per pane (Compare shows at most eight).
PANE_COLOURS = ("#3b82f6", "#e0682b", "#079464", "#9b5de5", "#d94a57", "#bb8300", "#0ea5b7", "#6b7280")


def inline(spec: dict[str, Any], rows: list[dict[str, Any]]) -> dict[str, Any]:
    """``spec`` (mark, encoding) as the single layer of a chart whose rows travel as JSON in the spec."""
    return {"layer": [{"data": {"values": rows}, **spec}]}


def gauge_spec(totals: Mapping[Section, int], context_window: int, zoom: bool) -> dict[str, Any]:
    """The Vega-Lite spec of one stacked bar: the prompt's sections against the window (or the prompt)."""
    used = sum(totals.values())
    names = {s: t(f"section.{s}") for s in SECTIONS}
    present = [s for s in SECTIONS if totals.get(s)]
    rows = [
        {"section": names[s], "tokens": totals[s], "order": SECTIONS.index(s), "row": ""} for s in present
    ] or [{"section": names["system"], "tokens": 0, "order": 0, "row": ""}]
    domain_max = max(used, 1) if zoom else max(context_window, 1)
    bar = {
        "mark": {"type": "bar", "size": 16},
        "encoding": {
            "x": {
                "field": "tokens",
                "type": "quantitative",
                "stack": "zero",
                "scale": {"domain": [0, domain_max]},
                "axis": {"title": None, "format": "~s", "tickCount": 4},
            },
            "y": {"field": "row", "type": "nominal", "axis": None},
            "color": {
                "field": "section",
                "type": "nominal",
                "scale": {
                    "domain": list(names.values()),
                    "range": [SECTION_PALETTE[s][1] for s in SECTIONS],
                },
                "legend": None,
            },
            "order": {"field": "order", "type": "quantitative"},
            "tooltip": [
                {"field": "section", "type": "nominal", "title": t("gauge.section")},
                {"field": "tokens", "type": "quantitative", "title": t("gauge.tokens")},
            ],
        },
    }
    return {**inline(bar, rows), "height": 18}


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
    st.vega_lite_chart(
        spec=gauge_spec(totals, context_window, zoom), width="stretch", height=GAUGE_HEIGHT, key=key
    )
    present = [s for s in SECTIONS if totals.get(s)]
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


def cost_rows(points: Sequence[CostPoint]) -> list[dict[str, Any]]:
    """The points sorted by pane and turn, each with the pane's running total of tokens so far."""
    rows: list[dict[str, Any]] = []
    running: dict[str, int] = {}
    for point in sorted(points, key=lambda p: (p.pane, p.turn)):
        running[point.pane] = running.get(point.pane, 0) + point.total_tokens
        rows.append({**point.__dict__, "cumulative": running[point.pane]})
    return rows


def cost_chart_spec(rows: list[dict[str, Any]], field: str, title: str) -> dict[str, Any]:
    """A line per pane of ``field`` across turns."""
    pane_title = t("cost.pane")
    turn_title = t("cost.turn")
    tokens_title = t("gauge.tokens")
    line = {
        "mark": {"type": "line", "point": True},
        "encoding": {
            "x": {"field": "turn", "type": "ordinal", "title": turn_title, "axis": {"labelAngle": 0}},
            "y": {
                "field": field,
                "type": "quantitative",
                "title": tokens_title,
                # Whole tokens: an all-zero series (failed turns) would otherwise be labelled "0.000000".
                "axis": {"format": ",d", "tickMinStep": 1},
                "scale": {"domain": [0, 1]} if not any(row[field] for row in rows) else {"zero": True},
            },
            "color": {
                "field": "pane",
                "type": "nominal",
                "title": pane_title,
                "scale": {"range": list(PANE_COLOURS)},
                "legend": {"orient": "bottom", "columns": 2, "labelLimit": 280},
            },
            "shape": {"field": "pane", "type": "nominal", "title": pane_title},
            "tooltip": [
                {"field": "pane", "type": "nominal", "title": pane_title},
                {"field": "turn", "type": "ordinal", "title": turn_title},
                {"field": field, "type": "quantitative", "title": tokens_title},
            ],
        },
    }
    return {**inline(line, rows), "title": title}


def render_cost_charts(points: Sequence[CostPoint]) -> None:
    """Prompt tokens per turn, and the running total of every token spent (memory calls included)."""
    if not points:
        st.caption(t("cost.empty"))
        return
    rows = cost_rows(points)
    # The legend sits under the plot, two panes a row: make room for it so the plot keeps its size.
    height = COST_CHART_HEIGHT + LEGEND_ROW_HEIGHT * ((len({row["pane"] for row in rows}) + 1) // 2)
    left, right = st.columns(2)
    for column, field, title in (
        (left, "prompt_tokens", t("cost.prompt_per_turn")),
        (right, "cumulative", t("cost.cumulative_total")),
    ):
        with column:
            st.vega_lite_chart(spec=cost_chart_spec(rows, field, title), width="stretch", height=height)
