"""Step 4: ConversationSummaryMemory → a summarization node in a LangGraph graph."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

from memory_demos.migration import SYSTEM_PROMPT, Exchange, Text
from memory_demos.tracing import SUMMARIZE, with_purpose

STEP_ID = "summary"
TITLE = Text("Summary → a LangGraph summarization node", "摘要记忆 → LangGraph 摘要节点")
CLASSIC_API = "langchain_classic.memory.ConversationSummaryMemory"
MODERN_API = "langgraph.graph.StateGraph (a summary channel + a summarize node) + InMemorySaver"
SUMMARY = Text(
    "Both replace the conversation with a running summary rewritten after every turn, at the price of "
    "one extra model call per turn. In the graph the summary is an explicit state channel, the summarizing "
    "is an explicit node, and the messages it folded in are removed from state with RemoveMessage. The "
    "two prompts differ by design: the summaries are written by different prompts.",
    "两者都用每轮重写的滚动摘要代替对话，代价是每轮多一次模型调用。在图里，摘要是显式的状态通道，"
    "摘要过程是显式的节点，已并入摘要的消息用 RemoveMessage 从状态中移除。两边的提示词本来就不同："
    "摘要由不同的提示词写成。",
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
    """A graph with a ``summary`` channel: respond, then summarize and remove the folded-in messages."""
    from langchain.agents.middleware.summarization import DEFAULT_SUMMARY_PROMPT
    from langchain_core.messages import RemoveMessage, get_buffer_string
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.graph import END, START, MessagesState, StateGraph

    class State(MessagesState):
        summary: str
        reply: str

    def respond(state: State) -> dict[str, Any]:
        summary = state.get("summary", "")
        memory = [SystemMessage(f"Summary of the conversation so far:\n{summary}")] if summary else []
        reply = model.invoke([SystemMessage(SYSTEM_PROMPT), *memory, *state["messages"]])
        return {"messages": [reply], "reply": reply.text}

    def summarize(state: State) -> dict[str, Any]:
        earlier = [HumanMessage(f"Summary so far: {state['summary']}")] if state.get("summary") else []
        transcript = get_buffer_string([*earlier, *state["messages"]])
        summary = (
            with_purpose(model, SUMMARIZE).invoke(DEFAULT_SUMMARY_PROMPT.format(messages=transcript)).text
        )
        return {"summary": summary, "messages": [RemoveMessage(id=m.id) for m in state["messages"]]}

    builder = StateGraph(State)
    builder.add_node("respond", respond)
    builder.add_node("summarize", summarize)
    builder.add_edge(START, "respond")
    builder.add_edge("respond", "summarize")
    builder.add_edge("summarize", END)
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": secrets.token_urlsafe(16)}}
    exchanges = []
    for user_text in inputs:
        state = graph.invoke({"messages": [HumanMessage(user_text)]}, config)
        exchanges.append(Exchange(user_text, state["reply"]))
    return exchanges
