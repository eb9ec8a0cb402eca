"""Workshop hardening in the core: the URL policy, the budget gate, the room (attendees, code guessing),
owner-only files and inert Markdown exports. Each test reproduces one attack or fault and shows it
refused with nothing spent and nothing lost."""

from __future__ import annotations

import contextlib
import socket
import stat
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from memory_demos.i18n import translate
from memory_demos.providers.chat_models import ProviderConfig, build_chat_model
from memory_demos.providers.errors import describe_error
from memory_demos.providers.url_policy import (
    MAX_TIMEOUT_SECONDS,
    EgressPolicy,
    UrlRefused,
    is_public_address,
    origin_of,
    url_refusal,
)
from memory_demos.runner import broadcast
from memory_demos.strategies.base import StrategyContext
from memory_demos.strategies.registry import build_strategy
from memory_demos.workshop import (
    CodeGuard,
    RoomState,
    SessionRegistry,
    WorkshopConfig,
    WorkshopLimits,
    attendee_from_token,
    attendee_key,
    attendee_token,
)
from memory_demos.workshop.budget import (
    BudgetExceeded,
    BudgetGate,
    SessionBudget,
    check_scripted_run,
    estimate_run_tokens,
)
from tests.fake_openai_server import FakeOpenAIServer, Fault


# -- helpers ----------------------------------------------------------------------------------------
class Listener:
    """A loopback TCP listener that counts the connections it accepts (and answers none)."""

    def __init__(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self.port = int(self.sock.getsockname()[1])
        self.connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        self.sock.close()


@contextlib.contextmanager
def listener() -> Iterator[Listener]:
    server = Listener()
    try:
        yield server
    finally:
        server.close()


@contextlib.contextmanager
def redirecting_server(location: str) -> Iterator[tuple[int, list[str]]]:
    """An HTTP server answering every POST with 307 to ``location``; yields (port, request paths)."""
    paths: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            paths.append(self.path)
            self.send_response(307)
            self.send_header("Location", location)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield int(server.server_address[1]), paths
    finally:
        server.shutdown()
        server.server_close()


def attendee_provider(url: str, policy: EgressPolicy, **changes: object) -> ProviderConfig:
    return ProviderConfig(
        kind="openai_compatible", model="their-llm", base_url=url, max_retries=0, egress=policy, **changes
    )


# -- 1. outbound requests are the host's decision -----------------------------------------------------
@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "10.1.2.3",
        "172.16.0.9",
        "192.168.1.1",
        "169.254.169.254",  # cloud metadata
        "100.64.0.1",  # carrier-grade NAT
        "0.0.0.0",
        "::1",
        "fe80::1",
        "fc00::1",
        "fd00:ec2::254",  # AWS metadata over IPv6
        "::ffff:127.0.0.1",  # IPv4-mapped loopback
        "::ffff:169.254.169.254",
        "2002:7f00:1::1",  # 6to4 wrapping 127.0.0.1
        "224.0.0.1",
    ],
)
def test_inside_addresses_are_never_public(address: str) -> None:
    assert not is_public_address(address)


def test_public_addresses_pass() -> None:
    assert is_public_address("8.8.8.8") and is_public_address("2606:4700:4700::1111")


def test_only_listed_exact_origins_of_a_plain_shape_are_allowed() -> None:
    policy = EgressPolicy.from_origins(["https://Models.Example.com:443/", "http://llm.example.org:8080"])
    assert policy.allowed_origins == {"https://models.example.com", "http://llm.example.org:8080"}
    assert policy.check_url("https://models.example.com/v1") == "https://models.example.com/v1"
    assert origin_of("HTTP://LLM.example.org:8080/v1") == "http://llm.example.org:8080"
    for refused in (
        "https://models.example.com:8443/v1",  # another port is another origin
        "http://models.example.com/v1",  # another scheme too
        "https://evil.example.com/v1",
        "https://models.example.com/api/pull?",  # the path-and-query trick of the report
        "https://models.example.com/v1#x",
        "https://user:pw@models.example.com/v1",
        "ftp://models.example.com/v1",
    ):
        with pytest.raises(UrlRefused) as raised:
            policy.check_url(refused)
        assert str(raised.value).isascii()  # English for logs, whatever the session's language
    assert url_refusal(EgressPolicy(), "http://localhost:11434/v1") is not None  # nothing listed: off


