"""Step 5: ConversationSummaryMemory → ``create_agent`` + ``SummarizationMiddleware``, every turn."""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

from memory_demos.migration import SYSTEM_PROMPT, Exchange
from memory_demos.tracing import SUMMARIZE, with_purpose

STEP_ID = "summary"
TITLE_KEY = "migration.summary.title"
CLASSIC_API = "langchain_classic.memory.ConversationSummaryMemory"
MODERN_API = (
    "langchain.agents.create_agent + SummarizationMiddleware(trigger=('messages', 2), keep=('messages', 1))"
)
SUMMARY_KEY = "migration.summary.summary"
meant_to_match = False
DEFAULT_INPUTS: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "My order number is A-1234.",
    "Can you recommend a book about gardening?",
    "What's my order number?",
)
# The same script in Chinese, offered in a Chinese session: the prompts part on the same turns.
DEFAULT_INPUTS_ZH: tuple[str, ...] = (
    "你好，我叫玛拉，住在里斯本。",
    "我的订单号是 A-1234。",
    "能推荐一本关于园艺的书吗？",
    "我的订单号是多少？",
)
PITFALL_KEYS: tuple[str, ...] = (
    "migration.summary.pitfall.1",
    "migration.summary.pitfall.2",
    "migration.summary.pitfall.3",
    "migration.summary.pitfall.4",
)


def classic_version(model: BaseChatModel, inputs: Iterable[str]) -> list[Exchange]:
    """ConversationSummaryMemory: one running summary, rewritten by the model after every turn."""
    from langchain_classic.memory import ConversationSummaryMemory

    memory = ConversationSummaryMemory(llm=with_purpose(model, SUMMARIZE), return_messages=True)
    prompt = ChatPromptTemplate.from_messages(
        [("system", SYSTEM_PROMPT), MessagesPlaceholder("history"), ("human", "{input}")]
    )
    chain = prompt | model
    exchanges = []
    for user_text in inputs:
        history = memory.load_memory_variables({})["history"]  # [SystemMessage(summary)]
        reply = chain.invoke({"history": history, "input": user_text})
        memory.save_context({"input": user_text}, {"output": reply.text})  # calls the model to summarize
        exchanges.append(Exchange(user_text, reply.text))
    return exchanges


def modern_version(model: BaseChatModel, inputs: Iterable[str]) -> list[Exchange]:
    """An agent whose middleware folds everything but the new question into one summary message."""
    from langchain.agents import create_agent
    from langchain.agents.middleware import SummarizationMiddleware
    from langgraph.checkpoint.memory import InMemorySaver

    agent = create_agent(
        model=model,
        tools=[],
        system_prompt=SYSTEM_PROMPT,
        middleware=[
            SummarizationMiddleware(
                model=with_purpose(model, SUMMARIZE), trigger=("messages", 2), keep=("messages", 1)
            )
        ],
        checkpointer=InMemorySaver(),
    )
    config = {"configurable": {"thread_id": secrets.token_urlsafe(16)}}
    exchanges = []
    for user_text in inputs:
        state = agent.invoke({"messages": [HumanMessage(user_text)]}, config)
        exchanges.append(Exchange(user_text, state["messages"][-1].text))
    return exchanges
