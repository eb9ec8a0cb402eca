"""The command line against real providers: keys only from a named variable, bounds, honest exit codes.

``replay`` and ``chat`` run in this process against the local fake server over real HTTP.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from memory_demos.__main__ import main
from tests.fake_openai_server import FakeOpenAIServer

INTERRUPTED = "The server stopped this reply to answer another request"


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


SHORT_SCENARIO = """name: Short
turns:
  - user: Hi, my name is Mara and I live in Lisbon, a city by the sea.
  - user: I like tea in the morning and a long walk by the river after work.
  - user: What's my name?
    expect: [Mara]
"""


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as fake:
        yield fake


@pytest.fixture
def scenario(tmp_path: Path) -> Path:
    """Three turns: enough to see memory at work, short enough for a slow or dead server."""
    path = tmp_path / "short.yaml"
    path.write_text(SHORT_SCENARIO, encoding="utf-8")
    return path


def replay_args(scenario: Path, base_url: str, *extra: str) -> list[str]:
    return [
        "replay",
        "--scenario",
        str(scenario),
        "--provider",
        "openai_compatible",
        "--model",
        "test-model",
        "--base-url",
        base_url,
        *extra,
    ]


def test_replay_exits_non_zero_and_says_so_when_every_turn_failed(
    capsys: pytest.CaptureFixture[str], scenario: Path
) -> None:
    scenario.write_text("name: One\nturns:\n  - user: Hello\n", encoding="utf-8")
    code, out, err = run_cli(
        capsys, *replay_args(scenario, "http://127.0.0.1:1/v1", "--strategies", "buffer", "--timeout", "2")
    )
    assert code == 1
    assert "error: replay stopped before turn 1: connection: the server cannot be reached" in err
    assert "strategy" in out  # the table is still printed


def test_replay_against_a_dead_server_exits_within_15_seconds_naming_the_kind(scenario: Path) -> None:
    """In a fresh process, as a user runs it: imports, the check, and the exit."""
    started = time.perf_counter()
    argv = replay_args(scenario, "http://127.0.0.1:9/v1", "--strategies", "buffer,window,summary")
    completed = subprocess.run(
        [sys.executable, "-W", "ignore", "-m", "memory_demos", *argv],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 1
    assert time.perf_counter() - started < 15
    assert "connection: the server cannot be reached" in completed.stderr


def test_replay_whose_every_turn_fails_says_which_strategy(
    capsys: pytest.CaptureFixture[str], server: FakeOpenAIServer, scenario: Path
) -> None:
    """A failure no early stop catches (a server error on every call) still exits 1, naming the strategy."""
    from tests.fake_openai_server import Fault

    server.add_fault(Fault("server_error", times=None))
    argv = replay_args(scenario, server.base_url, "--strategies", "buffer", "--timeout", "2")
    code, _, err = run_cli(capsys, *argv)
    assert code == 1
    assert "error: every turn of buffer failed: The provider had an internal error" in err


def test_a_custom_base_url_gets_no_key_unless_api_key_env_names_one(
    capsys: pytest.CaptureFixture[str], server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-should-never-leave-0001")
    monkeypatch.setenv("LOCAL_SERVER_KEY", "sk-local-server-0002")
    chat = ["chat", "--strategy", "buffer", "--conversation", "c1", "--provider", "openai_compatible"]
    chat += ["--model", "test-model", "--base-url", server.base_url]

    assert run_cli(capsys, *chat, "hello")[0] == 0
    completions = [r for r in server.requests if r.path.endswith("/chat/completions")]
    assert completions and all("authorization" not in r.headers for r in completions)

    server.reset_requests()
    assert run_cli(capsys, *chat, "--api-key-env", "LOCAL_SERVER_KEY", "hello")[0] == 0
    assert {r.headers.get("authorization") for r in server.requests} == {"Bearer sk-local-server-0002"}

    code, _, err = run_cli(capsys, *chat, "--api-key-env", "NOT_SET_ANYWHERE", "hello")
    assert code == 2 and "NOT_SET_ANYWHERE, which is not set" in err


def test_openai_alone_reads_openai_api_key() -> None:
    import argparse

    from memory_demos.cli_options import add_provider_arguments, provider_from_args

    parser = argparse.ArgumentParser()
    add_provider_arguments(parser)
    openai = provider_from_args(parser.parse_args(["--provider", "openai"]))
    assert openai.key_env_name == "OPENAI_API_KEY"
    local = provider_from_args(
        parser.parse_args(["--provider", "openai_compatible", "--base-url", "http://127.0.0.1:1/v1"])
    )
    assert local.key_env_name is None


def test_replay_json_names_where_counts_came_from_and_sends_the_bounds(
    capsys: pytest.CaptureFixture[str], server: FakeOpenAIServer, scenario: Path
) -> None:
    args = replay_args(scenario, server.base_url, "--strategies", "buffer", "--max-tokens", "64", "--json")
    code, out, _ = run_cli(capsys, *args)
    assert code == 0
    [run] = json.loads(out)["results"]
    assert {(turn["counted_by"], turn["approximate"]) for turn in run["turns"]} == {("provider", False)}
    completions = [r for r in server.requests if r.path.endswith("/chat/completions")]
    assert {r.body["max_tokens"] for r in completions} == {64}

    code, out, _ = run_cli(capsys, "replay", "--scenario", str(scenario), "--strategies", "buffer")
    assert code == 0 and "tiktoken:o200k_base" in out  # the offline model's counts, named in the table


def test_max_tokens_cut_is_reported_by_chat(
    capsys: pytest.CaptureFixture[str], server: FakeOpenAIServer
) -> None:
    chat = ["chat", "--strategy", "buffer", "--conversation", "c2", "--provider", "openai_compatible"]
    chat += ["--model", "test-model", "--base-url", server.base_url, "--max-tokens", "3", "--json"]
    code, out, err = run_cli(capsys, *chat, "one two three four five")
    assert code == 0
    assert json.loads(out)["cut_by"] == "max_tokens"
    assert "note: Reply cut: max_tokens (3 tokens per reply) ended it." in err


def test_single_slot_server_from_the_cli(capsys: pytest.CaptureFixture[str], scenario: Path) -> None:
    strategies = ["--strategies", "buffer,window,token_buffer", "--json"]
    with FakeOpenAIServer(single_slot=True, chunk_delay=0.02) as server:
        code, out, _ = run_cli(
            capsys, *replay_args(scenario, server.base_url, *strategies, "--concurrency", "3")
        )
        errors = [t["error"] for r in json.loads(out)["results"] for t in r["turns"] if t["error"]]
        assert errors and all(error.startswith(INTERRUPTED) for error in errors)
        assert server.interrupted == len(errors)

        code, out, _ = run_cli(
            capsys, *replay_args(scenario, server.base_url, *strategies, "--concurrency", "1")
        )
        assert code == 0
        assert not [t for r in json.loads(out)["results"] for t in r["turns"] if t["error"]]
        assert server.interrupted == len(errors)


def test_context_overflow_from_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    with FakeOpenAIServer(context_window=20) as server:
        chat = ["chat", "--strategy", "buffer", "--conversation", "c3", "--provider", "openai_compatible"]
        chat += ["--model", "test-model", "--base-url", server.base_url]
        code, _, err = run_cli(capsys, *chat, " ".join(f"word{i}" for i in range(40)))
    assert code == 1
    assert "error: Context window exceeded" in err and "smaller memory budget" in err
