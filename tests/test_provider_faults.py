"""Provider faults through the real ``ChatOpenAI`` client against a local fake OpenAI server.

Each fault (timeout, 429, 500, a dropped connection, a malformed body), streamed and not, must
come back as one clear line in ``Turn.error`` with memory exactly as it was, and the next turn must
work and send the whole remembered history. Retries are bounded and honour ``Retry-After``; a failing
summary call degrades instead of failing the turn; the API key never leaks.
"""

from __future__ import annotations

import concurrent.futures
import itertools
import json
import logging
import socket
from collections.abc import Callable, Iterator
from copy import deepcopy
from dataclasses import asdict, dataclass, replace
from typing import Any

import httpx2
import openai
import pytest
from pydantic import SecretStr

from memory_demos.providers.chat_models import ProviderConfig, build_chat_model
from memory_demos.providers.errors import InjectedFault, describe_error
from memory_demos.strategies import base
from memory_demos.strategies.base import Strategy, StrategyContext
from memory_demos.strategies.registry import available_ids, build_strategy
from memory_demos.turn import Turn
from tests.fake_openai_server import SUMMARY_MARKER, FakeOpenAIServer, Fault, RecordedRequest

API_KEY = "sk-test-abcdef123456"
TIMEOUT_SECONDS = 0.5
MAX_RETRIES = 1

TIMEOUT_MESSAGE = (
    "The model did not answer in time (timeout). Raise the timeout (Settings, or --timeout) or lower "
    "max_tokens, then try again."
)
RATE_LIMIT_MESSAGE = "The provider is rate limiting requests (429). Wait a moment and retry."
SERVER_ERROR_MESSAGE = "The provider had an internal error (5xx). Retry in a moment."
DROPPED_MESSAGE = "The connection to the provider dropped before the reply was complete. Try again."
UNREACHABLE_MESSAGE = "Cannot reach the provider: check the base URL and that the server is running."
MALFORMED_MESSAGE = "The provider sent a malformed response."

FAULT_STRATEGIES = tuple(
    s for s in ("buffer", "summary", "summary_buffer", "history") if s in available_ids()
)
SUMMARY_STRATEGIES = tuple(s for s in ("summary", "summary_buffer") if s in available_ids())
# Small enough that the second turn folds the first into the summary. (Below 3 the class pops from an
# empty list: the token count of no messages is 3, the reply priming.)
SUMMARY_PARAMS: dict[str, dict[str, Any]] = {"summary_buffer": {"max_token_limit": 30}}


def test_buffer_is_available() -> None:
    """The fault matrix needs at least one strategy; the others join as their modules land."""
    assert "buffer" in FAULT_STRATEGIES


# -- set-up ---------------------------------------------------------------------------------------
@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as fake:
        yield fake


def provider_for(server: FakeOpenAIServer, **changes: Any) -> ProviderConfig:
    config = ProviderConfig(
        kind="openai_compatible",
        model="test-model",
        base_url=server.base_url,
        api_key=SecretStr(API_KEY),
        timeout_seconds=TIMEOUT_SECONDS,
        max_retries=MAX_RETRIES,
    )
    return config.with_overrides(**changes)


