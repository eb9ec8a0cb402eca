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
LEGEND_ROW_HEIGHT = 31  # one legend row as Chromium draws it (symbol and 11 px label)
LEGEND_LINE_HEIGHT = 14  # a wrapped label's second line
LEGEND_OFFSET_HEIGHT = 24  # the gap between the x-axis title and the legend's first row
WRAP_LABEL_AFTER = 44  # characters: a longer pane name breaks into lines, to fit a narrow window
# Where a long pane name breaks: before its first bracket and after its first comma (English, Chinese).
LABEL_BREAKS = ((" (", "\\n("), ("（", "\\n（"), (", ", ",\\n"), ("，", "，\\n"))


def legend_lines(label: str) -> list[str]:
    """The lines the legend draws for ``label``: what ``LEGEND["labelExpr"]`` computes, in Python."""
    if len(label) <= WRAP_LABEL_AFTER:
        return [label]
    for found, replacement in LABEL_BREAKS:
        label = label.replace(found, replacement.replace("\\n", "\n"), 1)
    return label.split("\n")


def _wrapped(expression: str) -> str:
    for found, replacement in LABEL_BREAKS:
        expression = f"replace({expression}, '{found}', '{replacement}')"
    return f"split({expression}, '\\n')"


# One pane a legend row, its whole name: two columns in a half-width chart cut long names ("… (token budge…").
# The numbered labels say what they are, so the legend has no title. Vega draws an array as lines.
LEGEND = {
    "orient": "bottom",
    "columns": 1,
    "labelLimit": 0,
    "symbolLimit": 0,
    "title": None,
    "labelExpr": f"length(datum.label) > {WRAP_LABEL_AFTER} ? {_wrapped('datum.label')} : datum.label",
}
# Eight clearly different hues, one per pane (Compare shows at most eight).
PANE_COLOURS = ("#3b82f6", "#e0682b", "#079464", "#9b5de5", "#d94a57", "#bb8300", "#0ea5b7", "#6b7280")


def inline(spec: dict[str, Any], rows: list[dict[str, Any]]) -> dict[str, Any]:
    """``spec`` (mark, encoding) as the single layer of a chart whose rows travel as JSON in the spec."""
    return {"layer": [{"data": {"values": rows}, **spec}]}


THRESHOLD_COLOUR = "#31333f"  # Streamlit's text colour: a limit reads as a mark, not as another section
# A limit's dashed rule, in pixels of the gauge's y: over the bar only (Chromium draws the 16 px bar from
# about -7 to 9), its name above it. Down to 18 it ran into the axis' first label ("0k").
RULE_TOP, RULE_BOTTOM, LABEL_RAISE = -9, 9, -14


def threshold_layers(lines: Sequence[Any], domain_max: int) -> list[dict[str, Any]]:
    """A dashed rule and its parameter's name for each limit (``GaugeLine``s) inside the bar's scale."""
    rows = [
        {"tokens": line.position, "label": line.label, "detail": line.detail or line.label}
        for line in lines
        if 0 < line.position <= domain_max
    ]
    if not rows:
        return []
    x = {"field": "tokens", "type": "quantitative", "scale": {"domain": [0, domain_max]}}
    rule = {
        "data": {"values": rows},
        "mark": {"type": "rule", "strokeDash": [4, 2], "strokeWidth": 2, "color": THRESHOLD_COLOUR},
        "encoding": {
            "x": x,
            # Spanned explicitly: a rule with x alone is not drawn beside the nominal y (Streamlit 1.67).
            # From its name above the bar to the bar's foot: down to the axis it ran into a tick's label
            # ("0k" under a limit of 150 in a window of 8,192).
            "y": {"value": RULE_TOP},
            "y2": {"value": RULE_BOTTOM},
            "tooltip": [
                {"field": "detail", "type": "nominal", "title": t("gauge.threshold")},
                {"field": "tokens", "type": "quantitative", "title": t("gauge.tokens")},
            ],
        },
    }
    # A name reads beside its line: to the right in the bar's first half, to the left in its second.
    labels = []
    for side, align, dx in (("left", "left", 3), ("right", "right", -3)):
        placed = [row for row in rows if (row["tokens"] > domain_max / 2) == (side == "right")]
        if placed:
            mark = {
                "type": "text",
                "align": align,
                "dx": dx,
                "dy": LABEL_RAISE,
                "fontSize": 11,
                "color": THRESHOLD_COLOUR,
            }
            labels.append(
                {
                    "data": {"values": placed},
                    "mark": mark,
                    "encoding": {
                        "x": x,
                        "text": {"field": "label", "type": "nominal"},
                        "tooltip": [{"field": "detail", "type": "nominal", "title": t("gauge.threshold")}],
                    },
                }
            )
    return [rule, *labels]


