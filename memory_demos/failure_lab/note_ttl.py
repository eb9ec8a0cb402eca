"""Failure demo: notes in Redis that never expire (and notes with a TTL)."""

from __future__ import annotations

from memory_demos.failure_lab.common import Demo, DemoResult, Text, demo_result
from memory_demos.note_expiry import run_note_expiry
from memory_demos.strategies.shared.entity_redis_store import open_redis_entity_store


def expiring_notes(language: str = "en") -> DemoResult:
    """Without a TTL a note stays in Redis for ever; with one, it is deleted and the next prompt lacks it."""
    runs = run_note_expiry()
    naive, fixed = runs["without_ttl"], {**runs["with_ttl"], "waited_seconds": runs["waited_seconds"]}
    kept = naive["ttl_before_asking"].values()
    gone = fixed["ttl_before_asking"].values()
    failed = naive["fact_in_next_prompt"] and bool(kept) and all(ttl == -1 for ttl in kept)
    fixed_ok = not fixed["fact_in_next_prompt"] and bool(gone) and all(ttl == -2 for ttl in gone)
    return demo_result(DEMO, language, naive, fixed, failed, fixed_ok)


DEMO = Demo(
    "expiring_notes",
    Text("Notes that never expire (Redis)", "永不过期的笔记（Redis）"),
    Text(
        "On Redis, RedisChatMessageHistory sets no TTL unless given one, and an entity store with no TTL "
        "keeps its notes too: whatever a user said stays on the server for ever, memory only grows, and "
        "personal data outlives its use (against data minimisation). Here an entity memory keeps Mara's "
        "note and messages without a TTL: after the wait they are still there and go into the next "
        "prompt. This demo needs a Redis server: set MEMORY_LAB_REDIS_URL.",
        "在 Redis 上，RedisChatMessageHistory 默认不设 TTL，实体存储不设 TTL 时笔记也一样：用户说过的话"
        "永远留在服务器上，内存只增不减，个人数据在用完之后仍被保存（违背数据最小化）。"
        "这里实体记忆不带 TTL 地保存了 Mara 的笔记和消息：等待之后它们仍在，并进入下一轮提示。"
        "本演示需要 Redis 服务器："
        "请设置 MEMORY_LAB_REDIS_URL。",
    ),
    Text(
        "Give every key a TTL sized to how long a fact should matter. Here 1 second: Redis itself "
        "deletes the note and the recent messages, and the next prompt is without them, so the model "
        "no longer knows where Mara lives (real expiry, no simulated clock). RedisEntityStore keeps a "
        "note 1 day and renews it to 3 days on every read; the seed book suggests 30 days for a history "
        "(history.ttl_seconds, entity.ttl_seconds).",
        "给每个键设置与事实有效期相称的 TTL。这里是 1 秒：Redis 自己删除了笔记和最近的消息，下一轮提示中"
        "不再有它们，模型也就不再知道 Mara 住在哪里（真实过期，没有模拟时钟）。RedisEntityStore 默认"
        "保留笔记 1 天，每次读取续期到 3 天；种子书建议聊天历史保留 30 天"
        "（history.ttl_seconds、entity.ttl_seconds）。",
    ),
    expiring_notes,
    (run_note_expiry, open_redis_entity_store),
)
