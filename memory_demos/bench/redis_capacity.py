"""``python -m memory_demos.bench.redis_capacity``: how many bytes a conversation takes in Redis, measured.

The seed book estimates a serialised message at 0.5–2 KB and a 50-turn session at 50–200 KB. This plays
``--turns`` turns (the English scenarios' messages, cycled) through ``history`` (backend=redis) and
``entity`` (store=redis) on the offline teaching model, then asks Redis for each key's ``MEMORY USAGE``
(``SAMPLES 0``: every element counted) next to the bytes of the JSON it stores, prints the figures,
and deletes the keys it wrote. Needs ``MEMORY_LAB_REDIS_URL``.
"""

from __future__ import annotations

import argparse
import json
import sys
import uuid
from collections.abc import Sequence
from itertools import cycle, islice
from typing import Any

from memory_demos.lab_config import load_lab_config
from memory_demos.storage import StorageConfig, StorageError
from memory_demos.strategies.base import StrategyContext
from memory_demos.strategies.registry import build_strategy

ENGLISH_SCENARIOS = ("name_recall", "fact_change", "people_and_places")
REDIS_PARAMS = {"history": {"backend": "redis"}, "entity": {"store": "redis"}}
SESSIONS_FOR_SCALE = 10_000  # the book's "10,000 active users"
SCALED_KEY = f"memory_for_{SESSIONS_FOR_SCALE}_sessions_mb"


def scenario_messages() -> list[str]:
    """The user messages of the bundled English scenarios, in order."""
    from memory_demos.scenarios import load_scenario

    return [turn.user for name in ENGLISH_SCENARIOS for turn in load_scenario(name).turns]


def _key_figures(client: Any, key: str) -> dict[str, Any]:
    kind = client.type(key)
    kind = kind.decode() if isinstance(kind, bytes) else kind
    if kind == "list":
        items = client.lrange(key, 0, -1)
    else:
        value = client.get(key)
        items = [] if value is None else [value]
    stored = [len(item.encode() if isinstance(item, str) else item) for item in items]
    return {
        "key": key,
        "type": kind,
        "items": len(items),
        "payload_bytes": sum(stored),
        "memory_usage_bytes": int(client.memory_usage(key, samples=0) or 0),
    }


def measure(strategy_id: str, turns: int, storage: StorageConfig) -> dict[str, Any]:
    """Play ``turns`` turns through ``strategy_id`` on Redis; the bytes of every key it wrote."""
    context = StrategyContext(conversation_id=uuid.uuid4().hex, user_id="capacity", storage=storage)
    strategy = build_strategy(strategy_id, context, REDIS_PARAMS[strategy_id])
    try:
        errors = [
            t.error for t in (strategy.send(m) for m in islice(cycle(scenario_messages()), turns)) if t.error
        ]
        state = strategy.snapshot()
        client = strategy._redis if strategy_id == "history" else strategy.memory.entity_store.redis_client
        keys = [_key_figures(client, row["key"]) for row in state["redis_keys"]]
        messages = [k for k in keys if k["type"] == "list"]
        message_count = sum(k["items"] for k in messages)
        total = sum(k["memory_usage_bytes"] for k in keys)
        return {
            "strategy": strategy_id,
            "turns": turns,
            "errors": errors,
            "keys": keys,
            "messages": message_count,
            "mean_message_json_bytes": round(
                sum(k["payload_bytes"] for k in messages) / max(message_count, 1)
            ),
            "memory_usage_bytes": total,
            SCALED_KEY: round(total * SESSIONS_FOR_SCALE / 1e6),
        }
    finally:
        strategy.clear()
        strategy.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m memory_demos.bench.redis_capacity", description=__doc__)
    parser.add_argument("--turns", type=int, default=50)
    parser.add_argument("--strategies", default="history,entity")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    strategy_ids = [s.strip() for s in args.strategies.split(",") if s.strip()]
    if args.turns < 1 or not strategy_ids or any(s not in REDIS_PARAMS for s in strategy_ids):
        print(f"error: --turns must be ≥ 1 and --strategies among {', '.join(REDIS_PARAMS)}", file=sys.stderr)
        return 2
    storage = StorageConfig()
    try:
        storage = load_lab_config().storage
        storage.require_redis_url("redis_capacity")
        results = [measure(strategy_id, args.turns, storage) for strategy_id in strategy_ids]
    except StorageError as exc:
        print(f"error: {storage.redact(str(exc))}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    for result in results:
        print(
            f"{result['strategy']:<8} {result['turns']} turns: {len(result['keys'])} keys, "
            f"{result['messages']} messages of {result['mean_message_json_bytes']} B of JSON on average, "
            f"MEMORY USAGE {result['memory_usage_bytes'] / 1024:.1f} KiB in all "
            f"(× {SESSIONS_FOR_SCALE:,} sessions ≈ {result[SCALED_KEY]} MB)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
