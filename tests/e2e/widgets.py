"""Widget moves the browser tests share."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect


def choose_option(page: Any, selectbox: Any, label: str) -> None:
    """Pick ``label`` in a Streamlit select box by typing it and pressing Enter.

    Clicking an option in the open list waits for it to be visible and stable; on a loaded machine the
    list keeps scrolling and re-rendering, so the click can time out although the option is there.
    Typing filters the list down to that option, which then sits still to be clicked.
    """
    selectbox.click()
    page.keyboard.type(label)
    page.get_by_role("option", name=label, exact=True).click()
    expect(selectbox.locator("input")).to_have_value(label, timeout=30_000)
