"""State snapshots show the newest page of a growing list and say how many there are in all."""

from __future__ import annotations

from memory_demos.strategies.base import StrategyContext
from memory_demos.strategies.registry import build_strategy
from memory_demos.strategies.shared.paging import STATE_PAGE, paged


def test_a_long_list_shows_its_newest_page_and_its_total() -> None:
    items = list(range(STATE_PAGE + 7))
    state = paged("rows", items, lambda page: [{"n": n} for n in page])
    assert state["rows"] == [{"n": n} for n in items[-STATE_PAGE:]]
    assert state["rows_total"] == STATE_PAGE + 7
    assert paged("rows", items[:3]) == {"rows": [0, 1, 2]}  # short lists: all of it, no total


def test_a_long_thread_pages_its_checkpoints_and_messages() -> None:
    strategy = build_strategy("langgraph", StrategyContext())
    try:
        for index in range(STATE_PAGE // 2 + 1):
            turn = strategy.send(f"Message number {index}.")
        # Only the page is built, but numbered against the whole thread: the same rows as the full list.
        assert turn.state["checkpoints"] == strategy.checkpoints()[-STATE_PAGE:]
        assert turn.state["checkpoints_total"] == len(strategy.checkpoints())
    finally:
        strategy.close()
    state = turn.state
    assert len(state["checkpoints"]) == STATE_PAGE and state["checkpoints_total"] > STATE_PAGE
    assert state["checkpoints"][-1]["head"] is True  # the newest page holds the head
    assert len(state["messages"]) == STATE_PAGE and state["messages_total"] == 2 * (STATE_PAGE // 2 + 1)
    assert state["messages"][-2]["content"] == f"Message number {STATE_PAGE // 2}."
