"""Scale-out: several app processes sharing memories through a real PostgreSQL and a real Chroma server.

``tests/services.py`` starts both servers on loopback for the session. Each persisted strategy is
checked three ways: a conversation written by one object is read back by a new object with the same
ids; two users with the same conversation id stay apart; and (history, langgraph, vector) two separate
OS processes running ``python -m memory_demos chat`` continue one conversation. Passwords of the SQL
URL must never show in a snapshot, an error, or the command's output.
"""

# The server fixtures are imported (conftest.py stays untouched); their names as parameters are F811.
# ruff: noqa: F811

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

import pytest

from memory_demos.storage import (
    CHROMA_URL_ENV,
    SQL_URL_ENV,
    StorageConfig,
    StorageError,
    chroma_client,
    chroma_collection_name,
    redact_url,
)
from memory_demos.strategies.base import Strategy, StrategyContext
from memory_demos.strategies.registry import build_strategy
from memory_demos.turn import Turn
from tests.helpers import WordEmbeddings, closed_after_test, send_ok
from tests.services import chroma_url, postgres_url  # noqa: F401

pytestmark = pytest.mark.services

REPO = Path(__file__).resolve().parents[1]
NAME_MESSAGE = "Hi, my name is Mara and I live in Lisbon."
QUESTION = "What's my name?"
FILLERS = (
    "Can you recommend a good book about gardening?",
    "What makes a good cup of tea?",
    "Tell me something about the history of bicycles.",
)
POSTGRES_CHOICES = {
    "history": {"backend": "postgres"},
    "langgraph": {"checkpointer": "postgres"},
    "long_term": {"store": "postgres"},
    "entity": {"store": "postgres"},
}


EMBEDDING_DIMENSIONS = 128


# -- helpers ---------------------------------------------------------------------------------------
@pytest.fixture
def opened() -> Iterator[list[Strategy]]:
    """Strategies registered here are closed after the test (released, never discarded)."""
    yield from closed_after_test()


def new_id() -> str:
    return uuid.uuid4().hex


def make(
    strategy_id: str,
    storage: StorageConfig,
    conversation_id: str,
    *,
    user_id: str = "alice",
    params: dict[str, Any] | None = None,
    opened: list[Strategy] | None = None,
) -> Strategy:
    context = StrategyContext(
        conversation_id=conversation_id,
        user_id=user_id,
        storage=storage,
        embeddings=WordEmbeddings(EMBEDDING_DIMENSIONS),
    )
    strategy = build_strategy(
        strategy_id, context, params if params is not None else POSTGRES_CHOICES.get(strategy_id)
    )
    if opened is not None:
        opened.append(strategy)
    return strategy


def passwords(url: str) -> list[str]:
    raw = urlsplit(url).password or ""
    return [raw, unquote(raw)]


def with_password(url: str, password: str) -> str:
    parts = urlsplit(url)
    netloc = f"{parts.username}:{password}@{parts.hostname}:{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def prompt_text(turn: Turn | dict[str, Any]) -> str:
    messages = (
        turn["injected_prompt"] if isinstance(turn, dict) else [m.to_json() for m in turn.injected_prompt]
    )
    return "\n".join(message["content"] for message in messages)