def gauge_spec(
    totals: Mapping[Section, int],
    context_window: int,
    zoom: bool,
    lines: Sequence[Any] = (),
    scale: int = 0,
) -> dict[str, Any]:
    """The Vega-Lite spec of one stacked bar: the prompt's sections against the window, with the strategy's
    limits (``lines``) as dashed rules; zoomed, against ``scale`` (the largest prompt of all panes: one
    shared scale, so a small prompt never looks full)."""
    used = sum(totals.values())
    names = {s: t(f"section.{s}") for s in SECTIONS}
    present = [s for s in SECTIONS if totals.get(s)]
    rows = [
        {"section": names[s], "tokens": totals[s], "order": SECTIONS.index(s), "row": ""} for s in present
    ] or [{"section": names["system"], "tokens": 0, "order": 0, "row": ""}]
    domain_max = max(scale, used, 1) if zoom else max(context_window, 1)
    if zoom and lines:  # zoomed to the prompt: widen to the nearest limit still ahead of it
        # A little past the line, so it stands inside the plot rather than on its edge.
        domain_max = max(domain_max, round(min(line.position for line in lines) * 1.08))
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
    spec = {**inline(bar, rows), "height": 18}
    spec["layer"] += threshold_layers(lines, domain_max)
    return spec


def render_context_gauge(
    totals: Mapping[Section, int],
    context_window: int,
    zoom: bool,
    key: str,
    assumed: bool = False,
    lines: Sequence[Any] = (),
    no_window: bool = False,
    scale: int = 0,
    chart: bool = True,
    sent: int = 0,
) -> None:
    """A stacked bar of the prompt's sections against the model's context window (or the prompt, zoomed).

    ``assumed`` marks a window that is a guess (an unknown model whose server did not say); ``no_window``
    a model that has none (the offline one), whose bar is only drawn to a scale; ``scale`` is the zoomed
    bar's shared end; without ``chart``, only the caption. ``sent``: the reply call's prompt tokens; the
    few tokens the chat format adds beyond the sections (priming the reply) are then named, so the
    caption's number and "Prompt sent: … tokens" beside it add up.
    """
    used = sum(totals.values())
    share = used / context_window if context_window else 0.0
    caption = t("gauge.caption", used=f"{used:,}", window=f"{context_window:,}", percent=f"{share:.1%}")
    if no_window:
        caption = t("gauge.caption_scale", used=f"{used:,}", scale=f"{context_window:,}")
    if used and sent > used:
        caption += " " + t("gauge.framing", n=f"{sent - used:,}", sent=f"{sent:,}")
    st.caption(":material/speed: " + caption + (" " + t("gauge.assumed") if assumed else ""))
    if not chart:  # panes two rows deep keep the figure only; the focus view draws the bar
        return
    st.vega_lite_chart(
        spec=gauge_spec(totals, context_window, zoom, lines, scale),
        width="stretch",
        height=GAUGE_HEIGHT,
        key=key,
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


WIDEST_LINE, THINNEST_LINE = 5.0, 1.5


def line_widths(count: int) -> list[float]:
    """``count`` stroke widths from the widest to the thinnest, evenly apart."""
    if count <= 1:
        return [2.0] * count
    step = (WIDEST_LINE - THINNEST_LINE) / (count - 1)
    return [round(WIDEST_LINE - step * index, 2) for index in range(count)]


def cost_chart_spec(
    rows: list[dict[str, Any]], field: str, title: str, colours: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """A line per pane of ``field`` across turns. ``colours`` (pane label to colour, given by the pane's
    own number) keeps a pane's colour for its life; each pane also has its own dash, so identical lines
    stay visible one over the other."""
    pane_title = t("cost.pane")
    turn_title = t("cost.turn")
    panes = sorted({row["pane"] for row in rows})
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
                "scale": (
                    {"domain": list(colours), "range": list(colours.values())}
                    if colours
                    else {"range": list(PANE_COLOURS)}
                ),
                "legend": LEGEND,
            },
            "shape": {"field": "pane", "type": "nominal", "title": pane_title},
            "strokeDash": {"field": "pane", "type": "nominal", "title": pane_title, "legend": None},
            # The first pane's line is the widest, each next one thinner: a line drawn over an identical
            # one leaves the one beneath showing along its edges.
            "strokeWidth": {
                "field": "pane",
                "type": "nominal",
                "scale": {"domain": panes, "range": line_widths(len(panes))},
                "legend": None,
            },
            "tooltip": [
                {"field": "pane", "type": "nominal", "title": pane_title},
                {"field": "turn", "type": "ordinal", "title": turn_title},
                {"field": field, "type": "quantitative", "title": tokens_title},
            ],
        },
    }
    return {**inline(line, rows), "title": title}


