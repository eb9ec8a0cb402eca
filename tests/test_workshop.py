"""Workshop mode's core: configuration, per-session limits, and the registry that releases idle sessions."""

from __future__ import annotations

import gc
import json
import threading
import time
import weakref
from dataclasses import fields
from pathlib import Path

import pytest
from pydantic import SecretStr

from memory_demos.defaults import DEFAULT_MAX_MESSAGE_CHARS
from memory_demos.lab_config import LabConfig
from memory_demos.providers.chat_models import ProviderConfig
from memory_demos.providers.errors import describe_error
from memory_demos.runner import broadcast
from memory_demos.session import KEY_PREFIX, LabSession
from memory_demos.storage import StorageConfig, chroma_client
from memory_demos.strategies.base import StrategyContext
from memory_demos.strategies.registry import build_strategy
from memory_demos.turn import Turn
from memory_demos.workshop import (
    HostProvider,
    SessionRegistry,
    TurnUsage,
    WorkshopConfig,
    WorkshopConfigError,
    WorkshopLimits,
    codes_match,
)
from memory_demos.workshop.budget import REPLY_RESERVE_TOKENS, SessionBudget

HOST_KEY = "sk-host-Zq9VbN3kLmT7wXy2"
HOST_URL = "http://10.9.8.7:8000/v1"


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


# -- configuration ----------------------------------------------------------------------------------
def test_defaults_are_off_and_every_field_says_what_it_is() -> None:
    config = WorkshopConfig.from_sources({}, {})
    assert not config.enabled and config.access_code is None and config.host is None
    # Off, a message may be as long as outside a workshop; every other limit keeps its workshop default.
    assert config.limits == WorkshopLimits(max_message_chars=DEFAULT_MAX_MESSAGE_CHARS)
    documented: set[str] = set()
    for cls in (WorkshopConfig, WorkshopLimits, HostProvider):
        for spec in fields(cls):
            if spec.name in ("limits", "host"):
                continue
            assert spec.metadata.get("description"), f"{cls.__name__}.{spec.name} has no description"
            assert spec.metadata.get("env", "").startswith("MEMORY_LAB_"), spec.name
            documented.add(spec.metadata["env"])
    readme = (Path(__file__).resolve().parents[1] / "docs" / "workshop.md").read_text(encoding="utf-8")
    assert all(name in readme for name in documented), sorted(
        name for name in documented if name not in readme
    )


def test_secrets_table_configures_everything_and_keeps_secrets_secret() -> None:
    secrets = {
        "workshop": {
            "enabled": True,
            "access_code": "tea-42",
            "host_code": "host-99",
            "limits": {"max_turns_per_conversation": 12, "max_message_chars": 500, "idle_minutes": 15},
            "host": {
                "kind": "openai_compatible",
                "base_url": HOST_URL,
                "model": "llama3.1:8b",
                "api_key": HOST_KEY,
            },
        }
    }
    config = WorkshopConfig.from_sources(secrets, {})
    assert config.enabled
    assert isinstance(config.access_code, SecretStr) and config.access_code.get_secret_value() == "tea-42"
    assert config.instructor_code is config.host_code
    assert config.limits.max_turns_per_conversation == 12 and config.limits.idle_seconds == 15 * 60
    assert config.limits.max_tokens_per_session == WorkshopLimits().max_tokens_per_session
    provider = config.host.provider_config() if config.host else None
    assert provider is not None and provider.hosted and not provider.use_env_key
    assert provider.api_key is not None and provider.api_key.get_secret_value() == HOST_KEY
    for text in (repr(config), str(config), repr(config.host), repr(provider), provider.display_name):
        assert HOST_KEY not in text and HOST_URL not in text and "tea-42" not in text, text
    assert set(provider.secret_values()) >= {HOST_KEY, HOST_URL}


