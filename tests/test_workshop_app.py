"""Workshop mode in the app (AppTest): the access gate, limits, idle clean-up, the workshop model and the
instructor view, which never shows what an attendee wrote."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from memory_demos.i18n import CATALOGUE
from memory_demos.scenarios import load_scenario
from memory_demos.session import KEY_PREFIX, widget_key
from memory_demos.strategies.registry import available_ids
from memory_demos.ui.workshop import ROOM, session_registry
from memory_demos.workshop import CodeGuard
from tests.helpers import open_inspector

APP = str(Path(__file__).resolve().parents[1] / "app.py")
TIMEOUT = 30
EN = CATALOGUE["en"]
ZH = CATALOGUE["zh"]
HOST_KEY = "sk-workshop-HOSTKEY-7f3a9c2e5b"
HOST_MODEL = "llama3.1:8b-workshop"


@pytest.fixture(autouse=True)
def fresh_code_guard(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every AppTest client is "loopback" to the guard: wrong codes of one test must not lock out the next."""
    monkeypatch.setattr(ROOM, "guard", CodeGuard())


def available_strategies() -> list[str]:
    return list(available_ids())


def new_app(secrets: dict[str, Any] | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    if secrets:
        at.secrets.update(secrets)
    return at


def run(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, at.exception
    return at


def send(at: AppTest, text: str) -> None:
    at.chat_input[0].set_value(text).run()
    assert not at.exception, at.exception


def click(at: AppTest, label: str) -> None:
    at.button[[button.label for button in at.button].index(label)].click().run()
    assert not at.exception, at.exception


def everything_sent(at: AppTest) -> str:
    """All that this run sent to the browser: every element's protobuf, and dataframes' values."""
    parts = []
    for node in at._tree:
        parts.append(str(getattr(node, "proto", "")))
        if getattr(node, "type", "") in ("arrow_data_frame", "dataframe"):
            parts.append(node.value.to_json())
    return "\n".join(parts)


def shown_text(at: AppTest) -> list[str]:
    values = [m.value for m in (*at.markdown, *at.caption, *at.text, *at.code)]
    values += [e.value for e in (*at.info, *at.warning, *at.error, *at.success)]
    values += [h.value for h in (*at.title, *at.header, *at.subheader)]
    return values


def panes(at: AppTest) -> list:
    return at.session_state[KEY_PREFIX + "panes"]


# -- the access gate --------------------------------------------------------------------------------
def test_the_access_code_is_asked_once_and_nothing_opens_before_it() -> None:
    at = run(new_app({"workshop": {"enabled": True, "access_code": "tea-42"}}))
    assert at.title[0].value == EN["gate.title"]
    assert not at.chat_input and not at.sidebar.markdown
    at.switch_page("pages/compare.py")
    run(at)
    assert at.title[0].value == EN["gate.title"] and not at.chat_input  # a deep link waits too

    at.text_input(key=widget_key("access_code")).input("tea-43")
    click(at, EN["gate.enter"])
    assert any(EN["gate.wrong"] in e.value for e in at.error)
    assert not at.chat_input
    assert session_registry().stats().errors_last_hour.get("access_denied", 0) >= 1

    at.text_input(key=widget_key("access_code")).input("tea-42")
    click(at, EN["gate.enter"])
    assert at.subheader[0].value == EN["compare.title"] and at.chat_input
    assert "tea-42" not in everything_sent(at)
    send(at, "Hello, I am Ada.")  # admitted for the rest of the session: no second gate
    assert at.subheader[0].value == EN["compare.title"]
    assert all(len(pane.turns) == 1 for pane in panes(at))


@pytest.mark.parametrize("language", ["en", "zh"])
def test_without_workshop_mode_there_is_no_gate_and_the_instructor_address_says_the_mode_is_off(
    language: str,
) -> None:
    # The address was undeclared: Streamlit's own "Page not found" dialog showed, in English in either
    # language. Declared, the page says why in the session's language, and shows nothing of a room.
    at = new_app({"workshop": {"access_code": "tea-42"}})  # a code, but workshop mode is off
    at.query_params["lang"] = language
    run(at)
    catalogue = EN if language == "en" else ZH
    assert at.title[0].value == catalogue["home.title"]
    run(at.switch_page("pages/instructor.py"))
    assert at.title[0].value == catalogue["instructor.title"]
    assert [info.value for info in at.info] == [catalogue["instructor.off"]]
    assert not at.metric and not at.dataframe and not at.text_input  # no counts, no host-code box


# -- limits -----------------------------------------------------------------------------------------
def test_the_turn_limit_refuses_the_next_message_with_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_LAB_WORKSHOP", "1")
    monkeypatch.setenv("MEMORY_LAB_MAX_TURNS", "2")
    at = run(new_app())
    at.switch_page("pages/compare.py")
    run(at)
    assert any("0 of 2 messages" in c.value for c in at.caption)
    send(at, "My name is Ada.")
    usage = [c.value for c in at.caption if "Workshop limits" in c.value]
    spent = f"{at.session_state[KEY_PREFIX + 'budget'].tokens_used:,} of"
    assert len(usage) == 1 and "1 of 2 messages" in usage[0] and spent in usage[0], usage  # this turn counted
    send(at, "I live in Lisbon.")
    assert not at.warning
    send(at, "What is my name?")
    warnings = [w.value for w in at.warning]
    assert any("limit of 2 messages" in w for w in warnings), warnings
    assert all(len(pane.turns) == 2 for pane in panes(at))  # nothing was sent; nothing was lost
    assert not at.error
    click(at, EN["compare.reset_all"])
    send(at, "A fresh start.")
    assert all(len(pane.turns) == 1 for pane in panes(at))


def test_the_token_limit_refuses_once_the_session_has_spent_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_LAB_WORKSHOP", "1")
    monkeypatch.setenv("MEMORY_LAB_MAX_TOKENS_PER_SESSION", "1500")
    at = run(new_app())
    at.switch_page("pages/compare.py")
    run(at)
    send(at, "My name is Ada and I live in Lisbon.")
    budget = at.session_state[KEY_PREFIX + "budget"]
    assert budget.tokens_used == sum(pane.turns[0].total_tokens for pane in panes(at)) > 0
    turns_before: list[int] = []
    for _ in range(20):  # until the page refuses a message up front: it would not fit what is left
        turns_before = [len(pane.turns) for pane in panes(at)]
        send(at, "What is my name?")
        if any("Nothing was sent" in w.value for w in at.warning):
            break
    refusals = [w.value for w in at.warning]
    assert any("are left of your workshop budget" in w or "limit is 1,500" in w for w in refusals), refusals
    assert [len(pane.turns) for pane in panes(at)] == turns_before  # refused before anything ran
    assert at.chat_input[0].proto.value == "What is my name?"  # and kept in the box to edit or copy
    assert budget.refused_up_front == 1  # counted for the instructor's view
    assert budget.tokens_used <= 1500
    answered = [turn for pane in panes(at) for turn in pane.turns if turn.ok]
    assert budget.tokens_used == sum(turn.total_tokens for turn in answered)


def test_one_session_runs_at_most_the_allowed_panes_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_LAB_WORKSHOP", "1")
    monkeypatch.setenv("MEMORY_LAB_MAX_CONCURRENT_CALLS", "1")
    at = run(new_app())
    at.switch_page("pages/compare.py")
    run(at)
    send(at, "Hello there.")
    assert all(pane.turns[0].ok for pane in panes(at))
    assert at.session_state[KEY_PREFIX + "budget"].peak_concurrency == 1


# -- idle clean-up ----------------------------------------------------------------------------------
def test_an_idle_session_is_released_and_told_so_when_it_comes_back() -> None:
    at = run(new_app())
    at.switch_page("pages/compare.py")
    run(at)
    send(at, "My name is Ada.")
    key = at.session_state[KEY_PREFIX + "registry_key"]
    assert key in session_registry()
    session_registry().sweep(idle_seconds=0)  # as if everyone had been away for longer than the limit
    assert key not in session_registry()
    assert all(pane.strategy is None for pane in panes(at))
    run(at)
    assert any("idle for more than" in i.value for i in at.info)
    assert all(pane.strategy is not None and not pane.turns for pane in panes(at))
    send(at, "What is my name?")
    assert all(pane.turns[-1].ok for pane in panes(at))


# -- the workshop model and the instructor view -----------------------------------------------------
def workshop_secrets(port: int = 9) -> dict[str, Any]:
    return {
        "workshop": {
            "enabled": True,
            "host_code": "host-77",
            "host": {
                "kind": "openai_compatible",
                "base_url": f"http://127.0.0.1:{port}/v1",
                "model": HOST_MODEL,
                "api_key": HOST_KEY,
            },
        }
    }


def test_attendees_start_on_the_workshop_model_named_without_its_address() -> None:
    secrets = workshop_secrets()
    at = run(new_app(secrets))
    assert any(HOST_MODEL in text.value for text in at.sidebar.text)
    at.switch_page("pages/settings.py")
    run(at)
    assert at.radio(key=widget_key("settings_kind")).value == "hosted"
    sent = everything_sent(at)
    assert HOST_KEY not in sent and "127.0.0.1:9" not in sent
    at.radio(key=widget_key("settings_kind")).set_value("openai_compatible").run()
    assert at.text_input(key=widget_key("settings_base_url")).value == ""  # never the host's address
    at.radio(key=widget_key("settings_kind")).set_value("offline").run()
    click(at, EN["settings.apply"])
    assert at.session_state[KEY_PREFIX + "provider"].kind == "offline"  # attendees may still choose


def test_the_instructor_view_is_locked_counts_usage_and_never_shows_messages() -> None:
    marker = "Zebra-Marker-771 is my secret phrase"
    secrets = {"workshop": {"enabled": True, "host_code": "host-77"}}
    attendee = run(new_app(secrets))
    attendee.switch_page("pages/compare.py")
    run(attendee)
    send(attendee, marker)
    send(attendee, "What is my secret phrase?")
    open_inspector(attendee, 0, "prompt")
    assert any("Zebra-Marker-771" in c.value for c in attendee.code)

    host = run(new_app(secrets))
    host.switch_page("pages/instructor.py")
    run(host)
    assert not host.metric and any(EN["instructor.locked"] in c.value for c in host.caption)
    host.text_input(key=widget_key("host_code")).input("host-78")
    click(host, EN["instructor.unlock"])
    assert not host.metric and any(EN["gate.wrong"] in e.value for e in host.error)
    host.text_input(key=widget_key("host_code")).input("host-77")
    click(host, EN["instructor.unlock"])
    metrics = {m.label: m.value for m in host.metric}
    assert int(metrics[EN["instructor.sessions"]].replace(",", "")) >= 2
    assert int(metrics[EN["instructor.calls"]].replace(",", "")) >= 2 * len(panes(attendee))
    assert int(metrics[EN["instructor.tokens"]].replace(",", "")) > 0
    sent = everything_sent(host)
    assert "Zebra" not in sent and "secret phrase" not in sent and "host-77" not in sent
    assert attendee.session_state[KEY_PREFIX + "registry_key"] not in sent


def test_scorecard_replays_spend_the_same_token_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_LAB_WORKSHOP", "1")
    monkeypatch.setenv("MEMORY_LAB_MAX_TOKENS_PER_SESSION", "8000")
    at = run(new_app())
    at.switch_page("pages/scorecard.py")
    run(at)
    at.multiselect(key=widget_key("scorecard_strategies")).set_value(["buffer"]).run()
    at.button(key=widget_key("scorecard_run")).click().run()
    assert not at.exception and at.get("download_button")
    budget = at.session_state[KEY_PREFIX + "budget"]
    result = at.session_state[KEY_PREFIX + "scorecard"].outcome.result
    spent = sum(turn.total_tokens for run_ in result.runs for turn in run_.turns)
    assert budget.tokens_used == spent > 0  # counted call by call by the gate, the same as the page shows
    everything = available_strategies()
    at.multiselect(key=widget_key("scorecard_strategies")).set_value(everything).run()
    at.button(key=widget_key("scorecard_run")).click().run()
    warnings = [w.value for w in at.warning]
    assert any("are left of your workshop budget" in w for w in warnings), warnings
    assert budget.tokens_used == spent  # sized before it started: refused with nothing spent


def test_without_any_code_the_instructor_view_stays_shut(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_LAB_WORKSHOP", "1")
    at = run(new_app())
    at.switch_page("pages/instructor.py")
    run(at)
    assert not at.metric and not at.dataframe
    assert any(EN["instructor.no_code"] in w.value for w in at.warning)


def test_run_both_and_the_failure_lab_spend_the_attendee_budget_and_show_to_the_instructor(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MEMORY_LAB_WORKSHOP", "1")
    at = run(new_app())
    at.switch_page("pages/migration.py")
    run(at)
    budget = at.session_state[KEY_PREFIX + "budget"]
    key = at.session_state[KEY_PREFIX + "registry_key"]
    rows_before = {row["tokens"] for row in session_registry().session_rows()}
    at.button(key=widget_key("migration_run", "buffer")).click().run()
    guide = at.session_state[KEY_PREFIX + "migration"].runs["buffer"]
    assert guide.turns and budget.model_calls >= 2 * len(guide.turns)  # both versions, every turn
    assert budget.tokens_used >= sum(t.classic.prompt_tokens + t.modern.prompt_tokens for t in guide.turns)
    assert (
        key in session_registry()
        and budget.tokens_used in {row["tokens"] for row in session_registry().session_rows()} - rows_before
    )  # the instructor's per-session row counts them
    calls = budget.model_calls
    at.switch_page("pages/failure_lab.py")
    at.session_state[widget_key("failure_demo")] = "summary_drift"
    run(at)
    at.button(key=widget_key("failure", "summary_drift")).click().run()
    assert not at.exception and budget.model_calls > calls


def test_clearing_streamlit_caches_leaves_the_room() -> None:
    from streamlit.runtime import caching

    at = run(new_app())
    at.switch_page("pages/compare.py")
    run(at)
    send(at, "Hello.")
    key = at.session_state[KEY_PREFIX + "registry_key"]
    registry = session_registry()
    calls = registry.stats().model_calls_last_hour
    caching.cache_data.clear()
    caching.cache_resource.clear()  # what a client's clear_cache message does
    assert session_registry() is registry and key in registry
    assert registry.stats().model_calls_last_hour == calls


def run_scorecard(scenario: str, strategies: list[str]) -> AppTest:
    """A new session on the Scorecard page that runs ``scenario`` through ``strategies``."""
    at = run(new_app())
    at.switch_page("pages/scorecard.py")
    run(at)
    at.selectbox(key=widget_key("scorecard_bundled")).set_value(scenario).run()
    at.multiselect(key=widget_key("scorecard_strategies")).set_value(strategies).run()
    at.button(key=widget_key("scorecard_run")).click().run()
    assert not at.exception, at.exception
    return at


def test_a_scorecard_run_that_costs_more_than_its_estimate_stops_at_the_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Entity memory's hidden calls are not in the estimate: the run starts, and the gate holds the line."""
    monkeypatch.setenv("MEMORY_LAB_WORKSHOP", "1")
    monkeypatch.setenv("MEMORY_LAB_MAX_TOKENS_PER_SESSION", "5000")
    at = run_scorecard("fact_change", ["entity"])
    budget = at.session_state[KEY_PREFIX + "budget"]
    result = at.session_state[KEY_PREFIX + "scorecard"].outcome.result
    turns = result.runs[0].turns
    assert budget.refused_calls > 0  # the gate refused the calls that no longer fit, memory calls too
    assert 0 < budget.tokens_used <= 5000
    assert budget.tokens_used == sum(turn.total_tokens for turn in turns)


def test_scripted_runs_longer_than_a_conversation_are_refused_with_their_own_numbers_and_counted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MEMORY_LAB_WORKSHOP", "1")
    monkeypatch.setenv("MEMORY_LAB_MAX_TURNS", "5")
    monkeypatch.setenv("MEMORY_LAB_HOST_CODE", "host-77")
    at = run_scorecard("name_recall", ["buffer"])
    budget = at.session_state[KEY_PREFIX + "budget"]
    turns = len(load_scenario("name_recall").turns)
    warnings = [w.value for w in at.warning]
    assert EN["workshop.limit.scenario_turns"].format(current=turns, limit=5) in warnings, warnings
    assert not any(EN["compare.reset_all"] in w for w in warnings)  # Compare's advice does not apply here
    assert budget.tokens_used == 0 and budget.model_calls == 0

    at.switch_page("pages/migration.py")
    run(at)
    lines = [f"Line {n} about my day." for n in range(1, 8)]
    at.text_area(key=widget_key("migration_inputs", "buffer")).set_value("\n".join(lines)).run()
    at.button(key=widget_key("migration_run", "buffer")).click().run()
    warnings = [w.value for w in at.warning]
    assert EN["workshop.limit.run_turns"].format(current=7, limit=5) in warnings, warnings
    assert "buffer" not in at.session_state[KEY_PREFIX + "migration"].runs and budget.model_calls == 0
    assert budget.refused_up_front == 2  # both refusals are counted for the instructor

    host = run(new_app())
    host.switch_page("pages/instructor.py")
    run(host)
    host.text_input(key=widget_key("host_code")).input("host-77")
    click(host, EN["instructor.unlock"])
    table = next(
        frame.value
        for frame in host.dataframe
        if EN["instructor.col_refused_up_front"] in frame.value.columns
    )
    assert 2 in set(table[EN["instructor.col_refused_up_front"]])  # this attendee's row (counts only)
