"""Scale-out: a conversation begun on one app process continues on another, through PostgreSQL.

Two ``streamlit run`` processes with separate data folders share only the PostgreSQL server and the
link secret, like two processes behind a load balancer. The attendee's conversation link, opened on
the second process, brings back the server-backed pane with its memory.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memory_demos.bench.server import lab_server
from memory_demos.providers.offline_model import dont_know
from tests.e2e.conftest import LabServer
from tests.e2e.widgets import CHAT_BOX, PANE_BOXES, REPLIES_DONE, REPLY_TIMEOUT_MS, choose_option, send
from tests.services import postgres_url  # noqa: F401 - a pytest fixture

pytestmark = [pytest.mark.e2e, pytest.mark.services]

LINK_SECRET = "two-process-test-link-secret"


@contextlib.contextmanager
def app_process(data_dir: Path, sql_url: str) -> Iterator[LabServer]:
    """One app process: its own data folder, the shared PostgreSQL server and link secret."""
    overrides = {"MEMORY_LAB_SQL_URL": sql_url, "MEMORY_LAB_LINK_SECRET": LINK_SECRET}
    with lab_server(data_dir, workshop=False, env_overrides=overrides) as (url, _pid):
        yield LabServer(url=url, port=int(url.rsplit(":", 1)[1]))


def add_pane(page: Any, label: str) -> None:
    choose_option(page, page.get_by_test_id("stSelectbox").filter(has_text="Strategy to add"), label)
    page.get_by_role("button", name="Add pane").click()
    page.get_by_text(label.split(" · ", 1)[1]).first.wait_for(timeout=60_000)


def test_a_conversation_continues_on_another_app_process(
    browser: Any,
    postgres_url: str,  # noqa: F811 - the fixture imported above
    tmp_path: Path,
    artifacts: Path,
) -> None:
    with (
        app_process(tmp_path / "data_a", postgres_url) as first,
        app_process(tmp_path / "data_b", postgres_url) as second,
    ):
        context_a = browser.new_context(viewport={"width": 1600, "height": 1000})
        page_a = context_a.new_page()
        page_a.goto(f"{first.url}/compare")
        page_a.get_by_test_id(CHAT_BOX).wait_for(timeout=60_000)
        add_pane(page_a, "Modern · RunnableWithMessageHistory")
        panes = page_a.locator(PANE_BOXES).count()
        send(page_a, "Hi, my name is Mara and I live in Lisbon.", panes)

        link_section = page_a.get_by_test_id("stExpander").filter(has_text="Conversation link")
        link_section.locator("summary").click()
        code = link_section.get_by_test_id("stCode").first
        code.wait_for(timeout=30_000)
        match = re.search(r"\?resume=([A-Za-z0-9._~-]+)", code.text_content() or "")
        assert match, "the Compare page shows a conversation link"
        page_a.screenshot(path=str(artifacts / "e2e_two_servers_first.png"))
        context_a.close()

        context_b = browser.new_context(viewport={"width": 1600, "height": 1000})
        page_b = context_b.new_page()
        page_b.goto(f"{second.url}/?resume={match.group(1)}")
        page_b.get_by_test_id(CHAT_BOX).wait_for(timeout=60_000)
        page_b.get_by_text("RunnableWithMessageHistory").first.wait_for(timeout=60_000)
        history_pane = page_b.locator(PANE_BOXES).filter(has_text="RunnableWithMessageHistory")
        box = page_b.get_by_test_id(CHAT_BOX)
        box.fill("What's my name?")
        box.press("Enter")
        page_b.wait_for_function(REPLIES_DONE, arg=[1], timeout=REPLY_TIMEOUT_MS)
        history_pane.get_by_text("Your name is Mara").first.wait_for(timeout=REPLY_TIMEOUT_MS)
        # The in-memory panes of the new session started empty on this process: they cannot know.
        buffer_pane = page_b.locator(PANE_BOXES).filter(has_text="Buffer (everything)")
        buffer_pane.get_by_text(dont_know()).first.wait_for(timeout=REPLY_TIMEOUT_MS)
        page_b.screenshot(path=str(artifacts / "e2e_two_servers_second.png"))
        context_b.close()