def test_a_listed_loopback_origin_or_a_name_resolving_inside_gets_no_request() -> None:
    with listener() as inside:
        origin = f"http://127.0.0.1:{inside.port}"
        listed = EgressPolicy.from_origins([origin])
        assert "private, loopback" in (url_refusal(listed, f"{origin}/v1") or "")
        assert (
            translate(url_refusal(listed, f"{origin}/v1"), "zh")
            == "基础 URL 指向私有、回环或链路本地地址：已拒绝。"
        )
        # A public-looking name whose DNS answer points inside (checked at every request, not once).
        name = f"http://models.example.com:{inside.port}"
        rebinding = EgressPolicy(
            allowed_origins=frozenset({name}), resolver=lambda host, port: ["93.184.216.34", "127.0.0.1"]
        )
        for url, policy in ((f"{origin}/v1", listed), (f"{name}/v1", rebinding)):
            strategy = build_strategy("buffer", StrategyContext(provider=attendee_provider(url, policy)))
            turn = strategy.send("Hi, I am Ada.")
            strategy.close()
            assert not turn.ok and turn.error_kind == "url_refused", turn.error
            assert strategy.turns[-1].memory_calls == [] and strategy.snapshot()["messages"] == []
        assert inside.connections == 0


def test_redirects_are_never_followed_and_the_remote_body_is_never_shown() -> None:
    with listener() as second, FakeOpenAIServer() as server:
        with redirecting_server(f"http://127.0.0.1:{second.port}/v1/chat/completions") as (port, paths):
            # Stand-in for a public server the host listed: the test's resolver and address check say so.
            first = f"http://models.example.com:{port}"
            trusting = EgressPolicy(
                allowed_origins=frozenset({first, f"http://127.0.0.1:{second.port}"}),
                resolver=lambda host, port: ["127.0.0.1"],
                address_allowed=lambda address: True,
            )
            model = build_chat_model(attendee_provider(f"{first}/v1", trusting), streaming=False)
            with pytest.raises(Exception) as caught:
                model.invoke("hello")
            assert paths == ["/v1/chat/completions"] and second.connections == 0
            assert "307" not in attendee_provider(first, trusting).describe(caught.value)
        server.add_fault(Fault("status", status=400, message="INTERNAL-BODY admin=secret", times=None))
        own = EgressPolicy(
            allowed_origins=frozenset({origin_of(server.base_url)}),
            resolver=lambda host, port: ["127.0.0.1"],
            address_allowed=lambda address: True,
        )
        provider = attendee_provider(server.base_url, own)
        strategy = build_strategy("buffer", StrategyContext(provider=provider))
        turn = strategy.send("Hi")
        strategy.close()
        assert turn.error_kind == "rejected" and "INTERNAL-BODY" not in (turn.error or "")
        local = ProviderConfig(kind="openai_compatible", model="m", base_url=server.base_url, max_retries=0)
        strategy = build_strategy("buffer", StrategyContext(provider=local))
        assert "INTERNAL-BODY" in (strategy.send("Hi").error or "")  # local use: the reply helps debugging
        strategy.close()


def test_the_timeout_is_capped_and_local_use_keeps_its_localhost_server() -> None:
    policy = EgressPolicy(
        allowed_origins=frozenset({"http://models.example.com"}),
        resolver=lambda host, port: ["93.184.216.34"],
    )
    model = build_chat_model(
        attendee_provider("http://models.example.com/v1", policy, timeout_seconds=600), streaming=False
    )
    assert model.request_timeout == MAX_TIMEOUT_SECONDS
    assert WorkshopConfig(enabled=False).egress_policy() is None
    with FakeOpenAIServer() as server:
        local = ProviderConfig(kind="openai_compatible", model="llama3.1:8b", base_url=server.base_url)
        strategy = build_strategy("buffer", StrategyContext(provider=local))
        assert strategy.send("Hi, I am Ada.").ok
        strategy.close()


