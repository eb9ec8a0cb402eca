"""The Compare cost charts' legend shows every pane's whole name, wrapped in lines that fit a narrow chart."""

from __future__ import annotations

import pytest

from memory_demos.defaults import MAX_PANES
from memory_demos.strategies.registry import available_ids, get_info
from memory_demos.ui.charts import (
    LABEL_BREAKS,
    LEGEND_ROW_HEIGHT,
    WRAP_LABEL_AFTER,
    CostPoint,
    cost_chart_spec,
    cost_rows,
    legend_height,
    legend_lines,
)


def pane_labels(language: str) -> list[str]:
    """Every strategy as the last pane of a full Compare page would label it."""
    return [f"{MAX_PANES} · {get_info(sid).title_in(language)}" for sid in available_ids()]


def test_the_legend_cuts_no_label_and_puts_one_pane_a_row() -> None:
    rows = cost_rows([CostPoint(label, 1, 10, 12) for label in pane_labels("en")[:MAX_PANES]])
    legend = cost_chart_spec(rows, "prompt_tokens", "title")["layer"][0]["encoding"]["color"]["legend"]
    assert legend["orient"] == "bottom" and legend["columns"] == 1
    assert legend["labelLimit"] == 0 and legend["symbolLimit"] == 0
    for found, _ in LABEL_BREAKS:
        assert f"'{found}'" in legend["labelExpr"]


@pytest.mark.parametrize("language", ["en", "zh"])
def test_every_strategy_name_wraps_into_lines_that_keep_all_its_words(language: str) -> None:
    for label in pane_labels(language):
        lines = legend_lines(label)
        assert "".join(line.strip() for line in lines).replace(" ", "") == label.replace(" ", "")
        assert all(len(line) <= WRAP_LABEL_AFTER for line in lines), lines


def test_short_labels_stay_on_one_line_and_long_ones_add_height() -> None:
    short = "1 · Buffer (everything)"
    long = "3 · create_agent + ContextEditingMiddleware (clear old tool results)"
    assert legend_lines(short) == [short]
    assert legend_lines(long) == ["3 · create_agent + ContextEditingMiddleware", "(clear old tool results)"]
    one_short, one_long = legend_height([short]), legend_height([long])
    assert one_long > one_short
    assert legend_height([short, short]) - one_short == LEGEND_ROW_HEIGHT


def test_given_colours_are_the_scale_and_every_pane_has_its_own_dash() -> None:
    rows = cost_rows([CostPoint("1 · A", 1, 10, 12), CostPoint("2 · B", 1, 10, 12)])
    colours = {"1 · A": "#d94a57", "2 · B": "#3b82f6"}
    encoding = cost_chart_spec(rows, "prompt_tokens", "title", colours)["layer"][0]["encoding"]
    assert encoding["color"]["scale"] == {"domain": ["1 · A", "2 · B"], "range": ["#d94a57", "#3b82f6"]}
    assert encoding["strokeDash"]["field"] == "pane"
