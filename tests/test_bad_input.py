"""Bad input, in the core and in the app: unusual text goes through every pane intact, the length limit is
exact, and parameters out of range are refused with a reason while every conversation stays as it was."""

from __future__ import annotations

import json

import pytest

from memory_demos.providers.chat_models import ProviderConfig
from memory_demos.session import widget_key
from memory_demos.strategies.base import InputError, StrategyContext, validate_user_text
from memory_demos.strategies.registry import available_ids, build_strategy, parse_params
from tests.helpers import open_inspector, open_params
from tests.test_app_display_fixes import _add_pane as add_pane
from tests.test_workshop_app import click, new_app, panes, run, send

# Emoji with a skin tone and a ZWJ family, Chinese, Arabic and Hebrew (right-to-left, with an RLM),
# zero-width space / non-joiner / word joiner, a byte-order mark, an RTL override, a combining accent,
# a tab, and tiktoken's special-token text.
UNUSUAL = (
    "Hi 👋🏽 I'm 小明 from 北京, مرحبا بالعالم and שלום\u200f. Family: 👨\u200d👩\u200d👧. "
    "zero\u200bwidth\u200cjoin\u2060ers\ufeff, \u202ereversed\u202c, café = cafe\u0301,\ttab <|endoftext|> end"
)
SECOND = "وماذا بعد؟ 接下来呢？ 🤔"
# Strategies that send earlier messages verbatim on the next turn (the others summarise or retrieve).
VERBATIM = {
    "buffer",
    "window",
    "history",
    "langgraph",
    "trim",
    "turn_trim",
    "summarization",
    "hybrid",
    "combined",
}


def human_texts(turn) -> list[str]:
    return [message.content for message in turn.injected_prompt if message.role == "human"]


@pytest.mark.parametrize("strategy_id", available_ids())
def test_unusual_text_goes_through_every_strategy_intact(strategy_id: str) -> None:
    strategy = build_strategy(strategy_id, StrategyContext(provider=ProviderConfig()))
    try:
        first = strategy.send(UNUSUAL)
        assert first.ok, first.error
        assert first.user_text == UNUSUAL
        assert human_texts(first)[-1] == UNUSUAL  # exactly what was typed reached the model
        second = strategy.send(SECOND)
        assert second.ok, second.error
        assert human_texts(second)[-1] == SECOND
        if strategy_id in VERBATIM:
            assert UNUSUAL in human_texts(second), f"{strategy_id} changed the earlier message"
        json.dumps(second.state, ensure_ascii=False)  # the state view can render it
    finally:
        strategy.close()


def test_the_length_limit_counts_characters_and_is_exact() -> None:
    at_limit = "小" * 30 + "👋" * 10  # 40 characters (160 bytes in UTF-8)
    assert validate_user_text(at_limit, 40) == at_limit
    with pytest.raises(InputError, match="41 characters; the limit is 40"):
        validate_user_text(at_limit + "x", 40)
    strategy = build_strategy("buffer", StrategyContext(provider=ProviderConfig(), max_message_chars=40))
    assert strategy.send(at_limit).ok
    with pytest.raises(InputError):
        strategy.send(at_limit + "!")
    assert strategy.snapshot()["messages"][0]["content"] == at_limit
    assert len(strategy.snapshot()["messages"]) == 2  # the refused message touched no memory


@pytest.mark.parametrize(
    ("strategy_id", "params", "reason"),
    [
        ("window", {"k": -1}, "window.k must be at least 0; got -1"),
        ("vector", {"k": 0}, "vector.k must be at least 1; got 0"),
        ("trim", {"max_tokens": 0}, "trim.max_tokens must be at least 1; got 0"),
        ("trim", {"max_tokens": 5}, "the system prompt and the tool definitions alone take"),
        ("turn_trim", {"max_tokens": 10}, "the system prompt and the tool definitions alone take"),
        (
            "agent_trim",
            {"k": 2, "max_tokens": 400},
            "Set exactly one of agent_trim.k and agent_trim.max_tokens",
        ),
        ("token_buffer", {"max_token_limit": "lots"}, "must be a whole number"),
        ("history", {"backend": "floppy"}, "history.backend must be one of"),
        ("window", {"window_size": 3}, "window has no parameter 'window_size'"),
    ],
)
def test_parameters_that_cannot_work_are_refused_with_a_reason(
    strategy_id: str, params: dict, reason: str
) -> None:
    with pytest.raises(InputError) as caught:
        parse_params(strategy_id, params, StrategyContext(provider=ProviderConfig()))
    assert reason in str(caught.value)


def test_a_budget_smaller_than_a_long_system_prompt_is_refused() -> None:
    context = StrategyContext(provider=ProviderConfig(), system_prompt="Be kind. " * 40)
    with pytest.raises(InputError, match=r"hybrid\.max_tokens=60 leaves no room"):
        parse_params("hybrid", {"max_tokens": 60}, context)
    assert parse_params("hybrid", {"max_tokens": 600}, context)["max_tokens"] == 600
    assert parse_params("trim", {"max_tokens": 300}, StrategyContext(provider=ProviderConfig()))


