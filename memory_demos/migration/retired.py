"""Closing step: why the classic API was retired, and which modern pattern fits which assistant."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage

from memory_demos.migration import SYSTEM_PROMPT, Exchange

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


def classic_version(model: BaseChatModel, inputs: Iterable[str]) -> list[Exchange]:
    """ConversationChain: a dict in, a dict out, the history flattened into one text template."""
    from langchain_classic.chains import ConversationChain
    from langchain_classic.memory import ConversationBufferMemory

    chain = ConversationChain(llm=model, memory=ConversationBufferMemory())
    exchanges = []
    for user_text in inputs:
        result = chain.invoke({"input": user_text})  # {"input", "history", "response"}
        exchanges.append(Exchange(user_text, result["response"]))
    return exchanges


def modern_version(model: BaseChatModel, inputs: Iterable[str]) -> list[Exchange]:
    """create_agent: messages in, messages out, tool calls kept, the thread named in the config."""
    from langchain.agents import create_agent
    from langgraph.checkpoint.memory import InMemorySaver

    from memory_demos.tools import TOOLS

    agent = create_agent(
        model=model, tools=list(TOOLS), system_prompt=SYSTEM_PROMPT, checkpointer=InMemorySaver()
    )
    config = {"configurable": {"thread_id": secrets.token_urlsafe(16)}}
    exchanges = []
    for user_text in inputs:
        state = agent.invoke({"messages": [HumanMessage(user_text)]}, config)
        exchanges.append(Exchange(user_text, state["messages"][-1].text))
    return exchanges


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
)


def recommend(situation: str) -> Recommendation:
    """The recommendation for ``faq``, ``multi_session`` or ``profile``."""
    for recommendation in SITUATIONS:
        if recommendation.situation == situation:
            return recommendation
    known = ", ".join(r.situation for r in SITUATIONS)
    raise KeyError(f"Unknown situation {situation!r}; known: {known}")
