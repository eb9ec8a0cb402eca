"""Redis: message histories and entity notes that expire, on a real throw-away ``redis-server``.

``tests/services.py`` starts the servers on loopback (with a password holding URL-special characters);
nothing here is mocked. Checked: the seed book's key layout and TTLs, reading back from a new object, a
server restart, two OS processes on one conversation, real expiry reaching the next prompt, the state
view's countdown, and a clear, password-free error in one pane when Redis is down while the other panes
carry on and nothing is lost.
"""

# The server fixtures are imported; their names as parameters are F811.
# ruff: noqa: F811

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from memory_demos.bench import redis_capacity
from memory_demos.runner import broadcast
from memory_demos.session import widget_key
from memory_demos.storage import REDIS_URL_ENV, StorageConfig, StorageError, redis_client
from memory_demos.strategies.base import Strategy, StrategyContext
from memory_demos.strategies.registry import build_strategy
from memory_demos.ui.state_view import remaining_ttl
from tests.helpers import closed_after_test, send_ok
from tests.services import RedisServer, redis_server, redis_url  # noqa: F401
from tests.test_scale_out import make as make_strategy
from tests.test_scale_out import passwords, prompt_text

pytestmark = pytest.mark.services

REPO = Path(__file__).resolve().parents[1]
FAILURE_LAB = str(REPO / "pages" / "failure_lab.py")
NAME_MESSAGE = "Hi, my name is Mara and I live in Lisbon."
QUESTION = "What's my name?"
MARA_AGAIN = "It's Mara again. Where do I live?"
REDIS_CHOICES = {"history": {"backend": "redis"}, "entity": {"store": "redis"}}


@pytest.fixture
def opened() -> Iterator[list[Strategy]]:
    yield from closed_after_test()


def make(
    strategy_id: str, url: str, conversation_id: str, *, params: dict[str, Any] | None = None, **kwargs: Any
) -> Strategy:
    """A strategy on the Redis server at ``url`` (its Redis choice plus ``params``)."""
    storage = StorageConfig(redis_url=url)
    choices = {**REDIS_CHOICES[strategy_id], **(params or {})}
    return make_strategy(strategy_id, storage, conversation_id, params=choices, **kwargs)


def ttls(state: dict[str, Any]) -> dict[str, int]:
    return {row["key"]: row["ttl_seconds"] for row in state["redis_keys"]}


def raw_client(url: str) -> Any:
    return redis_client(StorageConfig(redis_url=url), "test", decode_responses=True)


# -- configuration (no server needed) ------------------------------------------------------------------
def test_the_redis_url_comes_from_the_environment_and_its_password_is_never_shown() -> None:
    url = "redis://:p%40ss%2Fw0rd@cache.internal:6379/2"
    config = StorageConfig.from_env({REDIS_URL_ENV: url})
    assert config.redis_url == url
    shown = " ".join([config.describe(), repr(config), config.redacted_redis_url or ""])
    assert "p%40ss" not in shown and "p@ss/w0rd" not in shown
    assert "Redis at redis://:***@cache.internal:6379/2" in config.describe()
    assert config.redact("auth failed for p@ss/w0rd") == "auth failed for ***"
    with pytest.raises(StorageError, match=REDIS_URL_ENV):
        StorageConfig(redis_url="http://127.0.0.1:6379")


def test_redis_choices_without_a_url_raise_a_clear_storage_error() -> None:
    for strategy_id, params in REDIS_CHOICES.items():
        context = StrategyContext(storage=StorageConfig())
        with pytest.raises(StorageError, match=f"needs a Redis server: set {REDIS_URL_ENV}"):
            build_strategy(strategy_id, context, params)


def test_the_state_view_counts_a_ttl_down_from_when_it_was_read() -> None:
    assert remaining_ttl({"ttl_seconds": 10, "read_at": 100.0}, now=103.2) == "6 s"
    assert remaining_ttl({"ttl_seconds": 3700, "read_at": 100.0}, now=100.0) == "1 h 1 min 40 s"
    assert remaining_ttl({"ttl_seconds": 86400, "read_at": 0.0}, now=60.0) == "23 h 59 min 0 s"
    assert remaining_ttl({"ttl_seconds": 2, "read_at": 100.0}, now=102.5) == "expired"
    assert remaining_ttl({"ttl_seconds": -2, "read_at": 100.0}, now=100.0) == "expired"
    assert remaining_ttl({"ttl_seconds": -1, "read_at": 100.0}, now=1e9) == "never (no TTL)"