def test_allowed_base_urls_come_from_secrets_or_the_environment() -> None:
    from_secrets = WorkshopConfig.from_sources(
        {"workshop": {"enabled": True, "allowed_base_urls": ["https://api.example.com/"]}}, {}
    )
    from_env = WorkshopConfig.from_sources(
        {},
        {
            "MEMORY_LAB_WORKSHOP": "1",
            "MEMORY_LAB_ALLOWED_BASE_URLS": "https://a.example, http://b.example:81",
        },
    )
    assert from_secrets.egress_policy().allowed_origins == {"https://api.example.com"}  # type: ignore[union-attr]
    assert from_env.allowed_base_urls == ("https://a.example", "http://b.example:81")


def test_the_host_address_is_scrubbed_in_every_spelling() -> None:
    host = ProviderConfig(
        kind="openai_compatible", model="m", base_url="http://Models.Internal:8000/v1", hosted=True
    )
    message = describe_error(
        RuntimeError("failed at MODELS.INTERNAL:8000 (models.internal)"), *host.secret_values()
    )
    assert "internal" not in message.lower()


# -- 2. one budget gate for every model call ---------------------------------------------------------
def gated(budget: SessionBudget) -> ProviderConfig:
    return ProviderConfig().with_overrides(gate=BudgetGate(budget))


def test_hidden_memory_calls_are_counted_and_a_refused_call_loses_nothing() -> None:
    budget = SessionBudget(WorkshopLimits(max_tokens_per_session=3000))
    strategy = build_strategy("entity", StrategyContext(provider=gated(budget)))
    turn = strategy.send("Hi, my name is Ada and I live in Lisbon with Bob.")
    assert turn.ok and turn.memory_calls  # entity extraction and summaries: memory's hidden calls
    assert budget.tokens_used == turn.total_tokens and budget.model_calls == turn.model_calls
    for _ in range(30):  # until the gate refuses a call that no longer fits what is left
        before = strategy.snapshot()
        refused = strategy.send("Tell me more about Lisbon and Bob and Ada, please.")
        if not refused.ok:
            break
    assert not refused.ok and refused.error_kind == "budget" and "Nothing was sent" in (refused.error or "")
    assert budget.tokens_used <= 3000 and budget.refused_calls >= 1
    assert strategy.snapshot() == before  # the refused turn rolled memory back: nothing lost
    spent = budget.tokens_used
    again = strategy.send("Tell me more about Lisbon and Bob and Ada, please.")  # the same, still too big
    assert not again.ok
    assert budget.tokens_used == spent  # a refused call spends nothing
    strategy.close()


def test_panes_answering_at_once_cannot_together_pass_the_budget() -> None:
    budget = SessionBudget(WorkshopLimits(max_tokens_per_session=700, max_concurrent_calls_per_session=8))
    slow = ProviderConfig(latency_ms=400).with_overrides(gate=BudgetGate(budget))
    strategies = [build_strategy("buffer", StrategyContext(provider=slow)) for _ in range(6)]
    turns = broadcast(strategies, "Hello, I am Ada.")
    assert budget.tokens_used <= 700
    assert sum(1 for turn in turns if turn.ok) == 2  # all six at once: each held a prompt and a reserve
    assert budget.tokens_used == sum(turn.total_tokens for turn in turns if turn.ok)
    for strategy in strategies:
        strategy.close()


