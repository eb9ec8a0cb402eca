"""The failure-mode lab: each demo runs a naive memory set-up and its fix on the same input.

Every demo returns plain data, ``{"naive", "fixed", "failed", "fixed_ok", "explanation", "fix"}``:
``failed`` says the failure really happened with the naive variant, ``fixed_ok`` that it did not
happen with the fix. The demos always use the offline teaching model (its fault switches make the
failures reproducible); no demo touches the network.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, TypedDict

from memory_demos.config import DEFAULT_SYSTEM_PROMPT as SYSTEM_PROMPT
from memory_demos.migration import Text
from memory_demos.note_expiry import run_note_expiry
from memory_demos.providers.chat_models import ProviderConfig, build_chat_model
from memory_demos.strategies.entity_redis_store import open_redis_entity_store
from memory_demos.strategies.history_store import SessionHistoryStore
from memory_demos.strategies.turn_trim import trim_turns
from memory_demos.tracing import (
    EXTRACT_ENTITIES,
    REPLY,
    SUMMARIZE,
    SUMMARIZE_ENTITY,
    CallCapture,
    with_purpose,
)
from memory_demos.turn import ModelCall

ENCODING = "o200k_base"


class DemoResult(TypedDict):
    """What every demo returns."""

    id: str
    naive: dict[str, Any]
    fixed: dict[str, Any]
    failed: bool
    fixed_ok: bool
    explanation: str
    fix: str


@dataclass(frozen=True)
class Demo:
    """One failure mode: its title, what goes wrong, how to fix it, and the function that shows both."""

    id: str
    title: Text
    explanation: Text
    fix: Text
    run: Callable[[str], DemoResult]
    code: tuple[Callable[..., Any], ...] = ()


def _offline_model(capture: CallCapture, **switches: Any) -> Any:
    """The offline teaching model carrying ``capture``, with fault switches (drift, chatty_entities...)."""
    from memory_demos.providers.offline_model import OfflineTeachingModel
    from memory_demos.workshop.budget import current_gate

    gate = current_gate()  # a workshop attendee's budget gate, when a page runs the demo
    callbacks = [gate.handler(ENCODING), capture] if gate is not None else [capture]
    return OfflineTeachingModel(callbacks=callbacks, **switches)


def _calls_by_purpose(calls: Iterable[ModelCall]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for call in calls:
        counts[call.purpose] = counts.get(call.purpose, 0) + 1
    return counts


def _result(
    demo_id: str, language: str, naive: dict[str, Any], fixed: dict[str, Any], failed: bool, ok: bool
) -> DemoResult:
    demo = get_demo(demo_id)
    return DemoResult(
        id=demo_id,
        naive=naive,
        fixed=fixed,
        failed=failed,
        fixed_ok=ok,
        explanation=demo.explanation.get(language),
        fix=demo.fix.get(language),
    )


def _said(name: str, text: str) -> bool:
    """True when ``name`` occurs in ``text`` as whole words."""
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None


# -- 1. entity extraction fooled by a chatty reply ----------------------------------------------

ENTITY_MESSAGES: tuple[str, ...] = (
    "Hi, I'm John and I just moved to Paris.",
    "My sister Anna visits me next week.",
)
_NAME = re.compile(r"[A-Z][\w'-]*(?: [A-Z][\w'-]*){0,3}")


def strict_entity_names(extracted: Sequence[str], user_text: str) -> list[str]:
    """The names in an entity-extraction answer that the user really wrote; chatter such as "Sure" or
    "the entities are:" is dropped (a strict parser in place of ``output.split(",")``)."""
    names: list[str] = []
    for piece in re.split(r"[,:;\n]", ", ".join(extracted)):
        name = piece.strip().strip(".!\"'")
        if _NAME.fullmatch(name) and _said(name, user_text) and name not in names:
            names.append(name)
    return names


def run_entity_memory(strict: bool, messages: Sequence[str]) -> dict[str, Any]:
    from memory_demos.strategies.classic import import_classic_memory

    classic = import_classic_memory()
    capture = CallCapture(ENCODING)
    model = _offline_model(capture, chatty_entities=True)
    memory = classic.ConversationEntityMemory(llm=with_purpose(model, EXTRACT_ENTITIES), k=2)
    said = " ".join(messages)
    for user_text in messages:
        memory.llm = with_purpose(model, EXTRACT_ENTITIES)
        variables = memory.load_memory_variables({"input": user_text})
        if strict:  # the fix: keep only names the user wrote, before any note is written
            memory.entity_cache = strict_entity_names(memory.entity_cache, user_text)
            variables["entities"] = {name: memory.entity_store.get(name, "") for name in memory.entity_cache}
        reply = model.invoke(f"{SYSTEM_PROMPT}\n\n{user_text}")
        memory.llm = with_purpose(model, SUMMARIZE_ENTITY)
        memory.save_context({"input": user_text}, {"output": reply.text})
    calls = capture.drain()
    entities = dict(sorted(memory.entity_store.store.items()))
    return {
        "extraction_answers": [c.output for c in calls if c.purpose == EXTRACT_ENTITIES],
        "entities": entities,
        "junk_entities": [name for name in entities if not _said(name, said)],
        "entity_summary_calls": sum(1 for c in calls if c.purpose == SUMMARIZE_ENTITY),
        "calls_by_purpose": _calls_by_purpose(calls),
    }


def chatty_entities(language: str = "en") -> DemoResult:
    """ConversationEntityMemory splits the model's chatty answer on commas: "Sure" becomes an entity."""
    naive = run_entity_memory(False, ENTITY_MESSAGES)
    fixed = run_entity_memory(True, ENTITY_MESSAGES)
    expected = {"John", "Paris", "Anna"}
    fixed_ok = not fixed["junk_entities"] and expected <= set(fixed["entities"])
    fixed_ok = fixed_ok and fixed["entity_summary_calls"] < naive["entity_summary_calls"]
    return _result("chatty_entities", language, naive, fixed, bool(naive["junk_entities"]), fixed_ok)


