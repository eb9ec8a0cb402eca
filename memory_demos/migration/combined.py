"""Step 9: CombinedMemory → several middlewares on one ``create_agent``."""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

from memory_demos.migration import SYSTEM_PROMPT, Exchange, Text
from memory_demos.tracing import SUMMARIZE, with_purpose

STEP_ID = "combined"
TITLE = Text("Combined memory → several middlewares on one agent", "组合记忆 → 一个智能体上的多个中间件")
CLASSIC_API = "langchain_classic.memory.CombinedMemory (window + summary)"
MODERN_API = "langchain.agents.create_agent + SummarizationMiddleware + ContextEditingMiddleware"
SUMMARY = Text(
    "CombinedMemory runs several memories side by side; each one stores every message and fills its own "
    "prompt variable, so the summary repeats what the window already sends. In LangChain 1.x each memory "
    "rule is a middleware of one agent, run in order before every model call: here SummarizationMiddleware "
    "folds only the messages that leave a window of K exchanges into a summary, and ContextEditingMiddleware "
    "clears all but the newest tool result from the prompt. The agent has tools; the classic chain has none.",
    "CombinedMemory 并排运行多个记忆；每个都存全部消息、各自填一个提示词变量，"
    "所以摘要会重复窗口已经发送的内容。在 LangChain 1.x 中，每条记忆规则都是同一个智能体的中间件，"
    "在每次调用模型前按顺序运行：这里 SummarizationMiddleware 只把离开 K 轮窗口的消息并入摘要，"
    "ContextEditingMiddleware 把除最新一条之外的工具结果从提示词中清除。智能体有工具，经典链没有。",
)
meant_to_match = False
K = 2
DEFAULT_INPUTS: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "What's the weather in Lisbon?",
    "My order number is A-1234.",
    "What's the weather in Porto?",
    "What's my name?",
)
PITFALLS: tuple[Text, ...] = (
    Text(
        "Each sub-memory of CombinedMemory stores every message: the summary and the window overlap, and "
        "you pay for the recent turns twice.",
        "CombinedMemory 的每个子记忆都存全部消息：摘要与窗口重叠，最近几轮要付两次 token 的钱。",
    ),
    Text(
        "Memory variables must not collide: two sub-memories with the same memory_key raise, and a key equal "
        "to an input key silently overwrites the input.",
        "记忆变量不能重名：两个子记忆用同一个 memory_key 会报错，与输入键同名则会悄悄覆盖输入。",
    ),
    Text(
        "Middlewares run in list order before each model call, and each sees what the previous one left: "
        "put the ones that rewrite the thread's state (summaries, trimming) before the ones that only edit "
        "the prompt sent.",
        "中间件在每次调用模型前按列表顺序运行，每个都看到前一个留下的结果：改写线程状态的（摘要、裁剪）"
        "放在只编辑发送提示词的前面。",
    ),
    Text(
        "The classic API has no notion of tool calls or of a thread id; a LangGraph state has both, and a "
        "checkpointer saves all channels together after every step.",
        "经典 API 没有工具调用和线程 id 的概念；LangGraph 状态两者都有，检查点在每一步之后一起保存所有通道。",
    ),
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
