"""What only a browser shows of failures: the Scorecard against a dead server, in English and Chinese.

Settings → OpenAI-compatible at ``http://127.0.0.1:9/v1`` (nothing listens on port 9), Apply, then
Scorecard → Run: within 15 s the page says the server cannot be reached, and no cell says "missed".
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from memory_demos.i18n import CATALOGUE
from tests.e2e.conftest import LabServer
from tests.e2e.widgets import settle

pytestmark = pytest.mark.e2e

DEAD_SERVER = "http://127.0.0.1:9/v1"
VIEWPORTS = ((1440, 900), (1920, 1080))


def _text(language: str, key: str) -> str:
    return CATALOGUE[language][key]


def _use_dead_server(page: Any, language: str) -> None:
    page.get_by_role("button", name=_text(language, "settings.apply")).wait_for(timeout=60_000)
    page.get_by_text(_text(language, "settings.kind.openai_compatible")).click()
    for name, value in (("settings.model", "llama3.1:8b"), ("settings.base_url", DEAD_SERVER)):
        field = page.get_by_role("textbox", name=_text(language, name))
        field.fill(value)
        field.press("Enter")
        expect(field).to_have_value(value)
        settle(page)  # the rerun Enter started, before the next field is typed into
    page.get_by_role("button", name=_text(language, "settings.apply")).click()


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_dead_server_scorecard_names_the_failure_within_15_seconds(
    browser: Any, lab_server: LabServer, artifacts: Path, language: str
) -> None:
    context = browser.new_context(viewport={"width": VIEWPORTS[0][0], "height": VIEWPORTS[0][1]})
    page = context.new_page()
    try:
        page.goto(f"{lab_server.url}/settings?lang={language}")
        _use_dead_server(page, language)
        unreachable = _text(language, "failure_kind.connection")
        # Applying checks the server at once and says what it found.
        page.get_by_text(unreachable, exact=False).first.wait_for(timeout=30_000)
        page.get_by_test_id("stSidebar").get_by_role("link", name=_text(language, "nav.scorecard")).click()
        run = page.get_by_role("button", name=_text(language, "scorecard.run"))
        run.wait_for(timeout=60_000)
        started = time.monotonic()
        run.click()
        stopped = _text(language, "failures.stopped_before").split("{kind}")[0]
        page.get_by_text(stopped, exact=False).wait_for(timeout=15_000)
        assert time.monotonic() - started < 15
        alert = page.get_by_test_id("stAlert").filter(has_text=stopped)
        expect(alert).to_contain_text(unreachable)
        expect(alert).to_contain_text(_text(language, "error.connection"))
        settle(page)  # no "missed" cell painted by a run still under way
        assert page.get_by_text(_text(language, "scorecard.outcome.missed"), exact=True).count() == 0
        assert page.get_by_test_id("stException").count() == 0
        for width, height in VIEWPORTS:
            page.set_viewport_size({"width": width, "height": height})
            settle(page)
            page.screenshot(path=str(artifacts / f"e2e_scorecard_dead_server_{language}_{width}.png"))
    finally:
        context.close()
