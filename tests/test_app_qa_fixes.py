"""Defects seen by walking the app in Chromium (1440x900, 1920x1080, en and zh), each pinned here."""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from memory_demos.i18n import CATALOGUE
from memory_demos.session import widget_key

APP = str(Path(__file__).resolve().parents[1] / "app.py")
CJK = re.compile(r"[\u4e00-\u9fff]")


def open_page(page: str, language: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["lang"] = language
    at.run()
    at.switch_page(page)
    at.run()
    assert not at.exception, at.exception
    return at


def test_a_chinese_session_starts_the_tokens_page_from_chinese_text() -> None:
    assert CJK.search(open_page("pages/tokens.py", "zh").text_area(key=widget_key("tokens_text")).value)
    english = open_page("pages/tokens.py", "en").text_area(key=widget_key("tokens_text")).value
    assert english == CATALOGUE["en"]["tokenizer.sample_text.english"]


def test_the_scenario_preview_has_translated_headers_and_turns_numbered_from_one() -> None:
    at = open_page("pages/scorecard.py", "zh")
    frame = at.dataframe[0].value
    zh = CATALOGUE["zh"]
    assert list(frame.columns) == [
        zh["scorecard.col.turn"],
        zh["scorecard.col.user_message"],
        zh["scorecard.col.expected"],
    ]
    assert list(frame[zh["scorecard.col.turn"]])[:2] == [1, 2]


def test_the_fix_line_uses_the_languages_own_colon() -> None:
    at = open_page("pages/failure_lab.py", "zh")
    lines = [m.value for m in at.markdown if m.value.startswith("**" + CATALOGUE["zh"]["failure.fix"])]
    assert lines and all(line.startswith("**修复方法**：") for line in lines)


def test_the_active_model_is_named_in_the_sessions_language() -> None:
    # Seen in Chromium (zh, 1920x1080): the sidebar said "OpenAI-compatible · llama3.1:8b at http://…".
    from memory_demos.i18n import language_scope
    from memory_demos.providers.chat_models import ProviderConfig
    from memory_demos.ui.text import provider_label

    server = ProviderConfig(kind="openai_compatible", model="llama3.1:8b", base_url="http://127.0.0.1:9/v1")
    with language_scope("zh"):
        assert provider_label(server) == "兼容 OpenAI 的服务 · llama3.1:8b（http://127.0.0.1:9/v1）"
    with language_scope("en"):
        assert provider_label(server) == server.display_name  # the CLI's English name, unchanged
        openai = ProviderConfig(kind="openai", model="gpt-4o-mini")
        assert provider_label(openai) == openai.display_name
