"""Step 4: ConversationTokenBufferMemory → ``create_agent`` + ``@before_model`` trimming by tokens."""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

from memory_demos.migration import SYSTEM_PROMPT, Exchange
from memory_demos.strategies.shared.agent_middleware import keep_within_tokens
from memory_demos.strategies.turn_trim import trim_turns

STEP_ID = "token_buffer"
TITLE_KEY = "migration.token_buffer.title"
CLASSIC_API = "langchain_classic.memory.ConversationTokenBufferMemory"
MODERN_API = "langchain.agents.create_agent + before_model + trim_messages(token_counter=model)"
SUMMARY_KEY = "migration.token_buffer.summary"
meant_to_match = False
MAX_TOKENS = 90
DEFAULT_INPUTS: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "My order number is A-1234.",
    "Can you recommend a good book about gardening for small balconies?",
    "What do you think about spring weather in general?",
    "What's my order number?",
)
# The same script in Chinese, offered in a Chinese session: the prompts part on the same turns.
DEFAULT_INPUTS_ZH: tuple[str, ...] = (
    "你好，我叫玛拉，住在里斯本。",
    "我的订单号是 A-1234。",
    "能推荐一本适合小阳台的园艺好书吗？",
    "你觉得春天的天气一般怎么样？",
    "我的订单号是多少？",
)
# Shown under the pair: the middleware, and how turn_trim trims when the history holds tool calls.
EXTRAS = (keep_within_tokens, trim_turns)
PITFALL_KEYS: tuple[str, ...] = (
    "migration.token_buffer.pitfall.1",
    "migration.token_buffer.pitfall.2",
    "migration.token_buffer.pitfall.3",
    "migration.token_buffer.pitfall.4",
)


def classic_version(model: BaseChatModel, inputs: Iterable[str]) -> list[Exchange]:
    """ConversationTokenBufferMemory: after each save, pop the oldest messages until under the budget."""
    from langchain_classic.memory import ConversationTokenBufferMemory

    memory = ConversationTokenBufferMemory(llm=model, max_token_limit=MAX_TOKENS, return_messages=True)
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
    """create_agent with a @before_model middleware (below) keeping the newest turns that fit MAX_TOKENS."""
    from langchain.agents import create_agent
    from langgraph.checkpoint.memory import InMemorySaver

    agent = create_agent(
        model=model,
        tools=[],
        system_prompt=SYSTEM_PROMPT,
        # counted with the model's own get_num_tokens_from_messages
        middleware=[keep_within_tokens(MAX_TOKENS, model.get_num_tokens_from_messages)],
        checkpointer=InMemorySaver(),
    )
    config = {"configurable": {"thread_id": secrets.token_urlsafe(16)}}
    exchanges = []
    for user_text in inputs:
        state = agent.invoke({"messages": [HumanMessage(user_text)]}, config)
        exchanges.append(Exchange(user_text, state["messages"][-1].text))
    return exchanges
