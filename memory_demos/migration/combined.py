"""Step 9: CombinedMemory → several middlewares on one ``create_agent``."""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

from memory_demos.migration import SYSTEM_PROMPT, Exchange
from memory_demos.tracing import SUMMARIZE, with_purpose

STEP_ID = "combined"
TITLE_KEY = "migration.combined.title"
CLASSIC_API = "langchain_classic.memory.CombinedMemory (window + summary)"
MODERN_API = "langchain.agents.create_agent + SummarizationMiddleware + ContextEditingMiddleware"
SUMMARY_KEY = "migration.combined.summary"
meant_to_match = False
K = 2
DEFAULT_INPUTS: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "What's the weather in Lisbon?",
    "My order number is A-1234.",
    "What's the weather in Porto?",
    "What's my name?",
)
# The same script in Chinese, offered in a Chinese session: the prompts part on the same turns.
DEFAULT_INPUTS_ZH: tuple[str, ...] = (
    "你好，我叫玛拉，住在里斯本。",
    "里斯本天气怎么样？",
    "我的订单号是 A-1234。",
    "波尔图天气怎么样？",
    "我叫什么名字？",
)
PITFALL_KEYS: tuple[str, ...] = (
    "migration.combined.pitfall.1",
    "migration.combined.pitfall.2",
    "migration.combined.pitfall.3",
    "migration.combined.pitfall.4",
)


def classic_version(model: BaseChatModel, inputs: Iterable[str]) -> list[Exchange]:
    """CombinedMemory: a window of recent messages plus a running summary of everything."""
    from langchain_classic.memory import (
        CombinedMemory,
        ConversationBufferWindowMemory,
        ConversationSummaryMemory,
    )

    memory = CombinedMemory(
        memories=[
            ConversationBufferWindowMemory(k=K, memory_key="recent", input_key="input", return_messages=True),
            ConversationSummaryMemory(
                llm=with_purpose(model, SUMMARIZE), memory_key="summary", input_key="input"
            ),
        ]
    )
    prompt = ChatPromptTemplate.from_messages(
        [
            ("system", SYSTEM_PROMPT + "\n\nSummary of the conversation:\n{summary}"),
            MessagesPlaceholder("recent"),
            ("human", "{input}"),
        ]
    )
    chain = prompt | model
    exchanges = []
    for user_text in inputs:
        variables = memory.load_memory_variables({"input": user_text})  # {"recent": [...], "summary": "..."}
        reply = chain.invoke({**variables, "input": user_text})
        memory.save_context({"input": user_text}, {"output": reply.text})  # both memories save
        exchanges.append(Exchange(user_text, reply.text))
    return exchanges


def modern_version(model: BaseChatModel, inputs: Iterable[str]) -> list[Exchange]:
    """One agent, two middlewares: a summary of what leaves the window, and old tool results cleared."""
    from langchain.agents import create_agent
    from langchain.agents.middleware import (
        ClearToolUsesEdit,
        ContextEditingMiddleware,
        SummarizationMiddleware,
    )
    from langgraph.checkpoint.memory import InMemorySaver

    from memory_demos.tools import TOOLS

    agent = create_agent(
        model=model,
        tools=list(TOOLS),
        system_prompt=SYSTEM_PROMPT,
        middleware=[
            # past 2K+1 messages, fold all but the last 2K+1 (the window and the new question) into a summary
            SummarizationMiddleware(
                model=with_purpose(model, SUMMARIZE),
                trigger=("messages", 2 * K + 2),
                keep=("messages", 2 * K + 1),
            ),
            # in the prompt sent, keep only the newest tool result whole
            ContextEditingMiddleware(edits=[ClearToolUsesEdit(trigger=0, keep=1)]),
        ],
        checkpointer=InMemorySaver(),
    )
    config = {"configurable": {"thread_id": secrets.token_urlsafe(16)}}
    exchanges = []
    for user_text in inputs:
        state = agent.invoke({"messages": [HumanMessage(user_text)]}, config)
        exchanges.append(Exchange(user_text, state["messages"][-1].text))
    return exchanges
