"""The workshop's flow in Chromium (issue 21): a refused message is warned about next to the chat box,
inside the viewport; the host code typed at the gate opens the Instructor view; that view redraws its
counts by itself (fragment reruns only, no rerun of the page). Screenshots at 1440x900 and 1920x1080,
English and Chinese, are saved as artifacts."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from streamlit.proto.BackMsg_pb2 import BackMsg

from memory_demos.i18n import CATALOGUE
from tests.e2e.conftest import LabServer
from tests.e2e.test_workshop_attacks import ACCESS_CODE, HOST_CODE, instructor_metrics, workshop_server
from tests.e2e.widgets import CHAT_BOX, REPLIES_DONE, REPLY_TIMEOUT_MS, settle

pytestmark = pytest.mark.e2e

SIZES = ((1440, 900), (1920, 1080))


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LabServer]:
    with workshop_server(tmp_path_factory.mktemp("flow")) as server:
        yield server


def at_gate(page: Any, code: str) -> None:
    page.get_by_test_id("stTextInput").locator("input").fill(code)
    page.get_by_test_id("stFormSubmitButton").click()


def in_viewport(box: dict[str, float], width: int, height: int) -> bool:
    return (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= width
        and box["y"] + box["height"] <= height
    )


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_refused_message_is_warned_about_right_above_the_chat_box(
    browser: Any, room: LabServer, artifacts: Path, language: str
) -> None:
    texts = CATALOGUE[language]
    wording = texts["compare.too_long"].format(length="2,200", limit="2,000")
    for width, height in SIZES:
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.goto(f"{room.url}/compare?lang={language}")
        at_gate(page, ACCESS_CODE)
        box = page.get_by_test_id(CHAT_BOX)
        box.wait_for(timeout=60_000)
        box.fill("x" * 2200)
        box.press("Enter")
        warning = page.get_by_test_id("stAlert").filter(has_text=wording)
        warning.wait_for(timeout=30_000)
        settle(page)
        page.screenshot(path=str(artifacts / f"e2e_workshop_refused_{language}_{width}.png"))
        shown, typed = warning.bounding_box(), box.bounding_box()
        assert shown and typed
        assert in_viewport(shown, width, height), shown  # seen without scrolling
        gap = typed["y"] - (shown["y"] + shown["height"])
        assert 0 <= gap <= 48, (shown, typed)  # just above the box the attendee typed in
        assert box.input_value() == "x" * 2200  # kept there to shorten
        context.close()


def test_the_host_code_at_the_gate_opens_the_instructor_view(
    browser: Any, room: LabServer, artifacts: Path
) -> None:
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    page.goto(f"{room.url}/compare")  # any address: the gate comes first
    at_gate(page, HOST_CODE)
    page.get_by_test_id("stMetric").first.wait_for(timeout=60_000)
    expect(page.get_by_role("heading", name="Instructor view")).to_be_visible()
    expect(page).to_have_url(re.compile("/instructor"))
    page.screenshot(path=str(artifacts / "e2e_workshop_host_at_gate.png"))
    context.close()

    attendee = browser.new_context()
    other = attendee.new_page()
    other.goto(room.url)
    at_gate(other, ACCESS_CODE)
    other.get_by_test_id("stPageLink-NavLink").first.wait_for(timeout=60_000)
    settle(other)  # the first link can be painted before the others
    links = [link.text_content() or "" for link in other.get_by_test_id("stPageLink-NavLink").all()]
    assert any("Compare" in link for link in links) and not any("Instructor" in link for link in links)
    attendee.close()


def test_the_instructor_view_redraws_its_counts_by_itself_without_rerunning_the_page(
    browser: Any, room: LabServer, artifacts: Path
) -> None:
    host = browser.new_context(viewport={"width": 1440, "height": 900})
    page = host.new_page()
    reruns: list[BackMsg] = []

    def watch(socket: Any) -> None:
        def sent(payload: Any) -> None:
            if isinstance(payload, bytes):
                message = BackMsg.FromString(payload)
                if message.WhichOneof("type") == "rerun_script":
                    reruns.append(message)

        socket.on("framesent", sent)

    page.on("websocket", watch)
    page.goto(room.url)
    at_gate(page, HOST_CODE)
    page.get_by_test_id("stMetric").first.wait_for(timeout=60_000)
    before = instructor_metrics(page)
    reruns.clear()

    attendee = browser.new_context()
    talker = attendee.new_page()
    talker.goto(f"{room.url}/compare")
    at_gate(talker, ACCESS_CODE)
    box = talker.get_by_test_id(CHAT_BOX)
    box.wait_for(timeout=60_000)
    box.fill("Hello, I am Ada.")
    box.press("Enter")
    talker.wait_for_function(REPLIES_DONE, arg=[4], timeout=REPLY_TIMEOUT_MS)

    after = instructor_metrics(page)  # no click: it waits for the view to redraw itself
    assert after["Model calls (last hour)"] > before["Model calls (last hour)"], (before, after)
    assert after["Attendees"] == before["Attendees"] + 1, (before, after)
    assert reruns and all(m.rerun_script.is_auto_rerun and m.rerun_script.fragment_id for m in reruns), [
        (m.rerun_script.is_auto_rerun, m.rerun_script.fragment_id) for m in reruns
    ]  # every redraw was the fragment's own; the page never ran again
    attendee.close()

    for language in ("en", "zh"):
        for width, height in SIZES:
            context = browser.new_context(viewport={"width": width, "height": height})
            view = context.new_page()
            view.goto(f"{room.url}/?lang={language}")
            at_gate(view, HOST_CODE)
            view.get_by_test_id("stMetric").first.wait_for(timeout=60_000)
            settle(view)
            for metric in view.get_by_test_id("stMetric").all()[:6]:  # the room's counts: first screen
                shown = metric.bounding_box()
                assert shown and in_viewport(shown, width, height), shown
                label = metric.get_by_test_id("stMetricLabel")
                assert label.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), label.text_content()
            view.screenshot(path=str(artifacts / f"e2e_instructor_{language}_{width}.png"))
            context.close()
    host.close()