# -- 2. summary drift ---------------------------------------------------------------------------

DRIFT_MESSAGES: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "My order number is A-1234.",
    "Can you recommend a book about gardening?",
    "What makes a good cup of tea?",
    "Trains are a pleasant way to travel.",
)
_SUMMARY_STOPWORDS = frozenset(
    (
        "a",
        "an",
        "the",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "to",
        "of",
        "in",
        "on",
        "at",
        "for",
        "and",
        "or",
        "with",
        "about",
        "also",
        "they",
        "them",
        "their",
        "there",
        "this",
        "that",
        "it",
        "its",
        "his",
        "her",
        "he",
        "she",
        "human",
        "humans",
        "user",
        "assistant",
        "ai",
        "has",
        "have",
        "had",
        "talked",
        "said",
        "mentioned",
        "asked",
        "wants",
        "would",
        "will",
        "can",
        "could",
        "some",
        "any",
    )
)


def _word_stems(text: str) -> set[str]:
    stems = set()
    for word in re.findall(r"[A-Za-z0-9][A-Za-z0-9-]*", text.lower().replace("'s", "")):
        stems.add(word)
        for suffix in ("ing", "ed", "es", "s"):
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                stems.add(word[: -len(suffix)])
    return stems


def unsupported_sentences(summary: str, conversation: str) -> list[str]:
    """Sentences of ``summary`` with a content word that appears nowhere in ``conversation``.

    An extractive check: a summary may rephrase, but every name, number and content word it uses
    must come from what was actually said.
    """
    said = _word_stems(conversation)
    unsupported = []
    for sentence in re.split(r"(?<=[.!?])\s+", summary.strip()):
        words = [w for w in re.findall(r"[A-Za-z0-9][A-Za-z0-9-]*", sentence.lower().replace("'s", ""))]
        content = [w for w in words if w not in _SUMMARY_STOPWORDS and len(w) >= 3]
        if any(not (_word_stems(word) & said) for word in content):
            unsupported.append(sentence)
    return unsupported


