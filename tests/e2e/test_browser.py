"""What only a real browser shows: panes side by side, replies arriving, no script injection, sessions apart."""

from __future__ import annotations

import itertools
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e import widgets
from tests.e2e.conftest import LabServer
from tests.e2e.widgets import (
    CHAT_BOX,
    PANE_BOXES,
    REPLIES_DONE,
    REPLY_TIMEOUT_MS,
    close_focus,
    open_focus,
    pane_count,
    send,
    settle,
)

pytestmark = pytest.mark.e2e

# The element that scrolls the page (no bottom-pinned chat box, so no scroll-to-bottom container).
SCROLLER = '[data-testid="stMain"]'


def open_compare(browser: Any, server: LabServer, width: int = 1600, height: int = 1000) -> tuple[Any, Any]:
    """Compare in a new context, once all of it is drawn."""
    context, page = widgets.open_compare(browser, server.url, width=width, height=height)
    # The cost section comes after every pane: once it shows, the whole page has been drawn.
    page.get_by_text("Cost across panes").wait_for(timeout=60_000)
    settle(page)  # callers count panes and read the page next
    return context, page


def full_screenshot(page: Any, path: Path) -> None:
    """The whole page: Streamlit scrolls inside its main container, so grow the viewport until it fits."""
    size = page.viewport_size
    for _ in range(5):
        height = int(page.evaluate(f"() => document.querySelector('{SCROLLER}').scrollHeight"))
        if height <= page.viewport_size["height"]:
            break
        page.set_viewport_size({"width": size["width"], "height": height + 40})
        settle(page)
    page.evaluate(f"() => document.querySelector('{SCROLLER}').scrollTo(0, 0)")
    settle(page)
    page.screenshot(path=str(path))
    page.set_viewport_size(size)


def test_three_messages_reach_four_panes_side_by_side(
    browser: Any, lab_server: LabServer, artifacts: Path
) -> None:
    context = browser.new_context(viewport={"width": 1600, "height": 1000})
    page = context.new_page()
    outside: list[str] = []
    page.on("request", lambda r: None if r.url.startswith(lab_server.url) else outside.append(r.url))
    page.goto(f"{lab_server.url}/compare")
    page.get_by_text("Cost across panes").wait_for(timeout=60_000)
    settle(page)
    try:
        panes = pane_count(page)
        assert panes == 4, f"expected the four default panes, found {panes}"
        messages = [
            "Hi, my name is Ada and I live in Lisbon.",
            "I like green tea and my dog is called Rex.",
            "What is my name and where do I live?",
        ]
        for number, text in enumerate(messages, start=1):
            send(page, text, expected_replies=panes * number)
        boxes = page.locator(PANE_BOXES)
        for index in range(panes):
            box = boxes.nth(index)
            replies = box.locator('[data-testid="stChatMessage"]').filter(
                has=page.get_by_test_id("stChatMessageAvatarAssistant")
            )
            assert replies.count() == len(messages), f"pane {index + 1} shows {replies.count()} replies"
            assert "Ada" in replies.last.text_content(), "the buffer-like panes should recall the name"
        # Side by side: one row, left to right, no overlap, each wide enough to read.
        rects = [boxes.nth(i).bounding_box() for i in range(panes)]
        tops = {round(rect["y"]) for rect in rects}
        assert max(tops) - min(tops) < 5, f"panes are not on one row: {rects}"
        for left, right in itertools.pairwise(rects):
            assert left["x"] + left["width"] <= right["x"] + 1, f"panes overlap: {left} {right}"
        assert min(rect["width"] for rect in rects) >= 250, rects
        full_screenshot(page, artifacts / "e2e_compare_four_panes.png")
        open_focus(page, boxes.first, waits_for="Added by memory")
        page.screenshot(path=str(artifacts / "e2e_compare_focus_view.png"))
        assert not outside, f"the page reached outside the app: {outside}"  # works offline, leaks nothing
    finally:
        context.close()


