"""Attacks on a hosted room, reproduced against a real server in workshop mode (Chromium and a raw
websocket client), each refused with nothing spent and nothing lost.

- Server-side request forgery: an attendee-typed base URL pointing at a loopback listener the test
  started, listed by the host or not, never reaches it.
- One budget everywhere: the budget survives a reload and a new tab, Run both spends it, a Scorecard
  run that would not fit is refused before it starts.
- ``clear_cache`` from any websocket client leaves the instructor's counts and the session registry.
- 40 wrong access codes sent in parallel are slowed for the whole server and lock the address out.
"""

from __future__ import annotations

import contextlib
import re
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from memory_demos.bench.server import lab_server
from tests.e2e.conftest import LabServer
from tests.e2e.widgets import CHAT_BOX, REPLIES_DONE, REPLY_TIMEOUT_MS, settle
from tests.streamlit_ws import RawClient, text_value, trigger
from tests.test_workshop_hardening import Listener

pytestmark = pytest.mark.e2e

ACCESS_CODE = "tea-42"
HOST_CODE = "host-77"
TOKEN_LIMIT = 5000
USAGE = re.compile(r"([\d,]+) of ([\d,]+) tokens used")


@contextlib.contextmanager
def workshop_server(data_dir: Path, **env: str) -> Iterator[LabServer]:
    overrides = {"MEMORY_LAB_ACCESS_CODE": ACCESS_CODE, "MEMORY_LAB_HOST_CODE": HOST_CODE, **env}
    with lab_server(data_dir, workshop=True, env_overrides=overrides) as (url, _pid):
        yield LabServer(url=url, port=int(url.rsplit(":", 1)[1]))


@pytest.fixture(scope="module")
def inside() -> Iterator[Listener]:
    """A service of the host on loopback: it must never hear from an attendee's typed address."""
    listener = Listener()
    yield listener
    listener.close()


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory, inside: Listener) -> Iterator[LabServer]:
    allowed = f"http://127.0.0.1:{inside.port}"  # even listed by the host, a loopback address is refused
    with workshop_server(
        tmp_path_factory.mktemp("room"),
        MEMORY_LAB_MAX_TOKENS_PER_SESSION=str(TOKEN_LIMIT),
        MEMORY_LAB_ALLOWED_BASE_URLS=allowed,
    ) as server:
        yield server


def admitted_page(context: Any, server: LabServer, path: str = "compare") -> Any:
    page = context.new_page()
    page.goto(f"{server.url}/{path}")
    page.get_by_label("Access code").fill(ACCESS_CODE)
    page.get_by_role("button", name="Enter").click()
    page.get_by_test_id(CHAT_BOX).wait_for(timeout=60_000)
    return page


def tokens_used(page: Any) -> int:
    """The Compare page's own usage line: what the attendee's budget has spent."""
    caption = page.get_by_text(USAGE).first
    caption.wait_for(timeout=60_000)
    match = USAGE.search(caption.text_content() or "")
    assert match, caption.text_content()
    assert int(match.group(2).replace(",", "")) == TOKEN_LIMIT
    return int(match.group(1).replace(",", ""))


def open_compare(page: Any, server: LabServer) -> None:
    page.goto(f"{server.url}/compare")
    page.get_by_test_id(CHAT_BOX).wait_for(timeout=60_000)
    settle(page)  # callers read the usage line next


