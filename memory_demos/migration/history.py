"""Step 2, the book's intermediate step: Buffer → RunnableWithMessageHistory (now deprecated)."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterable

from langchain_core.language_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

from memory_demos.migration import SYSTEM_PROMPT, Exchange, Text
from memory_demos.migration import buffer as buffer_step

STEP_ID = "history"
TITLE = Text(
    "The book's step: Buffer → RunnableWithMessageHistory (deprecated)",
    "书中的过渡写法：缓冲记忆 → RunnableWithMessageHistory（已弃用）",
)
CLASSIC_API = "langchain_classic.memory.ConversationBufferMemory"
MODERN_API = "langchain_core.runnables.history.RunnableWithMessageHistory + InMemoryChatMessageHistory"
SUMMARY = Text(
    "What older code and the book use: a stateless chain wrapped in RunnableWithMessageHistory; a session "
    "factory hands it the history named in the config and it saves the new messages after the model "
    "answers. Both send every earlier message, every turn. langchain-core has since deprecated "
    "RunnableWithMessageHistory and InMemoryChatMessageHistory in favour of LangGraph persistence (step 1): "
    "run both to see the warnings LangChain raises for each side.",
    "旧代码和书中使用的写法：用 RunnableWithMessageHistory 包装无状态的链；会话工厂按 config 里的会话 id "
    "取出历史，模型回答后再把新消息存回去。两者每轮都发送全部历史消息。langchain-core 之后已弃用 "
    "RunnableWithMessageHistory 和 InMemoryChatMessageHistory，改用 LangGraph 持久化（第 1 步）："
    "运行两边即可看到 LangChain 对每一边发出的警告。",
)
meant_to_match = True
DEFAULT_INPUTS = buffer_step.DEFAULT_INPUTS
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
        "Deprecated since langchain-core 1.3.3 (the class) and 1.6.4 (the chat-history classes), to be "
        "removed in 2.0: new code should use create_agent with a checkpointer (step 1).",
        "自 langchain-core 1.3.3（该类）和 1.6.4（聊天历史类）起已弃用，将在 2.0 移除："
        "新代码请用 create_agent 加检查点（第 1 步）。",
    ),
)


# The classic side is step 1's, unchanged.
classic_version = buffer_step.classic_version


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
