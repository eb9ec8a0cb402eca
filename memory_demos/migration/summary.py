"""Step 5: ConversationSummaryMemory → ``create_agent`` + ``SummarizationMiddleware``, every turn."""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

from memory_demos.migration import SYSTEM_PROMPT, Exchange, Text
from memory_demos.tracing import SUMMARIZE, with_purpose

STEP_ID = "summary"
TITLE = Text("Summary → SummarizationMiddleware (every turn)", "摘要记忆 → SummarizationMiddleware（每轮）")
CLASSIC_API = "langchain_classic.memory.ConversationSummaryMemory"
MODERN_API = (
    "langchain.agents.create_agent + SummarizationMiddleware(trigger=('messages', 2), keep=('messages', 1))"
)
SUMMARY = Text(
    "Both replace the conversation with a running summary, at the price of one extra model call per turn. "
    "With trigger=('messages', 2) and keep=('messages', 1) the middleware summarises, before each model "
    "call, everything but the new question and replaces those messages in the thread's state with one "
    "summary message. The classic memory rewrites its summary after the answer; the middleware before the "
    "next call. The two prompts differ by design: the summaries are written by different prompts.",
    "两者都用滚动摘要代替对话，代价是每轮多一次模型调用。设 trigger=('messages', 2)、keep=('messages', 1) "
    "时，中间件在每次调用模型前把新问题之外的全部消息写成摘要，并在线程状态中用一条摘要消息替换它们。"
    "经典记忆在回答后重写摘要，中间件在下一次调用前。两边的提示词本来就不同：摘要由不同的提示词写成。",
)
meant_to_match = False
DEFAULT_INPUTS: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "My order number is A-1234.",
    "Can you recommend a book about gardening?",
    "What's my order number?",
)
PITFALLS: tuple[Text, ...] = (
    Text(
        "With return_messages=True the classic class sends an empty system message on the first turn, "
        "before any summary exists (look at turn 1 of the classic prompt).",
        "return_messages=True 时，经典类在第一轮（还没有摘要时）会发送一条空的系统消息（见经典提示词的第 1 "
        "轮）。",
    ),
    Text(
        "A summary is written by a model: it can drop a fact or invent one (summary drift, see the failure "
        "lab). Keep facts that must survive in structured state, not only in prose.",
        "摘要是模型写的：它可能漏掉事实，也可能编造事实（摘要漂移，见失败实验室）。"
        "必须保留的事实要放在结构化状态里，"
        "而不只放在一段文字中。",
    ),
    Text(
        "Every turn costs a second model call; with a paid model the summary calls can cost more than the "
        "replies. Summarize only when a budget is passed (next step).",
        "每轮都要多一次模型调用；用付费模型时，摘要调用的花费可能超过回答本身。只在超出预算时再摘要（下一步）"
        "。",
    ),
    Text(
        "An InMemorySaver checkpoint never survives a restart; use SqliteSaver or PostgresSaver for real "
        "threads.",
        "InMemorySaver 的检查点重启即丢；真实线程请用 SqliteSaver 或 PostgresSaver。",
    ),
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
