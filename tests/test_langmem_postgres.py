"""LangMem's memories on a real PostgreSQL server: the next conversation (a restart, another process) finds
them, re-embedded into its in-process index, and another user does not."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from memory_demos.storage import StorageConfig
from memory_demos.strategies.base import Strategy, StrategyContext
from memory_demos.strategies.registry import build_strategy
from tests.helpers import WordEmbeddings, closed_after_test, send_ok
from tests.services import postgres_url  # noqa: F401 - the fixture

pytestmark = pytest.mark.services


@pytest.fixture
def opened() -> Iterator[list[Strategy]]:
    yield from closed_after_test()


def make(strategy_id: str, url: str, user: str, opened: list[Strategy]) -> Strategy:
    context = StrategyContext(
        conversation_id=uuid.uuid4().hex,
        user_id=user,
        storage=StorageConfig(sql_url=url),
        embeddings=WordEmbeddings(128),
    )
    strategy = build_strategy(
        strategy_id,
        context,
        {"store": "postgres", "delay": 0} if strategy_id == "background_memory" else {"store": "postgres"},
    )
    opened.append(strategy)
    return strategy


@pytest.mark.parametrize("strategy_id", ["memory_tools", "background_memory"])
def test_memories_in_postgres_reach_a_new_object_of_the_same_user_only(
    strategy_id: str,
    postgres_url: str,  # noqa: F811 - the fixture
    opened: list[Strategy],
) -> None:
    user = f"user_{uuid.uuid4().hex[:8]}"
    first = make(strategy_id, postgres_url, user, opened)
    send_ok(first, "I live in Lisbon.")
    written = first.snapshot()["audit_trail"]
    assert [w["operation"] for w in written] == ["insert"]
    first.close()
    later = make(strategy_id, postgres_url, user, opened)
    assert [m["content"] for m in later.snapshot()["memories"]] == ["I live in Lisbon."]
    assert "Lisbon" in send_ok(later, "Where do I live?").reply
    stranger = make(strategy_id, postgres_url, f"other_{uuid.uuid4().hex[:8]}", opened)
    assert stranger.snapshot()["memories"] == []
    later.forget_user()
    assert later.snapshot()["memories"] == []
