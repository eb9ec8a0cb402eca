"""The focus view's table of stored facts leaves out the namespace column when every fact repeats the
namespace shown above it: that column took the table's width and a fact's value (王芳) was wrapped one
character to a line (seen in the QA walk at 1920 px, zh). The snapshot itself keeps every field."""

from __future__ import annotations

import copy

from memory_demos.strategies.base import StrategyContext
from memory_demos.strategies.registry import build_strategy
from memory_demos.ui.state_view import without_repeated_namespace


def test_a_long_term_panes_facts_are_shown_without_the_namespace_they_all_share() -> None:
    strategy = build_strategy("long_term", StrategyContext(language="zh"))
    try:
        turn = strategy.send("你好，我叫王芳，住在南京，是一名会计。")
    finally:
        strategy.close()
    assert turn.error is None, turn.error
    before = copy.deepcopy(turn.state)
    items = turn.state["items"]
    assert items and all(item["namespace"] == turn.state["namespace"] for item in items)
    shown = without_repeated_namespace(turn.state)
    assert turn.state == before  # the data is untouched
    assert shown["namespace"] == turn.state["namespace"]  # still shown once, above the table
    assert [item["value"] for item in shown["items"]] == [item["value"] for item in items]
    assert all("namespace" not in item for item in shown["items"])


def test_records_from_another_namespace_keep_the_column() -> None:
    state = {
        "namespace": ["users", "u1", "facts"],
        "items": [
            {"namespace": ["users", "u1", "facts"], "key": "name", "value": "Ada"},
            {"namespace": ["users", "u2", "facts"], "key": "name", "value": "Bo"},
        ],
        "messages": [{"role": "user", "content": "hi"}],
    }
    assert without_repeated_namespace(state) == state
    assert without_repeated_namespace({"items": state["items"]}) == {"items": state["items"]}