def test_the_state_view_shows_each_key_with_the_time_left() -> None:
    def view() -> None:
        import time

        from memory_demos.ui.state_view import render_state

        now = time.time()
        rows = [
            {"key": "user:alice:conv:c1:entity:Mara", "ttl_seconds": 60, "read_at": now - 10},
            {"key": "user:alice:conv:c1:entity_messages", "ttl_seconds": -1, "read_at": now},
        ]
        render_state({"store": "redis", "redis_keys": rows})

    at = AppTest.from_function(view).run()
    assert not at.exception
    frame = at.dataframe[-1].value
    assert list(frame.columns) == ["Expires in", "TTL at the end of the turn (s)", "Key"]
    assert frame.iloc[0, 0] in {"50 s", "49 s"} and frame.iloc[0, 2] == "user:alice:conv:c1:entity:Mara"
    assert frame.iloc[1, 0] == "never (no TTL)"


# -- keys, TTLs, reading back ------------------------------------------------------------------------
def test_history_keys_follow_the_book_and_carry_the_ttl(redis_url: str, opened: list[Strategy]) -> None:
    conversation = uuid.uuid4().hex
    strategy = make("history", redis_url, conversation, opened=opened)
    turn = send_ok(strategy, NAME_MESSAGE)
    key = f"user:alice:conv:{conversation}:messages"
    assert list(ttls(turn.state)) == [key]
    assert 30 * 24 * 3600 - 5 <= ttls(turn.state)[key] <= 30 * 24 * 3600  # the book's 30 days
    assert raw_client(redis_url).llen(key) == 2

    again = make("history", redis_url, conversation, opened=opened)
    answer = send_ok(again, QUESTION)
    assert "Mara" in answer.reply and NAME_MESSAGE in prompt_text(answer)

    # Another user with the same conversation id sees nothing; a ':' in an id cannot reach other keys.
    stranger = make("history", redis_url, conversation, user_id="bob", opened=opened)
    assert "Mara" not in send_ok(stranger, QUESTION).reply
    tricky = make("history", redis_url, f"x:conv:{conversation}", user_id="alice:y", opened=opened)
    assert NAME_MESSAGE not in prompt_text(send_ok(tricky, QUESTION))
    assert next(iter(ttls(tricky.snapshot()))).startswith("user:alice%3Ay:conv:x%3Aconv%3A")


def test_without_a_ttl_the_history_key_never_expires(redis_url: str, opened: list[Strategy]) -> None:
    strategy = make("history", redis_url, uuid.uuid4().hex, params={"ttl_seconds": 0}, opened=opened)
    assert set(ttls(send_ok(strategy, NAME_MESSAGE).state).values()) == {-1}


def test_entity_notes_expire_renew_on_recall_and_are_read_back(
    redis_url: str, opened: list[Strategy]
) -> None:
    conversation = uuid.uuid4().hex
    params = {"ttl_seconds": 100, "recall_ttl_seconds": 5000}
    strategy = make("entity", redis_url, conversation, params=params, opened=opened)
    turn = send_ok(strategy, NAME_MESSAGE)
    prefix = f"user:alice:conv:{conversation}"
    keys = ttls(turn.state)
    assert f"{prefix}:entity:Mara" in keys and f"{prefix}:entity_messages" in keys
    assert all(0 < ttl <= 100 for ttl in keys.values())
    # Looking at the memory (the state view) must not renew anything.
    assert all(ttl <= 100 for ttl in ttls(strategy.snapshot()).values())

    again = make("entity", redis_url, conversation, params=params, opened=opened)
    answer = send_ok(again, MARA_AGAIN)
    assert "Lisbon" in prompt_text(answer)  # the note and the messages came back from Redis
    renewed = ttls(answer.state)
    # RedisEntityStore renews a note it reads to recall_ttl, then save_context rewrites it with ttl.
    assert renewed[f"{prefix}:entity_messages"] <= 100
    assert {entity["entity"] for entity in answer.state["entities"]} >= {"Mara", "Lisbon"}


