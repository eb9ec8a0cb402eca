"""The 1.x strategies on a real PostgreSQL server: a new object (a restart, another process) continues."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from memory_demos.storage import StorageConfig
from memory_demos.strategies.base import Strategy, StrategyContext
from memory_demos.strategies.registry import build_strategy
from tests.helpers import WordEmbeddings, closed_after_test, send_ok
from tests.services import postgres_url  # noqa: F401 - the fixture

pytestmark = pytest.mark.services

NAME_MESSAGE = "Hi, my name is Mara and I live in Lisbon."


@pytest.fixture
def opened() -> Iterator[list[Strategy]]:
    yield from closed_after_test()


def make(strategy_id: str, params: dict[str, Any], url: str, conversation: str, user: str) -> Strategy:
    context = StrategyContext(
        conversation_id=conversation,
        user_id=user,
        storage=StorageConfig(sql_url=url),
        embeddings=WordEmbeddings(128),
    )
    return build_strategy(strategy_id, context, params)


@pytest.mark.parametrize(
    ("strategy_id", "params"),
    [
        ("agent", {"checkpointer": "postgres"}),
        ("agent_trim", {"checkpointer": "postgres", "k": 2}),
        ("context_editing", {"checkpointer": "postgres"}),
        # recent_turns=1: the thread keeps the last exchange (with 0 it keeps none; the store has them all).
        ("semantic_store", {"store": "postgres", "recent_turns": 1}),
    ],
)
def test_a_new_instance_continues_from_postgres_and_a_stranger_does_not(
    strategy_id: str,
    params: dict[str, Any],
    postgres_url: str,  # noqa: F811 - the fixture
    opened: list[Strategy],
) -> None:
    conversation, user = uuid.uuid4().hex, f"user_{uuid.uuid4().hex[:8]}"
    first = make(strategy_id, params, postgres_url, conversation, user)
    opened.append(first)
    send_ok(first, NAME_MESSAGE)
    send_ok(first, "I like green tea.")
    saved = first.snapshot()
    first.close()

    again = make(strategy_id, params, postgres_url, conversation, user)
    opened.append(again)
    reopened = again.snapshot()
    assert reopened["messages"] == saved["messages"] and saved["messages"]
    if strategy_id == "semantic_store":
        assert reopened["items"] == saved["items"] and len(saved["items"]) == 2
    assert reopened["checkpoints"] == saved["checkpoints"] and saved["checkpoints"]
    assert "Mara" in send_ok(again, "What's my name?").reply

    stranger = make(strategy_id, params, postgres_url, conversation, f"other_{user}")
    opened.append(stranger)
    assert stranger.snapshot()["messages"] == []
    assert "Mara" not in send_ok(stranger, "What's my name?").reply
