"""A replay against a server that is not there, or refuses every call, says so early instead of scoring.

Failed calls are neither recalled nor missed: a probe whose call failed counts as failed, not asked. A
replay whose first turns all fail in a way no retry fixes stops after two of them; with ``check_first``
one request for the model list (no tokens) is enough to stop before the first turn.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from memory_demos.providers.chat_models import ProviderConfig
from memory_demos.providers.reachability import check_provider
from memory_demos.replay import STOP_AFTER_FAILED_TURNS, replay
from memory_demos.scenarios import parse_scenario
from tests.fake_openai_server import FakeOpenAIServer, Fault

SCENARIO = parse_scenario(
    """name: Short
turns:
  - user: Hi, my name is Mara and I live in Lisbon.
  - user: I like tea in the morning.
  - user: What's my name?
    expect: [Mara]
  - user: Where do I live?
    expect: [Lisbon]
"""
)


def _dead_url() -> str:
    """A loopback address where nothing listens (a port bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def _config(base_url: str) -> ProviderConfig:
    return ProviderConfig(
        kind="openai_compatible", model="test-model", base_url=base_url, timeout_seconds=2, max_retries=0
    )


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as fake:
        yield fake


def test_check_finds_a_dead_server_unreachable_at_once() -> None:
    started = time.perf_counter()
    check = check_provider(_config(_dead_url()))
    assert check is not None and check.kind == "connection" and not check.ok
    assert time.perf_counter() - started < 2


def test_check_lists_the_servers_models(server: FakeOpenAIServer) -> None:
    check = check_provider(_config(server.base_url))
    assert check is not None and check.ok and check.models == ("test-model",)
    assert check.lists("test-model") is True and check.lists("gpt-4o-mini") is False
    assert check_provider(ProviderConfig()) is None  # the offline model: nothing to ask


class _RefusingHandler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(401)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        """Quiet."""


def test_check_names_a_refused_key() -> None:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _RefusingHandler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        check = check_provider(_config(f"http://127.0.0.1:{httpd.server_address[1]}/v1"))
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert check is not None and check.kind == "authentication" and check.status == 401


def test_a_replay_checked_first_plays_nothing_against_a_dead_server() -> None:
    result = replay(SCENARIO, ["buffer", "window"], _config(_dead_url()), check_first=True)
    assert result.stopped is not None and result.stopped.kind == "connection"
    assert result.stopped.failed_turns == 0 and result.runs == []
    assert result.to_json()["stopped"]["kind"] == "connection"


def test_a_replay_stops_after_its_first_turns_fail_to_connect() -> None:
    result = replay(SCENARIO, ["buffer", "window"], _config(_dead_url()))
    assert result.stopped is not None and result.stopped.kind == "connection"
    assert result.stopped.failed_turns == STOP_AFTER_FAILED_TURNS
    assert result.played_turns == STOP_AFTER_FAILED_TURNS  # window never started
    assert [len(run.turns) for run in result.runs] == [STOP_AFTER_FAILED_TURNS, 0]
    assert result.failure_counts() == {"connection": STOP_AFTER_FAILED_TURNS}


def test_a_refused_key_on_every_call_stops_too(server: FakeOpenAIServer) -> None:
    server.add_fault(Fault("status", times=None, status=401))
    result = replay(SCENARIO, ["buffer"], _config(server.base_url), check_first=True)
    assert result.stopped is not None and result.stopped.kind == "authentication"
    assert len(result.runs[0].turns) == STOP_AFTER_FAILED_TURNS


def test_a_failed_probe_is_not_a_miss(server: FakeOpenAIServer) -> None:
    """The first turn works, so nothing stops; the failed probe is failed, the other one answered."""
    server.add_fault(Fault("server_error", times=None, match="What's my name?"))
    result = replay(SCENARIO, ["buffer"], _config(server.base_url))
    [run] = result.runs
    assert result.stopped is None and len(run.turns) == len(SCENARIO.turns)
    assert run.failed_probes == 1 and run.recall_asked == 1
    assert run.passed_flags[2] is None
    recall = run.to_json()["recall"]
    assert {key: recall[key] for key in ("passed", "asked", "failed")} == {
        "passed": run.recall_passed,
        "asked": 1,
        "failed": 1,
    }
    assert sum(kind["asked"] for kind in recall["by_kind"].values()) == 1  # the failed probe asked nothing
    assert result.failure_counts() == {"server": 1}


def test_a_server_that_works_is_never_stopped(server: FakeOpenAIServer) -> None:
    result = replay(SCENARIO, ["buffer", "window"], _config(server.base_url), check_first=True)
    assert result.stopped is None and result.failed_turns == 0
    assert [len(run.turns) for run in result.runs] == [4, 4]
