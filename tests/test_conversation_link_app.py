"""Conversation links in the app (AppTest): the owner's link brings persisted panes back after a restart;
an altered, guessed or unknown link is refused with a clear message and touches nothing."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from streamlit.testing.v1 import AppTest

from memory_demos.conversation_link import link_secret, make_token, new_owner_id
from memory_demos.defaults import new_conversation_id
from memory_demos.i18n import CATALOGUE
from memory_demos.session import KEY_PREFIX, widget_key
from tests.helpers import open_params
from tests.test_app_pages import pane_column
from tests.test_workshop_app import click, new_app, panes, run, send

EN = CATALOGUE["en"]


def add_persisted_history_pane(at: AppTest) -> str:
    """Add a history pane and switch it to the SQLite backend through its parameter form."""
    at.selectbox(key=widget_key("add_strategy")).set_value("history").run()
    click(at, EN["compare.add_pane"])
    pane_id = panes(at)[-1].pane_id
    open_params(at, pane_id)
    at.selectbox(key=widget_key("pane", pane_id, "param", "backend")).set_value("sqlite")
    form = widget_key("pane", pane_id, "params_form")
    submit = next(b for b in at.button if b.proto.form_id.endswith(form))
    submit.click().run()
    assert not at.exception, at.exception
    assert panes(at)[-1].persisted and panes(at)[-1].params["backend"] == "sqlite"
    return pane_id


def link_token(at: AppTest) -> str:
    link = next(code.value for code in at.code if "?resume=" in code.value)
    query = parse_qs(urlsplit(link).query)
    assert query["lang"] == [at.session_state[KEY_PREFIX + "language"]]  # the link opens in this language
    return query["resume"][0]


def opened_with(token: str) -> AppTest:
    at = new_app()
    at.query_params["resume"] = token
    return run(at)


@pytest.fixture
def owner_session() -> AppTest:
    at = run(new_app())
    at.switch_page("pages/compare.py")
    run(at)
    assert any(EN["link.none"] in c.value for c in at.caption)  # no persisted pane yet: no link
    add_persisted_history_pane(at)
    send(at, "Hi, my name is Ada.")
    send(at, "I live in Lisbon.")
    assert any(EN["link.share_warning"] in w.value for w in at.warning)
    return at


def test_the_owner_link_brings_persisted_panes_back_after_a_restart(owner_session: AppTest) -> None:
    before = panes(owner_session)
    layout = [(pane.strategy_id, pane.strategy.params) for pane in before]
    token = link_token(owner_session)
    for pane in before:  # the server process dies: every in-process memory is gone
        pane.release()

    at = opened_with(token)
    assert at.subheader[0].value == EN["compare.title"]
    assert any("1 of 5 panes" in s.value for s in at.success), [s.value for s in at.success]
    restored = panes(at)
    assert [(pane.strategy_id, pane.strategy.params) for pane in restored] == layout
    assert at.session_state[KEY_PREFIX + "user_id"] == owner_session.session_state[KEY_PREFIX + "user_id"]
    history = restored[-1]
    assert history.conversation_id == before[-1].conversation_id
    stored = [message["content"] for message in history.strategy.snapshot()["messages"]]
    assert "Hi, my name is Ada." in stored and "I live in Lisbon." in stored
    send(at, "What is my name?")
    assert "Ada" in history.turns[-1].reply
    assert "Ada" not in restored[0].turns[-1].reply  # an in-memory pane came back empty, as it said


def test_an_altered_link_is_refused_and_touches_nothing(owner_session: AppTest) -> None:
    token = link_token(owner_session)
    conversation, owner, mac = token.split(".")
    altered = [
        f"{conversation[:-1]}{'0' if conversation[-1] != '0' else '1'}.{owner}.{mac}",  # another conversation
        f"{conversation}.{new_owner_id()}.{mac}",  # someone else claiming to own it
        f"{conversation}.{owner}.{mac[:-2]}xx",
    ]
    for bad in altered:
        at = opened_with(bad)
        assert any(EN["link.forged"] in w.value for w in at.warning), bad
        assert at.session_state[KEY_PREFIX + "user_id"] != owner
        at.switch_page("pages/compare.py")
        run(at)
        assert all(not pane.turns and not pane.persisted for pane in panes(at))


def test_a_guessed_malformed_or_unknown_link_is_refused(private_data_dir: Path) -> None:
    at = opened_with("0" * 32)
    assert any(EN["link.malformed"] in w.value for w in at.warning)
    at = opened_with(f"{new_conversation_id()}.{new_owner_id()}.{'A' * 43}")
    assert any(EN["link.forged"] in w.value for w in at.warning)
    # Signed by this server, but no conversation was ever saved under it.
    secret = link_secret(None, private_data_dir)
    at = opened_with(make_token(new_conversation_id(), new_owner_id(), secret))
    assert any(EN["link.not_found"] in w.value for w in at.warning)
    assert not at.exception


def test_the_notice_counts_the_panes_that_really_came_back(owner_session: AppTest) -> None:
    from memory_demos.lab_config import load_lab_config
    from memory_demos.strategies.history import HISTORY_FILE

    token = link_token(owner_session)
    for pane in panes(owner_session):
        pane.release()
    # The persisted pane's file is damaged while nobody uses it.
    damaged = load_lab_config().data_folder() / HISTORY_FILE
    for extra in ("-wal", "-shm"):
        damaged.with_name(damaged.name + extra).unlink(missing_ok=True)
    damaged.write_bytes(b"not a database " * 200)

    at = opened_with(token)
    assert any("0 of 5 panes" in s.value for s in at.success), [s.value for s in at.success]
    assert panes(at)[-1].persisted and panes(at)[-1].build_error  # promised by the link, not back


def test_a_restored_pane_shows_its_earlier_exchanges_and_the_others_say_what_they_missed(
    owner_session: AppTest,
) -> None:
    token = link_token(owner_session)
    for pane in panes(owner_session):
        pane.release()

    at = opened_with(token)
    history_index = len(panes(at)) - 1
    column = pane_column(at, history_index)
    assert any(EN["pane.restored"].split(":")[0] in c.value for c in column.caption)
    assert not any(EN["pane.empty"] in c.value for c in column.caption)
    shown = [m.children[0].value for m in column.chat_message if m.name == "user"]
    assert shown == ["Hi, my name is Ada.", "I live in Lisbon."]
    # The in-memory panes came back empty: each says it has not seen those two messages.
    first = pane_column(at, 0)
    assert any("has not seen the 2 earlier messages" in c.value for c in first.caption)
    assert not any("has not seen" in c.value for c in column.caption)

    send(at, "What is my name?")
    column = pane_column(at, history_index)
    shown = [m.children[0].value for m in column.chat_message if m.name == "user"]
    assert shown == ["Hi, my name is Ada.", "I live in Lisbon.", "What is my name?"]
    assert len(panes(at)[history_index].turns) == 1  # restored exchanges are shown, not recorded turns
