"""LangGraph store TTL (``TTLConfig``) on the ``long_term`` and ``semantic_store`` strategies.

On a real ``SqliteStore`` and a real ``PostgresStore`` (a throw-away server, tests/services.py): an item
written with a TTL is in the prompt of the turn that wrote it and gone from the next prompt once it expired,
also for a new conversation of the same user; without a TTL the same wait changes nothing. Expiry is real
time (neither store takes another clock), so the TTLs here are a few seconds.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from memory_demos.clock import ScenarioClock
from memory_demos.prompts import LONG_TERM_FACTS_HEADER, RETRIEVED_HEADER
from memory_demos.storage import StorageConfig
from memory_demos.strategies.base import InputError, Strategy, StrategyContext
from memory_demos.strategies.registry import build_strategy
from tests.helpers import WordEmbeddings, closed_after_test, send_ok
from tests.services import postgres_url  # noqa: F401 - the fixture

NAME_MESSAGE = "Hi, my name is Mara and I live in Lisbon."
TTL_S = 3
# SqliteStore compares expires_at with CURRENT_TIMESTAMP, which has whole seconds: wait one more.
WAIT_S = TTL_S + 1.5


@pytest.fixture
def opened() -> Iterator[list[Strategy]]:
    yield from closed_after_test()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.services)])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, Any]:
    """How to reach one real store: ``store`` and the context fields it needs."""
    if request.param == "sqlite":
        return {"store": "sqlite", "context": {"data_dir": tmp_path / "data"}}
    url = request.getfixturevalue("postgres_url")
    return {"store": "postgres", "context": {"storage": StorageConfig(sql_url=url), "data_dir": tmp_path}}


def make(
    strategy_id: str,
    backend: dict[str, Any],
    params: dict[str, Any],
    user: str,
    opened: list[Strategy],
    conversation: str | None = None,
) -> Strategy:
    context = StrategyContext(
        conversation_id=conversation or uuid.uuid4().hex,
        user_id=user,
        embeddings=WordEmbeddings(128),
        **backend["context"],
    )
    strategy = build_strategy(strategy_id, context, {"store": backend["store"], **params})
    opened.append(strategy)
    return strategy


def system_text(turn: Any) -> str:
    return next(m.content for m in turn.injected_prompt if m.role == "system")


def new_user() -> str:
    return f"user_{uuid.uuid4().hex[:8]}"


# -- long_term --------------------------------------------------------------------------------------
@pytest.mark.parametrize("ttl_seconds", [TTL_S, 0])
def test_an_expired_fact_is_gone_from_the_next_prompt_of_a_new_conversation(
    backend: dict[str, Any], ttl_seconds: int, opened: list[Strategy]
) -> None:
    user = new_user()
    params = {"ttl_seconds": ttl_seconds, "refresh_on_read": False, "recent_messages": 1}
    first = make("long_term", backend, params, user, opened)
    told = send_ok(first, NAME_MESSAGE)
    assert "- name: Mara" in system_text(told)  # written and read in the same turn, well before expiry
    if ttl_seconds:
        left = {row["key"]: row["ttl_seconds"] for row in told.state["store_ttls"]}
        assert set(left) == {"name", "city"} and all(0 <= s <= ttl_seconds for s in left.values())
    time.sleep(WAIT_S)

    # The same user's next conversation (Strategy.new_conversation): a new thread, the same store.
    later = first.new_conversation()
    opened.append(later)
    asked = send_ok(later, "What's my name?")
    if ttl_seconds:
        assert LONG_TERM_FACTS_HEADER not in system_text(asked)
        assert "Mara" not in asked.reply
        assert asked.state["items"] == []
        assert asked.state["expired_this_turn"] == ["city", "name"]
    else:  # the control: without a TTL the same wait keeps the fact
        assert "- name: Mara" in system_text(asked)
        assert "Mara" in asked.reply
        assert "store_ttls" not in asked.state


def test_a_read_renews_the_ttl_and_the_state_view_does_not(tmp_path: Path, opened: list[Strategy]) -> None:
    backend = {"store": "sqlite", "context": {"data_dir": tmp_path}}
    strategy = make("long_term", backend, {"ttl_seconds": 60}, new_user(), opened)
    send_ok(strategy, NAME_MESSAGE)

    def left() -> float:
        return next(row["ttl_seconds"] for row in strategy.snapshot()["store_ttls"] if row["key"] == "name")

    before = left()
    time.sleep(2.2)
    looked = left()
    assert looked <= before - 2  # reading the state (three snapshots) renewed nothing
    send_ok(strategy, "What's my name?")  # the reply's store.search renews every fact it read
    assert left() >= looked + 1


def test_the_state_says_the_ttl_runs_on_real_time(tmp_path: Path, opened: list[Strategy]) -> None:
    backend = {"store": "sqlite", "context": {"data_dir": tmp_path}}
    state = send_ok(make("long_term", backend, {"ttl_seconds": 90}, new_user(), opened), NAME_MESSAGE).state
    assert state["ttl"] == "90 s (TTLConfig default_ttl = 1.5 min)"
    assert "SqliteStore" in str(state["ttl_clock"]) and "scenario clock" in str(state["ttl_clock"])
    assert "renewed each time" in str(state["ttl_renewal"])


def test_three_simulated_days_do_not_age_a_store_item(tmp_path: Path, opened: list[Strategy]) -> None:
    clock = ScenarioClock()
    context = StrategyContext(
        user_id=new_user(), data_dir=tmp_path, clock=clock, embeddings=WordEmbeddings(128)
    )
    first = build_strategy("long_term", context, {"store": "sqlite", "ttl_seconds": 60})
    opened.append(first)
    send_ok(first, NAME_MESSAGE)
    clock.advance(timedelta(days=3))  # a scenario's `after: 3 days`, far past the 60 s TTL
    later = first.new_conversation()
    opened.append(later)
    asked = send_ok(later, "What's my name?")
    assert "Mara" in asked.reply and asked.state["expired_this_turn"] == []
    assert "simulated clock (now 2026-11-05" in str(asked.state["ttl_clock"])


@pytest.mark.parametrize("strategy_id", ["long_term", "semantic_store"])
def test_in_memory_store_says_it_has_no_ttl_and_keeps_the_fact(
    strategy_id: str, opened: list[Strategy]
) -> None:
    backend = {"store": "memory", "context": {}}
    strategy = make(strategy_id, backend, {"ttl_seconds": 1}, new_user(), opened)
    turn = send_ok(strategy, NAME_MESSAGE)
    assert any("InMemoryStore does not support TTL" in str(note) for note in turn.notes)
    assert "InMemoryStore does not support TTL" in str(turn.state["ttl"])
    time.sleep(1.5)
    assert "Mara" in send_ok(strategy, "What's my name?").reply


@pytest.mark.parametrize("strategy_id", ["long_term", "semantic_store"])
def test_postgres_refuses_a_renewed_ttl_it_would_round_to_whole_minutes(strategy_id: str) -> None:
    context = StrategyContext(storage=StorageConfig(sql_url="postgresql://nobody@127.0.0.1:1/none"))
    with pytest.raises(InputError, match=rf"{strategy_id}\.ttl_seconds=5 .*0 min"):
        build_strategy(strategy_id, context, {"store": "postgres", "ttl_seconds": 5})


# -- semantic_store -----------------------------------------------------------------------------------
def test_an_expired_exchange_leaves_the_index_and_the_next_prompt(
    backend: dict[str, Any], opened: list[Strategy]
) -> None:
    user = new_user()
    params = {"ttl_seconds": TTL_S, "refresh_on_read": False, "k": 2}
    first = make("semantic_store", backend, params, user, opened)
    send_ok(first, NAME_MESSAGE)
    again = send_ok(first, "What's my name?")
    assert "Mara" in system_text(again)  # retrieved from the store before it expired
    time.sleep(WAIT_S)

    asked = send_ok(first, "Where do I live?")
    assert RETRIEVED_HEADER not in system_text(asked) and "Lisbon" not in system_text(asked)
    assert len(asked.state["expired_this_turn"]) == 2
    # What this turn wrote is all that is left, in the index and in the durable store.
    assert [row["key"] for row in asked.state["store_ttls"]] == [item["key"] for item in asked.state["items"]]
    assert len(asked.state["items"]) == 1


# -- the state view -----------------------------------------------------------------------------------
def test_the_state_view_shows_store_items_counting_down() -> None:
    def view() -> None:
        import time

        from memory_demos.ui.state_view import render_state

        now = time.time()
        rows = [{"key": "name", "ttl_seconds": 60, "read_at": now - 10}, {"key": "x", "ttl_seconds": -1}]
        render_state({"store": "sqlite", "store_ttls": rows})

    at = AppTest.from_function(view).run()
    assert not at.exception
    assert any("store's own table" in caption.value for caption in at.caption)
    frame = at.dataframe[-1].value
    assert frame.iloc[0, 0] in {"50 s", "49 s"} and frame.iloc[0, 2] == "name"
    assert frame.iloc[1, 0] == "never (no TTL)"


def test_a_pane_header_names_the_ttl_only_when_one_is_set() -> None:
    from memory_demos.strategies.registry import get_info

    info = get_info("long_term")
    off = info.params_in_effect(info.resolve_params({"store": "sqlite"}))
    on = info.params_in_effect(info.resolve_params({"store": "sqlite", "ttl_seconds": 60}))
    assert "ttl_seconds" not in off and "refresh_on_read" not in off
    assert on["ttl_seconds"] == 60 and on["refresh_on_read"] is True


# -- the failure lab ------------------------------------------------------------------------------------
def test_the_failure_lab_keeps_a_stale_code_without_a_ttl_and_drops_it_with_one() -> None:
    from memory_demos.failure_lab import run_demo

    result = run_demo("store_facts_expire", language="zh")
    naive, fixed = result["naive"], result["fixed"]
    assert result["failed"] and result["fixed_ok"]
    # The Chinese page tells the code in Chinese; the strategy files it under the key the model wrote.
    assert naive["stored_after_telling"] == fixed["stored_after_telling"] == ["门禁码: 4471"]
    assert naive["facts_in_next_prompt"] == "- 门禁码: 4471" and "4471" in naive["answer"]
    assert fixed["seconds_left_after_telling"] == {"门禁码": 2}
    assert fixed["expired_before_asking"] == ["门禁码"] and fixed["facts_in_next_prompt"] == ""
    assert fixed["ttl_config"]["default_ttl"] == pytest.approx(2 / 60)
    assert "TTLConfig" in result["fix"] and "场景时钟" in result["fix"]


def test_semantic_store_renews_what_it_retrieved_and_not_what_it_reopened(
    tmp_path: Path, opened: list[Strategy]
) -> None:
    backend = {"store": "sqlite", "context": {"data_dir": tmp_path}}
    user = new_user()
    strategy = make("semantic_store", backend, {"ttl_seconds": 60, "k": 1}, user, opened)
    first = send_ok(strategy, NAME_MESSAGE)
    told_key = first.state["items"][0]["key"]

    def left(state: dict[str, Any]) -> float:
        return next(row["ttl_seconds"] for row in state["store_ttls"] if row["key"] == told_key)

    time.sleep(2.2)
    reopened = strategy.new_conversation()  # re-embeds the durable items into its index: no renewal
    opened.append(reopened)
    looked = left(reopened.snapshot())
    assert looked <= left(first.state) - 2
    asked = send_ok(reopened, "What's my name?")
    assert [hit["key"] for hit in asked.state["hits"]] == [told_key]
    assert left(asked.state) >= looked + 1  # read back through the durable store: refresh_on_read renewed it
