"""Step 2, the book's intermediate step: Buffer → RunnableWithMessageHistory (now deprecated)."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterable

from langchain_core.language_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

from memory_demos.migration import SYSTEM_PROMPT, Exchange
from memory_demos.migration import buffer as buffer_step

STEP_ID = "history"
TITLE_KEY = "migration.history.title"
CLASSIC_API = "langchain_classic.memory.ConversationBufferMemory"
MODERN_API = "langchain_core.runnables.history.RunnableWithMessageHistory + InMemoryChatMessageHistory"
SUMMARY_KEY = "migration.history.summary"
meant_to_match = True
DEFAULT_INPUTS = buffer_step.DEFAULT_INPUTS
DEFAULT_INPUTS_ZH = buffer_step.DEFAULT_INPUTS_ZH
PITFALL_KEYS: tuple[str, ...] = (
    "migration.history.pitfall.1",
    "migration.history.pitfall.2",
    "migration.history.pitfall.3",
    "migration.history.pitfall.4",
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