# -- StorageConfig (no server needed) ----------------------------------------------------------------
def test_storage_config_reads_the_environment_and_never_shows_the_password() -> None:
    url = "postgresql://lab:p%40ss%2Fw0rd@db.internal:5432/memory_lab?sslmode=require"
    config = StorageConfig.from_env({SQL_URL_ENV: url, CHROMA_URL_ENV: "http://127.0.0.1:8000/"})
    assert config.sql_url == url and config.chroma_url == "http://127.0.0.1:8000"
    assert StorageConfig.from_env({SQL_URL_ENV: "", CHROMA_URL_ENV: " "}) == StorageConfig()
    shown = [config.describe(), repr(config), str(config), config.redacted_sql_url or ""]
    for text in shown:
        assert "p%40ss" not in text and "p@ss/w0rd" not in text
    assert config.redacted_sql_url == "postgresql://lab:***@db.internal:5432/memory_lab?sslmode=require"
    assert "PostgreSQL at postgresql://lab:***@db.internal" in config.describe()
    assert "Chroma server at http://127.0.0.1:8000" in config.describe()
    assert config.redact("auth failed for p@ss/w0rd (p%40ss%2Fw0rd)") == "auth failed for *** (***)"
    assert redact_url("postgresql://db/x?user=a&password=hunter2") == "postgresql://db/x?user=a&password=***"
    assert "embedded" not in StorageConfig().describe() and "SQLite" in StorageConfig().describe()

    with pytest.raises(StorageError) as bad_scheme:
        StorageConfig(sql_url="mysql://root:hunter2@db/x")
    assert "hunter2" not in str(bad_scheme.value) and SQL_URL_ENV in str(bad_scheme.value)
    with pytest.raises(StorageError, match=CHROMA_URL_ENV):
        StorageConfig(chroma_url="127.0.0.1:8000")


def test_postgres_choices_without_a_url_raise_a_clear_storage_error(tmp_path: Path) -> None:
    for strategy_id, params in POSTGRES_CHOICES.items():
        context = StrategyContext(storage=StorageConfig(), data_dir=tmp_path)
        with pytest.raises(StorageError, match=SQL_URL_ENV) as caught:
            build_strategy(strategy_id, context, params)
        name, value = next(iter(params.items()))
        assert f"{strategy_id}.{name}={value}" in str(caught.value)


def test_server_collection_names_include_the_user_and_stay_valid() -> None:
    names = {
        chroma_collection_name("memory_lab_vector_", "c" * 32, user)
        for user in ("alice", "bob", "alice.c", "a-b", "ü" * 300)
    }
    assert len(names) == 5
    for name in names:
        assert re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{1,510}[A-Za-z0-9]", name), name
        assert ".." not in name
    assert chroma_collection_name("p_", "c" * 32, "alice") != chroma_collection_name("p_", "alice", "c" * 32)
    # In-process names are unchanged (tests and pages rely on them).
    assert chroma_collection_name("memory_lab_vector_", "c" * 32) == "memory_lab_vector_" + "c" * 32


# -- PostgreSQL: a new object reads what an old one wrote; users stay apart -------------------------
def test_history_on_postgres_is_read_back_by_a_new_instance(
    postgres_url: str, opened: list[Strategy]
) -> None:
    storage = StorageConfig(sql_url=postgres_url)
    conversation = new_id()
    first = make("history", storage, conversation, opened=opened)
    send_ok(first, NAME_MESSAGE)
    send_ok(first, FILLERS[0])
    written = first.snapshot()["messages"]
    first.close()

    again = make("history", storage, conversation, opened=opened)
    assert again.snapshot()["messages"] == written and len(written) == 4
    turn = send_ok(again, QUESTION)
    assert "Mara" in turn.reply and NAME_MESSAGE in prompt_text(turn)

    stranger = make("history", storage, conversation, user_id="bob", opened=opened)
    assert stranger.snapshot()["messages"] == []
    assert "Mara" not in send_ok(stranger, QUESTION).reply
    assert len(make("history", storage, conversation, opened=opened).snapshot()["messages"]) == 6


def test_langgraph_on_postgres_keeps_checkpoints_for_a_new_instance(
    postgres_url: str, opened: list[Strategy]
) -> None:
    storage = StorageConfig(sql_url=postgres_url)
    conversation = new_id()
    first = make("langgraph", storage, conversation, opened=opened)
    for text in (NAME_MESSAGE, *FILLERS[:2]):
        send_ok(first, text)
    saved = first.snapshot()
    first.close()

    again = make("langgraph", storage, conversation, opened=opened)
    reopened = again.snapshot()
    assert reopened["messages"] == saved["messages"] and len(saved["messages"]) == 6
    assert reopened["checkpoints"] == saved["checkpoints"] and reopened["head"] == saved["head"]
    again.fork_at(1)  # time travel works on the reopened thread
    turn = send_ok(again, QUESTION)
    assert "Mara" in turn.reply and len(again.snapshot()["messages"]) == 4

    stranger = make("langgraph", storage, conversation, user_id="bob", opened=opened)
    assert stranger.snapshot()["checkpoints"] == [] and stranger.snapshot()["thread_id"] != saved["thread_id"]


