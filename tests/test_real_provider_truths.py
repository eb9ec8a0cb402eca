"""What the app says about a reply is what the server did (issue 27), against the fake OpenAI server.

Each case is a shape a real local server has: replies stopped at ``max_tokens`` with a small model, an
overflow after HTTP 200 (llama-cpp-python 0.3 checks prompt + max_tokens once the stream has begun),
empty replies, no usage on a stream, tool definitions the server's template drops.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from memory_demos.__main__ import main
from memory_demos.providers.chat_models import ProviderConfig
from memory_demos.strategies.base import Strategy, StrategyContext
from memory_demos.strategies.registry import build_strategy
from memory_demos.tracing import CUT_BY_MAX_TOKENS
from tests.fake_openai_server import FakeOpenAIServer

LONG_MESSAGE = " ".join(f"word{i}" for i in range(60))


def provider(server: FakeOpenAIServer, **changes: object) -> ProviderConfig:
    config = ProviderConfig(
        kind="openai_compatible",
        model="test-model",
        base_url=server.base_url,
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


def run(config: ProviderConfig, built: list[Strategy], *texts: str, strategy_id: str = "buffer") -> list:
    strategy = build_strategy(strategy_id, StrategyContext(provider=config))
    built.append(strategy)
    return [strategy.send(text) for text in texts]


def test_replies_stopped_at_max_tokens_never_mention_the_context_window(strategies: list[Strategy]) -> None:
    # A known window, replies far shorter than it, every one stopped at max_tokens; with usage and without.
    for usage in (True, False):
        with FakeOpenAIServer(context_window=4096, stream_usage=usage) as server:
            config = provider(
                server, max_tokens=4, context_window_tokens=4096, context_window_source="server"
            )
            turns = run(config, strategies, LONG_MESSAGE, "and again " + LONG_MESSAGE)
        for turn in turns:
            assert turn.ok, turn.error
            assert turn.cut_by == CUT_BY_MAX_TOKENS
            assert turn.notes and all("context window" not in note for note in turn.notes), turn.notes
            assert "max_tokens (4 tokens per reply)" in turn.notes[0]


@pytest.mark.parametrize(
    "paths",
    [("/extras/tokenize",), ("/tokenize",), ()],
    ids=["llama-cpp-python-counts", "llama.cpp-counts", "no-tokenize"],
)
def test_an_overflow_after_http_200_is_named_on_the_servers_count(
    strategies: list[Strategy], paths: tuple[str, ...]
) -> None:
    # llama-cpp-python: 200, then the socket is cut ("Requested tokens (532) exceed context window of 512").
    # The prompt (~20 fake tokens) fits the window of 64 alone; with max_tokens 60 it does not.
    tokenize = bool(paths)
    with FakeOpenAIServer(context_window=64, reserve_max_tokens=True, tokenize_paths=paths) as server:
        config = provider(server, max_tokens=60, context_window_tokens=64, context_window_source="server")
        [turn] = run(config, strategies, "one two three four five six seven eight nine ten eleven")
        assert server.request_count() == 1 and 1 <= server.tokenize_requests <= 2
    assert turn.error is not None and turn.reply == ""
    if tokenize:  # the server's own count is the evidence: an overflow, with what would help
        assert turn.error_kind == "context_overflow", turn.error
        assert turn.error.startswith("Context window exceeded") and "dropped" not in turn.error
        assert "own tokenizer counts" in turn.error and "max_tokens 60" in turn.error
        assert "context window of 64" in turn.error and "lower max_tokens" in turn.error
    else:  # no evidence: a dropped connection, with the figures that make an overflow worth checking
        assert turn.error_kind == "connection_dropped", turn.error
        assert "dropped" in turn.error and "local count" in turn.error


def test_a_cut_far_from_the_window_stays_a_dropped_connection(strategies: list[Strategy]) -> None:
    from tests.fake_openai_server import Fault

    with FakeOpenAIServer(context_window=4096) as server:
        server.add_fault(Fault("drop", chunks_before=2))
        config = provider(server, context_window_tokens=4096, context_window_source="server")
        [turn] = run(config, strategies, "hello")
    assert turn.error_kind == "connection_dropped" and "local count" not in (turn.error or "")


def test_an_empty_reply_is_marked_in_replay_json_and_the_table_and_fails_its_probe(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "probe.yaml"
    scenario.write_text(
        "name: Probe\nturns:\n  - user: I'm Mara.\n  - user: What's my name?\n    reject: [Lena]\n",
        encoding="utf-8",
    )
    with FakeOpenAIServer(reply_text="   ") as server:
        args = ["replay", "--scenario", str(scenario), "--provider", "openai_compatible"]
        args += ["--model", "test-model", "--base-url", server.base_url, "--strategies", "buffer"]
        assert main([*args, "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert main(args) == 0
        table = capsys.readouterr().out
    [run_json] = data["results"]
    assert [turn["empty_reply"] for turn in run_json["turns"]] == [True, True]
    # "must not say Lena" is not passed by saying nothing.
    assert {k: run_json["recall"][k] for k in ("passed", "asked", "failed")} == {
        "passed": 0,
        "asked": 1,
        "failed": 0,
    }
    assert sum(kind["passed"] for kind in run_json["recall"]["by_kind"].values()) == 0
    header, _rule, row = table.splitlines()[1:4]
    assert header.split()[-3:] == ["empty", "counted", "by"]
    assert row.split()[header.split().index("empty")] == "2"
    assert "empty: replies with no text" in table


def test_a_stream_without_usage_beside_reported_hidden_calls_says_each_rows_source_and_mixed(
    strategies: list[Strategy],
) -> None:
    from memory_demos.ui.token_view import token_rows

    # llama-cpp-python sends no usage on a stream: the reply is counted here, the summary is reported.
    with FakeOpenAIServer(stream_usage=False) as server:
        [turn] = run(provider(server), strategies, "Hi, I'm Mara from Lisbon.", strategy_id="summary")
    assert turn.ok and turn.memory_calls
    assert turn.reply_call is not None and turn.reply_call.counted_by == "tiktoken:o200k_base"
    assert {call.counted_by for call in turn.memory_calls} == {"provider"}
    assert turn.counted_by == "mixed:tiktoken:o200k_base+provider" and turn.counts_are_approximate
    rows = {what: source.full for what, _tokens, source in token_rows(turn, approximate=True)}
    approximate = "Counted with tiktoken o200k_base, approximate (another model's tokenizer)"
    assert rows["Prompt"] == rows["Completion"] == approximate
    assert rows["Memory calls (hidden)"] == "Reported by the provider"
    assert rows["Total this turn"] == f"Mixed: {approximate} + Reported by the provider"


def test_a_turn_whose_calls_all_failed_reports_nothing_never_the_provider(
    strategies: list[Strategy], capsys: pytest.CaptureFixture[str]
) -> None:
    from memory_demos.__main__ import counted_by_label
    from memory_demos.ui.token_view import token_rows
    from tests.fake_openai_server import Fault

    with FakeOpenAIServer() as server:
        server.add_fault(Fault("server_error", times=None))
        [turn] = run(provider(server), strategies, "hello")
    assert not turn.ok and turn.counted_by == "none"
    assert counted_by_label([turn]) == "none"
    sources = [source for _what, _tokens, source in token_rows(turn, approximate=True)]
    assert "Nothing reported (failed call)" in {source.full for source in sources}
    assert all("provider" not in f"{source.short} {source.full}".lower() for source in sources)


def test_tools_a_server_never_asked_for_are_sent_but_not_counted_as_read(strategies: list[Strategy]) -> None:
    from memory_demos.ui.token_view import token_rows

    # The fake server, like llama-cpp-python's GGUF templates, never calls a tool.
    with FakeOpenAIServer(stream_usage=False) as server:
        [turn] = run(provider(server), strategies, "What's the weather in Lisbon?", strategy_id="agent")
        sent = server.requests[-1].body.get("tools")
    assert turn.ok and sent and turn.tool_tokens > 0
    assert turn.tools_unconfirmed and turn.to_json()["tools_may_be_ignored"] is True
    assert turn.reply_call is not None
    assert turn.prompt_tokens == turn.reply_call.prompt_tokens - turn.tool_tokens
    rows = {what: (tokens, source.full) for what, tokens, source in token_rows(turn, approximate=True)}
    tokens, source = rows["Tool definitions"]
    assert tokens == turn.tool_tokens and source.startswith("Sent, may be ignored by this server")
    assert rows["Total this turn"][0] == turn.total_tokens
    assert "Estimated" not in rows["Total this turn"][1]


def test_a_turn_tells_waiting_for_a_slot_and_the_first_token_apart_from_generating(
    strategies: list[Strategy],
) -> None:
    from memory_demos.runner import broadcast, pane_slots
    from memory_demos.ui.token_view import timing_line
    from tests.fake_openai_server import Fault

    # A one-request-at-a-time server, panes one at a time: the later panes wait for the app's slot.
    with FakeOpenAIServer(single_slot=True, chunk_delay=0.02) as server:
        panes = [build_strategy("buffer", StrategyContext(provider=provider(server))) for _ in range(3)]
        strategies.extend(panes)
        turns = broadcast(panes, "one two three four five six", call_slot=pane_slots(1))
        assert all(turn.ok for turn in turns), [turn.error for turn in turns]
        waits = sorted(turn.slot_wait_seconds for turn in turns)
        assert waits[0] < 0.1 and waits[-1] > 0.2  # the last pane waited for two others to finish
        # A server slow to start (its queue, a long prompt): the wait is the first token's, not generation.
        server.add_fault(Fault("delay", seconds=0.6))
        [turn] = broadcast(panes[:1], "and again")
    call = turn.reply_call
    assert call is not None and call.first_token_seconds is not None and call.first_token_seconds >= 0.6
    assert turn.waiting_seconds >= 0.6 and turn.generating_seconds < turn.waiting_seconds
    assert abs(turn.waiting_seconds + turn.generating_seconds - call.seconds) < 0.01
    assert timing_line(turn).startswith(
        f"Turn took {turn.seconds:.2f} s: {turn.waiting_seconds:.2f} s waiting"
    )


def test_replay_json_has_each_calls_seconds_and_each_hidden_calls_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "two.yaml"
    scenario.write_text(
        "name: Two\nturns:\n  - user: I'm Mara.\n  - user: I live in Lisbon.\n", encoding="utf-8"
    )
    with FakeOpenAIServer() as server:
        args = ["replay", "--scenario", str(scenario), "--provider", "openai_compatible", "--model", "m"]
        assert main([*args, "--base-url", server.base_url, "--strategies", "summary", "--json"]) == 0
    [result] = json.loads(capsys.readouterr().out)["results"]
    turn = result["turns"][-1]
    assert set(turn["timing"]) == {
        "seconds",
        "slot_wait_seconds",
        "waiting_seconds",
        "generating_seconds",
        "not_streamed_seconds",
    }
    reply = turn["reply_call"]
    assert reply["seconds"] > 0 and reply["first_token_seconds"] is not None
    assert reply["counted_by"] == "provider"
    [summary] = turn["memory_calls"]
    assert summary["purpose"] == "summarize" and summary["seconds"] > 0
    assert summary["first_token_seconds"] is None  # not streamed: its time is not split
    assert "I live in Lisbon." in summary["prompt"][-1]["content"] and summary["output"]
    assert turn["timing"]["not_streamed_seconds"] == summary["seconds"]


# What each run makes anew: a fresh conversation's thread id, LangGraph's time-based checkpoint ids.
GENERATED_IDS = {"thread_id", "checkpoint_id", "parent_id", "head", "conversation_id"}


def _without_timings(data: object) -> object:
    """``data`` without timings and generated ids: what must be the same from one run to the next."""
    if isinstance(data, dict):
        return {
            key: _without_timings(value)
            for key, value in data.items()
            if "seconds" not in key and key != "timing" and key not in GENERATED_IDS
        }
    if isinstance(data, list):
        return [_without_timings(item) for item in data]
    return data


def test_replay_at_temperature_0_gives_the_same_json_twice_and_sends_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "probe.yaml"
    scenario.write_text(
        "name: Probe\nturns:\n  - user: I'm Mara and I live in Lisbon.\n  - user: I like tea.\n"
        "  - user: What's my name?\n    expect: [Mara]\n",
        encoding="utf-8",
    )
    outputs = []
    with FakeOpenAIServer(stream_usage=False) as server:
        args = ["replay", "--scenario", str(scenario), "--provider", "openai_compatible", "--model", "m"]
        args += ["--base-url", server.base_url, "--strategies", "buffer,summary,window,agent"]
        for _ in range(2):
            assert main([*args, "--temperature", "0", "--json"]) == 0
            outputs.append(json.loads(capsys.readouterr().out))
        completions = [r for r in server.requests if r.path.endswith("/chat/completions")]
        assert completions and {r.body.get("temperature") for r in completions} == {0.0}
        server.reset_requests()
        assert main(args) == 0  # no --temperature: a replay still sends 0, and says so
        assert "temperature: 0" in capsys.readouterr().out.splitlines()[0]
        chats = [r for r in server.requests if r.path.endswith("/chat/completions")]
        assert chats and {r.body.get("temperature") for r in chats} == {0.0}
    first, second = outputs
    assert first["temperature"] == 0.0
    assert _without_timings(first) == _without_timings(second)


def test_chat_keeps_the_servers_temperature_unless_given_and_a_bad_one_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMORY_LAB_DATA_DIR", str(tmp_path))
    with FakeOpenAIServer() as server:
        args = ["chat", "--provider", "openai_compatible", "--model", "m", "--base-url", server.base_url]
        args += ["--strategy", "buffer", "--conversation", str(tmp_path.name)]
        assert main([*args, "hi"]) == 0
        assert "temperature" not in server.requests[-1].body
        assert main([*args, "--temperature", "0.7", "hi"]) == 0
        assert server.requests[-1].body["temperature"] == 0.7
    capsys.readouterr()
    with pytest.raises(SystemExit) as exited:
        main(["replay", "--scenario", "name_recall", "--temperature", "2.5"])
    assert exited.value.code == 2
    assert "--temperature: must be from 0 to 2 (fractions allowed); got '2.5'" in capsys.readouterr().err
