"""Closing step: why the classic API was retired, and which modern pattern fits which assistant."""

from __future__ import annotations

from dataclasses import dataclass

from memory_demos.migration.program import Program

STEP_ID = "retired"
TITLE_KEY = "migration.retired.title"
CLASSIC_API = "langchain_classic.chains.ConversationChain + ConversationBufferMemory"
MODERN_API = "langchain.agents.create_agent + tools + InMemorySaver (thread_id in the config)"
SUMMARY_KEY = "migration.retired.summary"
meant_to_match = False
DEFAULT_INPUTS: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "What's the weather in Lisbon?",
    "What's my name?",
)
# The same script in Chinese, offered in a Chinese session: the prompts part on the same turns.
DEFAULT_INPUTS_ZH: tuple[str, ...] = (
    "你好，我叫玛拉，住在里斯本。",
    "里斯本天气怎么样？",
    "我叫什么名字？",
)
PITFALL_KEYS: tuple[str, ...] = (
    "migration.retired.pitfall.1",
    "migration.retired.pitfall.2",
    "migration.retired.pitfall.3",
    "migration.retired.pitfall.4",
)

# The two programs the page shows and runs (programs/*.py): complete, importing no Memory Lab code.
classic_version = Program("retired_classic.py")
modern_version = Program("retired_modern.py")


@dataclass(frozen=True)
class Recommendation:
    """What the decision helper suggests for one kind of assistant."""

    situation: str
    label_key: str
    pattern_key: str
    strategies: tuple[str, ...]
    why_key: str
    watch_out_key: str


SITUATIONS: tuple[Recommendation, ...] = (
    Recommendation(
        situation="faq",
        label_key="migration.retired.situation.faq.label",
        pattern_key="migration.retired.situation.faq.pattern",
        strategies=("agent_trim", "agent"),
        why_key="migration.retired.situation.faq.why",
        watch_out_key="migration.retired.situation.faq.watch_out",
    ),
    Recommendation(
        situation="multi_session",
        label_key="migration.retired.situation.multi_session.label",
        pattern_key="migration.retired.situation.multi_session.pattern",
        strategies=("agent", "summarization", "context_editing"),
        why_key="migration.retired.situation.multi_session.why",
        watch_out_key="migration.retired.situation.multi_session.watch_out",
    ),
    Recommendation(
        situation="profile",
        label_key="migration.retired.situation.profile.label",
        pattern_key="migration.retired.situation.profile.pattern",
        strategies=("long_term", "semantic_store", "hybrid"),
        why_key="migration.retired.situation.profile.why",
        watch_out_key="migration.retired.situation.profile.watch_out",
    ),
    Recommendation(
        situation="self_managed",
        label_key="migration.retired.situation.self_managed.label",
        pattern_key="migration.retired.situation.self_managed.pattern",
        strategies=("memory_blocks", "memory_tools", "background_memory"),
        why_key="migration.retired.situation.self_managed.why",
        watch_out_key="migration.retired.situation.self_managed.watch_out",
    ),
)


def recommend(situation: str) -> Recommendation:
    """The recommendation for ``faq``, ``multi_session``, ``profile`` or ``self_managed``."""
    for recommendation in SITUATIONS:
        if recommendation.situation == situation:
            return recommendation
    known = ", ".join(r.situation for r in SITUATIONS)
    raise KeyError(f"Unknown situation {situation!r}; known: {known}")
