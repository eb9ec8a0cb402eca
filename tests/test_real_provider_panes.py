"""What the Compare panes say about real-provider limits, set up through the Settings page.

A single-slot server interrupting panes (and the fix: one pane at a time), a context overflow, a
reply cut by max_tokens, and a context window that is assumed or told by the server.
"""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from memory_demos.i18n import CATALOGUE
from memory_demos.session import KEY_PREFIX, widget_key
from tests.fake_openai_server import FakeOpenAIServer
from tests.helpers import open_inspector
from tests.test_workshop_app import click, new_app, panes, run, send, shown_text

EN = CATALOGUE["en"]
LONG_MESSAGE = " ".join(f"word{i}" for i in range(40))


def use_server(at: AppTest, base_url: str, **numbers: int) -> None:
    """Pick the OpenAI-compatible server in Settings, set the given number fields, apply, open Compare."""
    at.switch_page("pages/settings.py")
    run(at)
    at.radio(key=widget_key("settings_kind")).set_value("openai_compatible").run()
    at.text_input(key=widget_key("settings_model")).input("test-model")
    at.text_input(key=widget_key("settings_base_url")).input(base_url)
    for name, value in numbers.items():
        at.number_input(key=widget_key(f"settings_{name}")).set_value(value)
    click(at, EN["settings.apply"])
    at.switch_page("pages/compare.py")
    run(at)


def gauge_captions(at: AppTest) -> list[str]:
    return [caption.value for caption in at.caption if "tokens of context" in caption.value]


def test_a_single_slot_server_interrupts_panes_and_one_at_a_time_fixes_it() -> None:
    with FakeOpenAIServer(single_slot=True, chunk_delay=0.01) as server:
        at = run(new_app())
        use_server(at, server.base_url)
        send(at, LONG_MESSAGE)
        errors = [pane.turns[-1].error for pane in panes(at) if not pane.turns[-1].ok]
        assert errors and server.interrupted == len(errors)
        assert any(
            text.startswith("The server stopped this reply to answer another request")
            for text in shown_text(at)
        )

        use_server(at, server.base_url, concurrency=1)
        assert at.session_state[KEY_PREFIX + "provider"].max_concurrent_panes == 1
        send(at, "one at a time, please")
        assert all(pane.turns[-1].ok for pane in panes(at)), [pane.turns[-1].error for pane in panes(at)]
        assert server.interrupted == len(errors)


def test_a_context_overflow_is_named_in_the_pane_and_the_gauge_uses_the_servers_window() -> None:
    with FakeOpenAIServer(context_window=24) as server:
        at = run(new_app())
        use_server(at, server.base_url)
        provider = at.session_state[KEY_PREFIX + "provider"]
        assert (provider.context_window, provider.context_window_info.assumed) == (24, False)
        at.switch_page("pages/settings.py")
        run(at)
        assert "Context window: 24 tokens (server: llama.cpp /props n_ctx)" in shown_text(at)
        at.switch_page("pages/compare.py")
        run(at)
        send(at, LONG_MESSAGE)
        open_inspector(at, 0, "tokens")  # the token view is built only while its section is open
        texts = shown_text(at)
    assert all(not pane.turns[-1].ok for pane in panes(at))
    assert any(
        text.startswith("Context window exceeded") and "smaller memory budget" in text for text in texts
    )
    assert not any("dropped" in text for text in texts)
    # The token view lists the failed call apart, at what the server billed for it: nothing.
    assert any("1 failed call: it costs only what the provider reported (0 tokens" in text for text in texts)
    captions = gauge_captions(at)
    assert captions and all("of 24 tokens" in caption and "assumed" not in caption for caption in captions)


def test_a_reply_cut_by_max_tokens_is_kept_and_says_so_and_an_unknown_window_is_assumed() -> None:
    with FakeOpenAIServer() as server:
        at = run(new_app())
        use_server(at, server.base_url, max_tokens=3)
        send(at, LONG_MESSAGE)
        texts = shown_text(at)
    turns = [pane.turns[-1] for pane in panes(at)]
    assert all(turn.ok and turn.cut_by == "max_tokens" for turn in turns), [t.error for t in turns]
    assert all(turn.reply.strip() in texts for turn in turns)  # shown as text (trailing space trimmed)
    assert any(text.startswith("Reply cut: max_tokens (3 tokens per reply) ended it.") for text in texts)
    captions = gauge_captions(at)
    # The assumed window is said once, above the panes, not in every pane's gauge.
    assert captions and not any(EN["gauge.assumed"] in caption for caption in captions)
    window_lines = [c.value for c in at.caption if "Every gauge draws" in c.value]
    assert len(window_lines) == 1 and "assumed" in window_lines[0], window_lines