def test_long_term_on_postgres_keeps_facts_and_messages_for_a_new_instance(
    postgres_url: str, opened: list[Strategy]
) -> None:
    storage = StorageConfig(sql_url=postgres_url)
    conversation, user = new_id(), f"user_{new_id()[:8]}"
    first = make("long_term", storage, conversation, user_id=user, opened=opened)
    send_ok(first, NAME_MESSAGE)
    facts = {item["key"]: item["value"] for item in first.snapshot()["items"]}
    assert "Mara" in " ".join(facts.values())
    messages = first.snapshot()["messages"]
    first.close()

    again = make("long_term", storage, conversation, user_id=user, opened=opened)
    assert {item["key"]: item["value"] for item in again.snapshot()["items"]} == facts
    assert again.snapshot()["messages"] == messages
    # Facts are the user's: a new conversation of the same user knows them too.
    other_conversation = make("long_term", storage, new_id(), user_id=user, opened=opened)
    turn = send_ok(other_conversation, QUESTION)
    assert "Mara" in turn.reply and "Mara" in turn.injected_prompt[0].content

    stranger = make("long_term", storage, conversation, user_id=f"other_{user}", opened=opened)
    assert stranger.snapshot()["items"] == [] and stranger.snapshot()["messages"] == []


def test_entity_on_postgres_keeps_notes_and_recent_messages_for_a_new_instance(
    postgres_url: str, opened: list[Strategy]
) -> None:
    from memory_demos.strategies.shared.classic import import_classic_memory
    from memory_demos.strategies.shared.entity_sql_store import SQLEntityStore

    storage = StorageConfig(sql_url=postgres_url)
    conversation = new_id()
    first = make("entity", storage, conversation, opened=opened)
    assert isinstance(first.memory, import_classic_memory().ConversationEntityMemory)
    assert isinstance(first.memory.entity_store, SQLEntityStore)
    send_ok(first, NAME_MESSAGE)
    saved = first.snapshot()
    assert {"Mara", "Lisbon"} <= {row["entity"] for row in saved["entities"]}
    first.close()

    again = make("entity", storage, conversation, opened=opened)
    assert again.snapshot()["entities"] == saved["entities"]
    assert again.snapshot()["messages"] == saved["messages"] and len(saved["messages"]) == 2
    turn = send_ok(again, "Where does Mara live?")
    assert "Lisbon" in turn.injected_prompt[0].content

    stranger = make("entity", storage, conversation, user_id="bob", opened=opened)
    assert stranger.snapshot()["entities"] == [] and stranger.snapshot()["messages"] == []
    again.clear()
    assert make("entity", storage, conversation, opened=opened).snapshot()["entities"] == []


def test_a_failed_turn_rolls_back_postgres_state(postgres_url: str, opened: list[Strategy]) -> None:
    from memory_demos.providers.chat_models import ProviderConfig

    storage = StorageConfig(sql_url=postgres_url)
    for strategy_id in ("entity", "long_term"):
        conversation = new_id()
        good = make(strategy_id, storage, conversation, opened=opened)
        send_ok(good, NAME_MESSAGE)
        before = good.snapshot()
        context = StrategyContext(
            provider=ProviderConfig(fail_on_calls=(1, 2, 3, 4, 5, 6)),
            conversation_id=conversation,
            user_id="alice",
            storage=storage,
            embeddings=WordEmbeddings(EMBEDDING_DIMENSIONS),
        )
        failing = build_strategy(strategy_id, context, POSTGRES_CHOICES[strategy_id])
        opened.append(failing)
        turn = failing.send("My sister Ana lives in Porto.")
        assert not turn.ok
        after = make(strategy_id, storage, conversation, opened=opened).snapshot()
        keys = ("entities", "messages") if strategy_id == "entity" else ("items", "messages")
        assert {k: after[k] for k in keys} == {k: before[k] for k in keys}, strategy_id


