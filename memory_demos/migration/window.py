"""Step 3: ConversationBufferWindowMemory → ``create_agent`` + ``@before_model`` keeping k exchanges."""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

from memory_demos.migration import SYSTEM_PROMPT, Exchange
from memory_demos.strategies.shared.agent_middleware import keep_last_turns, replace_all

STEP_ID = "window"
TITLE_KEY = "migration.window.title"
CLASSIC_API = "langchain_classic.memory.ConversationBufferWindowMemory"
MODERN_API = "langchain.agents.create_agent + langchain.agents.middleware.before_model (RemoveMessage)"
SUMMARY_KEY = "migration.window.summary"
meant_to_match = True
K = 2
DEFAULT_INPUTS: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "My order number is A-1234.",
    "Can you recommend a book about gardening?",
    "What makes a good cup of tea?",
    "What's my name?",
)
# The same script in Chinese, offered in a Chinese session: the prompts part on the same turns.
DEFAULT_INPUTS_ZH: tuple[str, ...] = (
    "你好，我叫玛拉，住在里斯本。",
    "我的订单号是 A-1234。",
    "能推荐一本关于园艺的书吗？",
    "怎样才能泡好一杯茶？",
    "我叫什么名字？",
)
PITFALL_KEYS: tuple[str, ...] = (
    "migration.window.pitfall.1",
    "migration.window.pitfall.2",
    "migration.window.pitfall.3",
    "migration.window.pitfall.4",
)


def classic_version(model: BaseChatModel, inputs: Iterable[str]) -> list[Exchange]:
    """ConversationBufferWindowMemory: store everything, load only the last K exchanges."""
    from langchain_classic.memory import ConversationBufferWindowMemory

    memory = ConversationBufferWindowMemory(k=K, return_messages=True)
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
    """create_agent with a @before_model middleware (below) keeping the last K exchanges of the thread."""
    from langchain.agents import create_agent
    from langgraph.checkpoint.memory import InMemorySaver

    agent = create_agent(
        model=model,
        tools=[],
        system_prompt=SYSTEM_PROMPT,
        middleware=[keep_last_turns(K)],
        checkpointer=InMemorySaver(),
    )
    config = {"configurable": {"thread_id": secrets.token_urlsafe(16)}}
    exchanges = []
    for user_text in inputs:
        state = agent.invoke({"messages": [HumanMessage(user_text)]}, config)
        exchanges.append(Exchange(user_text, state["messages"][-1].text))
    return exchanges


# Shown under the pair: the middleware, and the state update it returns.
EXTRAS = (keep_last_turns, replace_all)
