"""Step 1: ConversationBufferMemory → RunnableWithMessageHistory with a chat-message history."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterable

from langchain_core.language_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

from memory_demos.migration import SYSTEM_PROMPT, Exchange, Text

STEP_ID = "buffer"
TITLE = Text("Buffer → RunnableWithMessageHistory", "缓冲记忆 → RunnableWithMessageHistory")
CLASSIC_API = "langchain_classic.memory.ConversationBufferMemory"
MODERN_API = "langchain_core.runnables.history.RunnableWithMessageHistory + InMemoryChatMessageHistory"
SUMMARY = Text(
    "Both send every earlier message, every turn. The modern chain is stateless: a session factory hands "
    "it the history named in the config, and it saves the new messages after the model answers.",
    "两者每轮都发送全部历史消息。现代写法的链本身无状态：会话工厂按 config 里的会话 id 取出历史，"
    "模型回答后再把新消息存回去。",
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
        "A lazily filled session dict (`if sid not in store: store[sid] = ...`) races: two first requests "
        "for one session each create a history and one of them loses its messages. Create under a lock.",
        "惰性填充的会话字典（`if sid not in store: store[sid] = ...`）存在竞态：同一新会话的两个并发首请求"
        "各自创建历史，其中一个的消息会丢失。请在锁内创建。",
    ),
    Text(
        "Session ids must not be guessable: whoever can name a session id reads that conversation. Use a "
        "random token (secrets.token_urlsafe), or key by an authenticated user id plus a conversation id.",
        "会话 id 不能可猜：谁能说出会话 id，谁就能读到那段对话。请用随机令牌（secrets.token_urlsafe），"
        "或用已认证的用户 id 加对话 id 作键。",
    ),
    Text(
        "InMemoryChatMessageHistory never survives a restart or a second server process; use a "
        "database-backed "
        "history (SQLChatMessageHistory, Redis, Postgres) in production.",
        "InMemoryChatMessageHistory 重启即丢，也不能跨多个服务进程共享；生产环境请用数据库支持的历史"
        "（SQLChatMessageHistory、Redis、Postgres）。",
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
    """RunnableWithMessageHistory: a stateless chain; a session factory owns each session's messages."""
    from langchain_core.chat_history import InMemoryChatMessageHistory
    from langchain_core.runnables.history import RunnableWithMessageHistory

    sessions: dict[str, InMemoryChatMessageHistory] = {}
    sessions_lock = threading.Lock()

    def get_session_history(session_id: str) -> InMemoryChatMessageHistory:
        with sessions_lock:  # two first requests for one new session must get the same history
            if session_id not in sessions:
                sessions[session_id] = InMemoryChatMessageHistory()
            return sessions[session_id]

    prompt = ChatPromptTemplate.from_messages(
        [("system", SYSTEM_PROMPT), MessagesPlaceholder("history"), ("human", "{input}")]
    )
    chain = RunnableWithMessageHistory(
        prompt | model, get_session_history, input_messages_key="input", history_messages_key="history"
    )
    config = {"configurable": {"session_id": secrets.token_urlsafe(16)}}  # unguessable
    exchanges = []
    for user_text in inputs:
        reply = chain.invoke({"input": user_text}, config)
        exchanges.append(Exchange(user_text, reply.text))
    return exchanges