def test_concurrent_model_calls_wait_for_a_slot_of_the_attendee() -> None:
    budget = SessionBudget(WorkshopLimits(max_concurrent_calls_per_session=2))
    provider = ProviderConfig(latency_ms=120).with_overrides(gate=BudgetGate(budget))
    strategies = [build_strategy("buffer", StrategyContext(provider=provider)) for _ in range(5)]
    turns = broadcast(strategies, "Hello.")
    assert all(turn.ok for turn in turns) and budget.peak_concurrency == 2 and budget.running == 0
    for strategy in strategies:
        strategy.close()


def test_a_scripted_run_is_sized_before_it_starts() -> None:
    budget = SessionBudget(
        WorkshopLimits(max_message_chars=50, max_turns_per_conversation=3, max_tokens_per_session=2000)
    )
    texts = ["My name is Ada.", "I live in Lisbon.", "What is my name?"]
    assert check_scripted_run(budget, texts, "Be brief.", 1, "o200k_base") is None
    hit = check_scripted_run(budget, texts, "x" * 51, 1, "o200k_base")  # an uncapped system prompt
    assert hit is not None and hit.kind == "message_chars"
    hit = check_scripted_run(budget, [*texts, "One more."], "Be brief.", 1, "o200k_base")
    assert hit is not None and (hit.kind, hit.limit, hit.current) == ("run_turns", 3, 4)  # the run's own size
    needed = estimate_run_tokens(texts, "Be brief.", 20, "o200k_base")
    hit = check_scripted_run(budget, texts, "Be brief.", 20, "o200k_base")
    assert hit is not None and (hit.kind, hit.limit, hit.current) == ("run_tokens", 2000, needed)
    assert budget.tokens_used == 0
    assert budget.refused_up_front == 3 and budget.refused_calls == 0  # each refusal counted, once


def test_models_a_page_builds_itself_use_the_gate_of_the_script_run() -> None:
    from memory_demos.failure_lab import run_demo

    budget = SessionBudget(WorkshopLimits())
    run_demo("summary_drift", gate=BudgetGate(budget))  # the page hands in the session's gate
    calls = budget.model_calls
    assert calls > 0 and budget.tokens_used > 0
    run_demo("summary_drift")  # outside the scope (no attendee) this budget is not charged
    assert budget.model_calls == calls


def test_a_gate_refusal_is_a_budget_error_not_a_crash() -> None:
    budget = SessionBudget(WorkshopLimits(max_tokens_per_session=10))
    model = build_chat_model(gated(budget), streaming=False)
    with pytest.raises(BudgetExceeded):
        model.invoke("hello")
    assert budget.tokens_used == 0 and budget.running == 0


# -- 3. and 4. the room: attendees, the registry, code guessing --------------------------------------
def test_attendee_tokens_are_signed_and_tied_to_the_access_code() -> None:
    key = attendee_key(b"link-secret", "tea-42")
    token = attendee_token("a" + "1" * 32, key)
    assert attendee_from_token(token, key) == "a" + "1" * 32
    assert attendee_from_token(token, attendee_key(b"link-secret", "tea-43")) is None  # code changed
    assert attendee_from_token(token.replace("a1", "a2", 1), key) is None  # another id, same signature
    assert attendee_from_token("garbage", key) is None and attendee_from_token(None, key) is None


def test_one_budget_per_attendee_follows_changed_limits_and_keeps_what_was_spent() -> None:
    room = RoomState()
    budget = room.budget_for("a" + "1" * 32, WorkshopLimits())
    budget.record(500, calls=2)
    again = room.budget_for("a" + "1" * 32, WorkshopLimits(max_tokens_per_session=900))
    assert again is budget and budget.tokens_used == 500 and budget.tokens_left == 400
    assert room.attendee_rows()[0]["tokens"] == 500 and room.attendees == 1


