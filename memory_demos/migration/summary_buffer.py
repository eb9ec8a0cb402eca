"""Step 6: ConversationSummaryBufferMemory → ``create_agent`` with ``SummarizationMiddleware``."""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

from memory_demos.migration import SYSTEM_PROMPT, Exchange, Text
from memory_demos.tracing import SUMMARIZE, with_purpose

STEP_ID = "summary_buffer"
TITLE = Text("Summary buffer → SummarizationMiddleware", "摘要缓冲 → SummarizationMiddleware")
CLASSIC_API = "langchain_classic.memory.ConversationSummaryBufferMemory"
MODERN_API = "langchain.agents.create_agent + langchain.agents.middleware.SummarizationMiddleware"
SUMMARY = Text(
    "Both keep recent messages verbatim and fold older ones into a summary once a token budget is passed. "
    "The middleware runs before each model call of an agent, replaces the old messages in the thread's "
    "state with one summary message and keeps the last few messages whole.",
    "两者都原样保留最近的消息，超过 token 预算后把更早的消息并入摘要。中间件在智能体每次调用模型前运行，"
    "用一条摘要消息替换线程状态中的旧消息，并完整保留最后几条。",
)
meant_to_match = False
MAX_TOKENS = 120
KEEP_MESSAGES = 4
DEFAULT_INPUTS: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "My order number is A-1234.",
    "Can you recommend a good book about gardening for small balconies?",
    "What do you think about spring weather in general?",
    "What's my name?",
)
PITFALLS: tuple[Text, ...] = (
    Text(
        "ConversationSummaryBufferMemory.prune pops the old messages before it asks for the summary: if that "
        "call fails, those turns are gone (see the failure lab).",
        "ConversationSummaryBufferMemory.prune 先弹出旧消息再请求摘要：一旦摘要调用失败，"
        "这几轮就丢了（见失败实验室）。",
    ),
    Text(
        "The middleware counts tokens approximately by default; pass a token_counter built on the model's "
        "tokenizer when the budget matters.",
        "中间件默认用近似方法计 token；预算要紧时，请传入基于模型分词器的 token_counter。",
    ),
    Text(
        "Use the trigger/keep tuples: max_tokens_before_summary and messages_to_keep are deprecated names.",
        "请使用 trigger/keep 元组：max_tokens_before_summary 和 messages_to_keep 是已弃用的参数名。",
    ),
    Text(
        "The summary replaces the messages in the checkpointed state: the original wording is gone from the "
        "thread. Keep a raw transcript elsewhere if you need an audit trail.",
        "摘要会替换检查点状态中的消息：原始措辞从线程中消失。如需审计记录，请另存原始对话。",
    ),
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