def test_environment_fills_what_secrets_leave_out() -> None:
    env = {
        "MEMORY_LAB_WORKSHOP": "1",
        "MEMORY_LAB_ACCESS_CODE": "env-code",
        "MEMORY_LAB_MAX_CONCURRENT_CALLS": "2",
        "MEMORY_LAB_HOST_API_KEY": HOST_KEY,
    }
    config = WorkshopConfig.from_sources(
        {"workshop": {"limits": {"max_concurrent_calls_per_session": 3}}}, env
    )
    assert config.enabled and config.access_code is not None
    assert config.limits.max_concurrent_calls_per_session == 3  # secrets win over the environment
    assert config.host is not None and config.host.kind == "openai" and config.host.model == "gpt-4o-mini"
    assert not WorkshopConfig.from_sources({}, {"MEMORY_LAB_WORKSHOP": "0"}).enabled


@pytest.mark.parametrize(
    ("secrets", "env", "names"),
    [
        ({"workshop": {"limits": {"max_turns_per_conversation": 0}}}, {}, "max_turns_per_conversation"),
        ({}, {"MEMORY_LAB_MAX_TOKENS_PER_SESSION": "lots"}, "MEMORY_LAB_MAX_TOKENS_PER_SESSION"),
        ({}, {"MEMORY_LAB_WORKSHOP": "perhaps"}, "MEMORY_LAB_WORKSHOP"),
        ({"workshop": {"host": {"kind": "openai"}}}, {}, "api_key"),
        ({"workshop": {"host": {"kind": "openai_compatible", "api_key": HOST_KEY}}}, {}, "base_url"),
        ({"workshop": {"host": {"kind": "anthropic", "api_key": HOST_KEY}}}, {}, "kind"),
        ({"workshop": {"host": {"base_url": 8080, "kind": "openai_compatible"}}}, {}, "base_url"),
        ({"workshop": "yes"}, {}, "[workshop]"),
    ],
)
def test_bad_settings_are_refused_by_name_without_their_secret(secrets: dict, env: dict, names: str) -> None:
    with pytest.raises(WorkshopConfigError) as caught:
        WorkshopConfig.from_sources(secrets, env)
    assert names in str(caught.value)
    assert HOST_KEY not in str(caught.value) and "8080" not in str(caught.value)


def test_codes_are_compared_exactly_and_no_code_never_matches() -> None:
    code = SecretStr("tea-42")
    assert codes_match("tea-42", code) and codes_match("  tea-42 ", code)
    assert not codes_match("tea-43", code) and not codes_match("", code) and not codes_match("tea-42", None)


def test_hosted_errors_and_recorded_calls_never_quote_the_key_or_address() -> None:
    provider = ProviderConfig(
        kind="openai_compatible", model="m", base_url=HOST_URL, api_key=SecretStr(HOST_KEY)
    )
    hosted = provider.with_overrides(hosted=True)
    error = RuntimeError(f"POST {HOST_URL}/chat/completions failed with key {HOST_KEY}")
    assert HOST_URL in describe_error(error, *provider.secret_values())  # a user's own URL may be shown
    message = describe_error(error, *hosted.secret_values())
    assert HOST_URL not in message and HOST_KEY not in message and "redacted" in message


# -- one session's limits ---------------------------------------------------------------------------
def test_budget_refuses_at_each_limit_with_its_numbers() -> None:
    budget = SessionBudget(
        WorkshopLimits(max_message_chars=10, max_turns_per_conversation=3, max_tokens_per_session=1000)
    )
    assert budget.check("x" * 10, 0) is None  # exactly at the limit: accepted
    hit = budget.check("x" * 11, 0)
    assert hit is not None and (hit.kind, hit.limit, hit.current) == ("message_chars", 10, 11)
    assert budget.check("hi", 2) is None
    hit = budget.check("hi", 3)
    assert hit is not None and (hit.kind, hit.limit) == ("turns", 3)
    budget.record(1000 - REPLY_RESERVE_TOKENS)  # what is left still holds one reply: accepted
    assert budget.check("hi", 0) is None
    budget.record(1)
    hit = budget.check("hi", 0)
    assert hit is not None and (hit.kind, hit.limit, hit.current) == (
        "tokens",
        1000,
        1001 - REPLY_RESERVE_TOKENS,
    )


