"""The audit trail record shared by the self-managed memories: plain rows, checked operations, paging."""

from __future__ import annotations

import dataclasses
import json

import pytest

from memory_demos.strategies.shared.memory_audit import (
    AUDIT_KEY,
    MemoryWrite,
    audit_rows,
    audit_state,
    writes_in_turn,
)
from memory_demos.strategies.shared.paging import STATE_PAGE


def test_a_write_renders_as_plain_json_rows_in_order() -> None:
    writes = [
        MemoryWrite(1, "insert", "memories/local", "k1", "User lives in Lisbon", "tool:manage_memory", 42),
        MemoryWrite(3, "update", "human", "human", "Name: Mara", "tool:memory_replace", None),
        MemoryWrite(3, "delete", "memories/local", "k1", "User lives in Lisbon", "manager"),
    ]
    rows = audit_rows(writes)
    assert rows[0] == {
        "turn": 1,
        "operation": "insert",
        "where": "memories/local",
        "key": "k1",
        "value": "User lives in Lisbon",
        "via": "tool:manage_memory",
        "tokens": 42,
    }
    assert [row["operation"] for row in rows] == ["insert", "update", "delete"]
    assert rows[2]["tokens"] is None
    assert json.loads(json.dumps(audit_state(writes))) == {AUDIT_KEY: rows}
    assert writes_in_turn(writes, 3) == writes[1:]


def test_a_write_is_frozen_and_checks_its_operation_and_turn() -> None:
    write = MemoryWrite(1, "insert", "ns", "k", "v", "manager")
    with pytest.raises(dataclasses.FrozenInstanceError):
        write.turn = 2  # type: ignore[misc]
    with pytest.raises(ValueError, match="operation"):
        MemoryWrite(1, "upsert", "ns", "k", "v", "manager")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="turn"):
        MemoryWrite(0, "insert", "ns", "k", "v", "manager")


def test_a_long_trail_shows_its_newest_page_and_total() -> None:
    writes = [MemoryWrite(n + 1, "insert", "ns", f"k{n}", "v", "manager") for n in range(STATE_PAGE + 2)]
    state = audit_state(writes)
    assert len(state[AUDIT_KEY]) == STATE_PAGE
    assert state[AUDIT_KEY][0]["turn"] == 3
    assert state[f"{AUDIT_KEY}_total"] == STATE_PAGE + 2