def test_build_strategy_parses_once_and_the_strategy_gets_typed_values() -> None:
    """Strings (CLI, widgets) and typed values (YAML, code) give the same typed params; bad ones build nothing."""
    context = StrategyContext(provider=ProviderConfig())
    from_text = build_strategy("hybrid", context, {"window_k": "2", "max_tokens": "700"})
    assert from_text.params == {
        "window_k": 2,
        "max_tokens": 700,
        "order": "history_first",
        "embeddings": "auto",
    }
    assert parse_params("hybrid", from_text.params, context) == from_text.params  # typed parse to themselves
    with pytest.raises(InputError, match=r"Set exactly one of agent_trim\.k and agent_trim\.max_tokens"):
        build_strategy("agent_trim", context, {"k": "2", "max_tokens": "400"})


# -- in the app -------------------------------------------------------------------------------------
def test_unusual_text_reaches_every_pane_and_is_shown_exactly() -> None:
    at = run(new_app())
    at.switch_page("pages/compare.py")
    run(at)
    send(at, UNUSUAL)
    users = [message for message in at.chat_message if message.name == "user"]
    assert len(users) == len(panes(at))
    assert all(message.text[0].value == UNUSUAL for message in users)
    assert all(pane.turns[0].ok and pane.turns[0].user_text == UNUSUAL for pane in panes(at))
    send(at, SECOND)
    assert all(len(pane.turns) == 2 and pane.turns[1].ok for pane in panes(at))
    open_inspector(at, 0, "prompt")
    assert any(code.value == UNUSUAL for code in at.code)  # the prompt view shows it verbatim


def test_a_message_at_the_limit_is_sent_and_one_over_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_LAB_WORKSHOP", "1")
    monkeypatch.setenv("MEMORY_LAB_MAX_MESSAGE_CHARS", "50")
    at = run(new_app())
    at.switch_page("pages/compare.py")
    run(at)
    at_limit = "我叫小明" * 10 + "👋🏽" * 5  # 50 characters
    assert len(at_limit) == 50
    send(at, at_limit)
    assert all(len(pane.turns) == 1 and pane.turns[0].user_text == at_limit for pane in panes(at))
    send(at, at_limit + "!")
    assert any("51" in w.value and "50" in w.value for w in at.warning), [w.value for w in at.warning]
    assert all(len(pane.turns) == 1 for pane in panes(at))


def test_a_budget_below_the_system_prompt_is_refused_and_every_conversation_stays() -> None:
    at = run(new_app())
    at.switch_page("pages/compare.py")
    run(at)
    add_pane(at, "trim")  # trim is no longer a default pane
    send(at, "My name is Ada.")
    target = next(pane for pane in panes(at) if pane.strategy_id == "trim")
    before = {pane.pane_id: (pane.strategy, len(pane.turns), pane.strategy.snapshot()) for pane in panes(at)}
    open_params(at, target.pane_id)
    at.number_input(key=widget_key("pane", target.pane_id, "param", "max_tokens")).set_value(5)
    form = widget_key("pane", target.pane_id, "params_form")
    next(b for b in at.button if b.proto.form_id.endswith(form)).click().run()
    assert not at.exception, at.exception
    assert at.warning
    assert any("trim.max_tokens=5 leaves no room for a message" in text.value for text in at.text)
    after = {pane.pane_id: (pane.strategy, len(pane.turns), pane.strategy.snapshot()) for pane in panes(at)}
    assert after == before  # the same strategy objects, turns and memory
    assert target.params.get("max_tokens", 300) == 300
    send(at, "What is my name?")
    assert all(len(pane.turns) == 2 and pane.turns[1].ok for pane in panes(at))
    assert panes(at)[0].turns[1].reply.startswith("Your name is Ada")


def test_parameter_widgets_cannot_go_below_their_minimum() -> None:
    """k < 0 and a budget of 0 cannot leave the browser: the widgets carry the bounds the core checks."""
    at = run(new_app())
    at.switch_page("pages/compare.py")
    run(at)
    add_pane(at, "trim")  # trim is no longer a default pane
    by_strategy = {pane.strategy_id: pane.pane_id for pane in panes(at)}
    open_params(at, by_strategy["window"], by_strategy["trim"])
    assert at.number_input(key=widget_key("pane", by_strategy["window"], "param", "k")).min == 0
    assert at.number_input(key=widget_key("pane", by_strategy["trim"], "param", "max_tokens")).min == 1


def test_unusual_text_in_a_persisted_pane_survives_the_database() -> None:
    """SQLite keeps every code point: the same text comes back from a new strategy object."""
    context = StrategyContext(provider=ProviderConfig(), user_id="u" + "1" * 32)
    strategy = build_strategy("history", context, {"backend": "sqlite"})
    assert strategy.send(UNUSUAL).ok
    strategy.close()
    again = build_strategy("history", context, {"backend": "sqlite"})
    try:
        assert again.snapshot()["messages"][0]["content"] == UNUSUAL
    finally:
        again.close()


def test_clicking_through_a_refused_message_keeps_the_chat_box(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_LAB_MAX_MESSAGE_CHARS", "10")
    at = run(new_app())
    at.switch_page("pages/compare.py")
    run(at)
    send(at, "x" * 11)
    assert at.chat_input and not at.chat_message
    click(at, "Reset all")
    assert not at.exception