def test_a_busy_session_is_left_alone_by_the_idle_sweep() -> None:
    registry = SessionRegistry(clock=lambda: 100.0)
    running = {"turn": True}
    registry.touch("s1", lambda: not running["turn"])
    assert registry.sweep(idle_seconds=-1) == 0 and "s1" in registry
    running["turn"] = False
    assert registry.sweep(idle_seconds=-1) == 1 and "s1" not in registry


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_wrong_codes_lock_an_address_out_and_parallel_guesses_cannot_race_past() -> None:
    limits = WorkshopLimits(
        max_code_failures_per_address=3, code_lockout_minutes=1, max_code_checks_per_second=100
    )
    clock = Clock()
    guard = CodeGuard(clock=clock)
    verdicts = [guard.begin("10.0.0.9", limits) for _ in range(10)]  # ten at once: none has failed yet
    assert verdicts.count("check") == 3 and set(verdicts[3:]) == {"busy"}
    for _ in range(3):
        guard.end("10.0.0.9", False, limits)
    assert guard.begin("10.0.0.9", limits) == "locked"  # even the right code is not compared now
    assert guard.begin("10.0.0.10", limits) == "check"  # another address is not locked
    guard.end("10.0.0.10", True, limits)
    assert guard.stats().locked_addresses == 1 and guard.stats().failures_last_hour == 3
    clock.now += 61
    assert guard.begin("10.0.0.9", limits) == "check"  # the lockout ends


def test_the_whole_server_checks_a_bounded_number_of_codes_a_second() -> None:
    limits = WorkshopLimits(max_code_failures_per_address=1000, max_code_checks_per_second=5)
    clock = Clock()
    guard = CodeGuard(clock=clock)
    verdicts = [guard.begin(f"10.0.{n}.1", limits) for n in range(40)]  # forty addresses at once
    assert verdicts.count("check") == 5 and guard.stats().throttled_last_hour == 35
    clock.now += 1.0
    assert guard.begin("10.9.9.9", limits) == "check"


# -- 5. smaller items ------------------------------------------------------------------------------------
def test_sqlite_files_and_the_data_folder_are_owner_only(tmp_path: Path) -> None:
    from memory_demos.storage import sqlite_file

    folder = tmp_path / "data"
    path = sqlite_file("histories.sqlite", folder)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700 and stat.S_IMODE(path.stat().st_mode) == 0o600
    old = tmp_path / "data" / "checkpoints.sqlite"
    old.touch(mode=0o644)
    old.chmod(0o644)
    sqlite_file("checkpoints.sqlite", folder)
    assert stat.S_IMODE(old.stat().st_mode) == 0o600  # a file made readable earlier is tightened


def test_markdown_reports_keep_uploaded_names_inert() -> None:
    from memory_demos.export import markdown_report
    from memory_demos.replay import ReplayResult
    from memory_demos.scorecard import Price

    result = ReplayResult(
        scenario='<img src="https://evil.example/p.png"> ![x](https://evil.example/q.png)', provider="p"
    )
    report = markdown_report(
        result, [], prices=[Price("<b>gpt</b> ![y](https://evil.example/r.png)", 1.0, 2.0)]
    )
    assert "<img" not in report and "<b>" not in report and "![" not in report
    assert "&lt;img" in report and "\\!\\[x\\]" in report


def test_attendees_see_no_server_path_in_a_storage_fault_and_failed_turns_are_logged_by_kind(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from memory_demos.i18n import t
    from memory_demos.providers.errors import STORAGE_HIDDEN_KEY
    from memory_demos.session import LabSession
    from memory_demos.storage import StorageError
    from memory_demos.turn import Turn
    from memory_demos.ui.workshop import usage_recorder

    fault = StorageError(
        "/srv/lab/.memory_lab/histories.sqlite is damaged; point MEMORY_LAB_DATA_DIR elsewhere"
    )
    attendee = gated(SessionBudget(WorkshopLimits()))
    assert attendee.describe(fault) == t(STORAGE_HIDDEN_KEY, "en")
    assert "/srv/lab" in ProviderConfig().describe(fault)  # local use: the path helps
    session = LabSession({})
    failed = Turn("my secret message", "", 0.1, None, error="failed", error_kind="timeout")
    with caplog.at_level("WARNING"):
        usage_recorder(session)([failed])
    assert "A turn failed: timeout" in caplog.text and "secret message" not in caplog.text
