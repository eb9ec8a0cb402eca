"""The UI's plain-data pieces: prompt sections, the diff between turns, the session accessor, streaming."""

from __future__ import annotations

import time

import pandas as pd
import pytest

from memory_demos.compare import finish_broadcast, start_broadcast
from memory_demos.prompt_sections import classify_prompt, diff_prompts, section_totals
from memory_demos.prompts import RETRIEVED_HEADER, SUMMARY_HEADER
from memory_demos.providers.chat_models import ProviderConfig
from memory_demos.session import KEY_PREFIX, LabSession
from memory_demos.turn import ModelCall, PromptMessage, Turn
from memory_demos.ui.state_view import records_frame
from memory_demos.ui.text import code_span

SYSTEM = "You are a helpful assistant. Answer briefly."


def message(role: str, content: str, tokens: int = 5) -> PromptMessage:
    return PromptMessage(role=role, content=content, tokens=tokens)


def turn(messages: list[PromptMessage], reply: str) -> Turn:
    call = ModelCall("reply", tuple(messages), reply, sum(m.tokens for m in messages) + 3, 4, "test", 0.0)
    return Turn(user_text=messages[-1].content, reply=reply, seconds=0.0, reply_call=call)


def test_sections_follow_the_prompt_rules() -> None:
    parts = classify_prompt(
        [
            message("system", SYSTEM),
            message("system", f"{SUMMARY_HEADER}\nThe human is Ada."),
            message("system", f"{RETRIEVED_HEADER}\nHuman: I live in Lisbon."),
            message("human", "hi"),
            message("ai", "hello"),
            message("human", "where do I live?"),
        ],
        SYSTEM,
    )
    assert [p.section for p in parts] == ["system", "summary", "retrieved", "history", "history", "new_input"]
    assert [p.from_memory for p in parts] == [False, True, True, True, True, False]
    assert section_totals(parts) == {"system": 5, "summary": 5, "retrieved": 5, "history": 10, "new_input": 5}


def test_memory_appended_to_the_system_message_is_split_off() -> None:
    tail = "Known facts about the user (from the long-term store):\nname: Ada"
    parts = classify_prompt(
        [message("system", f"{SYSTEM}\n\n{tail}", 40), message("human", "hi")], SYSTEM, len
    )
    assert [(p.section, p.content) for p in parts[:2]] == [("system", SYSTEM), ("entities", tail)]
    assert parts[0].tokens + parts[1].tokens == 40


def test_the_diff_names_added_dropped_and_summarized_messages() -> None:
    first = turn([message("system", SYSTEM), message("human", "I am Ada.")], "Hi Ada.")
    kept = turn(
        [
            message("system", SYSTEM),
            message("human", "I am Ada."),
            message("ai", "Hi Ada."),
            message("human", "x"),
        ],
        "ok",
    )
    changes = diff_prompts(first, kept, SYSTEM)
    assert [(c.kind, c.content) for c in changes] == [("added", "I am Ada."), ("added", "Hi Ada.")]

    windowed = turn([message("system", SYSTEM), message("human", "y")], "ok")
    dropped = diff_prompts(kept, windowed, SYSTEM)
    assert {c.content for c in dropped if c.kind == "dropped"} == {"I am Ada.", "Hi Ada.", "x", "ok"}

    summarised = turn(
        [
            message("system", SYSTEM),
            message("system", f"{SUMMARY_HEADER} The human is Ada."),
            message("human", "y"),
        ],
        "ok",
    )
    changes = diff_prompts(kept, summarised, SYSTEM)
    assert {c.kind for c in changes} == {"summarized", "summary"}


def test_records_with_mixed_cells_become_a_displayable_table() -> None:
    frame = records_frame([{"text": "a", "score": 0.5, "meta": {"k": 1}}, {"text": 3, "score": None}])
    assert list(frame.columns) == ["text", "score", "meta"]
    assert frame["text"].tolist() == ["a", "3"]  # mixed str/int column turned into text
    assert frame["meta"][0] == '{"k": 1}'
    assert isinstance(records_frame(["x", "y"]), pd.DataFrame)