def coinciding_panes(rows: Sequence[Mapping[str, Any]], field: str) -> list[list[str]]:
    """Groups of two or more panes whose lines of ``field`` are the same at every turn (drawn one over
    the other, so the legend lists more panes than the plot shows lines), in the order panes sort."""
    series: dict[str, tuple[tuple[int, Any], ...]] = {}
    for pane in sorted({row["pane"] for row in rows}):
        series[pane] = tuple(sorted((row["turn"], row[field]) for row in rows if row["pane"] == pane))
    groups: dict[tuple[tuple[int, Any], ...], list[str]] = {}
    for pane, values in series.items():
        groups.setdefault(values, []).append(pane)
    return [panes for panes in groups.values() if len(panes) > 1]


def coinciding_note(rows: Sequence[Mapping[str, Any]], field: str) -> str | None:
    """The caption naming the panes whose lines coincide in a chart of ``field``; None if none do."""
    groups = coinciding_panes(rows, field)
    if not groups:
        return None
    return t("cost.coincide", groups="; ".join(" = ".join(group) for group in groups))


def legend_height(panes: Sequence[str]) -> int:
    """The legend's pixels under the plot, added to the chart's height so the plot keeps its size."""
    extra_lines = sum(len(legend_lines(pane)) - 1 for pane in panes)
    return LEGEND_OFFSET_HEIGHT + LEGEND_ROW_HEIGHT * len(panes) + LEGEND_LINE_HEIGHT * extra_lines


def render_cost_charts(points: Sequence[CostPoint], colours: Mapping[str, str] | None = None) -> None:
    """Prompt tokens per turn, and the running total of every token spent (memory calls included)."""
    if not points:
        st.caption(t("cost.empty"))
        return
    rows = cost_rows(points)
    # The legend sits under the plot, one pane a row: make room for it so the plot keeps its size.
    height = COST_CHART_HEIGHT + legend_height(sorted({row["pane"] for row in rows}))
    left, right = st.columns(2)
    for column, field, title in (
        (left, "prompt_tokens", t("cost.prompt_per_turn")),
        (right, "cumulative", t("cost.cumulative_total")),
    ):
        with column:
            spec = cost_chart_spec(rows, field, title, colours)
            st.vega_lite_chart(spec=spec, width="stretch", height=height)
            if (note := coinciding_note(rows, field)) is not None:
                st.caption(":material/stacks: " + note)