def run_summary(checked: bool, messages: Sequence[str]) -> dict[str, Any]:
    from memory_demos.strategies.classic import import_classic_memory

    classic = import_classic_memory()
    capture = CallCapture(ENCODING)
    model = _offline_model(capture, drift=True)
    memory = classic.ConversationSummaryMemory(llm=with_purpose(model, SUMMARIZE))
    conversation = ""
    rounds = []
    for user_text in messages:
        reply = model.invoke(f"{SYSTEM_PROMPT}\n\n{user_text}")
        conversation += f"\nHuman: {user_text}\nAI: {reply.text}"
        memory.save_context({"input": user_text}, {"output": reply.text})
        if checked:  # the fix: drop what the conversation does not support before storing the summary
            invented = set(unsupported_sentences(memory.buffer, conversation))
            kept = [s for s in re.split(r"(?<=[.!?])\s+", memory.buffer.strip()) if s not in invented]
            memory.buffer = " ".join(kept)
        rounds.append(
            {"summary": memory.buffer, "invented": unsupported_sentences(memory.buffer, conversation)}
        )
    capture.drain()
    return {"rounds": rounds, "final_summary": memory.buffer, "invented": rounds[-1]["invented"]}


def summary_drift(language: str = "en") -> DemoResult:
    """A summary rewritten every turn gains a made-up detail each round; the check removes them."""
    naive = run_summary(False, DRIFT_MESSAGES)
    fixed = run_summary(True, DRIFT_MESSAGES)
    facts = ("Mara", "Lisbon", "A-1234")
    fixed_ok = not fixed["invented"] and all(fact in fixed["final_summary"] for fact in facts)
    return _result("summary_drift", language, naive, fixed, bool(naive["invented"]), fixed_ok)


# -- 3. vector memory recalls something similar but irrelevant, and private -----------------------

VECTOR_TURNS: tuple[tuple[str, str], ...] = (
    ("Hi, I'm Mara and I live in Lisbon.", "Nice to meet you, Mara!"),
    ("My password hint is the name of my first cat, Whiskers.", "Noted."),
    ("I grow tomatoes on my balcony.", "Lovely, balcony tomatoes need plenty of sun."),
    ("My favourite food is grilled sardines.", "A Lisbon classic."),
    ("I'm planning a trip to Japan in spring.", "Spring is a beautiful time to go."),
)
VECTOR_QUERIES: tuple[str, ...] = ("How do I reset my password?", "Any tips for my balcony garden?")
PRIVATE_DETAIL = "Whiskers"
RELEVANT_FOR = MappingProxyType({"Any tips for my balcony garden?": "tomatoes"})
MIN_RELEVANCE = 0.3
TOP_K = 2
_PRIVATE_PATTERN = re.compile(
    r"\b(password|passcode|passphrase|pin|hint|security question|credit card|card number|iban|ssn)\b",
    re.IGNORECASE,
)


def is_private(text: str) -> bool:
    """True for a turn that holds a secret or a key to one (passwords, hints, card numbers...)."""
    return _PRIVATE_PATTERN.search(text) is not None


def _exchange_text(user_text: str, reply: str) -> str:
    return f"input: {user_text}\noutput: {reply}"


def naive_vector_recall() -> dict[str, Any]:
    from langchain_core.vectorstores import InMemoryVectorStore

    from memory_demos.providers.embeddings import default_embeddings
    from memory_demos.strategies.classic import import_classic_memory

    classic = import_classic_memory()
    store = InMemoryVectorStore(default_embeddings())
    memory = classic.VectorStoreRetrieverMemory(retriever=store.as_retriever(search_kwargs={"k": TOP_K}))
    for user_text, reply in VECTOR_TURNS:
        memory.save_context({"input": user_text}, {"output": reply})
    queries = []
    for query in VECTOR_QUERIES:
        context = memory.load_memory_variables({"prompt": query})["history"]
        scores = {
            doc.page_content: score for doc, score in store.similarity_search_with_score(query, k=TOP_K)
        }
        queries.append(
            {
                "query": query,
                "injected": context,
                "scores": [round(score, 3) for score in scores.values()],
                "below_threshold": [text for text, score in scores.items() if score < MIN_RELEVANCE],
                "private_recalled": PRIVATE_DETAIL in context,
            }
        )
    return {"queries": queries}


