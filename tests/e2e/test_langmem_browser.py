"""The LangMem panes in a browser at 1440x900 (issue 23): memory_tools and background_memory side by side on
Compare, their replies, and the focus view's memory state with the store, the manager runs and the audit
trail, in English and Chinese. Screenshots in tests/artifacts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from memory_demos.bench.workshop_browser import PANE_BOXES
from memory_demos.i18n import t
from tests.e2e.conftest import LabServer
from tests.e2e.widgets import close_focus, only_these_panes, open_compare, open_focus, send, settle

pytestmark = pytest.mark.e2e

WIDTH, HEIGHT = 1440, 900
STRATEGY_IDS = ("memory_tools", "background_memory")
MESSAGES = {
    "en": (
        "Hi, my name is Mara and I live in Lisbon.",
        "I work as a nurse.",
        "Tell me about bicycles.",
        "Where do I live and what do I do?",
    ),
    "zh": (
        "你好，我叫小明，住在上海。",
        "我是一名护士。",
        "给我讲讲自行车的历史。",
        "我住在哪里？我做什么工作？",
    ),
}
ANSWERS = {"en": ("Lisbon", "nurse"), "zh": ("上海", "护士")}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_langmem_panes_answer_and_show_their_audit_trail(
    browser: Any, lab_server: LabServer, artifacts: Path, language: str
) -> None:
    context, page = open_compare(browser, lab_server.url, language, WIDTH, HEIGHT)
    try:
        only_these_panes(page, STRATEGY_IDS, language)
        for number, text in enumerate(MESSAGES[language], start=1):
            send(page, text, len(STRATEGY_IDS) * min(number, 3))
        page.screenshot(path=str(artifacts / f"langmem_compare_{language}.png"))
        panes = page.locator(PANE_BOXES)
        for index, strategy_id in enumerate(STRATEGY_IDS):
            newest = panes.nth(index).get_by_test_id("stChatMessage").last.inner_text()
            assert all(answer in newest for answer in ANSWERS[language]), (strategy_id, newest)
            dialog = open_focus(page, panes.nth(index))
            trail = dialog.get_by_text(t("state.key.audit_trail", language), exact=False).first
            trail.scroll_into_view_if_needed(timeout=30_000)
            settle(page)
            page.screenshot(path=str(artifacts / f"langmem_state_{strategy_id}_{language}.png"))
            via = "tool:manage_memory" if strategy_id == "memory_tools" else "manager"
            assert dialog.get_by_text(via, exact=True).count() >= 2, strategy_id
            assert dialog.get_by_text(t("state.key.memories", language), exact=True).count() == 1
            if strategy_id == "background_memory":
                assert dialog.get_by_text(t("state.key.manager_runs", language), exact=True).count() == 1
            close_focus(page)
    finally:
        context.close()
