"""Failure demo: the session-store race on a new session's first requests (and a locked store)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from memory_demos.failure_lab.common import CallGate, Demo, DemoResult, VerdictRow, demo_result
from memory_demos.strategies.shared.history_store import SessionHistoryStore

RACE_THREADS = 8
RACE_WINDOW_SECONDS = 0.05
# What each concurrent first request says, per language.
FIRST_MESSAGES = {"en": "first message of request {number}", "zh": "第 {number} 个请求的第一条消息"}


def naive_get_session_history(store: dict[str, Any], session_id: str) -> Any:
    """The pattern from many examples: check, then create. The sleep stands for slow set-up work."""
    from langchain_core.chat_history import InMemoryChatMessageHistory

    history = store.get(session_id)
    if history is None:
        time.sleep(RACE_WINDOW_SECONDS)  # e.g. loading the session's rows from a database
        history = InMemoryChatMessageHistory()
        store[session_id] = history
    return history


def _first_requests(
    get_history: Callable[[str], Any], session_id: str, threads: int, language: str = "en"
) -> list[str]:
    """Send ``threads`` first messages to ``session_id`` at once; the messages sent."""
    barrier = threading.Barrier(threads)
    template = FIRST_MESSAGES.get(language, FIRST_MESSAGES["en"])

    def request(number: int) -> None:
        barrier.wait()
        get_history(session_id).add_user_message(template.format(number=number))

    workers = [threading.Thread(target=request, args=(n,)) for n in range(1, threads + 1)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return [template.format(number=n) for n in range(1, threads + 1)]


def _kept(sent: list[str], messages: list[Any]) -> dict[str, Any]:
    """Of the messages ``sent`` at once, how many and which a history kept, and which it lost."""
    kept = [str(message.content) for message in messages]
    return {
        "requests": len(sent),
        "messages_kept": len(kept),
        "lost_messages": len(sent) - len(kept),
        "kept_texts": kept,
        "lost_texts": [text for text in sent if text not in kept],
    }


def session_race(
    language: str = "en", gate: CallGate | None = None, threads: int = RACE_THREADS
) -> DemoResult:
    """Concurrent first requests for one new session: the naive dict loses messages, the locked store none."""
    from langchain_core.chat_history import InMemoryChatMessageHistory

    session_id = "new-session"
    naive_store: dict[str, Any] = {}
    created = {"naive": 0, "fixed": 0}
    created_lock = threading.Lock()

    def naive_get(key: str) -> Any:
        history = naive_get_session_history(naive_store, key)
        return history

    def slow_factory(_key: str) -> InMemoryChatMessageHistory:
        time.sleep(RACE_WINDOW_SECONDS)  # the same slow set-up, now inside the store's lock
        with created_lock:
            created["fixed"] += 1
        return InMemoryChatMessageHistory()

    sent = _first_requests(naive_get, session_id, threads, language)
    fixed_store = SessionHistoryStore(slow_factory)
    _first_requests(fixed_store.get, session_id, threads, language)
    naive = _kept(sent, naive_store[session_id].messages)
    fixed = {**_kept(sent, fixed_store.get(session_id).messages), "histories_created": created["fixed"]}
    return demo_result(DEMO, language, naive, fixed, naive["lost_messages"] > 0, fixed["lost_messages"] == 0)


def verdict(result: DemoResult) -> tuple[VerdictRow, ...]:
    """Of the messages sent at once to a new session, how many each store kept."""
    naive, fixed = result["naive"], result["fixed"]
    return (
        VerdictRow("failure.verdict.lost_count", naive["lost_messages"], fixed["lost_messages"]),
        VerdictRow("failure.verdict.kept_count", naive["messages_kept"], fixed["messages_kept"]),
        VerdictRow("failure.verdict.lost", naive["lost_texts"], fixed["lost_texts"]),
    )


DEMO = Demo(
    "session_race",
    "failure.session_race.title",
    "failure.session_race.explanation",
    "failure.session_race.fix",
    session_race,
    (naive_get_session_history, SessionHistoryStore.get),
    harm="lost",
    verdict=verdict,
)
