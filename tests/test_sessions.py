"""A new conversation for the same user (issue 22): thread-keyed memory starts empty, a user-keyed store
carries over, the earlier conversation stays as it was, and one user never reads another's store."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from memory_demos.clock import SCENARIO_START, ScenarioClock, parse_duration
from memory_demos.i18n import t
from memory_demos.strategies.base import Strategy, StrategyContext
from memory_demos.strategies.registry import STRATEGIES, available_ids, build_strategy, get_info
from tests.helpers import WordEmbeddings, closed_after_test, send_ok

NAME_MESSAGE = "Hi, my name is Mara and I live in Lisbon."
NAME_QUESTION = "What's my name?"
USER_KEYED = {"long_term", "semantic_store"}


@pytest.fixture
def opened() -> Iterator[list[Strategy]]:
    yield from closed_after_test()


def make(
    strategy_id: str,
    folder: Path,
    params: dict[str, Any] | None = None,
    *,
    user: str = "u1",
    opened: list[Strategy],
) -> Strategy:
    context = StrategyContext(data_dir=folder, user_id=user, embeddings=WordEmbeddings(128))
    strategy = build_strategy(strategy_id, context, params)
    opened.append(strategy)
    return strategy


def test_every_strategy_says_what_it_keeps_and_for_whom() -> None:
    for cls in STRATEGIES:
        info = cls.info
        assert info.keeps, info.id
        assert {part.scope for part in info.keeps} <= {"conversation", "user"}
        for part in info.keeps:  # data, translated by the view: both languages have each name
            for language in ("en", "zh"):
                assert t(f"memory.part.{part.name}", language) != f"memory.part.{part.name}"
                assert t(f"memory.scope.{part.scope}", language) != f"memory.scope.{part.scope}"
    carrying = {sid for sid in available_ids() if get_info(sid).carries_over}
    assert carrying >= USER_KEYED
    assert not carrying & {"buffer", "agent", "history", "langgraph", "entity", "vector", "hybrid"}
    assert [p.name for p in get_info("long_term").carries_over] == ["facts"]
    assert [p.name for p in get_info("long_term").per_conversation] == ["messages"]
    assert get_info("semantic_store").to_json()["keeps"][1] == {"name": "exchanges", "scope": "user"}


@pytest.mark.parametrize("strategy_id", list(available_ids()))
def test_a_new_conversation_starts_without_what_is_kept_per_conversation(
    strategy_id: str, tmp_path: Path, opened: list[Strategy]
) -> None:
    first = make(strategy_id, tmp_path, opened=opened)
    send_ok(first, NAME_MESSAGE)
    send_ok(first, "What is a nice hobby for the winter?")
    assert first.stored_messages() or strategy_id in {"summary", "vector", "hybrid", "semantic_store"}
    second = first.new_conversation()
    opened.append(second)
    assert second.conversation_id != first.conversation_id
    assert second.context.user_id == first.context.user_id and second.params == first.params
    assert second.stored_messages() == []
    reply = send_ok(second, NAME_QUESTION).reply
    if get_info(strategy_id).carries_over:
        assert "Mara" in reply, reply
    else:
        assert "Mara" not in reply, reply
    # The earlier conversation is untouched by the new one and can go on.
    assert "Mara" in send_ok(first, NAME_QUESTION).reply


@pytest.mark.parametrize("store", ["memory", "sqlite"])
@pytest.mark.parametrize("strategy_id", sorted(USER_KEYED))
def test_the_store_carries_over_and_says_where_each_item_came_from(
    strategy_id: str, store: str, tmp_path: Path, opened: list[Strategy]
) -> None:
    first = make(strategy_id, tmp_path, {"store": store}, opened=opened)
    send_ok(first, NAME_MESSAGE)
    assert not any(item["from_earlier_conversation"] for item in first.snapshot()["items"])
    second = first.new_conversation()
    opened.append(second)
    turn = send_ok(second, NAME_QUESTION)
    assert "Mara" in turn.reply
    state = second.snapshot()
    assert state["namespace"] == ["users", "u1", "facts" if strategy_id == "long_term" else "exchanges"]
    assert state["messages"] == [] or all("Mara" not in m["content"] for m in state["messages"][:-2])
    carried = [item for item in state["items"] if item["from_earlier_conversation"]]
    assert carried and any("Mara" in str(item) for item in carried)


def test_the_agent_thread_is_new_in_the_same_checkpointer(tmp_path: Path, opened: list[Strategy]) -> None:
    first = make("agent", tmp_path, opened=opened)
    send_ok(first, NAME_MESSAGE)
    second = first.new_conversation()
    opened.append(second)
    assert second.checkpointer is first.checkpointer  # one InMemorySaver, a thread per conversation
    assert second.thread_id != first.thread_id
    assert "Mara" not in send_ok(second, NAME_QUESTION).reply
    assert second.saved_thread_ids() == sorted([first.thread_id, second.thread_id])
    assert second.snapshot()["thread_id"] == second.thread_id


@pytest.mark.parametrize("strategy_id", sorted(USER_KEYED))
def test_reset_keeps_the_users_store_and_forget_user_deletes_it(
    strategy_id: str, tmp_path: Path, opened: list[Strategy]
) -> None:
    first = make(strategy_id, tmp_path, opened=opened)
    send_ok(first, NAME_MESSAGE)
    first.clear()
    assert first.stored_messages() == []
    assert first.snapshot()["items"], "Reset cleared the user's long-term memory"
    assert "Mara" in send_ok(first, NAME_QUESTION).reply
    second = first.new_conversation()
    opened.append(second)
    second.forget_user()
    assert second.snapshot()["items"] == [] and first.snapshot()["items"] == []
    assert "Mara" not in send_ok(second, NAME_QUESTION).reply


@pytest.mark.parametrize("store", ["memory", "sqlite"])
@pytest.mark.parametrize("strategy_id", sorted(USER_KEYED))
def test_another_user_never_sees_the_store(
    strategy_id: str, store: str, tmp_path: Path, opened: list[Strategy]
) -> None:
    mara = make(strategy_id, tmp_path, {"store": store}, user="mara", opened=opened)
    send_ok(mara, NAME_MESSAGE)
    other = make(strategy_id, tmp_path, {"store": store}, user="kofi", opened=opened)
    assert other.snapshot()["items"] == []
    assert "Mara" not in send_ok(other, NAME_QUESTION).reply
    # A context handed on with another user id gets its own backends, never the first user's.
    stranger = build_strategy(
        strategy_id, type(mara.context)(**{**_fields(mara.context), "user_id": "kofi"}), {"store": store}
    )
    opened.append(stranger)
    assert stranger.backends is not mara.backends
    assert "Mara" not in send_ok(stranger, NAME_QUESTION).reply
    other.forget_user()  # forgetting one user touches nobody else
    assert mara.snapshot()["items"]


def _fields(context: StrategyContext) -> dict[str, Any]:
    names = ("provider", "conversation_id", "user_id", "data_dir", "embeddings", "language", "backends")
    return {name: getattr(context, name) for name in names}


def test_turns_carry_the_time_of_the_contexts_clock(tmp_path: Path, opened: list[Strategy]) -> None:
    clock = ScenarioClock()
    context = StrategyContext(data_dir=tmp_path, clock=clock, embeddings=WordEmbeddings(128))
    strategy = build_strategy("long_term", context)
    opened.append(strategy)
    first = send_ok(strategy, NAME_MESSAGE)
    clock.advance(timedelta(days=3))
    second = strategy.new_conversation()
    opened.append(second)
    later = send_ok(second, NAME_QUESTION)
    assert second.context.clock is clock
    assert first.at == SCENARIO_START.isoformat()
    assert later.at == (SCENARIO_START + timedelta(days=3, minutes=1)).isoformat()
    assert first.to_json()["at"] == first.at
    told = {item["key"]: item["told_at"] for item in strategy.snapshot()["items"]}
    assert told and set(told.values()) == {SCENARIO_START.isoformat()}


def test_durations() -> None:
    assert parse_duration("3 days") == timedelta(days=3)
    assert parse_duration("1 week") == timedelta(weeks=1)
    assert parse_duration(" 90 Minutes ") == timedelta(minutes=90)
    assert parse_duration("2 hours") == timedelta(hours=2)
    for bad in ("", "3", "three days", "3 months", "-1 day", "1.5 days", "99999 weeks"):
        assert parse_duration(bad) is None, bad
    with pytest.raises(ValueError):
        ScenarioClock().advance(timedelta(minutes=-1))


def test_a_fresh_context_shares_nothing(tmp_path: Path, opened: list[Strategy]) -> None:
    """Two strategies built from one context (not through new_conversation) keep their own backends."""
    context = StrategyContext(data_dir=tmp_path, user_id="u1", conversation_id=uuid.uuid4().hex)
    one = build_strategy("long_term", context)
    two = build_strategy("long_term", context)
    opened += [one, two]
    send_ok(one, NAME_MESSAGE)
    assert two.snapshot()["items"] == []
