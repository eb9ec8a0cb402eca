"""Fewer panes than a row holds share the row's width: two panes at "4 a row" had each taken a quarter of
the window beside empty space, every reply wrapping (seen in the QA walk at 1440 px)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from memory_demos.session import KEY_PREFIX, widget_key

APP = str(Path(__file__).resolve().parents[1] / "app.py")


def compare_with(panes: int) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30)
    at.run()
    at.switch_page("pages/compare.py")
    at.run()
    while len(at.session_state[KEY_PREFIX + "panes"]) > panes:
        last = at.session_state[KEY_PREFIX + "panes"][-1]
        at.button(key=widget_key("pane", last.pane_id, "remove")).click().run()
    assert not at.exception, at.exception
    assert len(at.session_state[KEY_PREFIX + "panes"]) == panes
    return at


def pane_column_weights(at: AppTest) -> list[float]:
    """The width share of each column holding a pane (its header reads "**N. …**")."""
    return [
        column.proto.weight
        for column in at.columns
        if any(m.value.startswith("**") and ". " in m.value[:6] for m in column.markdown)
    ]


@pytest.mark.parametrize(("panes", "share"), [(2, 1 / 2), (3, 1 / 3)])
def test_fewer_panes_than_a_row_holds_share_its_width(panes: int, share: float) -> None:
    weights = pane_column_weights(compare_with(panes))
    assert len(weights) == panes
    assert weights == pytest.approx([share] * panes)
