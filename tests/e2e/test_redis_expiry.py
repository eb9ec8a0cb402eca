"""Forgetting by time, in the browser: an entity note on Redis leaves the prompt once its TTL has run out.

The app runs with ``MEMORY_LAB_REDIS_URL`` pointing at a throw-away ``redis-server``. An entity pane is
switched to ``store=redis`` with a short TTL through its own parameter editor; the note written on the
first turn is in the prompt of a question asked at once, and gone from the prompt of the same question
asked after the TTL, because Redis deleted the key (real expiry: the test only waits).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memory_demos.bench.server import lab_server
from tests.e2e.conftest import LabServer
from tests.e2e.widgets import (
    CHAT_BOX,
    PANE_BOXES,
    choose_option,
    close_focus,
    open_focus,
    open_params,
    send,
    settle,
)
from tests.services import redis_url  # noqa: F401 - a pytest fixture

pytestmark = [pytest.mark.e2e, pytest.mark.services]

ENTITY_LABEL = "Classic · Entity memory (notes per name)"
TTL_SECONDS = 10
FACT = "Hi, my name is Mara and I live in Lisbon."
QUESTION = "It's Mara again. Where do I live?"
NOTE = "Mara lives in Lisbon"


@contextlib.contextmanager
def app_with_redis(data_dir: Path, url: str) -> Iterator[LabServer]:
    with lab_server(data_dir, workshop=False, env_overrides={"MEMORY_LAB_REDIS_URL": url}) as (base, _pid):
        yield LabServer(url=base, port=int(base.rsplit(":", 1)[1]))


def entity_pane(page: Any) -> Any:
    return page.locator(PANE_BOXES).filter(has_text="Entity memory (notes per name)").last


def switch_to_redis(page: Any) -> None:
    """Add an entity pane and give it store=redis and a short TTL through its parameter editor."""
    choose_option(page, page.get_by_test_id("stSelectbox").filter(has_text="Strategy to add"), ENTITY_LABEL)
    page.get_by_role("button", name="Add pane").click()
    entity_pane(page).wait_for(timeout=60_000)
    editor = open_params(page, entity_pane(page))
    choose_option(page, editor.get_by_test_id("stSelectbox").filter(has_text="store"), "redis")
    for name in ("ttl_seconds", "recall_ttl_seconds"):
        editor.get_by_role("spinbutton", name=name, exact=True).fill(str(TTL_SECONDS))
    editor.get_by_role("button", name="Apply").click()
    entity_pane(page).get_by_text(f"ttl_seconds={TTL_SECONDS}").first.wait_for(timeout=60_000)
    entity_pane(page).get_by_text("store=redis").first.wait_for(timeout=60_000)


def latest_prompt(page: Any) -> str:
    """The prompt the entity pane sent on its latest turn, as its focus view shows it: only the "Prompt
    sent" section (the view also lists what was dropped and the hidden calls' own prompts)."""
    focus = open_focus(page, entity_pane(page), waits_for=QUESTION)
    text = focus.inner_text()
    close_focus(page)
    start = text.index("Prompt sent:")
    end = text.find("What changed this turn", start)
    return text[start : end if end != -1 else None]


def test_a_note_leaves_the_prompt_after_its_ttl(
    browser: Any,
    redis_url: str,  # noqa: F811 - the fixture imported above
    tmp_path: Path,
    artifacts: Path,
) -> None:
    with app_with_redis(tmp_path / "data", redis_url) as server:
        context = browser.new_context(viewport={"width": 1600, "height": 1100})
        page = context.new_page()
        page.goto(f"{server.url}/compare")
        page.get_by_test_id(CHAT_BOX).wait_for(timeout=60_000)
        switch_to_redis(page)
        panes = page.locator(PANE_BOXES).count()

        send(page, FACT, panes)
        told_at = time.monotonic()
        send(page, QUESTION, 2 * panes)
        assert time.monotonic() - told_at < TTL_SECONDS, "the machine was too slow to ask within the TTL"
        within_ttl = latest_prompt(page)
        assert NOTE in within_ttl  # the note came from Redis into the prompt
        state = open_focus(page, entity_pane(page), waits_for="Memory state")
        caption = state.get_by_text("TTL read from Redis when this turn ended").first
        caption.wait_for(timeout=30_000)
        caption.scroll_into_view_if_needed()
        settle(page)  # the table painted before the screenshot
        page.screenshot(path=str(artifacts / "e2e_redis_note_within_ttl.png"))
        close_focus(page)

        time.sleep(TTL_SECONDS + 1.5)  # nothing touches Redis meanwhile: the keys simply expire
        send(page, QUESTION, 3 * panes)
        after_ttl = latest_prompt(page)
        assert NOTE not in after_ttl and "Lisbon" not in after_ttl
        open_focus(page, entity_pane(page), waits_for=QUESTION)
        page.screenshot(path=str(artifacts / "e2e_redis_note_after_ttl.png"))
        context.close()
