"""memory_blocks as a learner sees it at 1440x900, in English and Chinese: a Compare pane whose focus view
shows the blocks with their fill and the audit trail, and the failure lab's full-block demo with its verdict.
Screenshots in tests/artifacts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from memory_demos.i18n import CATALOGUE
from memory_demos.strategies.registry import get_info
from memory_demos.ui.pane import RECENT_TURNS
from tests.e2e.conftest import LabServer
from tests.e2e.widgets import (
    PANE_BOXES,
    add_pane,
    choose_demo,
    open_compare,
    open_focus,
    pane_count,
    send,
    settle,
)

pytestmark = pytest.mark.e2e

WIDTH, HEIGHT = 1440, 900
MESSAGES = {
    "en": ("Hi, my name is Mara and I live in Lisbon.", "I work as a nurse.", "Where do I live?"),
    "zh": ("你好，我叫小明，住在上海。", "我是一名护士。", "我住在哪里？"),
}
NOTES = {"en": "The human lives in Lisbon.", "zh": "用户住在上海。"}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_blocks_their_fill_and_the_audit_trail_show_in_the_focus_view(
    browser: Any, lab_server: LabServer, artifacts: Path, language: str
) -> None:
    texts = CATALOGUE[language]
    context, page = open_compare(browser, lab_server.url, language, WIDTH, HEIGHT)
    try:
        panes = pane_count(page) + 1
        add_pane(page, "memory_blocks", language)
        for number, text in enumerate(MESSAGES[language], start=1):
            send(page, text, panes * min(number, RECENT_TURNS))
        assert page.get_by_test_id("stException").count() == 0
        pane = page.locator(PANE_BOXES).filter(has_text=get_info("memory_blocks").title_in(language))
        pane.first.scroll_into_view_if_needed()
        settle(page)
        page.screenshot(path=str(artifacts / f"e2e_memory_blocks_compare_{language}.png"))
        dialog = open_focus(page, pane.first, waits_for=texts["state.key.audit_trail"])
        for label in ("state.key.blocks", "state.key.audit_trail"):
            dialog.get_by_text(texts[label]).first.wait_for(timeout=30_000)
        dialog.get_by_text(NOTES[language]).first.wait_for(timeout=30_000)
        dialog.get_by_text("tool:memory_append").first.wait_for(state="attached", timeout=30_000)
        dialog.get_by_text(texts["state.key.blocks"]).first.scroll_into_view_if_needed()
        settle(page)
        page.screenshot(path=str(artifacts / f"e2e_memory_blocks_focus_{language}.png"))
    finally:
        context.close()


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_full_block_demo_shows_its_verdict(
    browser: Any, lab_server: LabServer, artifacts: Path, language: str
) -> None:
    texts = CATALOGUE[language]
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
    page = context.new_page()
    try:
        page.goto(f"{lab_server.url}/failure_lab?lang={language}")
        choose_demo(page, texts["failure.full_block.title"])
        page.get_by_role("button", name=texts["failure.run"]).click()
        dropped = page.get_by_text(texts["failure.verdict.dropped_chars"])
        dropped.wait_for(timeout=90_000)
        page.get_by_text(texts["failure.verdict.loss_said"]).first.wait_for(timeout=30_000)
        dropped.scroll_into_view_if_needed()
        settle(page)
        assert page.get_by_test_id("stException").count() == 0
        page.screenshot(path=str(artifacts / f"e2e_memory_blocks_failure_lab_{language}.png"))
    finally:
        context.close()
