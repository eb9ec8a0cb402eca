"""Step 1: ConversationBufferMemory → ``create_agent`` + a checkpointer, a ``thread_id`` per conversation."""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

from memory_demos.migration import SYSTEM_PROMPT, Exchange

STEP_ID = "buffer"
TITLE_KEY = "migration.buffer.title"
CLASSIC_API = "langchain_classic.memory.ConversationBufferMemory"
MODERN_API = "langchain.agents.create_agent + langgraph.checkpoint.memory.InMemorySaver (thread_id)"
SUMMARY_KEY = "migration.buffer.summary"
meant_to_match = True
DEFAULT_INPUTS: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "My order number is A-1234.",
    "Can you recommend a book about gardening?",
    "What's my name?",
)
# The same script in Chinese, offered in a Chinese session: the prompts part on the same turns.
DEFAULT_INPUTS_ZH: tuple[str, ...] = (
    "你好，我叫玛拉，住在里斯本。",
    "我的订单号是 A-1234。",
    "能推荐一本关于园艺的书吗？",
    "我叫什么名字？",
)
PITFALL_KEYS: tuple[str, ...] = (
    "migration.buffer.pitfall.1",
    "migration.buffer.pitfall.2",
    "migration.buffer.pitfall.3",
    "migration.buffer.pitfall.4",
)


def classic_version(model: BaseChatModel, inputs: Iterable[str]) -> list[Exchange]:
    """ConversationBufferMemory: load every saved message, call the model, save the exchange."""
    from langchain_classic.memory import ConversationBufferMemory

    memory = ConversationBufferMemory(return_messages=True)
    prompt = ChatPromptTemplate.from_messages(
        [("system", SYSTEM_PROMPT), MessagesPlaceholder("history"), ("human", "{input}")]
    )
    chain = prompt | model
    exchanges = []
    for user_text in inputs:
        history = memory.load_memory_variables({})["history"]
        reply = chain.invoke({"history": history, "input": user_text})
        memory.save_context({"input": user_text}, {"output": reply.text})
        exchanges.append(Exchange(user_text, reply.text))
    return exchanges


def modern_version(model: BaseChatModel, inputs: Iterable[str]) -> list[Exchange]:
    """create_agent: the checkpointer keeps the thread; each call names it with a thread_id."""
    from langchain.agents import create_agent
    from langgraph.checkpoint.memory import InMemorySaver

    agent = create_agent(model=model, tools=[], system_prompt=SYSTEM_PROMPT, checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": secrets.token_urlsafe(16)}}  # one unguessable thread
    exchanges = []
    for user_text in inputs:
        state = agent.invoke({"messages": [HumanMessage(user_text)]}, config)  # only the new message
        exchanges.append(Exchange(user_text, state["messages"][-1].text))
    return exchanges
