"""Forgetting by time: an entity note in Redis with and without a TTL, and the prompt that follows.

Two real ``entity`` strategies (``ConversationEntityMemory`` over ``RedisEntityStore``, the recent
messages in ``RedisChatMessageHistory``) hear the same fact; one writes its keys without a TTL, the
other with a short one. After Redis has deleted the short-lived keys by itself (real expiry, nothing
simulated), both are asked about the fact and the prompt each model call received is kept. Used by
the failure lab; needs the Redis server of ``MEMORY_LAB_REDIS_URL``.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

from memory_demos.lab_config import load_lab_config
from memory_demos.storage import StorageConfig
from memory_demos.strategies.base import Strategy, StrategyContext
from memory_demos.strategies.registry import build_strategy

# Each language's message telling the fact, the later question, and the fact the prompt may not hold.
CONVERSATIONS: dict[str, tuple[str, str, str]] = {
    "en": ("Hi, my name is Mara and I live in Lisbon.", "It's Mara again. Where do I live?", "Lisbon"),
    "zh": ("你好，我叫林晓，住在杭州。", "我是林晓，又来了。我住在哪里？", "杭州"),
}
FACT_MESSAGE, QUESTION, FACT = CONVERSATIONS["en"]
SHORT_TTL_S = 1
EXPIRY_GRACE_S = 5.0
POLL_S = 0.05
DEMO_USER = "failure-lab"


def _entity_on_redis(storage: StorageConfig, ttl_seconds: int, language: str) -> Strategy:
    context = StrategyContext(
        conversation_id=uuid.uuid4().hex, user_id=DEMO_USER, storage=storage, language=language
    )
    params = {"store": "redis", "ttl_seconds": ttl_seconds, "recall_ttl_seconds": ttl_seconds}
    return build_strategy("entity", context, params)


def _prompt_text(turn: Any) -> str:
    return "\n".join(f"{message.role}: {message.content}" for message in turn.injected_prompt)


def _ttls(strategy: Strategy) -> dict[str, int]:
    return {row["key"]: row["ttl_seconds"] for row in strategy.snapshot()["redis_keys"]}


def wait_until_gone(strategy: Strategy, keys: list[str], limit_s: float) -> float:
    """Poll Redis until none of ``keys`` exists (or ``limit_s`` passed); the seconds waited."""
    client = strategy.memory.entity_store.redis_client
    started = time.monotonic()
    while client.exists(*keys) and time.monotonic() - started < limit_s:
        time.sleep(POLL_S)
    return round(time.monotonic() - started, 2)


def _report(
    strategy: Strategy, told: Any, keys: list[dict[str, int]], asked: Any, language: str
) -> dict[str, Any]:
    fact_message, question, fact = CONVERSATIONS.get(language, CONVERSATIONS["en"])
    prompt = _prompt_text(asked)
    return {
        "ttl_seconds": strategy.params["ttl_seconds"] or "none",
        "told": fact_message,
        "notes_written": {row["entity"]: row["summary"] for row in told.state.get("entities", [])},
        "ttl_after_telling": keys[0],
        "ttl_before_asking": keys[1],
        "asked": question,
        "next_prompt": prompt,
        "fact_in_next_prompt": fact in prompt,
        "reply": asked.reply,
        "errors": [turn.error for turn in (told, asked) if turn.error],
    }


def run_note_expiry(
    storage: StorageConfig | None = None, ttl_seconds: int = SHORT_TTL_S, language: str = "en"
) -> dict[str, Any]:
    """Tell both memories the fact, wait until Redis has expired the short-lived keys, ask both (in
    ``language``).

    Returns ``{"without_ttl": report, "with_ttl": report, "waited_seconds": s}``; each report has every
    key's TTL after the fact was told and before the question (-1: never expires, -2: gone).
    Every key the demo wrote is deleted at the end (the ones without a TTL would otherwise stay forever).
    """
    storage = storage if storage is not None else load_lab_config().storage
    fact_message, question, _ = CONVERSATIONS.get(language, CONVERSATIONS["en"])
    forever = _entity_on_redis(storage, 0, language)
    try:
        expiring = _entity_on_redis(storage, ttl_seconds, language)
    except Exception:
        forever.close()
        raise
    try:
        told = {name: s.send(fact_message) for name, s in (("forever", forever), ("expiring", expiring))}
        keys_told = {"forever": _ttls(forever), "expiring": _ttls(expiring)}
        waited = wait_until_gone(expiring, list(keys_told["expiring"]), ttl_seconds + EXPIRY_GRACE_S)
        keys_left = {
            name: {key: int(s.memory.entity_store.redis_client.ttl(key)) for key in keys_told[name]}
            for name, s in (("forever", forever), ("expiring", expiring))
        }
        asked = {name: s.send(question) for name, s in (("forever", forever), ("expiring", expiring))}
        return {
            "without_ttl": _report(
                forever,
                told["forever"],
                [keys_told["forever"], keys_left["forever"]],
                asked["forever"],
                language,
            ),
            "with_ttl": _report(
                expiring,
                told["expiring"],
                [keys_told["expiring"], keys_left["expiring"]],
                asked["expiring"],
                language,
            ),
            "waited_seconds": waited,
        }
    finally:
        for strategy in (forever, expiring):
            try:
                strategy.clear()
            finally:
                strategy.close()
