"""Step 4: ConversationTokenBufferMemory → ``create_agent`` + ``@before_model`` trimming by tokens."""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

from memory_demos.migration import SYSTEM_PROMPT, Exchange, Text
from memory_demos.strategies.shared.agent_middleware import keep_within_tokens
from memory_demos.strategies.turn_trim import trim_turns

STEP_ID = "token_buffer"
TITLE = Text("Token buffer → @before_model trimming by tokens", "Token 缓冲 → 按 token 的 @before_model 裁剪")
CLASSIC_API = "langchain_classic.memory.ConversationTokenBufferMemory"
MODERN_API = "langchain.agents.create_agent + before_model + trim_messages(token_counter=model)"
SUMMARY = Text(
    "Both keep the newest messages that fit a token budget, counted by the model's own tokenizer. The "
    "classic class prunes its stored buffer after saving, one message at a time, and budgets the history "
    "alone; the middleware runs trim_messages before each model call over the thread (the new question "
    "included) and, with start_on='human', cuts only between turns. So they can differ by a message at "
    "the edge: this pair is not meant to match exactly.",
    "两者都保留能装进 token 预算的最新消息，用模型自己的分词器计数。经典类在保存后逐条修剪已存的缓冲，"
    "预算只算历史；中间件在每次调用模型前对整个线程（包括新问题）运行 trim_messages，并且在 "
    "start_on='human' 时只在轮与轮之间截断。所以边界处可能差一条消息：这一对本来就不要求完全一致。",
)
meant_to_match = False
MAX_TOKENS = 90
DEFAULT_INPUTS: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "My order number is A-1234.",
    "Can you recommend a good book about gardening for small balconies?",
    "What do you think about spring weather in general?",
    "What's my order number?",
)
# Shown under the pair: the middleware, and how turn_trim trims when the history holds tool calls.
EXTRAS = (keep_within_tokens, trim_turns)
PITFALLS: tuple[Text, ...] = (
    Text(
        "Classic chat memories silently drop tool calls: save_context stores only the input and output "
        "strings, so the AI tool call and the ToolMessage never reach the history.",
        "经典聊天记忆会悄悄丢掉工具调用：save_context 只存输入和输出字符串，AI 的工具调用和 ToolMessage "
        "从未进入历史。",
    ),
    Text(
        "With tools in the history, cut whole turns: a ToolMessage without the AI message that called it is "
        "rejected by the API. start_on='human' helps; trimming by whole turns (shown below) is safer.",
        "历史里有工具消息时，要整轮裁剪：缺少发起调用的 AI 消息的 ToolMessage 会被 API 拒绝。"
        "start_on='human' 有帮助；按整轮裁剪（见下方）更稳妥。",
    ),
    Text(
        "Count with the real tokenizer of the model you call (pass token_counter=model, or a tiktoken "
        "function); an approximate counter lets prompts overflow.",
        "请用所调用模型的真实分词器计数（token_counter=model 或 tiktoken 函数）；近似计数会让提示词溢出。",
    ),
    Text(
        "ConversationTokenBufferMemory raises IndexError when even an empty history is over the budget "
        "(langchain#11734).",
        "当空历史都超出预算时，ConversationTokenBufferMemory 会抛出 IndexError（langchain#11734）。",
    ),
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
