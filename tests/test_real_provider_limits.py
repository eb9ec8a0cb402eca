"""Real providers: bounded replies, the real context window, one-at-a-time servers, failed-call costs.

Everything goes through the real ``ChatOpenAI`` and HTTP to the local fake server, in the shapes
real local servers have (single slot like llama-cpp-python, a small context like llama.cpp's).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pydantic import SecretStr

from memory_demos.providers.chat_models import DEFAULT_MAX_TOKENS, ProviderConfig, build_chat_model
from memory_demos.providers.context_window import ask_server, known_context_window
from memory_demos.runner import broadcast, pane_slots
from memory_demos.strategies.base import Strategy, StrategyContext
from memory_demos.strategies.registry import build_strategy
from memory_demos.tracing import CUT_BY_CONTEXT, CUT_BY_DEADLINE, CUT_BY_MAX_TOKENS, NOT_BILLED_SOURCE
from tests.fake_openai_server import FakeOpenAIServer

LONG_MESSAGE = " ".join(f"word{i}" for i in range(60))
INTERRUPTED = "The server stopped this reply to answer another request"
OVERFLOW = "Context window exceeded"


def provider(server: FakeOpenAIServer | None, **changes: object) -> ProviderConfig:
    config = ProviderConfig(
        kind="openai_compatible",
        model="test-model",
        base_url=server.base_url if server else "http://127.0.0.1:1/v1",
        max_retries=0,
        timeout_seconds=5,
    )
    return config.with_overrides(**changes)


@pytest.fixture
def strategies() -> Iterator[list[Strategy]]:
    built: list[Strategy] = []
    yield built
    for strategy in built:
        strategy.close()


def buffer_on(config: ProviderConfig, built: list[Strategy]) -> Strategy:
    strategy = build_strategy("buffer", StrategyContext(provider=config))
    built.append(strategy)
    return strategy


# -- bounded replies --------------------------------------------------------------------------------
def test_max_tokens_is_sent_and_a_reply_that_reaches_it_is_kept_marked_as_cut(
    strategies: list[Strategy],
) -> None:
    with FakeOpenAIServer() as server:
        normal = buffer_on(provider(server), strategies).send("hello there")
        assert server.requests[-1].body["max_tokens"] == DEFAULT_MAX_TOKENS
        assert normal.ok and normal.cut_by is None and not normal.notes

        streamed: list[str] = []
        cut = buffer_on(provider(server, max_tokens=5), strategies).send(LONG_MESSAGE, streamed.append)
    assert server.requests[-1].body["max_tokens"] == 5
    assert cut.ok, cut.error
    assert cut.reply == "".join(streamed) and cut.reply.split() == [
        "seen",
        "2",
        "messages:",
        "word0",
        "word1",
    ]
    assert cut.cut_by == CUT_BY_MAX_TOKENS
    assert cut.notes == [
        "Reply cut: max_tokens (5 tokens per reply) ended it. What the model said until then is kept, "
        "marked as cut."
    ]


def test_openai_itself_gets_max_completion_tokens() -> None:
    model = build_chat_model(
        ProviderConfig(kind="openai", model="gpt-4o-mini", api_key=SecretStr("sk-test-0000"), max_tokens=77)
    )
    payload = model._get_request_payload([("human", "hi")])  # type: ignore[attr-defined]
    assert payload["max_completion_tokens"] == 77 and "max_tokens" not in payload


def test_a_reply_still_streaming_at_the_deadline_is_kept_marked_as_cut(strategies: list[Strategy]) -> None:
    with FakeOpenAIServer(chunk_delay=0.1) as server:
        turn = buffer_on(provider(server, timeout_seconds=0.5), strategies).send(LONG_MESSAGE)
    assert turn.ok, turn.error
    assert turn.cut_by == CUT_BY_DEADLINE
    assert turn.reply.startswith("seen 2 messages: word0") and not turn.reply.endswith("word59")
    assert turn.notes[0].startswith("Reply cut: the deadline of 0.5 s per call ended it.")
    # Stopped at the deadline, not after the 6 s the whole reply takes.
    assert turn.seconds < 3


# -- the context window -----------------------------------------------------------------------------
def test_the_window_comes_from_the_table_the_server_or_settings_and_a_guess_says_assumed() -> None:
    known = ProviderConfig(kind="openai", model="gpt-4o-mini").context_window_info
    assert known.tokens == 128_000 and not known.assumed and known.source.startswith("table: gpt-4o")
    guessed = provider(None, model="llama3.1:8b").context_window_info
    assert guessed.assumed and guessed.source.startswith("assumed")
    given = provider(None, context_window_tokens=4096, context_window_source="Settings").context_window_info
    assert (given.tokens, given.assumed) == (4096, False)
    assert known_context_window("my-local-model") is None
    with FakeOpenAIServer(context_window=2048) as server:
        told = ask_server(server.base_url, "test-model")
    assert told is not None and (told.tokens, told.assumed) == (2048, False)
    assert "llama.cpp /props" in told.source
    with FakeOpenAIServer() as silent:
        assert ask_server(silent.base_url, "test-model") is None


def test_overflow_at_the_start_is_reported_as_context_not_connection(strategies: list[Strategy]) -> None:
    with FakeOpenAIServer(context_window=20) as server:
        turn = buffer_on(provider(server), strategies).send(LONG_MESSAGE)
    assert turn.error is not None and turn.error.startswith(OVERFLOW)
    assert turn.error_kind == "context_overflow"
    assert "smaller memory budget" in turn.error and "dropped" not in turn.error


@pytest.mark.parametrize("cut_socket", [False, True], ids=["error-event", "socket-cut"])
def test_overflow_in_the_middle_of_a_stream_is_reported_as_context(
    strategies: list[Strategy], cut_socket: bool
) -> None:
    # The prompt fits (about 20 of 32 tokens); the reply runs out of room half-way.
    with FakeOpenAIServer(context_window=32, overflow_cut=cut_socket) as server:
        config = provider(server, context_window_tokens=32, context_window_source="server")
        turn = buffer_on(config, strategies).send("one two three four five six seven eight nine ten eleven")
        assert server.request_count() == 1
    assert turn.error is not None and turn.error.startswith(OVERFLOW), turn.error
    assert "dropped" not in turn.error and turn.reply == ""
    if cut_socket:  # no word from the server: the figures say why it is read as an overflow
        assert "context window of 32" in turn.error


def _length_call(usage: dict[str, int] | None, window: int | None) -> str | None:
    """The cut a capture reads from a ``length`` reply with ``usage`` (None: no usage came back)."""
    from langchain_core.messages import AIMessage
    from langchain_core.outputs import ChatGeneration, LLMResult

    from memory_demos.tracing import CallCapture

    capture = CallCapture("o200k_base", context_window=window)
    run_id = __import__("uuid").uuid4()
    capture.on_chat_model_start({}, [[]], run_id=run_id, invocation_params={"max_tokens": 128})
    metadata = {"finish_reason": "length", "model_provider": "openai"}
    message = AIMessage("a short reply", response_metadata=metadata, usage_metadata=usage)
    capture.on_llm_end(LLMResult(generations=[[ChatGeneration(message=message)]]), run_id=run_id)
    [call] = capture.drain()
    return call.cut_by


def test_finish_reason_length_is_max_tokens_unless_the_servers_usage_puts_it_at_the_window() -> None:
    # SmolLM2 stopped at max_tokens=128, which o200k_base counts as ~80: still max_tokens, not the window.
    assert _length_call(None, window=4096) == CUT_BY_MAX_TOKENS
    far = {"input_tokens": 1500, "output_tokens": 128, "total_tokens": 1628}
    assert _length_call(far, window=4096) == CUT_BY_MAX_TOKENS
    at_window = {"input_tokens": 4000, "output_tokens": 96, "total_tokens": 4096}
    assert _length_call(at_window, window=4096) == CUT_BY_CONTEXT
    assert _length_call(at_window, window=None) == CUT_BY_MAX_TOKENS  # an assumed window proves nothing


# -- one request at a time --------------------------------------------------------------------------
def test_a_single_slot_server_interrupts_parallel_panes_unless_they_take_turns(
    strategies: list[Strategy],
) -> None:
    with FakeOpenAIServer(single_slot=True, chunk_delay=0.03) as server:
        panes = [buffer_on(provider(server), strategies) for _ in range(3)]
        turns = broadcast(panes, LONG_MESSAGE)
        interrupted = [turn for turn in turns if not turn.ok]
        assert interrupted and server.interrupted == len(interrupted)
        for turn in interrupted:
            assert turn.error is not None and turn.error.startswith(INTERRUPTED)
            assert "--concurrency 1" in turn.error and "--interrupt_requests false" in turn.error
            assert turn.error_kind == "interrupted"

        one_at_a_time = pane_slots(1)
        retried = broadcast(panes, "again, one at a time", call_slot=one_at_a_time)
        assert all(turn.ok for turn in retried), [turn.error for turn in retried]
        assert server.interrupted == len(interrupted)


# -- what failed calls cost -------------------------------------------------------------------------
def test_a_call_to_an_unreachable_server_costs_nothing_and_shows_apart(strategies: list[Strategy]) -> None:
    turn = buffer_on(provider(None), strategies).send("hello")
    assert turn.error is not None and turn.error.startswith("Cannot reach the provider")
    assert turn.reply_call is not None and turn.reply_call.error is not None
    assert (turn.prompt_tokens, turn.completion_tokens, turn.total_tokens) == (0, 0, 0)
    assert turn.failed_calls == [turn.reply_call]
    assert turn.reply_call.token_source == NOT_BILLED_SOURCE
    # The prompt that would have been sent is still there to look at.
    assert any(message.content == "hello" for message in turn.injected_prompt)


def test_each_servers_way_of_telling_its_window_is_read() -> None:
    from memory_demos.providers.context_window import (
        _from_lm_studio,
        _from_models_list,
        _from_ollama_show,
    )

    vllm = {"object": "list", "data": [{"id": "qwen", "object": "model", "max_model_len": 8192}]}
    assert _from_models_list(vllm, "qwen") is not None and _from_models_list(vllm, "qwen").tokens == 8192
    assert _from_models_list({"data": [{"id": "a"}, {"id": "b", "max_model_len": 5}]}, "c") is None

    set_in_modelfile = {
        "parameters": "temperature 0.7\nnum_ctx 16384",
        "model_info": {"llama.context_length": 131072},
    }
    told = _from_ollama_show(set_in_modelfile)
    assert told is not None and (told.tokens, told.assumed) == (16384, False)
    trained_only = _from_ollama_show({"parameters": "", "model_info": {"llama.context_length": 131072}})
    assert trained_only is not None and trained_only.assumed and "num_ctx" in trained_only.source

    lm_studio = {"data": [{"id": "m", "max_context_length": 131072, "loaded_context_length": 4096}]}
    loaded = _from_lm_studio(lm_studio, "m")
    assert loaded is not None and loaded.tokens == 4096
    assert _from_lm_studio({"data": [{"id": "m", "max_context_length": 32768}]}, "m").tokens == 32768