def fixed_vector_recall() -> dict[str, Any]:
    from langchain_core.vectorstores import InMemoryVectorStore

    from memory_demos.providers.embeddings import default_embeddings

    store = InMemoryVectorStore(default_embeddings())
    for user_text, reply in VECTOR_TURNS:
        private = is_private(user_text)
        # Private turns are stored redacted and tagged, so neither the text nor the search can leak them.
        text = "[private turn: redacted]" if private else _exchange_text(user_text, reply)
        store.add_texts([text], metadatas=[{"private": private}])
    queries = []
    for query in VECTOR_QUERIES:
        hits = store.similarity_search_with_score(
            query, k=TOP_K, filter=lambda doc: not doc.metadata["private"]
        )
        kept = [(doc.page_content, score) for doc, score in hits if score >= MIN_RELEVANCE]
        context = "\n".join(text for text, _ in kept)
        queries.append(
            {
                "query": query,
                "injected": context,
                "scores": [round(score, 3) for _, score in kept],
                "below_threshold": [],
                "private_recalled": PRIVATE_DETAIL in context,
            }
        )
    return {"queries": queries, "min_relevance": MIN_RELEVANCE}


def vector_privacy(language: str = "en") -> DemoResult:
    """k nearest neighbours are returned however far away: a password hint answers a reset question."""
    naive = naive_vector_recall()
    fixed = fixed_vector_recall()
    failed = any(q["private_recalled"] or q["below_threshold"] for q in naive["queries"])
    relevant_kept = all(
        RELEVANT_FOR[q["query"]] in q["injected"] for q in fixed["queries"] if q["query"] in RELEVANT_FOR
    )
    fixed_ok = relevant_kept and not any(q["private_recalled"] for q in fixed["queries"])
    return _result("vector_privacy", language, naive, fixed, failed, fixed_ok)


# -- 4. a plain trim orphans a tool result ------------------------------------------------------

KEEP_MESSAGES = 4


def tool_history() -> list[Any]:
    """A short agent history with two tool round trips (real tool outputs) and a new question."""
    from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

    from memory_demos.tools import get_order_status, get_weather

    weather = get_weather.invoke({"city": "Lisbon"})
    order = get_order_status.invoke({"order_id": "A-77"})
    return [
        SystemMessage(SYSTEM_PROMPT),
        HumanMessage("What's the weather in Lisbon?"),
        AIMessage(
            "", tool_calls=[{"name": "get_weather", "args": {"city": "Lisbon"}, "id": "call_weather_1"}]
        ),
        ToolMessage(weather, tool_call_id="call_weather_1", name="get_weather"),
        AIMessage(f"The weather in Lisbon: {weather}."),
        HumanMessage("And the status of order A-77?"),
        AIMessage(
            "", tool_calls=[{"name": "get_order_status", "args": {"order_id": "A-77"}, "id": "call_order_2"}]
        ),
        ToolMessage(order, tool_call_id="call_order_2", name="get_order_status"),
        AIMessage(f"Order A-77: {order}."),
        HumanMessage("Thanks! Is it shipped yet?"),
    ]


def _tool_check(messages: Sequence[Any]) -> str | None:
    """``None`` if the tool calls and results pair up, else the problem (what the API would reject)."""
    from memory_demos.strategies.turn_trim import ToolHistoryError, validate_tool_history

    try:
        validate_tool_history(messages)
    except ToolHistoryError as exc:
        return str(exc)
    return None


def _rows(messages: Sequence[Any]) -> list[dict[str, Any]]:
    from memory_demos.strategies.trim import message_rows

    return message_rows(messages)


