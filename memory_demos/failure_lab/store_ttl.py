"""Failure demo: a LangGraph store keeps a short-lived fact for ever (and the same store with a TTL).

Mara tells the ``long_term`` strategy a door code that only works today; it lands in her namespace of a
real ``SqliteStore``. Without a TTL (LangGraph's default) the store keeps it for ever, and her next
conversation still gives the stale code. With ``TTLConfig`` (``ttl_seconds``, here 2 s, not renewed by
reads) the store's own sweep deletes it, and the next prompt is without it. The wait is real: both stores
take expiry from the wall clock, so a scenario's simulated ``after: 2 weeks`` would not age the item.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from memory_demos.failure_lab.common import (
    CallGate,
    Demo,
    DemoResult,
    VerdictRow,
    answer_row,
    demo_context,
    demo_result,
)
from memory_demos.prompts import LONG_TERM_FACTS_HEADER, header
from memory_demos.strategies.registry import build_strategy
from memory_demos.strategies.shared.langgraph_store import ttl_config

# Each language's message telling the code, the question of the next conversation, and the key the
# strategy's fact extraction files the code under.
CONVERSATIONS: dict[str, tuple[str, str, str]] = {
    "en": ("My door code is 4471 and it only works today.", "What's my door code?", "door_code"),
    "zh": ("我的门禁码是 4471，只在今天有效。", "我的门禁码是多少？", "门禁码"),
}
TOLD, ASKED, CODE_KEY = CONVERSATIONS["en"]
CODE = "4471"
TTL_SECONDS = 2
# SqliteStore compares expiry with SQLite's CURRENT_TIMESTAMP, which has whole seconds.
WAIT_SECONDS = TTL_SECONDS + 1.2


def run_store_ttl(ttl_seconds: int, gate: CallGate | None = None, language: str = "en") -> dict[str, Any]:
    """Tell the code in one conversation, wait, ask in the user's next conversation (same store)."""
    told_text, asked_text, _ = CONVERSATIONS.get(language, CONVERSATIONS["en"])
    with tempfile.TemporaryDirectory(prefix="memory_lab_store_ttl_") as folder:
        context = demo_context(gate, language, user_id="mara", data_dir=Path(folder))
        params = {
            "store": "sqlite",
            "ttl_seconds": ttl_seconds,
            "refresh_on_read": False,
            "recent_messages": 1,
        }
        first = build_strategy("long_term", context, params)
        try:
            told = first.send(told_text)
            later = first.new_conversation()
        finally:
            first.close()
        time.sleep(WAIT_SECONDS)
        try:
            asked = later.send(asked_text)
        finally:
            later.close()
    system = next(m.content for m in asked.injected_prompt if m.role == "system")
    facts_header = header(LONG_TERM_FACTS_HEADER, language)  # the prompt's own, in its language
    return {
        "ttl_config": dict(ttl_config(ttl_seconds, refresh_on_read=False) or {}),
        "stored_after_telling": [f"{item['key']}: {item['value']}" for item in told.state["items"]],
        "seconds_left_after_telling": {r["key"]: r["ttl_seconds"] for r in told.state.get("store_ttls", [])},
        "waited_seconds": WAIT_SECONDS,
        "expired_before_asking": list(asked.state.get("expired_this_turn", [])),
        "facts_in_next_prompt": system.split(facts_header, 1)[1].strip() if facts_header in system else "",
        "question": asked_text,
        "answer": asked.reply,
        "code_in_next_prompt": CODE in system,
    }


def store_facts_expire(language: str = "en", gate: CallGate | None = None) -> DemoResult:
    """Without a TTL the stale code reaches the next conversation's prompt; with one, the store drops it."""
    key = CONVERSATIONS.get(language, CONVERSATIONS["en"])[2]
    naive = run_store_ttl(0, gate, language)
    fixed = run_store_ttl(TTL_SECONDS, gate, language)
    failed = naive["code_in_next_prompt"] and CODE in naive["answer"]
    fixed_ok = (
        bool(fixed["stored_after_telling"])
        and not fixed["code_in_next_prompt"]
        and CODE not in fixed["answer"]
        and fixed["expired_before_asking"] == [key]
    )
    return demo_result(DEMO, language, naive, fixed, failed, fixed_ok)


def verdict(result: DemoResult) -> tuple[VerdictRow, ...]:
    """What was stored, what the store's sweep deleted after the wait, the next prompt's facts, the answer."""
    naive, fixed = result["naive"], result["fixed"]
    return (
        VerdictRow("failure.verdict.stored", naive["stored_after_telling"], fixed["stored_after_telling"]),
        VerdictRow(
            "failure.verdict.expired_before_asking",
            naive["expired_before_asking"],
            fixed["expired_before_asking"],
            (("seconds", f"{WAIT_SECONDS:g}"),),
        ),
        VerdictRow(
            "failure.verdict.facts_in_next_prompt",
            naive["facts_in_next_prompt"],
            fixed["facts_in_next_prompt"],
        ),
        answer_row(naive, fixed),
    )


DEMO = Demo(
    "store_facts_expire",
    "failure.store_facts_expire.title",
    "failure.store_facts_expire.explanation",
    "failure.store_facts_expire.fix",
    store_facts_expire,
    (run_store_ttl, ttl_config),
    harm="kept",
    verdict=verdict,
)
