"""Step 6: ConversationSummaryBufferMemory → ``create_agent`` with ``SummarizationMiddleware``."""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

from memory_demos.migration import SYSTEM_PROMPT, Exchange
from memory_demos.tracing import SUMMARIZE, with_purpose

STEP_ID = "summary_buffer"
TITLE_KEY = "migration.summary_buffer.title"
CLASSIC_API = "langchain_classic.memory.ConversationSummaryBufferMemory"
MODERN_API = "langchain.agents.create_agent + langchain.agents.middleware.SummarizationMiddleware"
SUMMARY_KEY = "migration.summary_buffer.summary"
meant_to_match = False
MAX_TOKENS = 120
KEEP_MESSAGES = 4
# No Chinese script: the token budget is tuned to these messages (a Chinese script moves the turn where
# the prompts part). A Chinese session gets these English ones.
DEFAULT_INPUTS: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "My order number is A-1234.",
    "Can you recommend a good book about gardening for small balconies?",
    "What do you think about spring weather in general?",
    "What's my name?",
)
PITFALL_KEYS: tuple[str, ...] = (
    "migration.summary_buffer.pitfall.1",
    "migration.summary_buffer.pitfall.2",
    "migration.summary_buffer.pitfall.3",
    "migration.summary_buffer.pitfall.4",
)


def classic_version(model: BaseChatModel, inputs: Iterable[str]) -> list[Exchange]:
    """ConversationSummaryBufferMemory: recent messages verbatim, the overflow folded into a summary."""
    from langchain_classic.memory import ConversationSummaryBufferMemory

    memory = ConversationSummaryBufferMemory(
        llm=with_purpose(model, SUMMARIZE), max_token_limit=MAX_TOKENS, return_messages=True
    )
    prompt = ChatPromptTemplate.from_messages(
        [("system", SYSTEM_PROMPT), MessagesPlaceholder("history"), ("human", "{input}")]
    )
    chain = prompt | model
    exchanges = []
    for user_text in inputs:
        history = memory.load_memory_variables({})["history"]  # [SystemMessage(summary)?, *recent]
        reply = chain.invoke({"history": history, "input": user_text})
        memory.save_context({"input": user_text}, {"output": reply.text})  # may call the model to summarize
        exchanges.append(Exchange(user_text, reply.text))
    return exchanges


def modern_version(model: BaseChatModel, inputs: Iterable[str]) -> list[Exchange]:
    """An agent whose middleware summarizes the thread once it passes MAX_TOKENS."""
    from langchain.agents import create_agent
    from langchain.agents.middleware import SummarizationMiddleware
    from langgraph.checkpoint.memory import InMemorySaver

    agent = create_agent(
        model=model,
        tools=[],
        system_prompt=SYSTEM_PROMPT,
        middleware=[
            SummarizationMiddleware(
                model=with_purpose(model, SUMMARIZE),
                trigger=("tokens", MAX_TOKENS),
                keep=("messages", KEEP_MESSAGES),
            )
        ],
        checkpointer=InMemorySaver(),
    )
    config = {"configurable": {"thread_id": secrets.token_urlsafe(16)}}  # one thread per conversation
    exchanges = []
    for user_text in inputs:
        state = agent.invoke({"messages": [HumanMessage(user_text)]}, config)
        exchanges.append(Exchange(user_text, state["messages"][-1].text))
    return exchanges
