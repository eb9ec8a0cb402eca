"""Long identifiers, ids and URLs wrap at sensible points in narrow places; coinciding cost lines are named."""

from __future__ import annotations

from memory_demos.ui.charts import (
    CostPoint,
    coinciding_note,
    coinciding_panes,
    cost_chart_spec,
    cost_rows,
    line_widths,
)
from memory_demos.ui.state_view import UNBROKEN_RUN, _markdown_cell, wrappable_runs
from memory_demos.ui.text import WRAP_POINT, wrappable_identifiers

URL = "https://example.com/a/very/long/path/without/any/breaks/at/all/index.html"


def test_a_long_camel_case_identifier_wraps_between_its_words_only() -> None:
    shown = wrappable_identifiers("SummarizationMiddleware replaced 1 messages")
    assert shown == f"Summarization{WRAP_POINT}Middleware replaced 1 messages"
    assert wrappable_identifiers("智能体 + RunnableWithMessageHistory").endswith(
        WRAP_POINT.join(("Runnable", "With", "Message", "History"))
    )
    assert wrappable_identifiers("McDonald lives in Accra") == "McDonald lives in Accra"  # short: as is


def test_an_unbroken_run_in_a_table_cell_gets_break_points_and_stays_the_same_text() -> None:
    shown = wrappable_runs(f"see {URL}")
    assert shown.replace(WRAP_POINT, "") == f"see {URL}"  # nothing added but break points
    assert not UNBROKEN_RUN.search(shown)  # no piece a 400 px cell would cut
    assert "https:" + WRAP_POINT in shown  # so no link is made of it either
    assert [len(piece) for piece in wrappable_runs("a" * 60).split(WRAP_POINT)] == [24, 24, 12]
    assert wrappable_runs("short id usr_9f8e7d6c") == "short id usr_9f8e7d6c"
    assert "\\/" in _markdown_cell(URL)  # still escaped Markdown


def test_lines_that_coincide_are_named_and_drawn_in_widths_that_show_the_one_beneath() -> None:
    points = [
        CostPoint(pane, turn, tokens, tokens)
        for pane, values in (("1 · Buffer", (10, 20)), ("2 · Window", (10, 20)), ("3 · Summary", (10, 15)))
        for turn, tokens in enumerate(values, start=1)
    ]
    rows = cost_rows(points)
    assert coinciding_panes(rows, "prompt_tokens") == [["1 · Buffer", "2 · Window"]]
    note = coinciding_note(rows, "prompt_tokens")
    assert note is not None and "1 · Buffer = 2 · Window" in note
    assert coinciding_note([row for row in rows if row["pane"] != "2 · Window"], "prompt_tokens") is None
    widths = cost_chart_spec(rows, "prompt_tokens", "t")["layer"][0]["encoding"]["strokeWidth"]["scale"]
    assert widths["range"] == line_widths(3) and widths["range"] == sorted(widths["range"], reverse=True)
