"""Conversations of one user on real servers (issue 22): on PostgreSQL and Redis a new conversation starts
its thread, history or notes empty, the user's long-term store carries over, and another user sees none
of it, in any conversation."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from memory_demos.storage import StorageConfig
from memory_demos.strategies.base import Strategy, StrategyContext
from memory_demos.strategies.registry import build_strategy
from tests.helpers import WordEmbeddings, closed_after_test, send_ok
from tests.services import postgres_url, redis_url  # noqa: F401 - the fixtures

pytestmark = pytest.mark.services

NAME_MESSAGE = "Hi, my name is Mara and I live in Lisbon."
QUESTION = "What's my name?"


@pytest.fixture
def opened() -> Iterator[list[Strategy]]:
    yield from closed_after_test()


def make(
    strategy_id: str, params: dict[str, Any], storage: StorageConfig, user: str, opened: list
) -> Strategy:
    context = StrategyContext(
        conversation_id=uuid.uuid4().hex, user_id=user, storage=storage, embeddings=WordEmbeddings(128)
    )
    strategy = build_strategy(strategy_id, context, params)
    opened.append(strategy)
    return strategy


def _next(strategy: Strategy, opened: list) -> Strategy:
    following = strategy.new_conversation()
    opened.append(following)
    return following


@pytest.mark.parametrize(
    ("strategy_id", "params"),
    [("long_term", {"store": "postgres"}), ("semantic_store", {"store": "postgres"})],
)
def test_on_postgres_the_users_store_carries_over_and_never_reaches_another_user(
    strategy_id: str,
    params: dict[str, Any],
    postgres_url: str,  # noqa: F811 - the fixture
    opened: list[Strategy],
) -> None:
    storage = StorageConfig(sql_url=postgres_url)
    mara_id, kofi_id = f"mara_{uuid.uuid4().hex[:8]}", f"kofi_{uuid.uuid4().hex[:8]}"
    mara = make(strategy_id, params, storage, mara_id, opened)
    send_ok(mara, NAME_MESSAGE)
    later = _next(mara, opened)
    assert later.stored_messages() == []  # the thread is new
    assert "Mara" in send_ok(later, QUESTION).reply  # the store is the user's
    assert any(item["from_earlier_conversation"] for item in later.snapshot()["items"])
    # Another user on the same server: nothing of Mara's, in their first conversation or their next.
    kofi = make(strategy_id, params, storage, kofi_id, opened)
    assert kofi.snapshot()["items"] == []
    assert "Mara" not in send_ok(kofi, QUESTION).reply
    assert "Mara" not in send_ok(_next(kofi, opened), QUESTION).reply
    # A new process (a new object) for Mara finds her store again; forgetting Kofi leaves it.
    kofi.forget_user()
    again = make(strategy_id, params, storage, mara_id, opened)
    assert "Mara" in send_ok(again, QUESTION).reply
    again.forget_user()
    assert "Mara" not in send_ok(make(strategy_id, params, storage, mara_id, opened), QUESTION).reply


@pytest.mark.parametrize(
    ("strategy_id", "params"),
    [
        ("agent", {"checkpointer": "postgres"}),
        ("history", {"backend": "postgres"}),
        ("entity", {"store": "postgres"}),
    ],
)
def test_on_postgres_a_thread_keyed_memory_starts_empty_in_the_next_conversation(
    strategy_id: str,
    params: dict[str, Any],
    postgres_url: str,  # noqa: F811 - the fixture
    opened: list[Strategy],
) -> None:
    storage = StorageConfig(sql_url=postgres_url)
    first = make(strategy_id, params, storage, f"mara_{uuid.uuid4().hex[:8]}", opened)
    send_ok(first, NAME_MESSAGE)
    assert "Mara" not in send_ok(_next(first, opened), QUESTION).reply
    assert "Mara" in send_ok(first, QUESTION).reply  # the first conversation is still there


@pytest.mark.parametrize(
    ("strategy_id", "params"), [("history", {"backend": "redis"}), ("entity", {"store": "redis"})]
)
def test_on_redis_the_next_conversation_and_another_user_start_empty(
    strategy_id: str,
    params: dict[str, Any],
    redis_url: str,  # noqa: F811 - the fixture
    opened: list[Strategy],
) -> None:
    storage = StorageConfig(redis_url=redis_url)
    mara = make(strategy_id, params, storage, f"mara_{uuid.uuid4().hex[:8]}", opened)
    send_ok(mara, NAME_MESSAGE)
    assert "Mara" not in send_ok(_next(mara, opened), QUESTION).reply
    # Another user who somehow brings the same conversation id still reads nothing of Mara's.
    context = StrategyContext(
        conversation_id=mara.conversation_id, user_id="kofi", storage=storage, embeddings=WordEmbeddings(128)
    )
    stranger = build_strategy(strategy_id, context, params)
    opened.append(stranger)
    assert "Mara" not in send_ok(stranger, QUESTION).reply
    assert "Mara" in send_ok(mara, QUESTION).reply
