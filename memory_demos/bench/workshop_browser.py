"""Attendees that are real browsers: one headless Chromium context each (``bench workshop``).

End-to-end fidelity, but 40 of them on two cores measure the browsers more than the server; the
``ws`` attendees (``workshop_ws``) are the light alternative.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from typing import Any

from memory_demos.bench.chromium import launch_options
from memory_demos.bench.workshop_report import SessionResult
from memory_demos.ui.pane import RECENT_TURNS

PAGE_LOAD_MS = 120_000
REPLY_TIMEOUT_MS = 180_000
THINK_SECONDS = 0.5
# How often a page checks whether the replies are done: every animation frame (Playwright's default)
# in 40 pages at once would spend the CPU the server needs.
POLL_MS = 100
CLICK_EFFECT_MS = 15_000
CHAT_BOX = "stChatInputTextArea"
PANE_BOXES = '[class*="st-key-ml_w_pane_"][class*="_box"]'
REMOVE_BUTTONS = '[class*="st-key-ml_w_pane_"][class*="_remove"] button'
MARKER = re.compile(r"S\d{3}x[0-9a-f]{8}")
# True once the app is idle and at least ``n`` assistant messages show a finished (non-streaming) reply.
REPLIES_DONE = """
([n]) => {
  const box = document.querySelector('[data-testid="stChatInputTextArea"]');
  if (!box || box.disabled) return false;
  const replies = [...document.querySelectorAll('[data-testid="stChatMessage"]')]
    .filter((m) => m.querySelector('[data-testid="stChatMessageAvatarAssistant"]'));
  const text = (m) => (m.querySelector('[data-testid="stChatMessageContent"]') || m).textContent;
  return replies.length >= n && replies.every((m) => text(m).trim() && !text(m).includes('\\u258c'));
}
"""


async def _set_pane_count(page: Any, panes: int) -> None:
    """Remove (or add) panes through the page's own buttons until there are ``panes``.

    A click that lands while the page is rerunning can be dropped by Streamlit, so each click waits
    a short while for its effect and is repeated if nothing changed, until ``PAGE_LOAD_MS`` runs out.
    """
    from playwright.async_api import TimeoutError as PlaywrightTimeoutError

    boxes = page.locator(PANE_BOXES)
    deadline = time.monotonic() + PAGE_LOAD_MS / 1000
    while (count := await boxes.count()) != panes:
        if time.monotonic() > deadline:
            raise TimeoutError(f"the page still shows {count} panes, not {panes}")
        if count > panes:
            await page.locator(REMOVE_BUTTONS).filter(visible=True).last.click()
        else:
            await page.get_by_role("button", name="Add pane").click()
        with contextlib.suppress(PlaywrightTimeoutError):
            await page.wait_for_function(
                "([selector, n]) => document.querySelectorAll(selector).length === n",
                arg=[PANE_BOXES, count - 1 if count > panes else count + 1],
                timeout=CLICK_EFFECT_MS,
                polling=POLL_MS,
            )


async def _attendee(
    browser: Any, url: str, result: SessionResult, panes: int, turns: int, gate: asyncio.Semaphore
) -> None:
    context = await browser.new_context(viewport={"width": 1400, "height": 900})
    try:
        page = await context.new_page()
        async with gate:
            await page.goto(f"{url}/compare", timeout=PAGE_LOAD_MS)
            await page.get_by_test_id(CHAT_BOX).wait_for(timeout=PAGE_LOAD_MS)
            await page.locator(PANE_BOXES).first.wait_for(timeout=PAGE_LOAD_MS)
            await _set_pane_count(page, panes)
        for turn in range(turns):
            text = f"[{result.marker}] Turn {turn + 1}: my name is Attendee{result.index}."
            async with gate:
                box = page.get_by_test_id(CHAT_BOX)
                await box.fill(text)
                started = time.perf_counter()
                await box.press("Enter")
                await page.wait_for_function(
                    REPLIES_DONE,
                    arg=[panes * min(turn + 1, RECENT_TURNS)],
                    timeout=REPLY_TIMEOUT_MS,
                    polling=POLL_MS,
                )
                result.latencies.append(time.perf_counter() - started)
            await asyncio.sleep(THINK_SECONDS)
        body = await page.locator("body").inner_text()
        result.crosstalk |= {marker for marker in MARKER.findall(body) if marker != result.marker}
        shown = await page.locator(PANE_BOXES).evaluate_all("(boxes) => boxes.map((box) => box.innerText)")
        for text in shown:
            if text.count(result.marker) < min(turns, RECENT_TURNS):  # older turns fold away
                result.errors["missing_own_messages"] += 1
        failed = await page.get_by_test_id("stException").count()
        if failed:
            result.errors["exception"] += failed
        pane_errors = await page.get_by_text("This turn failed", exact=False).count()
        if pane_errors:
            result.errors["pane_error"] += pane_errors
    except Exception as exc:  # a timeout or a vanished page is a measured error, not a crash
        result.errors[type(exc).__name__] += 1
    finally:
        await context.close()


async def drive(
    url: str, results: list[SessionResult], panes: int, turns: int, concurrency: int
) -> list[SessionResult]:
    from playwright.async_api import async_playwright

    gate = asyncio.Semaphore(concurrency)
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(**launch_options(load=True))
        try:
            await asyncio.gather(*(_attendee(browser, url, r, panes, turns, gate) for r in results))
        finally:
            await browser.close()
    return results