def test_the_budget_follows_the_attendee_to_every_page_tab_and_reload(
    browser: Any, room: LabServer, artifacts: Path
) -> None:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = admitted_page(context, room)
    assert tokens_used(page) == 0
    box = page.get_by_test_id(CHAT_BOX)
    box.fill("Hi, my name is Ada and I live in Lisbon.")
    box.press("Enter")
    page.wait_for_function(REPLIES_DONE, arg=[4], timeout=REPLY_TIMEOUT_MS)
    # The usage line counts the reply that just streamed, in the same script run (no reload, no rerun).
    page.wait_for_function(f"() => !/\\b0 of {TOKEN_LIMIT:,} tokens used/.test(document.body.innerText)")
    settle(page)  # a later run of the page could still add to the line: read its last figure
    spent = tokens_used(page)
    usage_line = page.get_by_text(USAGE).first.text_content() or ""
    assert spent > 0 and re.search(r"\b1 of [\d,]+ messages", usage_line), usage_line
    page.reload()  # a reload: no access code asked again, and the same budget
    page.get_by_test_id(CHAT_BOX).wait_for(timeout=60_000)
    settle(page)
    assert tokens_used(page) == spent
    second_tab = context.new_page()
    open_compare(second_tab, room)  # a new tab of the same browser: the same attendee
    assert tokens_used(second_tab) == spent

    second_tab.goto(f"{room.url}/migration")
    second_tab.get_by_role("button", name="Run both").click()
    second_tab.get_by_text("Turn 1").first.wait_for(timeout=REPLY_TIMEOUT_MS)
    settle(second_tab)  # every turn of Run both spent before the budget is read (turn 1 shows first)
    open_compare(second_tab, room)
    after_guide = tokens_used(second_tab)
    assert after_guide > spent  # Run both went through the same budget

    second_tab.goto(f"{room.url}/scorecard")
    second_tab.get_by_role("button", name="Run scorecard").click()
    refusal = second_tab.get_by_text("are left of your workshop budget")
    refusal.wait_for(timeout=60_000)  # six strategies on a 16-turn scenario: sized and refused
    settle(second_tab)
    second_tab.screenshot(path=str(artifacts / "e2e_workshop_scorecard_refused.png"))
    open_compare(second_tab, room)
    assert tokens_used(second_tab) == after_guide  # refused before it started: nothing spent

    stranger = browser.new_context()
    other = admitted_page(stranger, room)  # another browser is another attendee: asked, own budget
    assert tokens_used(other) == 0
    stranger.close()
    context.close()


def test_an_attendee_typed_address_never_reaches_the_hosts_network(
    browser: Any, room: LabServer, inside: Listener, artifacts: Path
) -> None:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = admitted_page(context, room)
    page.goto(f"{room.url}/settings")
    page.get_by_text("OpenAI-compatible server").click()
    page.get_by_role("textbox", name="Model name").fill("llama3.1:8b")
    urls = (
        f"http://127.0.0.1:{inside.port}/v1",  # listed by the host, but loopback once resolved
        f"http://localhost:{inside.port}/v1",  # a name that resolves inside
        f"http://127.0.0.1:{inside.port}/api/pull?",  # the path-and-query trick
        "http://169.254.169.254/latest/meta-data",  # cloud metadata
    )
    for url in urls:
        page.get_by_role("textbox", name="Base URL").fill(url)
        page.get_by_role("button", name="Apply").click()
        settle(page)  # from the second address on, the refusal shown may still be the last one's
        page.get_by_text("This model address cannot be used here").first.wait_for(timeout=30_000)
        assert page.get_by_text("Offline teaching model").first.is_visible()  # the model did not change
    page.screenshot(path=str(artifacts / "e2e_workshop_url_refused.png"))
    timeout = page.get_by_role("spinbutton", name="Timeout and reply deadline (seconds)")
    timeout.fill("600")
    timeout.press("Enter")
    page.get_by_role("button", name="Apply").click()
    # The server waits at most a minute for an attendee: a longer timeout is refused, not cut silently.
    refused = page.get_by_text("600 cannot be used; enter a whole number from 1 to 60").first
    refused.wait_for(timeout=30_000)
    refused.scroll_into_view_if_needed()
    settle(page)
    page.screenshot(path=str(artifacts / "e2e_workshop_settings_refused.png"))
    assert page.get_by_text("Offline teaching model").first.is_visible()
    open_compare(page, room)
    box = page.get_by_test_id(CHAT_BOX)
    box.fill("Are you still the offline model?")
    box.press("Enter")
    page.wait_for_function(REPLIES_DONE, arg=[4], timeout=REPLY_TIMEOUT_MS)
    assert inside.connections == 0
    context.close()


UPDATED = re.compile(r"last update (\d\d:\d\d:\d\d)")


def last_update(page: Any) -> str:
    caption = page.get_by_text(UPDATED).first
    caption.wait_for(timeout=30_000)
    match = UPDATED.search(caption.text_content() or "")
    assert match, caption.text_content()
    return match.group(1)


def instructor_metrics(page: Any) -> dict[str, int]:
    """The view's counts once it has redrawn itself (every 5 s, with no click) after this call."""
    seen = last_update(page)
    deadline = time.monotonic() + 30
    while last_update(page) == seen:
        assert time.monotonic() < deadline, "the Instructor view did not redraw itself within 30 s"
        time.sleep(0.5)
    settle(page)  # the caption is drawn first: let the rest of the redraw land
    page.get_by_test_id("stMetric").first.wait_for(timeout=30_000)
    values = {}
    for metric in page.get_by_test_id("stMetric").all():
        label = metric.get_by_test_id("stMetricLabel").text_content() or ""
        value = metric.get_by_test_id("stMetricValue").text_content() or "0"
        values[label.strip()] = int(value.replace(",", ""))
    return values


