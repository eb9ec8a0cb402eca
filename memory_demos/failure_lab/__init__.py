"""The failure-mode lab: each demo runs a naive memory set-up and its fix on the same input.

Every demo returns plain data, ``{"naive", "fixed", "failed", "fixed_ok", "explanation", "fix"}``:
``failed`` says the failure really happened with the naive variant, ``fixed_ok`` that it did not
happen with the fix. The demos always use the offline teaching model (its fault switches make the
failures reproducible); no demo touches the network.

One module per demo, each ending in its catalogue entry ``DEMO`` (the keys of its texts in
``memory_demos.i18n``, the function that runs it, the functions the page shows); this package lists
them in the lab's order.
"""

from __future__ import annotations

from memory_demos.failure_lab import (
    cache_prefix,
    drifting_summary,
    entity_extraction,
    full_block,
    memory_poisoning,
    never_saved,
    note_ttl,
    store_race,
    store_ttl,
    summary_failure,
    tool_trim,
    vector_recall,
)
from memory_demos.failure_lab.common import SYSTEM_PROMPT, CallGate, Demo, DemoResult
from memory_demos.failure_lab.drifting_summary import summary_drift, unsupported_sentences
from memory_demos.failure_lab.entity_extraction import chatty_entities, strict_entity_names
from memory_demos.failure_lab.memory_poisoning import InstructionFollowingModel
from memory_demos.failure_lab.note_ttl import expiring_notes
from memory_demos.failure_lab.store_race import session_race
from memory_demos.failure_lab.summary_failure import SUMMARY_FAIL_MESSAGES, summary_buffer_failure
from memory_demos.failure_lab.tool_trim import trim_orphan
from memory_demos.failure_lab.vector_recall import is_private, vector_privacy

__all__ = [
    "DEMOS",
    "SUMMARY_FAIL_MESSAGES",
    "SYSTEM_PROMPT",
    "Demo",
    "DemoResult",
    "InstructionFollowingModel",
    "chatty_entities",
    "demo_ids",
    "expiring_notes",
    "get_demo",
    "is_private",
    "run_demo",
    "session_race",
    "strict_entity_names",
    "summary_buffer_failure",
    "summary_drift",
    "trim_orphan",
    "unsupported_sentences",
    "vector_privacy",
]

DEMOS: tuple[Demo, ...] = tuple(
    module.DEMO
    for module in (
        entity_extraction,
        drifting_summary,
        vector_recall,
        tool_trim,
        store_race,
        summary_failure,
        note_ttl,
        store_ttl,
        memory_poisoning,
        cache_prefix,
        full_block,
        never_saved,
    )
)


def demo_ids() -> list[str]:
    """The demos' ids, in the lab's order."""
    return [demo.id for demo in DEMOS]


def get_demo(demo_id: str) -> Demo:
    """The catalogue entry of ``demo_id``; ``KeyError`` naming the known ids otherwise."""
    for demo in DEMOS:
        if demo.id == demo_id:
            return demo
    raise KeyError(f"Unknown failure demo {demo_id!r}; known: {', '.join(demo_ids())}")


def run_demo(demo_id: str, language: str = "en", gate: CallGate | None = None) -> DemoResult:
    """Run one demo by id; ``gate`` (a workshop attendee's budget gate) guards every model it builds."""
    return get_demo(demo_id).run(language, gate=gate)
