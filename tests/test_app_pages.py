"""AppTest tests of every page: they load with no key, and Compare sends, streams, refuses and retries."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import SecretStr
from streamlit.testing.v1 import AppTest

from memory_demos.i18n import CATALOGUE
from memory_demos.providers.chat_models import ProviderConfig
from memory_demos.session import KEY_PREFIX, widget_key
from memory_demos.ui.nav import PAGES
from memory_demos.ui.pane import RECENT_TURNS
from memory_demos.ui.state_view import literal_markdown
from tests.helpers import open_inspector

APP = str(Path(__file__).resolve().parents[1] / "app.py")
TIMEOUT = 30
EN = CATALOGUE["en"]
ZH = CATALOGUE["zh"]


def open_app(page: str | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    assert not at.exception, at.exception
    if page is not None:
        at.switch_page(page)
        at.run()
        assert not at.exception, at.exception
    return at


def send(at: AppTest, text: str) -> None:
    at.chat_input[0].set_value(text).run()
    assert not at.exception, at.exception


def panes(at: AppTest) -> list:
    return at.session_state[KEY_PREFIX + "panes"]


def rendered_markdown(at: AppTest) -> list[str]:
    """Every element rendered as markdown (titles, captions, alerts included)."""
    values = [m.value for m in at.markdown] + [c.value for c in at.caption]
    values += [e.value for e in (*at.info, *at.warning, *at.error, *at.success)]
    values += [h.value for h in (*at.title, *at.header, *at.subheader)]
    return values


def pane_column(at: AppTest, index: int):
    """The column block of the index-th pane: the one whose header reads "**{index + 1}. …**" (the grid of
    newest replies above two rows of panes has columns too)."""
    heading = f"**{index + 1}. "
    return next(c for c in at.columns if any(m.value.startswith(heading) for m in c.markdown))


def expander(block, label: str):
    return next(e for e in block.expander if e.label == label)


def pane_badges(at: AppTest, index: int) -> list[tuple[str, str]]:
    """The index-th pane's header badges (kind, deprecation) as (text, tooltip)."""
    return [(m.value, m.proto.help) for m in pane_column(at, index).markdown if "-badge[" in m.value]


def focus_view(at: AppTest):
    """The open focus view (the dialog with one pane's inspector)."""
    dialogs = at.get("dialog")
    assert dialogs, "no focus view is open"
    return dialogs[0]


@pytest.mark.parametrize("spec", PAGES, ids=[spec.path for spec in PAGES])
def test_every_page_loads_without_a_key(spec, monkeypatch: pytest.MonkeyPatch) -> None:
    if spec.workshop_only:  # listed only in workshop mode
        monkeypatch.setenv("MEMORY_LAB_WORKSHOP", "1")
    at = open_app(spec.path)
    assert not at.exception
    assert at.title or at.header or at.subheader, f"{spec.path} rendered no heading"
    assert at.session_state[KEY_PREFIX + "provider"].kind == "offline"


def test_home_links_every_other_page_and_names_the_provider() -> None:
    at = open_app()
    assert at.title[0].value == EN["home.title"]
    assert any("Offline teaching model" in text.value for text in at.text)
    # st.page_link is not modelled by AppTest's query helpers; count the link elements instead.
    links = at.get("page_link")
    listed = [spec for spec in PAGES if not spec.default and not spec.workshop_only]
    assert len(links) >= len(listed) + 1  # + the sidebar's


def test_one_message_gets_a_reply_in_every_pane() -> None:
    at = open_app("pages/compare.py")
    count = len(panes(at))
    assert count >= 2
    send(at, "Hi, my name is Ada and I live in Lisbon.")
    users = [m for m in at.chat_message if m.name == "user"]
    replies = [m for m in at.chat_message if m.name == "assistant"]
    assert len(users) == count
    assert len(replies) == count
    for reply in replies:
        assert reply.text and reply.text[0].value.strip(), "a pane showed an empty reply"
        assert not reply.error, reply.error[0].value
    assert all(len(pane.turns) == 1 for pane in panes(at))


def test_buffer_prompt_sent_holds_the_earlier_turn_after_a_second_message() -> None:
    at = open_app("pages/compare.py")
    assert panes(at)[0].strategy_id == "buffer"
    send(at, "My name is Ada.")
    assert not at.get("dialog")  # the focus view opens on demand
    assert not any(c.value == "My name is Ada." for c in pane_column(at, 0).code)
    open_inspector(at, 0, "prompt")
    first = focus_view(at)
    assert [c.value for c in first.code].count("My name is Ada.") == 1  # only as the new message
    send(at, "What is my name?")
    second = focus_view(at)  # it stays open, on the newest turn
    codes = [c.value for c in second.code]
    assert "My name is Ada." in codes, codes  # the earlier turn, added by memory
    assert "What is my name?" in codes
    assert codes.index("My name is Ada.") < codes.index("What is my name?")
    assert any(EN["prompt.added_by_memory"] in m.value for m in second.markdown)
    reply = pane_column(at, 0).chat_message[-1].text[0].value
    assert "Ada" in reply