def test_injected_html_and_markdown_stay_text(browser: Any, lab_server: LabServer, artifacts: Path) -> None:
    context, page = open_compare(browser, lab_server)
    dialogs: list[str] = []
    requests: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.on("request", lambda request: requests.append(request.url))
    leak = f"http://127.0.0.1:{lab_server.port}/leak.png"
    payload = (
        '<img src=x onerror="window.__pwned=1;alert(1)"> '
        "<script>window.__pwned=2;alert(2)</script> "
        f"![x]({leak}) [click]({leak}) My name is Mallory."
    )
    try:
        panes = pane_count(page)
        send(page, payload, expected_replies=panes)
        send(page, "Please repeat what I said: " + payload, expected_replies=panes * 2)
        focus = open_focus(page, page.locator(PANE_BOXES).first, waits_for="<img src=x")
        assert focus.get_by_text("<img src=x", exact=False).count() >= 2  # in the prompt, as text
        close_focus(page)
        # The payload is visible, as text, in the chat and in the prompt view...
        assert (
            page.get_by_text('<img src=x onerror="window.__pwned=1;alert(1)">', exact=False).count() >= panes
        )
        assert page.get_by_text(f"![x]({leak})", exact=False).count() >= panes
        # ... and the same text pasted on the Tokens page is shown token by token, still as text.
        page.get_by_test_id("stSidebar").get_by_role("link", name="Tokens").click()
        area = page.get_by_test_id("stTextArea").locator("textarea")
        area.wait_for()
        area.fill(payload)
        area.press("Control+Enter")
        page.get_by_test_id("stMetric").first.wait_for()
        time.sleep(1.5)  # the payload's chance to run, had it been rendered as HTML
        page.screenshot(path=str(artifacts / "e2e_tokens_payload.png"))
        assert not dialogs, f"a dialog opened: {dialogs}"
        assert page.evaluate("() => window.__pwned === undefined"), "an injected handler ran"
        assert not [url for url in requests if "leak.png" in url], "the markdown image was fetched"
        assert page.locator(f'img[src="{leak}"], a[href="{leak}"], img[src="x"]').count() == 0
    finally:
        context.close()


def test_two_browser_sessions_see_only_their_own_conversation(
    browser: Any, lab_server: LabServer, artifacts: Path
) -> None:
    (context_a, page_a), (context_b, page_b) = (open_compare(browser, lab_server) for _ in range(2))
    try:
        panes_a, panes_b = pane_count(page_a), pane_count(page_b)
        # Both messages are submitted before either reply is awaited: the two sessions run at once.
        for page, text in (
            (page_a, "My name is Alice and my code is A-4411."),
            (page_b, "My name is Bob and my code is B-7722."),
        ):
            box = page.get_by_test_id(CHAT_BOX)
            box.fill(text)
            box.press("Enter")
        page_a.wait_for_function(REPLIES_DONE, arg=[panes_a], timeout=REPLY_TIMEOUT_MS)
        page_b.wait_for_function(REPLIES_DONE, arg=[panes_b], timeout=REPLY_TIMEOUT_MS)
        send(page_a, "What is my name?", expected_replies=panes_a * 2)
        send(page_b, "What is my name?", expected_replies=panes_b * 2)
        text_a = page_a.locator(PANE_BOXES).first.text_content()
        text_b = page_b.locator(PANE_BOXES).first.text_content()
        assert "A-4411" in text_a and "Alice" in text_a
        assert "B-7722" in text_b and "Bob" in text_b
        body_a = page_a.locator("body").text_content()
        body_b = page_b.locator("body").text_content()
        assert "B-7722" not in body_a and "Bob" not in body_a, "session A shows session B's messages"
        assert "A-4411" not in body_b and "Alice" not in body_b, "session B shows session A's messages"
        full_screenshot(page_a, artifacts / "e2e_session_a.png")
        full_screenshot(page_b, artifacts / "e2e_session_b.png")
    finally:
        context_a.close()
        context_b.close()


