"""Step 1: ConversationBufferMemory → ``create_agent`` + a checkpointer, a ``thread_id`` per conversation."""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

from memory_demos.migration import SYSTEM_PROMPT, Exchange, Text

STEP_ID = "buffer"
TITLE = Text("Buffer → create_agent + checkpointer", "缓冲记忆 → create_agent + 检查点")
CLASSIC_API = "langchain_classic.memory.ConversationBufferMemory"
MODERN_API = "langchain.agents.create_agent + langgraph.checkpoint.memory.InMemorySaver (thread_id)"
SUMMARY = Text(
    "Both send every earlier message, every turn. In LangChain 1.x the agent is stateless: its checkpointer "
    "keeps each thread's messages, and the thread_id in the config says which conversation a call "
    "continues. Swap InMemorySaver for SqliteSaver or PostgresSaver and the thread survives restarts.",
    "两者每轮都发送全部历史消息。在 LangChain 1.x 中智能体本身无状态：检查点按线程保存消息，"
    "config 里的 thread_id 指明这次调用接着哪段对话。把 InMemorySaver 换成 SqliteSaver 或 "
    "PostgresSaver，线程就能在重启后继续。",
)
meant_to_match = True
DEFAULT_INPUTS: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "My order number is A-1234.",
    "Can you recommend a book about gardening?",
    "What's my name?",
)
PITFALLS: tuple[Text, ...] = (
    Text(
        "Thread ids must not be guessable: whoever can name a thread_id reads that conversation. Use a "
        "random token (secrets.token_urlsafe), or key by an authenticated user id plus a conversation id.",
        "thread_id 不能可猜：谁能说出 thread_id，谁就能读到那段对话。请用随机令牌（secrets.token_urlsafe），"
        "或用已认证的用户 id 加对话 id 作键。",
    ),
    Text(
        "InMemorySaver never survives a restart or a second server process; use SqliteSaver or "
        "PostgresSaver in production.",
        "InMemorySaver 重启即丢，也不能跨多个服务进程共享；生产环境请用 SqliteSaver 或 PostgresSaver。",
    ),
    Text(
        "The checkpointer keeps every step, not only the messages: old checkpoints let you rewind a thread "
        "(see the langgraph pane), and they take space until you delete the thread.",
        "检查点保存每一步，而不只是消息：旧检查点可以让线程回到过去（见 langgraph 面板），"
        "在删除线程之前它们一直占用空间。",
    ),
    Text(
        "The whole history still grows without bound: the buffer problem is not solved by the new API. "
        "Add trimming or summarising (next steps).",
        "历史依旧无限增长：换成新 API 并不能解决缓冲区膨胀，还需要裁剪或摘要（见后续步骤）。",
    ),
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