def test_tokens_and_memory_state_are_rendered_for_a_turn() -> None:
    at = open_app("pages/compare.py")
    send(at, "I like green tea.")
    open_inspector(at, 0, "tokens", "state")
    tokens = focus_view(at)  # the focus view: its first table is the turn's tokens
    table = tokens.table[0].value
    assert EN["tokens.total"] in set(table.iloc[:, 0])
    # Every row names where its figure came from (the offline model counts with its own encoder).
    assert list(table.columns) == [EN["tokens.column_what"], EN["tokens.column_tokens_source"]]
    exact = EN["tokens.short.exact"]
    sources = {cell.split(" (", 1)[1].rstrip(")") for cell in table.iloc[:, 1]}
    cache = EN["tokens.short.cache_estimate"]
    assert sources <= {exact, EN["tokens.short.no_calls"], cache} and exact in sources
    # and the lines below say what each short label means
    meaning = f"**{exact}**: " + EN["tokens.src.exact"].format(encoding="o200k_base")
    assert meaning in [c.value for c in tokens.caption]
    # The reply prompt's cacheable prefix: nothing before it on the first turn (issue 24).
    rows = {
        what: cell.split(" ", 1)[0] for what, cell in zip(table.iloc[:, 0], table.iloc[:, 1], strict=True)
    }
    assert rows[EN["tokens.cacheable"]] == "0"
    # The state's tables are static (their cells wrap), each cell Markdown that renders as its own text.
    frames = [table.value for table in tokens.table[1:]]
    assert any(literal_markdown("I like green tea.") in set(frame.get("content", [])) for frame in frames)


def test_empty_input_sends_nothing() -> None:
    at = open_app("pages/compare.py")
    send(at, "   \n  ")
    assert not at.chat_message
    assert all(not pane.turns for pane in panes(at))
    assert any(EN["compare.empty_message"] in i.value for i in at.info)


def test_too_long_input_is_refused_with_its_length_and_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_LAB_MAX_MESSAGE_CHARS", "40")
    at = open_app("pages/compare.py")
    send(at, "x" * 41)
    assert not at.chat_message
    assert all(not pane.turns for pane in panes(at))
    warnings = [w.value for w in at.warning]
    assert any("41" in w and "40" in w for w in warnings), warnings


def test_language_switch_changes_the_interface() -> None:
    at = open_app("pages/compare.py")
    assert at.subheader[0].value == EN["compare.title"]
    at.sidebar.segmented_control[0].set_value("zh").run()
    assert not at.exception
    assert at.subheader[0].value == ZH["compare.title"]
    assert any(ZH["sidebar.provider"] == c.value for c in at.sidebar.caption)
    at.switch_page("pages/home.py").run()
    assert at.title[0].value == ZH["home.title"]


def test_a_failed_turn_shows_in_its_pane_and_retry_resends_to_that_pane_only() -> None:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    # The offline model fails the first call of every strategy; the second succeeds.
    at.session_state[KEY_PREFIX + "provider"] = ProviderConfig(fail_on_calls=(1,))
    at.run()
    at.switch_page("pages/compare.py").run()
    send(at, "Hello there, I am Bo.")
    assert len(at.error) >= len(panes(at)), "every pane should show its error"
    first = panes(at)[0]
    assert first.turns[0].error is not None
    at.button(key=widget_key("pane", first.pane_id, "retry")).click().run()
    assert not at.exception
    first, *others = panes(at)
    assert len(first.turns) == 1 and first.turns[0].ok  # the retry replaced the failed turn
    assert first.turns[0].user_text == "Hello there, I am Bo."
    assert all(pane.turns[-1].error is not None for pane in others)  # untouched, still retryable
    assert pane_column(at, 0).chat_message[-1].text[0].value.strip()


def test_adding_and_removing_panes_keeps_the_other_conversations() -> None:
    at = open_app("pages/compare.py")
    send(at, "My dog is called Rex.")
    before = {pane.pane_id: len(pane.turns) for pane in panes(at)}
    at.selectbox(key=widget_key("add_strategy")).set_value("window").run()
    at.button[[b.label for b in at.button].index(EN["compare.add_pane"])].click().run()
    assert not at.exception
    assert len(panes(at)) == len(before) + 1
    assert panes(at)[-1].strategy_id == "window" and not panes(at)[-1].turns
    removed = panes(at)[1].pane_id
    at.button(key=widget_key("pane", removed, "remove")).click().run()
    after = {pane.pane_id: len(pane.turns) for pane in panes(at)}
    assert removed not in after
    assert all(after[pid] == before[pid] for pid in after if pid in before)