def test_an_unreachable_provider_fails_in_each_pane_with_a_retry(
    browser: Any, lab_server: LabServer, artifacts: Path
) -> None:
    context = browser.new_context(viewport={"width": 1600, "height": 1000})
    page = context.new_page()
    try:
        page.goto(f"{lab_server.url}/settings")
        page.get_by_role("button", name="Apply").wait_for(timeout=60_000)
        page.get_by_text("OpenAI-compatible server").click()
        page.get_by_role("textbox", name="Base URL").wait_for()
        for role, name, value in (
            ("textbox", "Model name", "llama3.1:8b"),
            ("textbox", "Base URL", f"http://127.0.0.1:{_closed_port()}/v1"),
            ("spinbutton", "Timeout and reply deadline (seconds)", "5"),
        ):
            field = page.get_by_role(role, name=name)
            field.fill(value)
            field.press("Enter")
            expect(field).to_have_value(value)
            settle(page)  # the rerun Enter started, before the next field is typed into
        page.get_by_role("button", name="Apply").click()
        page.get_by_text("panes were rebuilt").wait_for()
        page.get_by_test_id("stSidebar").get_by_role("link", name="Compare").click()
        page.get_by_test_id(CHAT_BOX).wait_for()
        page.get_by_text("Cost across panes").wait_for(timeout=60_000)
        panes = pane_count(page)
        box = page.get_by_test_id(CHAT_BOX)
        box.fill("Hello, is anyone there?")
        box.press("Enter")
        retry = page.get_by_role("button", name="Retry")
        expect(retry).to_have_count(panes, timeout=REPLY_TIMEOUT_MS)
        settle(page)  # the summary above the panes can be painted after the last pane's Retry
        boxes = page.locator(PANE_BOXES)  # each pane says why, once
        for index in range(panes):
            assert boxes.nth(index).get_by_text("Cannot reach the provider", exact=False).count() == 1
        # ...and the summary of the last message's failures above the panes says it once more.
        assert page.get_by_text("Cannot reach the provider", exact=False).count() == panes + 1
        assert page.get_by_test_id("stException").count() == 0
        # The message that failed stays in view in every pane (not scrolled out of its chat box).
        assert page.evaluate(USER_MESSAGES_IN_VIEW) == [True] * panes
        assert page.get_by_text("0.000000").count() == 0  # the cost charts' axes label whole tokens
        full_screenshot(page, artifacts / "e2e_provider_unreachable.png")
    finally:
        context.close()


# For each user message in a pane's chat: is its top inside the box that scrolls it?
USER_MESSAGES_IN_VIEW = """() => Array.from(document.querySelectorAll('[data-testid="stChatMessageAvatarUser"]'))
  .map((avatar) => {
    const message = avatar.closest('[data-testid="stChatMessage"]');
    let box = message.parentElement;
    while (box && !(['auto', 'scroll'].includes(getComputedStyle(box).overflowY)
                    && box.scrollHeight > box.clientHeight)) box = box.parentElement;
    if (!box || box.matches('[data-testid="stMain"]')) return true;
    return message.getBoundingClientRect().top >= box.getBoundingClientRect().top - 1;
  })"""


def _closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_lazy_sections_folded_turns_and_parameters_open_on_click(
    browser: Any, lab_server: LabServer, artifacts: Path
) -> None:
    """What Compare builds only on demand still appears in the browser when it is opened."""
    from memory_demos.ui.pane import RECENT_TURNS

    context, page = open_compare(browser, lab_server)
    try:
        panes = pane_count(page)
        messages = ["Hi, my name is Ada and I live in Lisbon."] + [
            f"Small talk number {n}." for n in range(1, RECENT_TURNS + 2)
        ]
        for number, text in enumerate(messages, start=1):
            send(page, text, expected_replies=panes * min(number, RECENT_TURNS))
        first = page.locator(PANE_BOXES).first
        focus = open_focus(page, first, waits_for="Added by memory")
        for shows in ("No hidden memory calls this turn", "Stored messages", "What changed this turn"):
            focus.get_by_text(shows, exact=False).first.wait_for(timeout=30_000)
        close_focus(page)
        folded = first.get_by_test_id("stExpander").filter(
            has=page.locator("summary").get_by_text("Earlier turns", exact=True)
        )
        folded.locator("summary").click()
        folded.get_by_test_id("stChatMessage").get_by_text(messages[0], exact=True).wait_for(timeout=30_000)
        window_pane = page.locator(PANE_BOXES).nth(1)  # the buffer pane has no parameters
        window_pane.get_by_test_id("stPopoverButton").first.click()
        page.get_by_text(f"Replay the {len(messages)} messages so far", exact=False).wait_for(timeout=30_000)
        full_screenshot(page, artifacts / "e2e_compare_opened_sections.png")
        assert page.get_by_test_id("stException").count() == 0
    finally:
        context.close()