def trim_orphan(language: str = "en") -> DemoResult:
    """Keeping "the last N messages" can start the prompt with a tool result whose call was cut off."""
    from langchain_core.messages import trim_messages

    history = tool_history()
    naive_kept = trim_messages(
        history, max_tokens=KEEP_MESSAGES, token_counter=len, strategy="last", include_system=True
    )
    fixed_kept = trim_turns(history, KEEP_MESSAGES, len).kept
    naive_problem = _tool_check(naive_kept)
    fixed_problem = _tool_check(fixed_kept)
    naive = {"kept": _rows(naive_kept), "problem": naive_problem, "budget_messages": KEEP_MESSAGES}
    fixed = {"kept": _rows(fixed_kept), "problem": fixed_problem, "budget_messages": KEEP_MESSAGES}
    return _result("trim_orphan", language, naive, fixed, naive_problem is not None, fixed_problem is None)


# -- 5. the session-store race ------------------------------------------------------------------

RACE_THREADS = 8
RACE_WINDOW_SECONDS = 0.05


def naive_get_session_history(store: dict[str, Any], session_id: str) -> Any:
    """The pattern from many examples: check, then create. The sleep stands for slow set-up work."""
    from langchain_core.chat_history import InMemoryChatMessageHistory

    history = store.get(session_id)
    if history is None:
        time.sleep(RACE_WINDOW_SECONDS)  # e.g. loading the session's rows from a database
        history = InMemoryChatMessageHistory()
        store[session_id] = history
    return history


def _first_requests(get_history: Callable[[str], Any], session_id: str, threads: int) -> None:
    barrier = threading.Barrier(threads)

    def request(number: int) -> None:
        barrier.wait()
        get_history(session_id).add_user_message(f"first message of request {number}")

    workers = [threading.Thread(target=request, args=(n,)) for n in range(1, threads + 1)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()


def session_race(language: str = "en", threads: int = RACE_THREADS) -> DemoResult:
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

    _first_requests(naive_get, session_id, threads)
    fixed_store = SessionHistoryStore(slow_factory)
    _first_requests(fixed_store.get, session_id, threads)
    naive_kept = len(naive_store[session_id].messages)
    fixed_kept = len(fixed_store.get(session_id).messages)
    naive = {"requests": threads, "messages_kept": naive_kept, "lost_messages": threads - naive_kept}
    fixed = {
        "requests": threads,
        "messages_kept": fixed_kept,
        "lost_messages": threads - fixed_kept,
        "histories_created": created["fixed"],
    }
    return _result(
        "session_race", language, naive, fixed, naive["lost_messages"] > 0, fixed["lost_messages"] == 0
    )


# -- 6. summary buffer loses turns when its summary call fails ------------------------------------

SUMMARY_FAIL_MESSAGES: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "My order number is A-1234.",
    "Can you recommend a good book about gardening for small balconies?",
    "What do you think about spring weather in general?",
)
SUMMARY_FAIL_QUESTION = "What's my name?"
SUMMARY_BUFFER_LIMIT = 60


def save_keeping_raw(memory: Any, inputs: dict[str, str], outputs: dict[str, str]) -> str | None:
    """``save_context`` that never loses a turn: if summarising fails, put the popped messages back and
    keep the new exchange raw; the summary is tried again next turn. Returns the error, if any."""
    before = list(memory.chat_memory.messages)
    try:
        memory.save_context(inputs, outputs)
    except Exception as exc:
        memory.chat_memory.clear()
        memory.chat_memory.add_messages(before)
        memory.chat_memory.add_user_message(inputs["input"])
        memory.chat_memory.add_ai_message(outputs["output"])
        return f"{type(exc).__name__}: {exc}"
    return None


