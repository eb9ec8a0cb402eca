"""Widget moves the browser tests share: open Compare, add and remove panes, send a message, wait for the
app to settle, open and close a pane's focus view."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from memory_demos.bench.workshop_browser import CHAT_BOX, PANE_BOXES, REMOVE_BUTTONS, REPLIES_DONE
from memory_demos.i18n import t
from memory_demos.strategies.registry import get_info

REPLY_TIMEOUT_MS = 90_000
ADD_STRATEGY = '[class*="st-key-ml_w_add_strategy"]'
ADD_PANE_BUTTON = '[class*="st-key-ml_w_add_pane"] button'
PANES_ARE = "([s, n]) => document.querySelectorAll(s).length === n"
QUIET_MS = 400
# True once the script has not been running for QUIET_MS: a finished run can chain another (a redraw
# after the replies streamed), so one moment of "not running" is not yet settled.
SETTLED = """
([quietMs]) => new Promise((resolve) => {
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.dataset.testScriptState !== 'notRunning') return resolve(false);
  let changed = false;
  const observer = new MutationObserver(() => { changed = true; });
  observer.observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
  setTimeout(() => {
    observer.disconnect();
    requestAnimationFrame(() => resolve(!changed && app.dataset.testScriptState === 'notRunning'));
  }, quietMs);
})
"""


def choose_option(page: Any, selectbox: Any, label: str) -> None:
    """Pick ``label`` in a Streamlit select box by typing it and clicking the one option left.

    Clicking an option in the open list waits for it to be visible and stable; on a loaded machine the
    list keeps scrolling and re-rendering, so the click can time out although the option is there.
    Typing filters the list down to that option, which then sits still to be clicked.

    On a loaded machine a rerun can also redraw the box between the click that opens it and the typing, so
    the list closes and the keys go nowhere (seen once in CI, inside a pane's parameter popover): then the
    box is opened again and its text replaced, up to three times (not Escape: it would close the popover).
    """
    option = page.get_by_role("option", name=label, exact=True)
    for attempt in range(3):
        selectbox.click()
        if attempt:
            page.keyboard.press("ControlOrMeta+A")
        page.keyboard.type(label)
        try:
            option.click(timeout=15_000)
            break
        except PlaywrightTimeoutError:
            if attempt == 2:
                raise
            settle(page)
    expect(selectbox.locator("input")).to_have_value(label, timeout=30_000)


def open_params(page: Any, pane: Any) -> Any:
    """Open a pane's parameter editor (its toolbar's first popover) and return the editor once it shows.

    The click waits for the app to settle first: right after "Add pane" the rerun re-renders the toolbar,
    and a popover opened during it closes again, so the next select box typed into is not the editor's.
    """
    settle(page)
    pane.get_by_test_id("stPopover").locator("button").first.click()
    editor = page.get_by_test_id("stPopoverBody")
    editor.get_by_test_id("stSelectbox").first.wait_for(timeout=30_000)
    return editor


def settle(page: Any, timeout_s: float = 30.0) -> None:
    """Wait until the app has finished its runs and painted them (instead of sleeping for a redraw)."""
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(SETTLED, [QUIET_MS]):
        assert time.monotonic() < deadline, f"the app was still running after {timeout_s} s"
        time.sleep(0.05)


def open_compare(
    browser: Any, url: str, language: str | None = None, width: int = 1440, height: int = 900
) -> tuple[Any, Any]:
    """A new browser context on Compare (in ``language`` when given); returns (context, page) once the
    chat box and the first pane show."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(f"{url}/compare" + (f"?lang={language}" if language else ""))
    page.get_by_test_id(CHAT_BOX).wait_for(timeout=60_000)
    page.locator(PANE_BOXES).first.wait_for(timeout=60_000)
    return context, page


def pane_count(page: Any) -> int:
    return page.locator(PANE_BOXES).count()


def wait_for_panes(page: Any, panes: int) -> None:
    page.wait_for_function(PANES_ARE, arg=[PANE_BOXES, panes], timeout=60_000)


