"""A new conversation for the same user, in Chromium (issue 22): after "New conversation" a long_term pane
answers "What's my name?" from its store while an agent pane refuses, and each focus view says why; two
workshop attendees never see each other's long-term memory, while one attendee's follows them to a new tab."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memory_demos.bench.server import lab_server
from memory_demos.i18n import t
from tests.e2e.conftest import LabServer
from tests.e2e.test_workshop_attacks import ACCESS_CODE, HOST_CODE
from tests.e2e.widgets import (
    CHAT_BOX,
    PANE_BOXES,
    close_focus,
    only_these_panes,
    open_compare,
    open_focus,
    send,
    set_pane_count,
    settle,
)
from tests.services import postgres_url  # noqa: F401 - a pytest fixture

pytestmark = pytest.mark.e2e

WIDTH, HEIGHT = 1440, 900
NAME_MESSAGE = {"en": "Hi, my name is Mara and I live in Lisbon.", "zh": "你好，我叫小明，我住在杭州。"}
NAME_QUESTION = {"en": "What's my name?", "zh": "我叫什么名字？"}
NAME = {"en": "Mara", "zh": "小明"}
REFUSAL = {"en": "can't answer", "zh": "回答不了"}


def long_term_and_agent(page: Any, language: str) -> tuple[Any, Any]:
    """Two panes: long_term and agent (the default panes removed down to them)."""
    set_pane_count(page, 2)
    long_term, agent = only_these_panes(page, ("long_term", "agent"), language)
    return long_term, agent


def last_reply(pane: Any) -> str:
    replies = pane.get_by_test_id("stChatMessage").filter(
        has=pane.page.get_by_test_id("stChatMessageAvatarAssistant")
    )
    return replies.last.inner_text()


@pytest.mark.parametrize("language", ["en", "zh"])
def test_after_a_new_conversation_the_store_answers_and_the_thread_refuses(
    browser: Any, lab_server: LabServer, artifacts: Path, language: str
) -> None:
    context, page = open_compare(browser, lab_server.url, language, WIDTH, HEIGHT)
    try:
        long_term, agent = long_term_and_agent(page, language)
        send(page, NAME_MESSAGE[language], 2)
        page.get_by_role("button", name=t("compare.new_conversation", language)).click()
        page.get_by_text(t("compare.new_conversation_done", language, n="2")).wait_for(timeout=30_000)
        for pane in (long_term, agent):
            pane.get_by_text(t("pane.conversation", language, n=2)).first.wait_for(timeout=30_000)
        send(page, NAME_QUESTION[language], 2)
        assert NAME[language] in last_reply(long_term), last_reply(long_term)
        agent_reply = last_reply(agent)
        assert NAME[language] not in agent_reply and REFUSAL[language] in agent_reply, agent_reply
        carried = t("pane.carried_over", language, parts=t("memory.part.facts", language))
        empty = t("pane.started_empty", language, parts=t("memory.part.messages", language))
        assert long_term.get_by_text(carried).count() == 1
        assert agent.get_by_text(empty).count() == 1
        page.screenshot(path=str(artifacts / f"e2e_sessions_compare_{language}.png"))

        # The focus view says why: the fact is in the user's store, the agent's thread is new.
        dialog = open_focus(page, long_term, waits_for=t("focus.conversation", language, n=2))
        dialog.get_by_text(t("state.value.carried_over", language)).first.wait_for(timeout=30_000)
        settle(page)
        assert dialog.get_by_text(t("memory.scope.user", language)).count() >= 1
        assert dialog.get_by_text(NAME[language]).count() >= 1  # the stored fact, in the state's items
        dialog.get_by_text(t("focus.conversation", language, n=2)).first.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"e2e_sessions_focus_long_term_{language}.png"))
        close_focus(page)
        dialog = open_focus(page, agent, waits_for=t("focus.conversation", language, n=2))
        dialog.get_by_text(t("state.value.starts_empty", language)).first.wait_for(timeout=30_000)
        settle(page)
        assert dialog.get_by_text(t("memory.scope.user", language)).count() == 0  # nothing kept per user
        dialog.get_by_text(t("focus.conversation", language, n=2)).first.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"e2e_sessions_focus_agent_{language}.png"))
        close_focus(page)

        # The first conversation reopens from the agent pane's list, as it was left.
        agent.locator('[class*="_conversations"] button').first.click()
        page.get_by_role("button", name=t("pane.conversation_row", language, n=1, messages=1)).click()
        agent.get_by_text(t("pane.conversation", language, n=1)).first.wait_for(timeout=30_000)
        agent.get_by_text(NAME_MESSAGE[language]).first.wait_for(timeout=30_000)
        page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollTo(0, 0)")
        page.screenshot(path=str(artifacts / f"e2e_sessions_reopened_{language}.png"))
    finally:
        context.close()


# -- two attendees of a workshop, long-term memory on one PostgreSQL server -------------------------
@contextlib.contextmanager
def room_on_postgres(data_dir: Path, sql_url: str) -> Iterator[LabServer]:
    overrides = {
        "MEMORY_LAB_ACCESS_CODE": ACCESS_CODE,
        "MEMORY_LAB_HOST_CODE": HOST_CODE,
        "MEMORY_LAB_SQL_URL": sql_url,
    }
    with lab_server(data_dir, workshop=True, env_overrides=overrides) as (url, _pid):
        yield LabServer(url=url, port=int(url.rsplit(":", 1)[1]))


def admitted(context: Any, server: LabServer) -> Any:
    page = context.new_page()
    page.goto(f"{server.url}/compare")
    code = page.get_by_label("Access code")
    code.wait_for(timeout=60_000)
    code.fill(ACCESS_CODE)
    page.get_by_role("button", name="Enter").click()
    page.get_by_test_id(CHAT_BOX).wait_for(timeout=60_000)
    page.locator(PANE_BOXES).first.wait_for(timeout=60_000)
    return page


def long_term_only(page: Any) -> Any:
    from memory_demos.strategies.registry import get_info

    title = get_info("long_term").title
    pane, _agent = long_term_and_agent(page, "en")
    pane.get_by_text("store=postgres").first.wait_for(timeout=30_000)  # a room's panes use its server
    assert title
    return pane


@pytest.mark.services
def test_two_attendees_never_see_each_others_long_term_memory(
    browser: Any,
    postgres_url: str,  # noqa: F811 - the fixture imported above
    tmp_path: Path,
    artifacts: Path,
) -> None:
    with room_on_postgres(tmp_path / "room", postgres_url) as room:
        ada_browser = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
        bea_browser = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
        try:
            ada, bea = admitted(ada_browser, room), admitted(bea_browser, room)
            ada_pane, bea_pane = long_term_only(ada), long_term_only(bea)
            send(ada, "Hi, my name is Ada and I live in Oslo.", 2)
            send(bea, "Hi, my name is Bea and I live in Quito.", 2)
            for page in (ada, bea):
                page.get_by_role("button", name="New conversation").click()
                page.get_by_text(t("compare.new_conversation_done", "en", n="2")).wait_for(timeout=30_000)
            send(ada, "What's my name?", 2)
            send(bea, "What's my name?", 2)
            assert "Ada" in last_reply(ada_pane) and "Bea" not in last_reply(ada_pane)
            assert "Bea" in last_reply(bea_pane) and "Ada" not in last_reply(bea_pane)
            ada.screenshot(path=str(artifacts / "e2e_sessions_attendee_ada.png"))
            bea.screenshot(path=str(artifacts / "e2e_sessions_attendee_bea.png"))

            # A new tab of Ada's browser is Ada (her signed cookie): a new session, her facts in the store.
            tab = ada_browser.new_page()
            tab.goto(f"{room.url}/compare")
            tab.get_by_test_id(CHAT_BOX).wait_for(timeout=60_000)
            tab_pane = long_term_only(tab)
            send(tab, "Where do I live?", 2)
            assert "Oslo" in last_reply(tab_pane) and "Quito" not in last_reply(tab_pane)
            tab.screenshot(path=str(artifacts / "e2e_sessions_attendee_ada_new_tab.png"))
        finally:
            ada_browser.close()
            bea_browser.close()
