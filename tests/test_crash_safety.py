"""Killing the server mid-turn: every SQLite file stays readable and every completed turn is kept.

A driver process writes turns to the four SQLite backends at once (history, LangGraph checkpoints,
the long-term store, entity notes) with the offline model slowed down, and is SIGKILLed in the middle
of a turn. Then each file passes ``PRAGMA integrity_check`` and new strategy instances (as after a
restart) still hold every turn the driver had finished.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from memory_demos.providers.chat_models import ProviderConfig
from memory_demos.strategies.base import StrategyContext
from memory_demos.strategies.registry import build_strategy

ROOT = Path(__file__).resolve().parents[1]
CONVERSATION = "c0ffee00" * 4
USER = "u" + "ab12" * 8
BACKENDS = [
    ("history", {"backend": "sqlite"}),
    ("langgraph", {"checkpointer": "sqlite"}),
    ("long_term", {"store": "sqlite"}),
    ("entity", {"store": "sqlite"}),
]
# Each message leaves a trace every backend keeps: the message itself, a long-term fact, an entity.
MESSAGES = [
    ("Hi, my name is Ada.", "Ada"),
    ("I live in Lisbon.", "Lisbon"),
    ("My dog is called Rex.", "Rex"),
    ("I like green tea.", "green tea"),
    ("My friend Bruno lives in Porto.", "Bruno"),
]
LATENCY_MS = 150
KILL_AFTER_START_S = 0.25

DRIVER = f"""
import sys
from memory_demos.providers.chat_models import ProviderConfig
from memory_demos.runner import broadcast
from memory_demos.strategies.base import StrategyContext
from memory_demos.strategies.registry import build_strategy

provider = ProviderConfig(latency_ms={LATENCY_MS})
strategies = [
    build_strategy(sid, StrategyContext(provider=provider, conversation_id={CONVERSATION!r}, user_id={USER!r}), p)
    for sid, p in {BACKENDS!r}
]
for index, (text, _) in enumerate({MESSAGES!r}):
    print("START", index, flush=True)
    turns = broadcast(strategies, text)
    errors = [turn.error for turn in turns if turn.error]
    print("DONE" if not errors else "FAILED", index, errors, flush=True)
"""


def is_sqlite(path: Path) -> bool:
    with path.open("rb") as handle:
        return handle.read(16) == b"SQLite format 3\x00"


def test_a_kill_mid_turn_keeps_every_file_readable_and_every_finished_turn(private_data_dir: Path) -> None:
    env = {**os.environ, "MEMORY_LAB_DATA_DIR": str(private_data_dir)}
    driver = subprocess.Popen(
        [sys.executable, "-c", DRIVER],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    finished: list[int] = []
    try:
        assert driver.stdout is not None
        for line in driver.stdout:
            word, index, *_ = line.split(" ", 2)
            assert word != "FAILED", line
            if word == "DONE":
                finished.append(int(index))
            if word == "START" and int(index) == 3:
                time.sleep(KILL_AFTER_START_S)  # the four backends are now in the middle of turn 3
                break
        else:
            raise AssertionError(f"the driver ended early: {driver.stderr.read() if driver.stderr else ''}")
    finally:
        driver.send_signal(signal.SIGKILL)
        driver.wait(timeout=30)
    assert driver.returncode == -signal.SIGKILL
    assert finished == [0, 1, 2]

    files = sorted(path for path in private_data_dir.rglob("*") if path.is_file() and is_sqlite(path))
    names = {path.name for path in files}
    assert {
        "histories.sqlite",
        "checkpoints.sqlite",
        "long_term_store.sqlite",
        "classic_entities.sqlite",
    } <= names
    for path in files:
        connection = sqlite3.connect(path)
        try:
            assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",), path
            tables = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
            for (table,) in tables:
                connection.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()  # every row readable
        finally:
            connection.close()

    for strategy_id, params in BACKENDS:  # as after a restart: new objects, same conversation and user
        context = StrategyContext(provider=ProviderConfig(), conversation_id=CONVERSATION, user_id=USER)
        strategy = build_strategy(strategy_id, context, params)
        try:
            state = json.dumps(strategy.snapshot(), ensure_ascii=False)
            for text, trace in MESSAGES[:3]:
                assert trace in state, f"{strategy_id} lost the finished turn {text!r}"
            turn = strategy.send("What is my name?")  # and the conversation goes on
            assert turn.ok, (strategy_id, turn.error)
            if strategy_id != "entity":  # entity memory recalls a name only when the message mentions it
                assert "Ada" in turn.reply, (strategy_id, turn.reply)
        finally:
            strategy.close()