def run_failing_summary_buffer(keep_raw: bool) -> dict[str, Any]:
    from langchain_core.messages import HumanMessage, SystemMessage

    from memory_demos.strategies.classic import import_classic_memory

    classic = import_classic_memory()
    capture = CallCapture(ENCODING)
    model = build_chat_model(ProviderConfig(fail_purposes=(SUMMARIZE,)), callbacks=[capture], streaming=False)
    memory = classic.ConversationSummaryBufferMemory(
        llm=with_purpose(model, SUMMARIZE), max_token_limit=SUMMARY_BUFFER_LIMIT, return_messages=True
    )
    errors: list[str] = []
    for user_text in SUMMARY_FAIL_MESSAGES:
        history = memory.load_memory_variables({})["history"]
        reply = model.invoke([SystemMessage(SYSTEM_PROMPT), *history, HumanMessage(user_text)])
        if keep_raw:
            error = save_keeping_raw(memory, {"input": user_text}, {"output": reply.text})
        else:
            try:  # what most apps do: log the failure and carry on
                memory.save_context({"input": user_text}, {"output": reply.text})
                error = None
            except Exception as exc:
                error = f"{type(exc).__name__}: {exc}"
        if error:
            errors.append(error)
    history = memory.load_memory_variables({})["history"]
    answer = model.invoke([SystemMessage(SYSTEM_PROMPT), *history, HumanMessage(SUMMARY_FAIL_QUESTION)])
    kept = [str(m.content) for m in memory.chat_memory.messages]
    remembered = " ".join([memory.moving_summary_buffer, *kept])
    lost = [text for text in SUMMARY_FAIL_MESSAGES if text not in remembered]
    calls = capture.drain()
    return {
        "summary_errors": errors,
        "summary": memory.moving_summary_buffer,
        "kept_messages": kept,
        "lost_user_messages": lost,
        "question": SUMMARY_FAIL_QUESTION,
        "answer": answer.text,
        "failed_calls": sum(1 for c in calls if c.error),
        "reply_calls": sum(1 for c in calls if c.purpose == REPLY),
    }


def summary_buffer_failure(language: str = "en") -> DemoResult:
    """prune() pops old messages, then asks for the summary: when that call fails they are gone."""
    naive = run_failing_summary_buffer(keep_raw=False)
    fixed = run_failing_summary_buffer(keep_raw=True)
    fixed_ok = not fixed["lost_user_messages"] and "Mara" in fixed["answer"]
    return _result(
        "summary_buffer_failure", language, naive, fixed, bool(naive["lost_user_messages"]), fixed_ok
    )


# -- 7. notes that never expire (Redis) ------------------------------------------------------------


def expiring_notes(language: str = "en") -> DemoResult:
    """Without a TTL a note stays in Redis for ever; with one, it is deleted and the next prompt lacks it."""
    runs = run_note_expiry()
    naive, fixed = runs["without_ttl"], {**runs["with_ttl"], "waited_seconds": runs["waited_seconds"]}
    kept = naive["ttl_before_asking"].values()
    gone = fixed["ttl_before_asking"].values()
    failed = naive["fact_in_next_prompt"] and bool(kept) and all(ttl == -1 for ttl in kept)
    fixed_ok = not fixed["fact_in_next_prompt"] and bool(gone) and all(ttl == -2 for ttl in gone)
    return _result("expiring_notes", language, naive, fixed, failed, fixed_ok)


# -- the catalogue ------------------------------------------------------------------------------

