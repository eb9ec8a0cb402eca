"""The migration guide in a real browser: the Buffer step runs create_agent and shows what LangChain warned."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import LabServer

pytestmark = pytest.mark.e2e


def test_run_both_shows_the_classic_deprecation_and_none_for_create_agent(
    browser: Any, lab_server: LabServer, artifacts: Path
) -> None:
    context = browser.new_context(viewport={"width": 1500, "height": 1000})
    page = context.new_page()
    outside: list[str] = []
    page.on("request", lambda r: None if r.url.startswith(lab_server.url) else outside.append(r.url))
    try:
        page.goto(f"{lab_server.url}/migration")
        page.get_by_text("Buffer → create_agent + checkpointer").first.wait_for(timeout=60_000)
        page.get_by_text("checkpointer=InMemorySaver()").first.wait_for()  # the modern code on screen
        page.get_by_role("button", name="Run both").click()
        page.get_by_text("Same context on every turn.").wait_for(timeout=90_000)
        warned = page.get_by_text("ConversationBufferMemory · deprecated since 0.3.1")  # beside its badge
        clean = page.get_by_text("No deprecation warning raised")
        assert warned.count() == 1 and clean.count() == 1
        # The classic side is the left column, the create_agent side the right one.
        assert warned.bounding_box()["x"] < clean.bounding_box()["x"]
        details = page.get_by_test_id("stExpander").filter(has_text="Deprecation warnings LangChain raised")
        assert details.count() == 1  # the classic side only
        details.locator("summary").click()
        details.get_by_text("was deprecated in LangChain 0.3.1 and will be removed in 2.0.0").first.wait_for()
        page.screenshot(path=str(artifacts / "e2e_migration_buffer_deprecations.png"))
        assert not outside, f"the page reached outside the app: {outside}"
    finally:
        context.close()