def test_budget_counts_tokens_from_many_threads_exactly() -> None:
    budget = SessionBudget(WorkshopLimits())
    threads = [threading.Thread(target=lambda: [budget.record(1) for _ in range(1000)]) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert budget.tokens_used == 8000


def test_concurrent_calls_are_bounded_by_the_session_semaphore() -> None:
    provider = ProviderConfig(latency_ms=150)
    strategies = [build_strategy("buffer", StrategyContext(provider=provider)) for _ in range(4)]
    try:
        budget = SessionBudget(WorkshopLimits(max_concurrent_calls_per_session=2))
        turns = broadcast(strategies, "Hello, I am Ada.", call_slot=budget.call_slot)
        assert all(turn.ok for turn in turns)
        assert budget.peak_concurrency == 2
        unbounded = SessionBudget(WorkshopLimits(max_concurrent_calls_per_session=8))
        broadcast(strategies, "And again.", call_slot=unbounded.call_slot)
        assert unbounded.peak_concurrency == 4  # the bound above was the semaphore, not the pool
    finally:
        for strategy in strategies:
            strategy.close()


# -- the registry -----------------------------------------------------------------------------------
def _turn(tokens: int, error_kind: str | None = None) -> Turn:
    from memory_demos.turn import ModelCall

    call = ModelCall("reply", (), "secret reply text", tokens, 0, "counted", 0.01)
    return Turn(
        "secret user text", "", 0.01, call, error="failed" if error_kind else None, error_kind=error_kind
    )


def test_registry_counts_usage_for_the_last_hour_without_any_text() -> None:
    clock = FakeClock()
    registry = SessionRegistry(clock=clock)
    registry.touch("s-a")
    registry.touch("s-b")
    registry.record("s-a", TurnUsage.of([_turn(100), _turn(50, "timeout")]))
    clock.advance(3000)
    registry.record("s-b", TurnUsage.of([_turn(10, "rate_limit")]))
    stats = registry.stats()
    assert (stats.sessions, stats.model_calls_last_hour, stats.tokens_last_hour) == (2, 3, 160)
    assert stats.errors_last_hour == {"timeout": 1, "rate_limit": 1}
    assert stats.active_sessions == 1  # s-a has been quiet for 50 minutes
    clock.advance(700)  # the first batch is now more than an hour old
    stats = registry.stats()
    assert (stats.model_calls_last_hour, stats.tokens_last_hour, stats.errors_last_hour) == (
        1,
        10,
        {"rate_limit": 1},
    )
    shown = json.dumps([registry.session_rows(), repr(stats)])
    assert "secret" not in shown and "s-a" not in shown


def test_sweep_releases_only_idle_sessions_and_is_rate_limited() -> None:
    clock = FakeClock()
    registry = SessionRegistry(clock=clock, sweep_every=30)
    released: list[str] = []
    registry.touch("old", lambda: released.append("old"))
    registry.touch("broken", lambda: 1 / 0)
    clock.advance(100)
    registry.touch("new", lambda: released.append("new"))
    assert registry.maybe_sweep(idle_seconds=60) == 2  # "broken" raising does not stop the sweep
    assert released == ["old"] and "new" in registry and "old" not in registry and len(registry) == 1
    clock.advance(20)
    assert registry.maybe_sweep(idle_seconds=10) == 0  # "new" is idle, but the last sweep was 20 s ago
    clock.advance(15)
    assert registry.maybe_sweep(idle_seconds=10) == 1
    assert released == ["old", "new"] and len(registry) == 0
    assert registry.touch("new") is True  # a released session is new to the registry
    assert registry.touch("new") is False


def test_twenty_sessions_come_and_go_and_leave_no_conversation_behind() -> None:
    """Sessions with buffer + vector panes, dropped by Streamlit, are gone after one sweep."""
    clock = FakeClock()
    registry = SessionRegistry(clock=clock, sweep_every=0)
    idle = 30 * 60.0
    strategy_refs: list[weakref.ref] = []
    turn_refs: list[weakref.ref] = []
    collections: list[str] = []
    for number in range(20):
        state: dict = {KEY_PREFIX + "panes_initialised": True}
        session = LabSession(state)
        session.panes.extend([session.new_pane("buffer"), session.new_pane("vector")])
        strategies = [pane.strategy for pane in session.panes]
        turns = broadcast(strategies, f"My name is Person{number} and my code is C-{number:04d}.")
        for pane, turn in zip(session.panes, turns, strict=True):
            assert turn.ok, turn.error
            pane.turns.append(turn)
        registry.touch(session.registry_key, session.releaser())
        registry.record(session.registry_key, TurnUsage.of(turns))
        strategy_refs += [weakref.ref(strategy) for strategy in strategies]
        turn_refs += [weakref.ref(turn) for turn in turns]
        collections.append(session.panes[1].strategy.collection)
        del state, session, strategies, turns, pane, turn  # Streamlit forgets the session
        clock.advance(5)
    gc.collect()
    assert len(registry) == 20
    assert all(ref() is not None for ref in strategy_refs)  # only the release callbacks hold them now
    names = {collection.name for collection in chroma_client(StorageConfig()).list_collections()}
    assert set(collections) <= names

    clock.advance(idle + 1)
    assert registry.maybe_sweep(idle) == 20
    gc.collect()
    assert len(registry) == 0
    alive = [ref() for ref in strategy_refs if ref() is not None]
    assert not alive, f"{len(alive)} strategies of departed sessions are still alive: {alive[:3]}"
    assert all(ref() is None for ref in turn_refs)
    names = {collection.name for collection in chroma_client(StorageConfig()).list_collections()}
    assert not set(collections) & names, "a departed session's vector collection is still in chromadb"
    assert registry.stats().released_total == 20
    assert "Person" not in repr(registry.stats()) + json.dumps(registry.session_rows())


def test_a_released_session_that_comes_back_gets_working_panes() -> None:
    clock = FakeClock()
    registry = SessionRegistry(clock=clock, sweep_every=0)
    session = LabSession({KEY_PREFIX + "panes_initialised": True})
    session.panes.extend([session.new_pane("buffer"), session.new_pane("vector")])
    broadcast([pane.strategy for pane in session.panes], "My name is Ada.")
    registry.touch(session.registry_key, session.releaser())
    clock.advance(100)
    registry.sweep(idle_seconds=10)
    assert all(pane.strategy is None for pane in session.panes)
    assert session.revive() and not session.revive()
    turns = broadcast([pane.strategy for pane in session.panes], "What is my name?")
    assert all(turn.ok for turn in turns)
    assert "Ada" not in turns[0].reply  # in-memory panes start again: the memory was released


def test_settings_for_a_session_come_from_the_workshop() -> None:
    host = HostProvider(
        kind="openai_compatible", base_url=HOST_URL, model="llama", api_key=SecretStr(HOST_KEY)
    )
    config = WorkshopConfig(enabled=True, limits=WorkshopLimits(max_message_chars=300), host=host)
    session = LabSession({})
    session.configure(LabConfig(workshop=config))
    assert session.provider.hosted and session.limits.max_message_chars == 300
    assert session.budget is not None and session.budget.limits.max_message_chars == 300
    session.budget.record(42)
    session.configure(
        LabConfig(
            workshop=WorkshopConfig(enabled=True, limits=WorkshopLimits(max_message_chars=200), host=host)
        )
    )
    assert session.budget.tokens_used == 42 and session.limits.max_message_chars == 200  # spent tokens stay
    session.configure(LabConfig(workshop=WorkshopConfig()))
    assert session.budget is None and session.provider.hosted  # the model chosen stays the session's


def test_time_moves_on_for_a_real_clock() -> None:
    registry = SessionRegistry()
    registry.touch("k")
    time.sleep(0.02)
    assert registry.sweep(idle_seconds=0.01) == 1


def test_exports_made_with_the_workshop_model_hold_neither_its_key_nor_its_address() -> None:
    from memory_demos.export import build_script

    host = HostProvider(
        kind="openai_compatible", base_url=HOST_URL, model="llama", api_key=SecretStr(HOST_KEY)
    )
    script = build_script(
        [("buffer", {}), ("window", {"k": 2})], ["Hi, I am Ada."], provider=host.provider_config()
    )
    compile(script, "memory_lab_conversation.py", "exec")
    assert HOST_KEY not in script and HOST_URL not in script and "10.9.8.7" not in script
    assert "model='llama'" in script and "workshop" in script
    own = build_script(
        ["buffer"], ["Hi"], provider=ProviderConfig(kind="openai_compatible", model="m", base_url=HOST_URL)
    )
    assert HOST_URL in own  # an attendee's own server is theirs to export
