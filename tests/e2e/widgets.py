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


def open_focus(page: Any, pane: Any, waits_for: str | None = None) -> Any:
    """Open a Compare pane's focus view (its inspector, a dialog) with the pane's focus button; returns
    the dialog, once ``waits_for`` (a text in it) shows."""
    pane.locator('[class*="_focus"] button').filter(visible=True).first.click()
    dialog = page.get_by_role("dialog")
    dialog.wait_for(timeout=30_000)
    if waits_for is not None:
        dialog.get_by_text(waits_for, exact=False).first.wait_for(timeout=30_000)
    return dialog


def close_focus(page: Any) -> None:
    """Close the open focus view with its close button (the page behind it is usable again)."""
    dialog = page.get_by_role("dialog")
    dialog.get_by_role("button", name="Close").click()
    dialog.wait_for(state="detached", timeout=30_000)