def open_instructor(browser: Any, server: LabServer) -> tuple[Any, Any]:
    context = browser.new_context(viewport={"width": 1400, "height": 1200})
    page = admitted_page(context, server)
    page.goto(f"{server.url}/instructor")
    page.get_by_label("Host code").fill(HOST_CODE)
    page.get_by_role("button", name="Open").click()
    page.get_by_test_id("stMetric").first.wait_for(timeout=30_000)
    return context, page


def test_clear_cache_from_any_client_leaves_the_room_state(browser: Any, room: LabServer) -> None:
    context, page = open_instructor(browser, room)
    attendee = browser.new_context()
    talker = admitted_page(attendee, room)
    box = talker.get_by_test_id(CHAT_BOX)
    box.fill("Remember me, I am Ada.")
    box.press("Enter")
    talker.wait_for_function(REPLIES_DONE, arg=[4], timeout=REPLY_TIMEOUT_MS)
    before = instructor_metrics(page)
    assert before["Model calls (last hour)"] > 0 and before["Sessions known"] >= 2

    with RawClient(room.url) as raw:  # not admitted: it has only the access gate
        raw.run()
        raw.clear_cache()
        raw.run()
    after = instructor_metrics(page)
    for name in ("Sessions known", "Model calls (last hour)", "Tokens (last hour)", "Attendees"):
        assert after[name] >= before[name], (name, before, after)
    attendee.close()
    context.close()


def test_forty_parallel_wrong_codes_are_slowed_for_the_server_and_locked_out(
    browser: Any, tmp_path: Path, artifacts: Path
) -> None:
    with workshop_server(
        tmp_path / "guessing",
        MEMORY_LAB_MAX_CODE_FAILURES="10",
        MEMORY_LAB_MAX_CODE_CHECKS_PER_SECOND="5",
    ) as server:
        context, page = open_instructor(browser, server)  # the host opened the view before the attack
        clients = [RawClient(server.url) for _ in range(40)]
        gates = [client.run() for client in clients]
        barrier = threading.Barrier(40)

        def guess(number: int) -> list[str]:
            client, gate = clients[number], gates[number]
            states = [
                text_value(gate.widget_id("text_input", "Access code"), f"wrong-{number}"),
                trigger(gate.widget_id("button", "Enter")),
            ]
            barrier.wait()
            return client.run(states).texts()

        started = time.monotonic()
        with ThreadPoolExecutor(max_workers=40) as pool:
            answers = list(pool.map(guess, range(40)))
        seconds = time.monotonic() - started
        wrong = sum(any("not right" in text for text in texts) for texts in answers)
        held = sum(any("Wait a few seconds" in t or "locked" in t for t in texts) for texts in answers)
        assert wrong <= 10 and wrong + held == 40, (wrong, held)  # at most 10 codes were ever compared

        # At 5 checks a second, a burst the server answers within two seconds compares fewer than 10
        # codes (how many depends on how fast it is). Go on guessing, one code a second, as a patient
        # attacker would, until the 10th wrong code locks the address.
        compared = wrong
        with RawClient(server.url) as patient:
            page_run = patient.run()
            while compared < 10:
                time.sleep(1.1)
                page_run = patient.run(
                    [
                        text_value(page_run.widget_id("text_input", "Access code"), f"wrong-late-{compared}"),
                        trigger(page_run.widget_id("button", "Enter")),
                    ]
                )
                texts = page_run.texts()
                assert any("not right" in t or "Wait a few seconds" in t for t in texts), texts
                compared += any("not right" in t for t in texts)

        # Locked out: even the right code is not compared now, from a fresh connection.
        with RawClient(server.url) as late:
            gate = late.run()
            texts = late.run(
                [
                    text_value(gate.widget_id("text_input", "Access code"), ACCESS_CODE),
                    trigger(gate.widget_id("button", "Enter")),
                ]
            ).texts()
        assert any("locked" in text for text in texts), texts
        metrics = instructor_metrics(page)
        page.screenshot(path=str(artifacts / "e2e_workshop_lockout.png"), full_page=True)
        assert metrics["Addresses locked out now"] == 1 and metrics["Wrong codes (last hour)"] <= 10
        assert metrics["Told to wait (last hour)"] + metrics["Refused while locked (last hour)"] >= 30
        for client in clients:
            client.close()
        context.close()
        print(f"40 parallel wrong codes answered in {seconds:.1f} s; {wrong} compared")
