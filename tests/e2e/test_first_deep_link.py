"""A deep link as the very first request to a fresh server shows only the navigation the app declares.

Streamlit treats an app with a ``pages/`` folder as an old-style multipage app until ``st.navigation``
has run once in the process; its automatic page list (``app``, ``instructor``, lower-case file names)
must not appear, not even for a moment, before the app's own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from memory_demos.bench.server import lab_server
from memory_demos.i18n import t
from memory_demos.ui.nav import listed_pages
from tests.e2e.widgets import settle

pytestmark = pytest.mark.e2e

# Installed before the app's own scripts: records the text of every navigation link that is ever
# attached to the page (Streamlit's sidebar or top navigation, and the app's page links).
RECORD_NAV_LINKS = """
window.__navSeen = new Set();
const NAV = '[data-testid="stSidebarNav"] a, [data-testid^="stTopNav"] a, [data-testid="stSidebar"] a, header a';
const record = () => {
  for (const link of document.querySelectorAll(NAV)) {
    const label = link.cloneNode(true);
    label.querySelectorAll('[data-testid="stIconMaterial"]').forEach((icon) => icon.remove());
    const text = label.textContent.trim();
    if (text) window.__navSeen.add(text);
  }
};
new MutationObserver(record).observe(document, { childList: true, subtree: true, characterData: true });
"""

SIDEBAR_LINKS = """
() => [...document.querySelectorAll('[data-testid="stSidebar"] a')].map((link) => {
  const label = link.cloneNode(true);
  label.querySelectorAll('[data-testid="stIconMaterial"]').forEach((icon) => icon.remove());
  return label.textContent.trim();
}).filter(Boolean)
"""


def declared_entries() -> set[str]:
    """Every link text the app itself puts in its navigation (English, workshop mode off)."""
    return {t(spec.title_key, "en") for spec in listed_pages(False, host=False)} | {
        t("sidebar.change_provider", "en")
    }


def test_first_request_deep_link_shows_only_declared_navigation(
    browser: Any, artifacts: Path, tmp_path: Path
) -> None:
    declared = declared_entries()
    with lab_server(tmp_path / "data", workshop=False) as (url, _pid):
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        context.add_init_script(RECORD_NAV_LINKS)
        page = context.new_page()
        try:
            page.goto(f"{url}/compare")  # nothing has run on this server before
            page.get_by_test_id("stChatInputTextArea").wait_for(timeout=60_000)
            page.get_by_text("Cost across panes").wait_for(timeout=60_000)
            settle(page)  # the observer sees the final state too
            page.screenshot(path=str(artifacts / "e2e_first_deep_link.png"))
            seen = set(page.evaluate("() => [...window.__navSeen]"))
            shown_now = set(page.evaluate(SIDEBAR_LINKS))
        finally:
            context.close()
    assert seen - declared == set(), f"undeclared navigation entries appeared: {sorted(seen - declared)}"
    # The app's own navigation is there: every declared page can be reached from the sidebar.
    assert {t(spec.title_key, "en") for spec in listed_pages(False, host=False)} <= shown_now, sorted(
        shown_now
    )
    assert "instructor" not in {text.lower() for text in seen}