DEMOS: tuple[Demo, ...] = (
    Demo(
        "chatty_entities",
        Text("Entity extraction fooled by a chatty reply", "啰嗦的回答骗过实体抽取"),
        Text(
            "ConversationEntityMemory asks the model for the proper nouns of the last line and splits the "
            "answer "
            "on commas. A model that answers 'Sure, the entities are: John, Paris' creates entities named "
            "'Sure' and 'the entities are: John', and every one of them costs an entity-summary call per "
            "turn.",
            "ConversationEntityMemory 让模型列出最后一句里的专有名词，再按逗号切分答案。模型若回答"
            "「Sure, the entities are: John, Paris」，就会生成名为「Sure」和「the entities are: John」"
            "的实体，"
            "每个实体每轮都要多一次实体摘要调用。",
        ),
        Text(
            "Parse strictly: keep only capitalised names the user actually wrote (or ask for structured "
            "output "
            "with a list-of-names schema), before any note is written.",
            "严格解析：在写任何笔记之前，只保留用户确实写过的首字母大写的名字（或用「名字列表」"
            "模式请求结构化输出）。",
        ),
        chatty_entities,
        (strict_entity_names, run_entity_memory),
    ),
    Demo(
        "summary_drift",
        Text("Summary drift", "摘要漂移"),
        Text(
            "A running summary is rewritten by the model every turn from the previous summary. Whatever the "
            "model "
            "adds is fed back in and kept: here the model invents one detail per round ('travelled to "
            "Paris', "
            "'favourite colour is green'), and the summary presents them as facts.",
            "滚动摘要每轮都由模型基于上一版摘要重写。模型加进去的东西会被反复带入并保留："
            "这里模型每轮编造一个细节"
            "（「去过巴黎」「最喜欢绿色」），摘要把它们当作事实呈现。",
        ),
        Text(
            "Check the summary against the conversation before storing it (every name, number and content "
            "word "
            "must come from what was said) and keep the facts that matter as raw, structured facts.",
            "存储前对照对话检查摘要（每个名字、数字和实词都必须出自对话），"
            "并把重要的事实保存为原始的结构化事实。",
        ),
        summary_drift,
        (unsupported_sentences, run_summary),
    ),
    Demo(
        "vector_privacy",
        Text("Vector memory recalls the wrong thing, and a secret", "向量记忆召回无关内容，甚至是秘密"),
        Text(
            "A retriever returns its k nearest documents however far away they are. Asked 'How do I reset my "
            "password?', the memory injects the turn where the user gave their password hint, plus an "
            "unrelated "
            "turn to fill k.",
            "检索器无论距离多远都会返回最近的 k 条文档。问「如何重置密码？」时，"
            "记忆会注入用户说出密码提示的那一轮，"
            "再补上一条无关的轮次凑够 k 条。",
        ),
        Text(
            "Drop hits under a relevance threshold, tag private turns when saving them (redact the text), "
            "and "
            "filter on that tag when searching.",
            "丢弃低于相关度阈值的结果；保存时给私密轮次打标签（并脱敏文本），检索时按标签过滤。",
        ),
        vector_privacy,
        (naive_vector_recall, is_private, fixed_vector_recall),
    ),
    Demo(
        "trim_orphan",
        Text("A trim that orphans a tool result", "裁剪留下孤立的工具结果"),
        Text(
            "Keeping 'the last N messages' of an agent's history can cut between an AI tool call and its "
            "ToolMessage. The prompt then starts with a tool result nobody asked for, which OpenAI's API "
            "rejects "
            "('messages with role tool must be a response to a preceding message with tool_calls').",
            "保留智能体历史的「最后 N 条消息」可能在 AI 工具调用与其 ToolMessage 之间截断。"
            "提示词于是以一个没人请求过的"
            "工具结果开头，OpenAI API 会拒绝它。",
        ),
        Text(
            "Trim by whole turns (a human message, its tool calls and results, and the answer), and validate "
            "the "
            "tool pairs before sending; trim_messages(start_on='human') is the minimum.",
            "按整轮裁剪（一条人类消息、其工具调用与结果、以及回答），发送前校验工具调用配对；"
            "trim_messages(start_on='human') 是最低要求。",
        ),
        trim_orphan,
        (trim_orphan, trim_turns),
    ),
    Demo(
        "session_race",
        Text("The session-store race", "会话存储的竞态"),
        Text(
            "Many examples create a session's history lazily: 'if session_id not in store: store[session_id] "
            "= "
            "...'. When several first requests for one new session arrive together, each sees it missing, "
            "each "
            "creates a history, and all but the last one written lose their messages.",
            "许多示例惰性创建会话历史：「if session_id not in store: store[session_id] = ...」。"
            "同一新会话的多个首请求"
            "同时到达时，每个都看到会话不存在、各自创建历史，除了最后写入的那个，其余的消息全部丢失。",
        ),
        Text(
            "Create under a lock (check and create in one critical section), as SessionHistoryStore does, or "
            "use "
            "the database's own insert-if-absent.",
            "在锁内创建（检查与创建放在同一个临界区），就像 SessionHistoryStore 那样，"
            "或使用数据库自带的「不存在才插入」。",
        ),
        session_race,
        (naive_get_session_history, SessionHistoryStore.get),
    ),
    Demo(
        "summary_buffer_failure",
        Text("Summary buffer loses turns when summarising fails", "摘要失败时摘要缓冲丢失对话"),
        Text(
            "ConversationSummaryBufferMemory.prune pops the oldest messages out of the buffer and only then "
            "asks "
            "the model to summarise them. If that call fails (a timeout, a rate limit), the popped messages "
            "are "
            "neither in the buffer nor in the summary: here the user's name is gone.",
            "ConversationSummaryBufferMemory.prune 先把最旧的消息弹出缓冲区，然后才请模型摘要。若这次调用失败"
            "（超时、限流），弹出的消息既不在缓冲区也不在摘要里：这里用户的名字就丢了。",
        ),
        Text(
            "Keep the raw messages until the summary has succeeded: restore what prune popped, keep the new "
            "turn "
            "raw, and try the summary again next turn (the summary_buffer strategy degrades the same way).",
            "在摘要成功之前保留原始消息：恢复被 prune 弹出的消息，新一轮保持原文，下一轮再尝试摘要"
            "（summary_buffer 策略也以同样方式降级）。",
        ),
        summary_buffer_failure,
        (save_keeping_raw, run_failing_summary_buffer),
    ),
    Demo(
        "expiring_notes",
        Text("Notes that never expire (Redis)", "永不过期的笔记（Redis）"),
        Text(
            "On Redis, RedisChatMessageHistory sets no TTL unless given one, and an entity store with no TTL "
            "keeps its notes too: whatever a user said stays on the server for ever, memory only grows, and "
            "personal data outlives its use (against data minimisation). Here an entity memory keeps Mara's "
            "note and messages without a TTL: after the wait they are still there and go into the next "
            "prompt. This demo needs a Redis server: set MEMORY_LAB_REDIS_URL.",
            "在 Redis 上，RedisChatMessageHistory 默认不设 TTL，实体存储不设 TTL 时笔记也一样：用户说过的话"
            "永远留在服务器上，内存只增不减，个人数据在用完之后仍被保存（违背数据最小化）。"
            "这里实体记忆不带 TTL 地保存了 Mara 的笔记和消息：等待之后它们仍在，并进入下一轮提示。"
            "本演示需要 Redis 服务器："
            "请设置 MEMORY_LAB_REDIS_URL。",
        ),
        Text(
            "Give every key a TTL sized to how long a fact should matter. Here 1 second: Redis itself "
            "deletes the note and the recent messages, and the next prompt is without them, so the model "
            "no longer knows where Mara lives (real expiry, no simulated clock). RedisEntityStore keeps a "
            "note 1 day and renews it to 3 days on every read; the seed book suggests 30 days for a history "
            "(history.ttl_seconds, entity.ttl_seconds).",
            "给每个键设置与事实有效期相称的 TTL。这里是 1 秒：Redis 自己删除了笔记和最近的消息，下一轮提示中"
            "不再有它们，模型也就不再知道 Mara 住在哪里（真实过期，没有模拟时钟）。RedisEntityStore 默认"
            "保留笔记 1 天，每次读取续期到 3 天；种子书建议聊天历史保留 30 天"
            "（history.ttl_seconds、entity.ttl_seconds）。",
        ),
        expiring_notes,
        (run_note_expiry, open_redis_entity_store),
    ),
)


def demo_ids() -> list[str]:
    return [demo.id for demo in DEMOS]


def get_demo(demo_id: str) -> Demo:
    for demo in DEMOS:
        if demo.id == demo_id:
            return demo
    raise KeyError(f"Unknown failure demo {demo_id!r}; known: {', '.join(demo_ids())}")


def run_demo(demo_id: str, language: str = "en") -> DemoResult:
    """Run one demo by id."""
    return get_demo(demo_id).run(language)
