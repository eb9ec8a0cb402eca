"""Step 8: CombinedMemory → separate channels of one LangGraph state."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

from memory_demos.migration import SYSTEM_PROMPT, Exchange, Text
from memory_demos.tracing import SUMMARIZE, with_purpose

STEP_ID = "combined"
TITLE = Text("Combined memory → channels of a LangGraph state", "组合记忆 → LangGraph 状态中的多个通道")
CLASSIC_API = "langchain_classic.memory.CombinedMemory (window + summary)"
MODERN_API = "langgraph.graph.StateGraph with a messages channel and a summary channel"
SUMMARY = Text(
    "CombinedMemory runs several memories side by side; each one stores every message and fills its own "
    "prompt variable, so the summary repeats what the window already sends. In a graph each kind of memory "
    "is a channel of the state with its own update rule: here the window lives in 'messages', and only the "
    "turns that leave it are folded into 'summary'.",
    "CombinedMemory 并排运行多个记忆；每个都存全部消息、各自填一个提示词变量，"
    "所以摘要会重复窗口已经发送的内容。"
    "在图里，每种记忆是状态的一个通道，有自己的更新规则：这里窗口放在 messages 里，只有离开窗口的轮次才并入 "
    "summary。",
)
meant_to_match = False
K = 2
DEFAULT_INPUTS: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "My order number is A-1234.",
    "Can you recommend a book about gardening?",
    "What makes a good cup of tea?",
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
        "Give every channel a clear update rule (a reducer): appending messages, replacing a summary and "
        "merging facts are different operations.",
        "为每个通道指定清晰的更新规则（reducer）：追加消息、替换摘要、合并事实是不同的操作。",
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
    """Two channels: ``messages`` holds the window, ``summary`` what left it."""
    from langchain.agents.middleware.summarization import DEFAULT_SUMMARY_PROMPT
    from langchain_core.messages import RemoveMessage, get_buffer_string
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.graph import END, START, MessagesState, StateGraph

    class State(MessagesState):  # messages: appended by the add_messages reducer
        summary: str  # replaced on every update
        reply: str

    def respond(state: State) -> dict[str, Any]:
        summary = state.get("summary", "")
        system = SYSTEM_PROMPT + (f"\n\nSummary of the earlier conversation:\n{summary}" if summary else "")
        reply = model.invoke([SystemMessage(system), *state["messages"]])
        return {"messages": [reply], "reply": reply.text}

    def fold_old_turns(state: State) -> dict[str, Any]:
        leaving = state["messages"][: -2 * K]
        if not leaving:
            return {}
        earlier = [HumanMessage(f"Summary so far: {state['summary']}")] if state.get("summary") else []
        transcript = get_buffer_string([*earlier, *leaving])
        summary = (
            with_purpose(model, SUMMARIZE).invoke(DEFAULT_SUMMARY_PROMPT.format(messages=transcript)).text
        )
        return {"summary": summary, "messages": [RemoveMessage(id=m.id) for m in leaving]}

    builder = StateGraph(State)
    builder.add_node("respond", respond)
    builder.add_node("fold_old_turns", fold_old_turns)
    builder.add_edge(START, "respond")
    builder.add_edge("respond", "fold_old_turns")
    builder.add_edge("fold_old_turns", END)
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": secrets.token_urlsafe(16)}}
    exchanges = []
    for user_text in inputs:
        state = graph.invoke({"messages": [HumanMessage(user_text)]}, config)
        exchanges.append(Exchange(user_text, state["reply"]))
    return exchanges