def test_reset_one_pane_forgets_only_that_pane() -> None:
    at = open_app("pages/compare.py")
    send(at, "I live in Oslo.")
    target = panes(at)[0].pane_id
    at.button(key=widget_key("pane", target, "reset")).click().run()
    assert not panes(at)[0].turns
    assert all(pane.turns for pane in panes(at)[1:])
    assert panes(at)[0].strategy.snapshot().get("messages") == []


def test_user_and_model_text_never_reaches_markdown() -> None:
    at = open_app("pages/compare.py")
    payload = "![x](http://127.0.0.1:9/leak.png) <img src=x onerror=alert(1)> <script>alert(2)</script>"
    send(at, payload)
    send(at, "and again " + payload)
    for index in range(len(panes(at))):  # every pane's focus view drawn, so all of it is checked
        open_inspector(at, index)
        assert any(payload in c.value for c in focus_view(at).code)  # shown, as text
        # st.table draws its cells as Markdown: the state's tables escape every bracket of the payload.
        state_tables = focus_view(at).table[1:]  # after the tokens table, whose cells are our own words
        cells = [str(cell) for table in state_tables for cell in table.value.to_numpy().flatten()]
        unescaped = [cell for cell in cells if re.search(r"(?<!\\)[<\[\]()!]", cell)]
        assert not unescaped, unescaped
        for value in rendered_markdown(at):
            assert "leak.png" not in value and "<img" not in value and "<script" not in value, value


def test_tokens_page_counts_and_lists_tokens() -> None:
    at = open_app("pages/tokens.py")
    assert not at.exception
    counts = {m.label: m.value for m in at.metric}
    assert int(counts[EN["tokenizer.count"]].replace(",", "")) > 5
    assert counts[EN["tokenizer.encoding"]] == "o200k_base"
    at.text_area(key=widget_key("tokens_text")).set_value("hello hello").run()
    counts = {m.label: m.value for m in at.metric}
    assert counts[EN["tokenizer.count"]] == "2"
    at.selectbox(key=widget_key("tokens_model")).set_value("llama3.1:8b").run()
    assert any("approximate" in w.value for w in at.warning)


def test_settings_refuses_openai_without_a_key_and_keeps_a_key_secret() -> None:
    at = open_app("pages/settings.py")
    at.radio(key=widget_key("settings_kind")).set_value("openai").run()
    at.button[[b.label for b in at.button].index(EN["settings.apply"])].click().run()
    assert any(EN["settings.need_key"] in e.value for e in at.error)
    assert at.session_state[KEY_PREFIX + "provider"].kind == "offline"

    secret = "sk-test-abcdefghijklmnop1234"
    at.text_input(key=widget_key("settings_api_key")).input(secret).run()
    at.button[[b.label for b in at.button].index(EN["settings.apply"])].click().run()
    assert not at.exception
    provider = at.session_state[KEY_PREFIX + "provider"]
    assert provider.kind == "openai"
    assert isinstance(provider.api_key, SecretStr) and provider.api_key.get_secret_value() == secret
    assert at.session_state[widget_key("settings_api_key")] == ""  # gone from the widget
    # Applied; a warning rather than a success when the check cannot reach OpenAI (no network here).
    assert any("rebuilt" in s.value for s in (*at.success, *at.warning))
    everything = rendered_markdown(at) + [t.value for t in at.text] + [c.value for c in at.code]
    assert not any(secret in value for value in everything)
    assert secret not in repr(provider)


def test_turns_beyond_the_recent_ones_fold_away_and_come_back_when_opened() -> None:
    at = open_app("pages/compare.py")
    count = len(panes(at))
    for number in range(1, RECENT_TURNS + 3):
        send(at, f"Message number {number}.")
    # The run that answers a message draws it below the recent turns it started with; the next run
    # (any click) folds one more.
    users = [m.text[0].value for m in at.chat_message if m.name == "user"]
    assert len(users) == count * (RECENT_TURNS + 1)
    at.run()
    users = [m.text[0].value for m in at.chat_message if m.name == "user"]
    assert len(users) == count * RECENT_TURNS  # the two oldest turns are folded, not drawn
    assert "Message number 1." not in users and f"Message number {RECENT_TURNS + 2}." in users
    folded = expander(pane_column(at, 0), EN["pane.earlier_turns"])
    assert not folded.chat_message
    at.session_state[widget_key("pane", panes(at)[0].pane_id, "earlier")] = True
    at.run()
    folded = expander(pane_column(at, 0), EN["pane.earlier_turns"])
    assert [m.text[0].value for m in folded.chat_message if m.name == "user"] == [
        "Message number 1.",
        "Message number 2.",
    ]