def test_many_instances_can_set_up_a_fresh_database_at_once(postgres_url: str, tmp_path: Path) -> None:
    import psycopg

    fresh = f"memory_lab_fresh_{new_id()[:8]}"
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {fresh}")
    storage = StorageConfig(sql_url=urlunsplit(urlsplit(postgres_url)._replace(path=f"/{fresh}")))
    errors: list[BaseException] = []
    built: list[Strategy] = []
    lock = threading.Lock()

    def build(strategy_id: str) -> None:
        try:
            strategy = make(strategy_id, storage, new_id())
            with lock:
                built.append(strategy)
        except BaseException as exc:  # collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=build, args=(sid,)) for sid in list(POSTGRES_CHOICES) * 3]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    for strategy in built:
        strategy.close()
    assert errors == [] and len(built) == 12


# -- the Chroma server -------------------------------------------------------------------------------
def server_collections(url: str) -> set[str]:
    return {c.name for c in chroma_client(StorageConfig(chroma_url=url)).list_collections()}


def test_vector_on_the_chroma_server_is_read_back_and_survives_close(
    chroma_url: str, opened: list[Strategy]
) -> None:
    storage = StorageConfig(chroma_url=chroma_url)
    conversation = new_id()
    first = make("vector", storage, conversation)
    send_ok(first, NAME_MESSAGE)
    send_ok(first, FILLERS[0])
    saved = first.snapshot()
    assert saved["chroma_server"] == chroma_url and "alice" in saved["collection"]
    first.close()
    assert saved["collection"] in server_collections(chroma_url)

    again = make("vector", storage, conversation, opened=opened)
    assert sorted(again.snapshot()["stored_documents"]) == sorted(saved["stored_documents"])
    turn = send_ok(again, QUESTION)
    assert any(NAME_MESSAGE in hit["text"] for hit in turn.state["hits"])
    assert "Mara" in turn.reply and NAME_MESSAGE in turn.injected_prompt[0].content

    stranger = make("vector", storage, conversation, user_id="bob", opened=opened)
    assert stranger.snapshot()["collection"] != saved["collection"]
    assert stranger.snapshot()["stored_documents"] == []
    assert "Mara" not in send_ok(stranger, QUESTION).reply

    again.discard()
    assert saved["collection"] not in server_collections(chroma_url)
    again.discard()  # twice is fine


def test_hybrid_on_the_chroma_server_continues_in_a_new_instance(
    chroma_url: str, opened: list[Strategy]
) -> None:
    storage = StorageConfig(chroma_url=chroma_url)
    conversation = new_id()
    params = {"window_k": 1}
    first = make("hybrid", storage, conversation, params=params)
    for text in (NAME_MESSAGE, *FILLERS):
        send_ok(first, text)
    saved = first.snapshot()
    assert saved["indexed_turns"] == 3 and saved["summary"]
    first.close()

    again = make("hybrid", storage, conversation, params=params, opened=opened)
    reopened = again.snapshot()
    for key in ("summary", "window", "indexed_turns", "unsummarized_turns", "collection"):
        assert reopened[key] == saved[key], key
    question = "Is Mara still living in Lisbon?"
    turn = send_ok(again, question)
    assert turn.state["hits"][0]["turn"] == 1 and NAME_MESSAGE in turn.state["hits"][0]["text"]
    assert NAME_MESSAGE in prompt_text(turn)  # recalled from the collection the first object filled
    assert again.snapshot()["window"][0]["content"] == question

    stranger = make("hybrid", storage, conversation, params=params, opened=opened)
    stranger_bob = make("hybrid", storage, conversation, user_id="bob", params=params, opened=opened)
    assert stranger.snapshot()["indexed_turns"] == 4  # same user: same conversation
    assert stranger_bob.snapshot()["indexed_turns"] == 0 and stranger_bob.snapshot()["summary"] == ""

    again.clear()
    assert make("hybrid", storage, conversation, params=params, opened=opened).snapshot()["window"] == []
    again.discard()
    assert saved["collection"] not in server_collections(chroma_url)