def test_a_read_renews_a_note_to_the_recall_ttl(redis_url: str, opened: list[Strategy]) -> None:
    conversation = uuid.uuid4().hex
    strategy = make("entity", redis_url, conversation, params={"ttl_seconds": 100}, opened=opened)
    send_ok(strategy, NAME_MESSAGE)
    store = strategy.memory.entity_store
    key = f"user:alice:conv:{conversation}:entity:Mara"
    assert store.redis_client.ttl(key) <= 100
    assert "Lisbon" in store.get("Mara")  # the class's own read: GETEX with recall_ttl (3 days)
    assert 3 * 24 * 3600 - 5 <= store.redis_client.ttl(key) <= 3 * 24 * 3600


# -- forgetting by time ------------------------------------------------------------------------------
def test_an_expired_history_is_missing_from_the_next_prompt(redis_url: str, opened: list[Strategy]) -> None:
    strategy = make("history", redis_url, uuid.uuid4().hex, params={"ttl_seconds": 1}, opened=opened)
    first = send_ok(strategy, NAME_MESSAGE)
    key = next(iter(ttls(first.state)))
    client = raw_client(redis_url)
    deadline = time.monotonic() + 6
    while client.exists(key) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not client.exists(key)
    later = send_ok(strategy, QUESTION)
    assert NAME_MESSAGE not in prompt_text(later) and "Mara" not in later.reply
    assert ttls(later.state)[key] == 1  # the new turn started a new key with the same TTL


# -- restarts and processes --------------------------------------------------------------------------
def test_a_restarted_server_gives_back_messages_notes_and_their_ttls(
    redis_server: RedisServer, opened: list[Strategy]
) -> None:
    conversation = uuid.uuid4().hex
    for strategy_id in REDIS_CHOICES:
        strategy = make(strategy_id, redis_server.url, conversation, opened=opened)
        send_ok(strategy, NAME_MESSAGE)
        strategy.close()
    redis_server.stop()
    assert not redis_server.answers()
    redis_server.start()
    history = make("history", redis_server.url, conversation, opened=opened)
    answer = send_ok(history, QUESTION)
    assert "Mara" in answer.reply
    assert all(0 < ttl <= 30 * 24 * 3600 for ttl in ttls(answer.state).values())
    entity = make("entity", redis_server.url, conversation, opened=opened)
    assert "Lisbon" in prompt_text(send_ok(entity, MARA_AGAIN))


def chat(strategy_id: str, conversation: str, message: str, env: dict[str, str]) -> dict[str, Any]:
    param = "history.backend=redis" if strategy_id == "history" else "entity.store=redis"
    command = [sys.executable, "-m", "memory_demos", "chat", "--strategy", strategy_id]
    command += ["--conversation", conversation, "--user", "alice", "--param", param, "--json", message]
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize(("strategy_id", "question"), [("history", QUESTION), ("entity", MARA_AGAIN)])
def test_two_processes_continue_one_conversation(strategy_id: str, question: str, redis_url: str) -> None:
    env = {**os.environ, REDIS_URL_ENV: redis_url}
    conversation = uuid.uuid4().hex
    first = chat(strategy_id, conversation, NAME_MESSAGE, env)
    second = chat(strategy_id, conversation, question, env)
    assert first["error"] is None and second["error"] is None
    assert NAME_MESSAGE in prompt_text(second)  # process A's turn reached process B's prompt
    assert "Lisbon" in second["reply"] or "Mara" in second["reply"]
    for password in passwords(redis_url):
        assert password not in json.dumps(first) + json.dumps(second)


def test_replay_recalls_like_sqlite_and_the_keys_carry_the_ttl(redis_url: str, tmp_path: Path) -> None:
    """The issue's check: ``replay ... --param history.backend=redis --param entity.store=redis --json``."""
    env = {**os.environ, REDIS_URL_ENV: redis_url, "MEMORY_LAB_DATA_DIR": str(tmp_path)}
    command = [sys.executable, "-m", "memory_demos", "replay", "--scenario", "name_recall"]
    command += ["--strategies", "history,entity", "--json"]
    on_redis = [*command, "--param", "history.backend=redis", "--param", "entity.store=redis"]
    on_sqlite = [*command, "--param", "history.backend=sqlite", "--param", "entity.store=sqlite"]
    runs = {}
    for name, argv in (("redis", on_redis), ("sqlite", on_sqlite)):
        done = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        runs[name] = {run["strategy"]: run for run in json.loads(done.stdout)["results"]}
    for strategy_id in ("history", "entity"):
        assert runs["redis"][strategy_id]["recall"] == runs["sqlite"][strategy_id]["recall"]
        replies = [turn["reply"] for turn in runs["redis"][strategy_id]["turns"]]
        assert replies == [turn["reply"] for turn in runs["sqlite"][strategy_id]["turns"]]
        last = runs["redis"][strategy_id]["turns"][-1]["state"]
        limit = runs["redis"][strategy_id]["params"]["ttl_seconds"]
        assert last["redis_keys"] and all(0 < row["ttl_seconds"] <= limit for row in last["redis_keys"])
    recall = runs["redis"]["history"]["recall"]
    assert {k: recall[k] for k in ("passed", "asked", "failed")} == {"passed": 3, "asked": 3, "failed": 0}