def test_code_span_shows_markdown_literally() -> None:
    assert code_span("![x](http://e/x.png)") == "`![x](http://e/x.png)`"
    assert "`" not in code_span("a`b")[1:-1]


def test_session_accessor_uses_prefixed_keys_and_setdefault() -> None:
    state: dict[str, object] = {}
    session = LabSession(state)
    assert session.language == "en"
    session.language = "zh"
    session.language = "klingon"  # unknown: back to the default
    assert session.language == "en"
    assert session.provider.kind == "offline"
    panes = session.panes
    assert 2 <= len(panes) <= 4 and all(pane.strategy is not None for pane in panes)
    assert all(key.startswith(KEY_PREFIX) for key in state)
    assert LabSession(state).panes is panes  # the same objects on the next rerun
    assert session.user_id == LabSession(state).user_id
    assert session.user_id != LabSession({}).user_id  # every browser session its own user


def test_replies_stream_through_queues_and_turns_are_recorded_once() -> None:
    state: dict[str, object] = {}
    session = LabSession(state)
    session.provider = ProviderConfig(latency_ms=800)
    panes = session.panes[:2]
    job = start_broadcast(session, panes, "My name is Ada.")
    assert session.busy
    partial_seen = False
    while not job.future.done():
        job.drain()
        text = job.streamed.get(panes[0].pane_id, "")
        partial_seen = partial_seen or (len(text) > 0 and not job.future.done())
        time.sleep(0.02)
    job.drain()
    assert partial_seen, "no partial reply was visible while the turn ran"
    finish_broadcast(session, job)
    finish_broadcast(session, job)  # a second call records nothing more
    assert not session.busy
    for pane in panes:
        assert len(pane.turns) == 1
        assert job.streamed[pane.pane_id] == pane.turns[0].reply
    assert all(not pane.turns for pane in session.panes[2:])  # not addressed, untouched


def test_the_add_strategy_box_is_sized_to_show_the_longest_strategy_name_whole() -> None:
    from memory_demos.i18n import strategy_title, t
    from memory_demos.strategies.registry import available_ids, get_info
    from memory_demos.ui.text import select_width_px, text_width_px

    assert text_width_px("现代") == 28 and text_width_px("ab") == round(2 * 6.4)
    assert select_width_px(["short"], 320, 720) == 320 and select_width_px(["x" * 500], 320, 720) == 720
    for language in ("en", "zh"):
        labels = [
            f"{t('kind.' + get_info(sid).kind, language)} · {strategy_title(get_info(sid), language)}"
            for sid in available_ids()
        ]
        width = select_width_px(labels, 320, 720)
        # The longest name fits (the old fixed 320 px cut the English one off after ~45 characters) and the
        # box still leaves the Add button room on a 1440 px screen's first line.
        assert max(map(text_width_px, labels)) + 64 <= width < 720, (language, width)


@pytest.mark.parametrize(
    ("language", "gloss"), [("zh", "LangMem 工具的返回：已创建记忆 5a72d98e"), ("en", None)]
)
def test_a_langmem_tool_result_is_glossed_in_the_pages_language(language: str, gloss: str | None) -> None:
    from streamlit.testing.v1 import AppTest

    def view(language: str) -> None:
        from memory_demos.i18n import language_scope
        from memory_demos.prompt_sections import PromptPart
        from memory_demos.ui.prompt_view import render_prompt

        parts = [
            PromptPart(0, "history", "tool", "created memory 5a72d98e", 6),
            PromptPart(1, "history", "tool", "Sunny, 21 °C", 6),
        ]
        with language_scope(language):
            render_prompt(parts)

    at = AppTest.from_function(view, kwargs={"language": language}).run()
    assert not at.exception
    assert [c.value for c in at.code][:2] == ["created memory 5a72d98e", "Sunny, 21 °C"]  # as received
    glosses = [c.value for c in at.caption if "LangMem" in c.value]
    assert glosses == ([gloss] if gloss else [])