def test_an_empty_reply_is_marked_in_the_pane_not_shown_as_an_empty_bubble() -> None:
    with FakeOpenAIServer(reply_text=" \n ") as server:
        at = run(new_app())
        use_server(at, server.base_url)
        send(at, "What's my name?")
        texts = shown_text(at)
    turns = [pane.turns[-1] for pane in panes(at)]
    assert all(turn.ok and turn.empty_reply for turn in turns)
    marked = EN["pane.empty_reply"].format(chars=3)
    assert texts.count(marked) == len(turns)
    assert at.warning and all(w.value == marked for w in at.warning)


def window_line(at: AppTest) -> str:
    """The one line above the panes saying what every gauge is scaled to."""
    [line] = [c.value for c in at.caption if c.value.startswith(":material/speed: ") and "gauge" in c.value]
    return line


def test_the_gauges_window_names_its_source_and_the_offline_model_has_none() -> None:
    at = run(new_app())
    at.switch_page("pages/compare.py")
    run(at)
    send(at, "Hi, I'm Mara.")
    offline = window_line(at)
    assert "has no context window" in offline and "scaled to 8,192 tokens" in offline
    scaled = EN["gauge.caption_scale"].format(used="{}", scale="8,192").split("{}")[1]
    gauges = [c.value for c in at.caption if c.value.startswith(":material/speed: Prompt:")]
    assert gauges and all(scaled in gauge and "of context" not in gauge for gauge in gauges)
    assert not any("set it in Settings" in caption.value for caption in at.caption)
    with FakeOpenAIServer(context_window=2048) as server:
        use_server(at, server.base_url)
        assert window_line(at).endswith("2,048 tokens (server: llama.cpp /props n_ctx).")
    with FakeOpenAIServer() as server:
        use_server(at, server.base_url, context_window=4096)
        assert window_line(at).endswith("4,096 tokens (Settings).")
        use_server(at, server.base_url, context_window=0)
        assert "(assumed: 'test-model' is not in the table" in window_line(at)


def test_scorecard_results_say_which_temperature_the_run_used() -> None:
    from tests.test_workshop_app import run_scorecard

    at = run_scorecard("name_recall", ["buffer"])
    result = at.session_state[KEY_PREFIX + "scorecard"].outcome.result
    assert result.temperature == 0.0  # nothing set in Settings: a replay sends 0, so runs repeat
    assert any(text.endswith("· " + EN["scorecard.temperature"].format(value="0")) for text in shown_text(at))


def test_replies_stopped_at_max_tokens_never_say_the_window_filled_up_in_a_pane() -> None:
    # A window that is known and far from full: every reply ends at max_tokens, and every pane says so.
    with FakeOpenAIServer(context_window=4096, stream_usage=False) as server:
        at = run(new_app())
        use_server(at, server.base_url, max_tokens=3)
        send(at, LONG_MESSAGE)
        texts = shown_text(at)
    turns = [pane.turns[-1] for pane in panes(at)]
    assert all(turn.ok and turn.cut_by == "max_tokens" for turn in turns), [t.error for t in turns]
    assert all(turn.notes and "context window" not in " ".join(turn.notes) for turn in turns)
    cut = [text for text in texts if text.startswith("Reply cut: max_tokens (3 tokens per reply)")]
    assert len(cut) == len(turns)
    assert not any("filled up" in text for text in texts)


def test_cached_tokens_the_server_reports_are_shown_as_the_providers_beside_the_estimate() -> None:
    """Issue 24: a server that reports prompt_tokens_details.cached_tokens, as OpenAI does."""
    with FakeOpenAIServer(report_cached_tokens=True) as server:
        at = run(new_app())
        use_server(at, server.base_url)
        send(at, "My name is Ada.")
        send(at, "What is my name?")
        open_inspector(at, 0, "tokens")
        texts = shown_text(at)
        tables = [table.value for table in at.table]
    reported = panes(at)[0].turns[-1].cached_tokens
    assert reported is not None and reported > 0
    rows = {
        str(what): str(cell)
        for table in tables
        for what, cell in zip(table.iloc[:, 0], table.iloc[:, 1], strict=True)
    }
    assert rows[EN["tokens.cached_reported"]].startswith(str(reported))
    assert EN["tokens.short.cache_provider"] in rows[EN["tokens.cached_reported"]]
    assert EN["tokens.cacheable"] in rows  # the estimate stays beside it
    assert any(EN["pane.cached_reported"].split("{")[0] in text for text in texts)
