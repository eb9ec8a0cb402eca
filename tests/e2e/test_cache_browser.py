"""What only a browser shows of the prompt-cache lesson (issue 24), at 1440x900 in English and Chinese.

Compare after five messages: each pane's gauge with its strategy's limits and the cache line under it,
and the cost table with and without caching (window k=3 breaks the cache from turn 5). The Scorecard's
cache table after a default run, and the Failure lab's lesson. Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from memory_demos.i18n import CATALOGUE
from memory_demos.panes import DEFAULT_PANE_PARAMS
from memory_demos.ui.pane import RECENT_TURNS
from tests.e2e.conftest import LabServer
from tests.e2e.test_browser import SCROLLER, full_screenshot
from tests.e2e.widgets import REPLY_TIMEOUT_MS, choose_demo, pane_count, send, settle

pytestmark = pytest.mark.e2e

WIDTH, HEIGHT = 1440, 900
MESSAGES = (
    "My name is Ada.",
    "I live in Lisbon.",
    "I work as a nurse.",
    "My cat is called Miso.",
    "What is my name?",
)


def _start(language: str, key: str) -> str:
    """The fixed opening of a catalogue text (before its first placeholder)."""
    return CATALOGUE[language][key].split("{")[0].strip()


@pytest.mark.parametrize("language", ["en", "zh"])
def test_compare_shows_limits_cache_share_and_costs_with_and_without_caching(
    browser: Any, lab_server: LabServer, artifacts: Path, language: str
) -> None:
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
    page = context.new_page()
    try:
        page.goto(f"{lab_server.url}/compare?lang={language}")
        page.get_by_text(CATALOGUE[language]["cost.title"]).wait_for(timeout=60_000)
        panes = pane_count(page)
        for number, text in enumerate(MESSAGES, start=1):
            # Only the last RECENT_TURNS turns of a pane are drawn; earlier ones fold away.
            send(page, text, expected_replies=panes * min(number, RECENT_TURNS))
        cache_title = page.get_by_text(CATALOGUE[language]["cost.cache_title"])
        cache_title.wait_for(timeout=REPLY_TIMEOUT_MS)
        limits = page.get_by_text(_start(language, "gauge.thresholds"), exact=False)
        assert limits.count() >= 3  # window, summarization and the semantic store declare limits
        trigger = DEFAULT_PANE_PARAMS["summarization"][
            "trigger_tokens"
        ]  # the default pane's, not the class's
        expect(page.get_by_text(f"trigger_tokens={trigger}", exact=False).first).to_be_visible()
        shares = page.get_by_text(_start(language, "pane.cached_share"), exact=False)
        assert shares.count() == panes
        # The window pane drops its first exchange within five turns and breaks the cache every turn on.
        broken = _start(language, "cache.breaks.every_turn_from")
        expect(page.get_by_text(broken, exact=False).first).to_be_visible()
        assert page.get_by_test_id("stException").count() == 0
        page.evaluate(f"() => document.querySelector('{SCROLLER}').scrollTo(0, 0)")
        settle(page)
        page.screenshot(path=str(artifacts / f"e2e_cache_compare_top_{language}.png"))
        cache_title.scroll_into_view_if_needed()
        settle(page)
        page.screenshot(path=str(artifacts / f"e2e_cache_compare_costs_{language}.png"))
        full_screenshot(page, artifacts / f"e2e_cache_compare_full_{language}.png")
        # Zoomed to the prompt, each gauge widens to its nearest limit: the dashed line and its name show.
        page.get_by_text(CATALOGUE[language]["compare.zoom"]).click()
        settle(page)  # the click reruns the page
        page.evaluate(f"() => document.querySelector('{SCROLLER}').scrollTo(0, 300)")
        settle(page)
        page.screenshot(path=str(artifacts / f"e2e_cache_compare_zoom_{language}.png"))
    finally:
        context.close()


@pytest.mark.parametrize("language", ["en", "zh"])
def test_scorecard_and_failure_lab_price_the_cache(
    browser: Any, lab_server: LabServer, artifacts: Path, language: str
) -> None:
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
    page = context.new_page()
    texts = CATALOGUE[language]
    try:
        page.goto(f"{lab_server.url}/scorecard?lang={language}")
        run = page.get_by_role("button", name=texts["scorecard.run"])
        run.wait_for(timeout=60_000)
        run.click()
        caption = page.get_by_text(_start(language, "scorecard.cache_caption"), exact=False)
        caption.wait_for(timeout=180_000)
        # st.dataframe draws on a canvas; its header cells exist for screen readers.
        page.get_by_text(texts["scorecard.col.cost_cached"]).first.wait_for(state="attached", timeout=20_000)
        assert page.get_by_test_id("stException").count() == 0
        caption.scroll_into_view_if_needed()
        settle(page)
        page.screenshot(path=str(artifacts / f"e2e_cache_scorecard_{language}.png"))

        page.goto(f"{lab_server.url}/failure_lab?lang={language}")
        choose_demo(page, texts["failure.moving_prefix.title"])
        page.get_by_role("button", name=texts["failure.run"]).click()
        share = page.get_by_text(texts["failure.verdict.cacheable_share"])
        share.wait_for(timeout=60_000)
        assert page.get_by_test_id("stException").count() == 0
        share.scroll_into_view_if_needed()
        settle(page)
        page.screenshot(path=str(artifacts / f"e2e_cache_failure_lab_{language}.png"))
    finally:
        context.close()
