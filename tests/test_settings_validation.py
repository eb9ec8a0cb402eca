"""Settings refuses values it cannot use (each named, with its range, all at once, nothing applied), and
gives a workshop attendee only advice that can work."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from memory_demos.i18n import CATALOGUE
from memory_demos.providers.bounds import (
    CONTEXT_WINDOW,
    MAX_TOKENS,
    TIMEOUT,
    WORKSHOP_TIMEOUT,
    bound_problems,
)
from memory_demos.session import KEY_PREFIX, widget_key
from memory_demos.ui.workshop import ROOM
from memory_demos.workshop import CodeGuard

APP = str(Path(__file__).resolve().parents[1] / "app.py")
EN = CATALOGUE["en"]
ZH = CATALOGUE["zh"]


@pytest.fixture(autouse=True)
def fresh_code_guard(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ROOM, "guard", CodeGuard())


def settings_page(secrets: dict[str, Any] | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30)
    if secrets:
        at.secrets.update(secrets)
    at.run()
    at.switch_page("pages/settings.py")
    at.run()
    assert not at.exception, at.exception
    return at


def apply(at: AppTest) -> None:
    at.button[[b.label for b in at.button].index(EN["settings.apply"])].click().run()
    assert not at.exception, at.exception


def errors(at: AppTest) -> list[str]:
    return [e.value for e in at.error]


# -- the ranges ---------------------------------------------------------------------------------------
def test_each_bound_is_checked_against_its_documented_range() -> None:
    good = {"timeout_seconds": 60, "max_tokens": 512, "max_concurrent_panes": 0, "context_window_tokens": 0}
    assert bound_problems(good) == []
    assert bound_problems({**good, "max_tokens": 256, "context_window_tokens": CONTEXT_WINDOW.lowest}) == []
    bad = {"timeout_seconds": 0, "max_tokens": -3, "max_concurrent_panes": 9, "context_window_tokens": 1}
    assert [p.setting.name for p in bound_problems(bad)] == list(bad)  # every one, in form order
    assert [p.given for p in bound_problems(bad)] == list(bad.values())
    assert [p.setting.name for p in bound_problems({**good, "max_tokens": None})] == ["max_tokens"]
    assert [p.setting.name for p in bound_problems({**good, "max_tokens": True})] == ["max_tokens"]
    assert bound_problems({**good, "timeout_seconds": 600}) == []
    assert [p.given for p in bound_problems({**good, "timeout_seconds": 600}, workshop=True)] == [600]
    assert (TIMEOUT.highest, WORKSHOP_TIMEOUT.highest) == (600, 60)


def test_a_reply_limit_must_leave_room_in_a_given_context_window() -> None:
    values = {"max_tokens": 1024, "context_window_tokens": 1024}
    (problem,) = bound_problems(values)
    assert (problem.setting, problem.given, problem.window) == (MAX_TOKENS, 1024, 1024)
    assert bound_problems({**values, "max_tokens": 1023}) == []
    assert bound_problems({**values, "context_window_tokens": 0}) == []  # automatic: not known here


# -- the page -----------------------------------------------------------------------------------------
def test_absurd_values_are_all_refused_at_once_with_their_ranges_and_nothing_is_applied() -> None:
    at = settings_page()
    before = at.session_state[KEY_PREFIX + "provider"]
    typed = {"settings_timeout": 999_999_999, "settings_max_tokens": -3, "settings_concurrency": 1000}
    typed["settings_context_window"] = 1
    for key, value in typed.items():
        at.number_input(key=widget_key(key)).set_value(value)
    apply(at)
    shown = errors(at)
    assert len(shown) == 4, shown
    for label, given, low, high in [
        ("settings.timeout", "999,999,999", "1", "600"),
        ("settings.max_tokens", "-3", "1", "32,768"),
        ("settings.concurrency", "1,000", "0", "8"),
        ("settings.context_window", "1", "512", "10,000,000"),
    ]:
        assert any(
            text.startswith(EN[label]) and given in text and low in text and high in text for text in shown
        )
    assert any(EN["settings.not_applied"] in i.value for i in at.info)
    assert at.session_state[KEY_PREFIX + "provider"] == before  # nothing applied
    for key, value in typed.items():  # and nothing replaced behind the user's back
        assert at.number_input(key=widget_key(key)).value == value

    at.number_input(key=widget_key("settings_timeout")).set_value(30)
    at.number_input(key=widget_key("settings_max_tokens")).set_value(256)
    at.number_input(key=widget_key("settings_concurrency")).set_value(1)
    at.number_input(key=widget_key("settings_context_window")).set_value(4096)
    apply(at)
    assert not errors(at)
    provider = at.session_state[KEY_PREFIX + "provider"]
    assert (provider.timeout_seconds, provider.max_tokens, provider.max_concurrent_panes) == (30, 256, 1)
    assert provider.context_window == 4096


def test_refusals_are_in_the_chosen_language() -> None:
    at = settings_page()
    at.radio(key=widget_key("settings_language")).set_value("zh").run()
    at.number_input(key=widget_key("settings_max_tokens")).set_value(0)
    at.button[[b.label for b in at.button].index(ZH["settings.apply"])].click().run()
    expected = ZH["settings.out_of_range"].format(
        field=ZH["settings.max_tokens"], given="0", lowest="1", highest="32,768"
    )
    assert errors(at) == [expected]


def test_an_attendee_is_never_told_to_set_a_server_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_LAB_WORKSHOP", "1")
    at = settings_page()
    at.radio(key=widget_key("settings_kind")).set_value("openai").run()
    apply(at)
    assert errors(at) == [EN["settings.need_key_here"]]
    assert "OPENAI_API_KEY" not in " ".join(e.value for e in (*at.error, *at.info, *at.caption))
    monkeypatch.delenv("MEMORY_LAB_WORKSHOP")
    outside = settings_page()
    outside.radio(key=widget_key("settings_kind")).set_value("openai").run()
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    apply(outside)
    assert errors(outside) == [EN["settings.need_key"]]  # local use: the server is the user's own


@pytest.mark.parametrize("host_model", [False, True])
def test_a_refused_address_suggests_the_workshop_model_only_when_there_is_one(host_model: bool) -> None:
    workshop: dict[str, Any] = {"enabled": True}
    if host_model:
        workshop["host"] = {"kind": "openai_compatible", "base_url": "http://127.0.0.1:9/v1", "model": "m"}
    at = settings_page({"workshop": workshop})
    at.radio(key=widget_key("settings_kind")).set_value("openai_compatible").run()
    at.text_input(key=widget_key("settings_model")).input("llama3.1:8b")
    at.text_input(key=widget_key("settings_base_url")).input("http://10.0.0.5:11434/v1")
    apply(at)
    shown = errors(at)
    assert shown[0] == EN["settings.url_refused"] and len(shown) == 2, shown
    advice = "settings.url_advice_hosted" if host_model else "settings.url_advice_no_host"
    assert shown[1] == EN[advice]
    everything = " ".join(shown + [t.value for t in at.text])
    assert ("workshop model" in everything) is host_model


def test_a_temperature_is_optional_may_have_a_fraction_and_is_refused_outside_0_to_2() -> None:
    at = settings_page()
    assert at.number_input(key=widget_key("settings_temperature")).value is None  # the server's default
    at.number_input(key=widget_key("settings_temperature")).set_value(2.5)
    apply(at)
    [shown] = errors(at)
    assert shown.startswith(EN["settings.temperature"]) and "2.5" in shown and "fractions allowed" in shown
    assert at.session_state[KEY_PREFIX + "provider"].temperature is None
    at.number_input(key=widget_key("settings_temperature")).set_value(0.3)
    apply(at)
    assert not errors(at) and at.session_state[KEY_PREFIX + "provider"].temperature == 0.3