def test_in_process_collections_are_still_deleted_by_close(opened: list[Strategy]) -> None:
    storage = StorageConfig()
    strategy = make("vector", storage, new_id())
    send_ok(strategy, NAME_MESSAGE)
    name = strategy.snapshot()["collection"]
    assert strategy.snapshot()["chroma_server"] is None
    client = chroma_client(storage)
    assert name in {c.name for c in client.list_collections()}
    strategy.close()
    assert name not in {c.name for c in client.list_collections()}


# -- two OS processes, one conversation ---------------------------------------------------------------
def chat(
    strategy_id: str, conversation: str, message: str, env: dict[str, str], *params: str
) -> dict[str, Any]:
    command = [
        sys.executable,
        "-m",
        "memory_demos",
        "chat",
        "--strategy",
        strategy_id,
        "--conversation",
        conversation,
        "--user",
        "alice",
        "--json",
        message,
    ]
    for param in params:
        command[-2:-2] = ["--param", param]
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize(
    ("strategy_id", "param"),
    [
        ("history", "history.backend=postgres"),
        ("langgraph", "langgraph.checkpointer=postgres"),
        ("vector", None),
    ],
)
def test_two_processes_continue_one_conversation(
    strategy_id: str, param: str | None, postgres_url: str, chroma_url: str
) -> None:
    env = {**os.environ, SQL_URL_ENV: postgres_url, CHROMA_URL_ENV: chroma_url}
    conversation = new_id()
    params = (param,) if param else ()
    first = chat(strategy_id, conversation, NAME_MESSAGE, env, *params)
    assert first["error"] is None and first["user"] == NAME_MESSAGE
    second = chat(strategy_id, conversation, QUESTION, env, *params)
    assert second["error"] is None
    assert "Mara" in second["reply"]
    assert NAME_MESSAGE in prompt_text(second)  # process A's turn reached process B's prompt
    if strategy_id != "vector":
        assert first["reply"] in prompt_text(second)
    for password in passwords(postgres_url):
        assert password not in json.dumps(first) + json.dumps(second)


# -- passwords ---------------------------------------------------------------------------------------------
def test_the_sql_password_never_appears_in_snapshots_or_errors(
    postgres_url: str, opened: list[Strategy], tmp_path: Path
) -> None:
    secrets = passwords(postgres_url)
    storage = StorageConfig(sql_url=postgres_url)
    for strategy_id in POSTGRES_CHOICES:
        strategy = make(strategy_id, storage, new_id(), opened=opened)
        turn = send_ok(strategy, NAME_MESSAGE)
        text = json.dumps([strategy.snapshot(), turn.to_json()], default=str)
        assert all(secret not in text for secret in secrets), strategy_id
    assert "***" in json.dumps(make("history", storage, new_id(), opened=opened).snapshot())

    wrong = StorageConfig(sql_url=with_password(postgres_url, "Wr0ng-pa55%2Fword"))
    for strategy_id in POSTGRES_CHOICES:
        with pytest.raises(StorageError) as caught:
            make(strategy_id, wrong, new_id(), opened=opened)
        message = str(caught.value)
        assert "Wr0ng-pa55" not in message and all(secret not in message for secret in secrets), message
        assert "***" in message and "127.0.0.1" in message

    env = {**os.environ, SQL_URL_ENV: wrong.sql_url or ""}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "memory_demos",
            "chat",
            "--strategy",
            "history",
            "--conversation",
            new_id(),
            "--param",
            "history.backend=postgres",
            "--json",
            "hello",
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1 and "error:" in done.stderr
    assert "Wr0ng-pa55" not in done.stdout + done.stderr and "Traceback" not in done.stderr
