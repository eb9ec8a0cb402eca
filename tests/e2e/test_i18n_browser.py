"""What only a browser shows of a live language switch: a select box's chosen label is redrawn."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from memory_demos.i18n import CATALOGUE
from memory_demos.strategies.registry import get_info
from tests.e2e.conftest import LabServer
from tests.e2e.test_browser import open_compare
from tests.e2e.widgets import choose_option, settle

pytestmark = pytest.mark.e2e


# What a select box shows: its text, and the value of its input (where the chosen option is drawn).
SHOWN_IN_SELECT_BOXES = """
(label) => [...document.querySelectorAll('[data-testid="stSelectbox"]')].some((box) =>
  [box.innerText, ...[...box.querySelectorAll('input')].map((input) => input.value)]
    .some((text) => text.includes(label)))
"""


def _strategy_label(strategy_id: str, language: str) -> str:
    info = get_info(strategy_id)
    return f"{CATALOGUE[language]['kind.' + info.kind]} · {info.title_in(language)}"


def test_the_chosen_strategy_to_add_is_relabelled_when_the_language_changes(
    browser: Any, lab_server: LabServer, artifacts: Path
) -> None:
    context, page = open_compare(browser, lab_server, width=1400, height=900)
    try:
        box = page.get_by_test_id("stSelectbox").filter(has_text=CATALOGUE["en"]["compare.add_strategy"])
        choose_option(page, box, _strategy_label("summarization", "en"))
        page.locator('[data-testid="stSidebar"]').get_by_text("简体中文").click()
        chinese_box = page.get_by_test_id("stSelectbox").filter(
            has_text=CATALOGUE["zh"]["compare.add_strategy"]
        )
        chinese_box.wait_for(timeout=60_000)
        chinese_label = _strategy_label("summarization", "zh")
        page.wait_for_function(SHOWN_IN_SELECT_BOXES, arg=chinese_label, timeout=30_000)
        settle(page)  # no select box still drawn in English by a run under way
        page.screenshot(path=str(artifacts / "e2e_language_switch_select.png"))
        assert not page.evaluate(SHOWN_IN_SELECT_BOXES, _strategy_label("summarization", "en"))
    finally:
        context.close()