# -- Redis down ----------------------------------------------------------------------------------------
def test_redis_down_fails_one_pane_clearly_and_loses_nothing(
    redis_server: RedisServer, opened: list[Strategy]
) -> None:
    conversation = uuid.uuid4().hex
    on_redis = [
        make(strategy_id, redis_server.url, conversation, opened=opened) for strategy_id in REDIS_CHOICES
    ]
    in_memory = build_strategy("buffer", StrategyContext(conversation_id=conversation))
    opened.append(in_memory)
    panes = [*on_redis, in_memory]
    assert all(turn.ok for turn in broadcast(panes, NAME_MESSAGE))

    redis_server.stop()
    turns = broadcast(panes, "My order number is A-1234.")
    assert turns[-1].ok and len(in_memory.stored_messages()) == 4  # the other pane carried on
    secrets = passwords(redis_server.url)
    for turn in turns[:-1]:
        assert not turn.ok and "StorageError" in (turn.error or "")
        assert "Redis server at redis://:***@127.0.0.1" in (turn.error or "")
        assert all(secret not in json.dumps(turn.to_json()) for secret in secrets)
    with pytest.raises(StorageError, match=r"Redis server at redis://:\*\*\*@127\.0\.0\.1") as caught:
        make("history", redis_server.url, conversation, opened=opened)
    assert all(secret not in str(caught.value) for secret in secrets)

    redis_server.start()
    for strategy in on_redis:  # the first turn is intact and the same objects work again
        assert [m.content for m in strategy.stored_messages()][::2] == [NAME_MESSAGE]
        assert send_ok(strategy, MARA_AGAIN).ok


def test_the_capacity_script_measures_and_cleans_up(
    redis_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(REDIS_URL_ENV, redis_url)
    assert redis_capacity.main(["--turns", "3", "--json"]) == 0
    results = {result["strategy"]: result for result in json.loads(capsys.readouterr().out)}
    history = results["history"]
    assert history["messages"] == 6 and not history["errors"]
    (messages,) = history["keys"]
    assert messages["items"] == 6 and 0 < messages["payload_bytes"] <= messages["memory_usage_bytes"]
    assert history["mean_message_json_bytes"] == round(messages["payload_bytes"] / 6)
    assert len(results["entity"]["keys"]) > 1  # the recent messages and at least one note
    client = raw_client(redis_url)
    assert not any(client.exists(key["key"]) for result in results.values() for key in result["keys"])


def test_the_failure_lab_page_runs_the_expiry_demo_on_redis_and_shows_no_password(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Without Redis the demo cannot be started: tests/test_failure_lab_redis_gate.py.
    monkeypatch.setenv(REDIS_URL_ENV, redis_url)
    at = AppTest.from_file(FAILURE_LAB, default_timeout=60)
    at.session_state[widget_key("failure_demo")] = "expiring_notes"  # the demos are pills now, not tabs
    at.run()
    at.button(key=widget_key("failure", "expiring_notes")).click().run()
    assert not at.exception
    assert [e.value for e in at.error] == ["Failure reproduced with the naive set-up."]
    assert [s.value for s in at.success] == ["The fix holds: the failure is absent."]
    at.toggle(key=widget_key("failure_json", "expiring_notes")).set_value(True).run()  # JSON waits behind it
    naive, fixed = (json.loads(element.value) for element in at.json)
    assert naive["fact_in_next_prompt"] and not fixed["fact_in_next_prompt"]
    assert "Lisbon" not in fixed["next_prompt"] and "Lisbon" in naive["next_prompt"]
    assert all(secret not in json.dumps([naive, fixed]) for secret in passwords(redis_url))