def force_plain_responses(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every model the strategies build answers with one JSON body instead of an SSE stream."""
    real_build = base.build_chat_model

    def build_plain(config: ProviderConfig, **kwargs: Any) -> Any:
        kwargs["streaming"] = False
        return real_build(config, **kwargs)

    monkeypatch.setattr(base, "build_chat_model", build_plain)


def make_strategy(
    strategy_id: str,
    config: ProviderConfig,
    *,
    streamed: bool,
    monkeypatch: pytest.MonkeyPatch,
    params: dict[str, Any] | None = None,
) -> Strategy:
    if not streamed:
        force_plain_responses(monkeypatch)
    return build_strategy(strategy_id, StrategyContext(provider=config), params)


def expected_reply(request: RecordedRequest) -> str:
    return f"seen {len(request.messages)} messages: {request.last_user_text}"


def reply_request(server: FakeOpenAIServer, user_text: str) -> RecordedRequest:
    """The last request that carried ``user_text`` as the newest user message (not a summary call)."""
    matching = [r for r in server.requests if r.last_user_text == user_text]
    assert matching, f"the server never received {user_text!r}"
    return matching[-1]


def assert_clean_error(turn: Turn, expected: str) -> None:
    """One line, the mapped sentence, no traceback, no key anywhere in the turn's JSON."""
    assert turn.error == expected
    assert "\n" not in turn.error
    assert "Traceback" not in turn.error
    assert API_KEY not in json.dumps(turn.to_json())


def run_setup_turns(strategy: Strategy) -> None:
    for text in ("My name is Ada.", "I live in Paris."):
        turn = strategy.send(text)
        assert turn.ok, turn.error


# -- the fault matrix -----------------------------------------------------------------------------
@dataclass(frozen=True)
class FaultCase:
    """A fault to inject on every request of one turn, what the user reads, and how many attempts."""

    name: str
    make_fault: Callable[[], Fault]
    message: str
    attempts_streamed: int
    attempts_plain: int
    streamed_only: bool = False


FAULT_CASES = (
    FaultCase(
        "timeout",
        lambda: Fault("delay", times=None, seconds=TIMEOUT_SECONDS * 4),
        TIMEOUT_MESSAGE,
        1 + MAX_RETRIES,
        1 + MAX_RETRIES,
    ),
    FaultCase(
        "rate_limit",
        lambda: Fault("rate_limit", times=None, retry_after="0.1"),
        RATE_LIMIT_MESSAGE,
        1 + MAX_RETRIES,
        1 + MAX_RETRIES,
    ),
    FaultCase(
        "server_error",
        lambda: Fault("server_error", times=None),
        SERVER_ERROR_MESSAGE,
        1 + MAX_RETRIES,
        1 + MAX_RETRIES,
    ),
    # A stream that breaks after its headers arrived is not retried by the SDK; a plain body is.
    FaultCase("dropped", lambda: Fault("drop", times=None), DROPPED_MESSAGE, 1, 1 + MAX_RETRIES),
    FaultCase("malformed", lambda: Fault("malformed", times=None), MALFORMED_MESSAGE, 1, 1),
    FaultCase(
        "stalled_stream",
        lambda: Fault("stall_stream", times=None, seconds=TIMEOUT_SECONDS * 4),
        TIMEOUT_MESSAGE,
        1,
        1,
        streamed_only=True,
    ),
)
MATRIX = [
    pytest.param(
        strategy_id, case, streamed, id=f"{strategy_id}-{case.name}-{'stream' if streamed else 'plain'}"
    )
    for strategy_id in FAULT_STRATEGIES
    for case in FAULT_CASES
    for streamed in (True, False)
    if streamed or not case.streamed_only
]


@pytest.mark.parametrize(("strategy_id", "case", "streamed"), MATRIX)
def test_fault_rolls_back_and_next_turn_works(
    server: FakeOpenAIServer,
    monkeypatch: pytest.MonkeyPatch,
    strategy_id: str,
    case: FaultCase,
    streamed: bool,
) -> None:
    strategy = make_strategy(strategy_id, provider_for(server), streamed=streamed, monkeypatch=monkeypatch)
    run_setup_turns(strategy)
    before = deepcopy(strategy.snapshot())
    requests_before = server.request_count()

    server.add_fault(case.make_fault())
    tokens: list[str] = []
    failed = strategy.send("What is my name?", on_token=tokens.append)

    assert_clean_error(failed, case.message)
    assert failed.reply == ""
    assert failed.state == before
    assert strategy.snapshot() == before
    attempts = case.attempts_streamed if streamed else case.attempts_plain
    assert server.request_count() - requests_before == attempts
    # Every attempt was the reply call (memory calls only happen after a reply).
    assert all(r.last_user_text == "What is my name?" for r in server.requests[requests_before:])
    if case.name in {"dropped", "stalled_stream"} and streamed:
        # The user already saw the first words before the connection broke: the page must discard them.
        assert tokens == ["seen "]

    server.clear_faults()
    recovered = strategy.send("Where do I live?")
    assert recovered.ok, recovered.error
    sent = reply_request(server, "Where do I live?")
    assert recovered.reply == expected_reply(sent)
    assert sent.streamed is streamed
    assert "What is my name?" not in sent.raw_body
    assert_full_history_sent(strategy_id, before, sent)


def assert_full_history_sent(strategy_id: str, before: dict[str, Any], sent: RecordedRequest) -> None:
    """What the server got after the failure is the memory from before it, plus the new message."""
    roles = {"human": "user", "ai": "assistant", "system": "system"}
    messages = [(m["role"], m["content"]) for m in sent.messages]
    assert messages[0][0] == "system"
    if before.get("summary"):
        assert before["summary"] in messages[0][1]
    remembered = (
        [] if strategy_id == "summary" else [(roles[m["role"]], m["content"]) for m in before["messages"]]
    )
    assert messages[1:] == [*remembered, ("user", "Where do I live?")]
    if strategy_id != "summary":
        assert ("user", "My name is Ada.") in messages
        assert ("user", "I live in Paris.") in messages


# -- retries and their timing ---------------------------------------------------------------------
def gaps(requests: list[RecordedRequest]) -> list[float]:
    return [round(b.received_at - a.received_at, 3) for a, b in itertools.pairwise(requests)]


def test_server_errors_are_retried_exactly_max_retries_times(
    server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    strategy = make_strategy(
        "buffer", provider_for(server, max_retries=2), streamed=True, monkeypatch=monkeypatch
    )
    server.add_fault(Fault("server_error", times=None))

    turn = strategy.send("hello")

    assert turn.error == SERVER_ERROR_MESSAGE
    assert server.request_count() == 1 + 2
    measured = gaps(server.requests)
    print(f"500 retry gaps (max_retries=2, SDK exponential backoff with jitter): {measured}")
    # openai's backoff: 0.5 s * 2**n, minus up to 25 % jitter.
    assert 0.375 - 0.05 <= measured[0] <= 0.5 + 0.25
    assert 0.75 - 0.05 <= measured[1] <= 1.0 + 0.25


def test_zero_retries_means_one_request(server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    strategy = make_strategy(
        "buffer", provider_for(server, max_retries=0), streamed=False, monkeypatch=monkeypatch
    )
    server.add_fault(Fault("server_error", times=None))

    assert strategy.send("hello").error == SERVER_ERROR_MESSAGE
    assert server.request_count() == 1


def test_timeouts_bound_the_turn(server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    strategy = make_strategy(
        "buffer", provider_for(server, max_retries=1), streamed=True, monkeypatch=monkeypatch
    )
    server.add_fault(Fault("delay", times=None, seconds=5))

    turn = strategy.send("hello")

    assert turn.error == TIMEOUT_MESSAGE
    print(
        f"timeout turn: {turn.seconds:.2f} s (timeout {TIMEOUT_SECONDS} s, 1 retry), gaps {gaps(server.requests)}"
    )
    # Two attempts of 0.5 s plus one backoff of at most 0.5 s; far below the 5 s the server would take.
    # Lower bound: both attempts waited the full timeout. The upper bound only rules out a hang and
    # leaves room for a loaded CI machine.
    assert 2 * TIMEOUT_SECONDS <= turn.seconds < 2 * TIMEOUT_SECONDS + 10


def test_rate_limit_honours_retry_after(server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    strategy = make_strategy(
        "buffer", provider_for(server, max_retries=2), streamed=True, monkeypatch=monkeypatch
    )
    server.add_fault(Fault("rate_limit", times=1, retry_after="1"))

    turn = strategy.send("hello")

    assert turn.ok, turn.error
    assert turn.reply == "seen 2 messages: hello"
    first, second = server.requests
    assert first.fault == "rate_limit" and second.fault is None
    waited = second.received_at - first.received_at
    print(f"429 with Retry-After: 1 -> the client waited {waited:.3f} s; the turn took {turn.seconds:.3f} s")
    assert 1.0 <= waited < 10
    assert turn.seconds >= 1.0


def test_rate_limit_with_a_long_retry_after_fails_fast(
    server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The SDK honours Retry-After only up to 120 s; beyond that it does not retry at all."""
    strategy = make_strategy(
        "buffer", provider_for(server, max_retries=2), streamed=True, monkeypatch=monkeypatch
    )
    server.add_fault(Fault("rate_limit", times=None, retry_after="600"))

    turn = strategy.send("hello")

    assert turn.error == RATE_LIMIT_MESSAGE
    assert server.request_count() == 1
    assert turn.seconds < 30, "it must not sit out a 600 s Retry-After"


def test_recovers_after_transient_faults_within_the_retry_budget(
    server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    strategy = make_strategy(
        "buffer", provider_for(server, max_retries=2), streamed=False, monkeypatch=monkeypatch
    )
    server.add_fault(Fault("server_error", times=1))
    server.add_fault(Fault("drop", times=1))

    turn = strategy.send("hello")

    assert turn.ok, turn.error
    assert [r.fault for r in server.requests] == ["server_error", "drop", None]
    assert [m["content"] for m in strategy.snapshot()["messages"]] == ["hello", "seen 2 messages: hello"]


# -- the protocol as the client really speaks it --------------------------------------------------
def test_streamed_turn_sends_usage_request_and_uses_reported_usage(
    server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    strategy = make_strategy("buffer", provider_for(server), streamed=True, monkeypatch=monkeypatch)
    tokens: list[str] = []

    turn = strategy.send("hello there", on_token=tokens.append)

    (request,) = server.requests
    assert request.path == "/v1/chat/completions"
    assert request.body["model"] == "test-model"
    assert request.body["stream"] is True
    assert request.body["stream_options"] == {"include_usage": True}
    assert request.headers["authorization"] == f"Bearer {API_KEY}"
    assert "".join(tokens) == turn.reply == "seen 2 messages: hello there"
    assert len(tokens) > 1
    assert turn.reply_call is not None
    assert turn.reply_call.token_source == "reported by the provider"
    words = sum(len(m["content"].split()) + 3 for m in request.messages)
    assert turn.prompt_tokens == words
    assert turn.completion_tokens == len(turn.reply.split())


def test_truncated_stream_is_an_error(server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    strategy = make_strategy("buffer", provider_for(server), streamed=True, monkeypatch=monkeypatch)
    server.add_fault(Fault("truncated_stream", chunks_before=2))

    turn = strategy.send("hello")

    assert strategy.snapshot() == {"messages": []}
    assert turn.error == "The connection to the provider dropped before the reply was complete. Try again."


# -- a failing memory call degrades ---------------------------------------------------------------
@pytest.mark.skipif(not SUMMARY_STRATEGIES, reason="no summary strategy in this checkout yet")
@pytest.mark.parametrize("strategy_id", SUMMARY_STRATEGIES)
@pytest.mark.parametrize("fault_kind", ["server_error", "delay", "malformed"])
def test_failing_summary_call_keeps_the_reply_and_the_raw_turn(
    server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch, strategy_id: str, fault_kind: str
) -> None:
    strategy = make_strategy(
        strategy_id,
        provider_for(server),
        streamed=True,
        monkeypatch=monkeypatch,
        params=SUMMARY_PARAMS.get(strategy_id),
    )
    run_setup_turns(strategy)
    before = deepcopy(strategy.snapshot())
    assert "Ada" in before["summary"], "the setup turns should have been summarised"
    summary_calls_before = server.request_count(SUMMARY_MARKER)

    server.add_fault(Fault(fault_kind, times=None, match=SUMMARY_MARKER, seconds=TIMEOUT_SECONDS * 4))
    turn = strategy.send("What is my name?")

    assert turn.ok, turn.error
    assert turn.reply == expected_reply(reply_request(server, "What is my name?"))
    assert len(turn.notes) == 1
    assert "skipped" in turn.notes[0]
    assert API_KEY not in turn.notes[0]
    after = strategy.snapshot()
    assert after["summary"] == before["summary"]
    assert after["messages"] == [
        *before["messages"],
        {"role": "human", "content": "What is my name?"},
        {"role": "ai", "content": turn.reply},
    ]
    assert server.request_count(SUMMARY_MARKER) - summary_calls_before == (
        1 if fault_kind == "malformed" else 1 + MAX_RETRIES
    )

    # Once the server behaves, the next turn summarises again and nothing was lost.
    server.clear_faults()
    recovered = strategy.send("Where do I live?")
    assert recovered.ok and not recovered.notes, (recovered.error, recovered.notes)
    text_sent = reply_request(server, "Where do I live?").raw_body
    assert "My name is Ada." in text_sent
    if strategy_id == "summary_buffer":
        # The kept raw turn is still in the buffer, so it is sent, then folded into the summary.
        assert "What is my name?" in text_sent
        assert "What is my name?" in strategy.snapshot()["summary"]


@pytest.mark.skipif("summary" not in SUMMARY_STRATEGIES, reason="no summary strategy in this checkout yet")
def test_summary_catches_up_on_a_turn_whose_summary_failed(
    server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    strategy = make_strategy("summary", provider_for(server), streamed=True, monkeypatch=monkeypatch)
    run_setup_turns(strategy)
    server.add_fault(Fault("server_error", times=None, match=SUMMARY_MARKER))
    assert strategy.send("My dog is called Rex.").notes
    server.clear_faults()

    assert strategy.send("Where do I live?").ok
    strategy.send("What is my dog called?")

    assert "Rex" in reply_request(server, "What is my dog called?").raw_body


# -- every strategy survives a failing reply ------------------------------------------------------
SWEEP_IDS = tuple(s for s in available_ids() if s not in FAULT_STRATEGIES)
# Snapshot fields that describe the failed attempt rather than the memory: trim's view of what the last
# call kept, and langgraph's checkpoint log (the failed attempt's checkpoints stay, off the head's branch).
ATTEMPT_FIELDS: dict[str, set[str]] = {
    "trim": {"kept", "kept_count", "kept_tokens", "model_calls"},
    "turn_trim": {"kept", "kept_count", "kept_tokens", "model_calls"},
    "langgraph": {"checkpoints"},
    "agent": {"checkpoints"},
    "agent_trim": {"checkpoints"},
    "context_editing": {"checkpoints"},
    "semantic_store": {"checkpoints"},
}


def memory_fields(strategy_id: str, snapshot: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in snapshot.items() if k not in ATTEMPT_FIELDS.get(strategy_id, set())}


@pytest.mark.parametrize("strategy_id", SWEEP_IDS)
def test_every_other_strategy_rolls_back_a_failed_reply(
    server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch, strategy_id: str
) -> None:
    strategy = make_strategy(
        strategy_id, provider_for(server, max_retries=0), streamed=True, monkeypatch=monkeypatch
    )
    try:
        run_setup_turns(strategy)
        before = deepcopy(strategy.snapshot())
        server.add_fault(Fault("server_error", times=None, match="What is my name?"))

        failed = strategy.send("What is my name?")

        assert_clean_error(failed, SERVER_ERROR_MESSAGE)
        assert memory_fields(strategy_id, strategy.snapshot()) == memory_fields(strategy_id, before)
        server.clear_faults()
        recovered = strategy.send("Where do I live?")
        assert recovered.ok, recovered.error
        assert "What is my name?" not in reply_request(server, "Where do I live?").raw_body
    finally:
        strategy.close()


# -- the key never leaks --------------------------------------------------------------------------
LOGGERS = ("openai", "httpx", "httpx2", "httpcore", "httpcore2", "langchain", "langchain_openai")


def test_api_key_never_leaks(
    server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    config = provider_for(server, max_retries=1)
    assert API_KEY not in str(config)
    assert API_KEY not in repr(config)
    for name in LOGGERS:
        caplog.set_level(logging.DEBUG, logger=name)
    caplog.set_level(logging.DEBUG)

    strategy = make_strategy("buffer", config, streamed=True, monkeypatch=monkeypatch)
    assert API_KEY not in repr(strategy.reply_model)
    ok = strategy.send("hello")
    server.add_fault(Fault("rate_limit", times=1, retry_after="0.05"))
    retried = strategy.send("again")
    # A careless proxy echoes the key back in its error body.
    server.add_fault(Fault("status", status=401, message=f"Incorrect API key provided: {API_KEY}"))
    refused = strategy.send("and again")
    server.add_fault(Fault("status", status=400, message=f"Bad request from key {API_KEY}"))
    rejected = strategy.send("once more")

    assert ok.ok and retried.ok
    assert server.requests[0].headers["authorization"] == f"Bearer {API_KEY}"
    assert refused.error is not None and refused.error.startswith("The provider refused the API key (401).")
    assert rejected.error is not None and rejected.error.startswith("The provider rejected the request:")
    for turn in (ok, retried, refused, rejected):
        assert API_KEY not in (turn.error or "")
        assert API_KEY not in json.dumps(turn.to_json())
    # The log really was captured at DEBUG (the test could fail), and holds no key.
    messages = [record.getMessage() for record in caplog.records]
    assert any("Retrying request" in message for message in messages)
    assert any(record.name.startswith("httpx") for record in caplog.records)
    assert API_KEY not in caplog.text
    assert not [m for m in messages if API_KEY in m]


def test_api_key_not_in_recorded_model_calls(
    server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    strategy = make_strategy("buffer", provider_for(server), streamed=True, monkeypatch=monkeypatch)
    server.add_fault(Fault("status", status=401, message=f"Incorrect API key provided: {API_KEY}"))

    turn = strategy.send("hello")

    assert turn.reply_call is not None
    assert API_KEY not in json.dumps(asdict(turn), default=str)


@pytest.mark.skipif(not SUMMARY_STRATEGIES, reason="no summary strategy in this checkout yet")
def test_api_key_not_in_degradation_notes(server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    strategy_id = SUMMARY_STRATEGIES[0]
    strategy = make_strategy(
        strategy_id,
        provider_for(server),
        streamed=True,
        monkeypatch=monkeypatch,
        params=SUMMARY_PARAMS.get(strategy_id),
    )
    run_setup_turns(strategy)
    server.add_fault(
        Fault("status", times=None, status=401, match=SUMMARY_MARKER, message=f"Incorrect API key: {API_KEY}")
    )

    turn = strategy.send("What is my name?")

    assert turn.ok and turn.notes
    assert API_KEY not in " ".join(turn.notes)


# -- describe_error on the real exceptions --------------------------------------------------------
def raised_by_chat_model(config: ProviderConfig, *, streaming: bool = True) -> BaseException:
    model = build_chat_model(config, streaming=streaming)
    with pytest.raises(Exception) as caught:
        model.invoke("hello")
    return caught.value


STATUS_CASES = [
    (400, "Invalid value for 'temperature'.", "The provider rejected the request: Error code: 400 - "),
    (
        400,
        "This model's maximum context length is 8192 tokens (context_length_exceeded).",
        "Context window exceeded: the prompt (or the prompt plus the reply) is longer than the model can take.",
    ),
    (
        401,
        "Incorrect API key provided.",
        "The provider refused the API key (401). Check the key (in Settings, or the variable named by "
        "--api-key-env on the command line).",
    ),
    (403, "You are not allowed to use this model.", "The provider denied access to this model (403)."),
    (404, "The model `test-model` does not exist.", "The provider does not know this model or URL (404)."),
    (409, "Conflict.", "The provider rejected the request: Error code: 409 - "),
    (422, "Unprocessable.", "The provider rejected the request: Error code: 422 - "),
    (429, "Slow down.", RATE_LIMIT_MESSAGE),
    (500, "Boom.", SERVER_ERROR_MESSAGE),
    (503, "Overloaded.", SERVER_ERROR_MESSAGE),
]


@pytest.mark.parametrize(("status", "server_message", "expected"), STATUS_CASES)
def test_describe_error_for_each_status(
    server: FakeOpenAIServer, status: int, server_message: str, expected: str
) -> None:
    server.add_fault(Fault("status", times=None, status=status, message=server_message))
    error = raised_by_chat_model(provider_for(server, max_retries=0))

    # ChatOpenAI re-raises most SDK errors as its own subclasses; both must read the same.
    assert isinstance(error, openai.APIStatusError)
    assert describe_error(error, API_KEY).startswith(expected)
    sdk_error = error.__cause__ if isinstance(error.__cause__, openai.APIStatusError) else error
    assert describe_error(sdk_error, API_KEY).startswith(expected)


@pytest.mark.parametrize("streaming", [True, False], ids=["stream", "plain"])
@pytest.mark.parametrize(
    ("fault", "expected", "sdk_class"),
    [
        (Fault("delay", times=None, seconds=2), TIMEOUT_MESSAGE, openai.APITimeoutError),
        (Fault("drop", times=None), DROPPED_MESSAGE, openai.APIConnectionError),
        (Fault("malformed", times=None), MALFORMED_MESSAGE, json.JSONDecodeError),
    ],
    ids=["timeout", "dropped", "malformed"],
)
def test_describe_error_for_transport_faults(
    server: FakeOpenAIServer, fault: Fault, expected: str, sdk_class: type[BaseException], streaming: bool
) -> None:
    server.add_fault(replace(fault))
    error = raised_by_chat_model(provider_for(server, max_retries=0), streaming=streaming)

    assert isinstance(error, sdk_class)
    assert describe_error(error) == expected
    if isinstance(error.__cause__, openai.OpenAIError):
        assert describe_error(error.__cause__) == expected


def test_describe_error_for_an_unreachable_server() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = ProviderConfig(
        kind="openai_compatible",
        model="test-model",
        base_url=f"http://127.0.0.1:{port}/v1",
        api_key=SecretStr(API_KEY),
        timeout_seconds=TIMEOUT_SECONDS,
        max_retries=0,
    )
    error = raised_by_chat_model(config)

    assert isinstance(error, openai.APIConnectionError)
    assert describe_error(error) == UNREACHABLE_MESSAGE


def test_describe_error_for_bare_exceptions() -> None:
    request = httpx2.Request("POST", "http://127.0.0.1/v1/chat/completions")
    assert describe_error(openai.APITimeoutError(request=request)) == TIMEOUT_MESSAGE
    assert describe_error(httpx2.ReadTimeout("timed out", request=request)) == TIMEOUT_MESSAGE
    assert describe_error(TimeoutError("timed out")) == TIMEOUT_MESSAGE
    assert describe_error(openai.APIConnectionError(request=request)) == UNREACHABLE_MESSAGE
    assert describe_error(json.JSONDecodeError("Expecting value", "{", 1)) == MALFORMED_MESSAGE
    assert describe_error(InjectedFault("reply call 2")) == "Injected fault: reply call 2"
    assert describe_error(RuntimeError(f"odd\nfailure with {API_KEY}"), API_KEY) == (
        "RuntimeError: odd failure with [redacted]"
    )
    assert describe_error(RuntimeError("x" * 1000)).endswith("...")
    assert len(describe_error(RuntimeError("x" * 1000))) == 300


def test_describe_error_speaks_the_asked_language_and_keeps_the_details() -> None:
    from memory_demos.workshop.budget import BudgetExceeded

    assert describe_error(TimeoutError("timed out")).in_language("zh").startswith("模型没有及时回答（超时）")
    assert describe_error(InjectedFault("reply call 2")).in_language("zh") == "注入的故障：reply call 2"
    # Text the provider wrote is data: only our own words change language, and secrets still go.
    assert describe_error(RuntimeError(f"odd failure {API_KEY}"), API_KEY).in_language("zh") == (
        "RuntimeError: odd failure [redacted]"
    )
    refused = BudgetExceeded("tokens", needed="1,200", left="300", limit="5,000")
    assert str(refused).startswith("Token budget reached: this call needs about 1,200 tokens")
    assert describe_error(refused) == str(refused)
    assert describe_error(refused).in_language("zh") == (
        "已达到词元预算：这次调用大约需要 1,200 个词元（提示词加一次回答），而 5,000 个中只剩 300 个。没有发送任何内容。"
    )
    assert describe_error(BudgetExceeded("concurrency")).in_language("zh").startswith("这位学员同时发起")


def test_fake_server_records_bodies_thread_safely(server: FakeOpenAIServer) -> None:
    """The fake server itself: concurrent requests are all recorded, each answered for its own body."""
    model = build_chat_model(provider_for(server), streaming=False)
    texts = [f"message {n}" for n in range(16)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        replies = list(pool.map(lambda text: model.invoke(text).content, texts))

    assert replies == [f"seen 1 messages: {text}" for text in texts]
    assert sorted(r.last_user_text for r in server.requests) == sorted(texts)
    assert len(server.wait_for_requests(16, timeout=1)) == 16
