"""Failure demo: notes in Redis that never expire (and notes with a TTL)."""

from __future__ import annotations

from typing import Any

from memory_demos.failure_lab.common import CallGate, Demo, DemoResult, VerdictRow, demo_result
from memory_demos.note_expiry import run_note_expiry
from memory_demos.strategies.shared.entity_redis_store import open_redis_entity_store


def expiring_notes(language: str = "en", gate: CallGate | None = None) -> DemoResult:
    """Without a TTL a note stays in Redis for ever; with one, it is deleted and the next prompt lacks it."""
    runs = run_note_expiry(language=language)
    naive, fixed = runs["without_ttl"], {**runs["with_ttl"], "waited_seconds": runs["waited_seconds"]}
    kept = naive["ttl_before_asking"].values()
    gone = fixed["ttl_before_asking"].values()
    failed = naive["fact_in_next_prompt"] and bool(kept) and all(ttl == -1 for ttl in kept)
    fixed_ok = not fixed["fact_in_next_prompt"] and bool(gone) and all(ttl == -2 for ttl in gone)
    return demo_result(DEMO, language, naive, fixed, failed, fixed_ok)


def verdict(result: DemoResult) -> tuple[VerdictRow, ...]:
    """The notes written when the fact was told, whether they reached the next prompt after the wait, and
    the answer to the question then."""
    naive, fixed = result["naive"], result["fixed"]
    return (
        VerdictRow("failure.verdict.notes_written", _notes(naive), _notes(fixed)),
        VerdictRow(
            "failure.verdict.in_next_prompt", naive["fact_in_next_prompt"], fixed["fact_in_next_prompt"]
        ),
        VerdictRow("failure.verdict.answer", naive["reply"], fixed["reply"], (("question", naive["asked"]),)),
    )


def _notes(run: dict[str, Any]) -> list[str]:
    return [f"{entity}: {note}" for entity, note in run["notes_written"].items()]


DEMO = Demo(
    "expiring_notes",
    "failure.expiring_notes.title",
    "failure.expiring_notes.explanation",
    "failure.expiring_notes.fix",
    expiring_notes,
    (run_note_expiry, open_redis_entity_store),
    harm="kept",
    verdict=verdict,
)