def strategy_label(strategy_id: str, language: str) -> str:
    """The text Compare's "Strategy to add" box shows for a strategy: its kind, then its title."""
    info = get_info(strategy_id)
    return f"{t('kind.' + info.kind, language)} · {info.title_in(language)}"


def add_pane(page: Any, strategy_id: str, language: str = "en") -> Any:
    """Add a pane for ``strategy_id`` with Compare's own controls; returns that pane once it shows."""
    panes = pane_count(page)
    selectbox = page.locator(ADD_STRATEGY).get_by_test_id("stSelectbox")
    choose_option(page, selectbox, strategy_label(strategy_id, language))
    page.locator(ADD_PANE_BUTTON).filter(visible=True).first.click()
    wait_for_panes(page, panes + 1)
    return page.locator(PANE_BOXES).filter(has_text=get_info(strategy_id).title_in(language)).last


def remove_first_panes(page: Any, keep: int) -> None:
    """Remove panes from the left with their remove buttons until ``keep`` are left."""
    while (count := pane_count(page)) > keep:
        page.locator(REMOVE_BUTTONS).filter(visible=True).first.click()
        wait_for_panes(page, count - 1)


def set_pane_count(page: Any, panes: int) -> None:
    """Add default panes, or remove the last ones, until ``panes`` show."""
    while (count := pane_count(page)) != panes:
        if count > panes:
            page.locator(REMOVE_BUTTONS).filter(visible=True).last.click()
        else:
            page.locator(ADD_PANE_BUTTON).filter(visible=True).first.click()
        wait_for_panes(page, count - 1 if count > panes else count + 1)


def only_these_panes(page: Any, strategy_ids: tuple[str, ...], language: str = "en") -> list[Any]:
    """A pane for each strategy, in order, and none of the panes Compare started with; returns them."""
    for strategy_id in strategy_ids:
        add_pane(page, strategy_id, language)
    remove_first_panes(page, len(strategy_ids))
    boxes = page.locator(PANE_BOXES)
    return [boxes.filter(has_text=get_info(sid).title_in(language)) for sid in strategy_ids]


def send(page: Any, text: str, expected_replies: int) -> None:
    """Type ``text`` into the chat box, send it, and wait until ``expected_replies`` replies have streamed
    to their end and the app has settled."""
    box = page.get_by_test_id(CHAT_BOX)
    box.fill(text)
    box.press("Enter")
    page.wait_for_function(REPLIES_DONE, arg=[expected_replies], timeout=REPLY_TIMEOUT_MS)
    settle(page)


def choose_demo(page: Any, title: str) -> None:
    """Pick a Failure lab demo by its title and wait until the page shows it: until then the Run button
    on the page is the previous demo's, and a click on it runs the wrong demo or is lost in the rerun."""
    page.get_by_text(title).first.click()
    page.get_by_role("heading", name=title).wait_for(timeout=60_000)
    settle(page)


def open_focus(page: Any, pane: Any, waits_for: str | None = None) -> Any:
    """Open a Compare pane's focus view (its inspector, a dialog) with the pane's focus button; returns
    the dialog once ``waits_for`` (a text in it) shows and the app has settled: the text can be painted
    before the rest of the dialog, which callers then read or count."""
    pane.locator('[class*="_focus"] button').filter(visible=True).first.click()
    dialog = page.get_by_role("dialog")
    dialog.wait_for(timeout=30_000)
    if waits_for is not None:
        dialog.get_by_text(waits_for, exact=False).first.wait_for(timeout=30_000)
    settle(page)
    return dialog


def close_focus(page: Any) -> None:
    """Close the open focus view with its close button; returns once the page behind it is usable again
    (the dialog gone and the rerun its closing starts painted)."""
    dialog = page.get_by_role("dialog")
    dialog.get_by_role("button", name="Close").click()
    dialog.wait_for(state="detached", timeout=30_000)
    settle(page)
