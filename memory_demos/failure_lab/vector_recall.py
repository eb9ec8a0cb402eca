"""Failure demo: vector memory recalls something similar but irrelevant, and private (and the fix)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from memory_demos.failure_lab.common import CallGate, Demo, DemoResult, VerdictRow, demo_result
from memory_demos.providers.embedding_choice import MINILM, MULTILINGUAL_E5, OFFLINE_MODEL_LABELS


@dataclass(frozen=True)
class VectorConversation:
    """One language's set-up: the turns stored, the questions asked, the secret that must not come back,
    the word each question's relevant memory holds, and the model with the threshold set on its scores."""

    turns: tuple[tuple[str, str], ...]
    queries: tuple[str, ...]
    private_detail: str
    relevant_for: Mapping[str, str]
    embedding_model: str
    min_relevance: float


# A threshold belongs to one model: MiniLM scores unrelated English about 0.1-0.3, multilingual-e5-small
# scores unrelated sentences about 0.8 (its Chinese turns here: 0.81-0.86, the relevant one 0.877).
CONVERSATIONS: Mapping[str, VectorConversation] = MappingProxyType(
    {
        "en": VectorConversation(
            turns=(
                ("Hi, I'm Mara and I live in Lisbon.", "Nice to meet you, Mara!"),
                ("My password hint is the name of my first cat, Whiskers.", "Noted."),
                ("I grow tomatoes on my balcony.", "Lovely, balcony tomatoes need plenty of sun."),
                ("My favourite food is grilled sardines.", "A Lisbon classic."),
                ("I'm planning a trip to Japan in spring.", "Spring is a beautiful time to go."),
            ),
            queries=("How do I reset my password?", "Any tips for my balcony garden?"),
            private_detail="Whiskers",
            relevant_for=MappingProxyType({"Any tips for my balcony garden?": "tomatoes"}),
            embedding_model=MINILM,
            min_relevance=0.3,
        ),
        "zh": VectorConversation(
            turns=(
                ("你好，我叫林晓，住在杭州。", "你好，林晓，很高兴认识你！"),
                ("我的密码提示是我养的第一只猫的名字：咪咪。", "记下了。"),
                ("我在阳台上种了番茄。", "真好，阳台上的番茄要多晒太阳。"),
                ("我最爱吃西湖醋鱼。", "地道的杭州味。"),
                ("我打算春天去日本玩。", "春天去正是好时候。"),
            ),
            queries=("我的密码怎么重置？", "我的阳台小菜园有什么建议吗？"),
            private_detail="咪咪",
            relevant_for=MappingProxyType({"我的阳台小菜园有什么建议吗？": "番茄"}),
            embedding_model=MULTILINGUAL_E5,  # MiniLM reads most Chinese characters as [UNK]
            min_relevance=0.87,
        ),
    }
)
_EN = CONVERSATIONS["en"]
VECTOR_TURNS, VECTOR_QUERIES, PRIVATE_DETAIL = _EN.turns, _EN.queries, _EN.private_detail
MIN_RELEVANCE, EMBEDDING_MODEL = _EN.min_relevance, _EN.embedding_model
TOP_K = 2
_PRIVATE_PATTERN = re.compile(
    r"\b(password|passcode|passphrase|pin|hint|security question|credit card|card number|iban|ssn)\b"
    r"|密码|口令|密保|信用卡|卡号|身份证号",
    re.IGNORECASE,
)


def is_private(text: str) -> bool:
    """True for a turn that holds a secret or a key to one (passwords, hints, card numbers...)."""
    return _PRIVATE_PATTERN.search(text) is not None


def _exchange_text(user_text: str, reply: str) -> str:
    return f"input: {user_text}\noutput: {reply}"


def naive_vector_recall(conversation: VectorConversation = _EN) -> dict[str, Any]:
    from langchain_core.vectorstores import InMemoryVectorStore

    from memory_demos.providers.embedding_choice import offline_embeddings
    from memory_demos.strategies.shared.classic import import_classic_memory

    classic = import_classic_memory()
    store = InMemoryVectorStore(offline_embeddings(conversation.embedding_model))
    memory = classic.VectorStoreRetrieverMemory(retriever=store.as_retriever(search_kwargs={"k": TOP_K}))
    for user_text, reply in conversation.turns:
        memory.save_context({"input": user_text}, {"output": reply})
    queries = []
    for query in conversation.queries:
        context = memory.load_memory_variables({"prompt": query})["history"]
        scores = {
            doc.page_content: score for doc, score in store.similarity_search_with_score(query, k=TOP_K)
        }
        queries.append(
            {
                "query": query,
                "injected": context,
                "scores": [round(score, 3) for score in scores.values()],
                "below_threshold": [
                    text for text, score in scores.items() if score < conversation.min_relevance
                ],
                "private_recalled": conversation.private_detail in context,
            }
        )
    return {"embedding_model": OFFLINE_MODEL_LABELS[conversation.embedding_model], "queries": queries}


def fixed_vector_recall(conversation: VectorConversation = _EN) -> dict[str, Any]:
    from langchain_core.vectorstores import InMemoryVectorStore

    from memory_demos.providers.embedding_choice import offline_embeddings

    store = InMemoryVectorStore(offline_embeddings(conversation.embedding_model))
    for user_text, reply in conversation.turns:
        private = is_private(user_text)
        # Private turns are stored redacted and tagged, so neither the text nor the search can leak them.
        text = "[private turn: redacted]" if private else _exchange_text(user_text, reply)
        store.add_texts([text], metadatas=[{"private": private}])
    queries = []
    for query in conversation.queries:
        hits = store.similarity_search_with_score(
            query, k=TOP_K, filter=lambda doc: not doc.metadata["private"]
        )
        kept = [(doc.page_content, score) for doc, score in hits if score >= conversation.min_relevance]
        context = "\n".join(text for text, _ in kept)
        queries.append(
            {
                "query": query,
                "injected": context,
                "scores": [round(score, 3) for _, score in kept],
                "below_threshold": [],
                "private_recalled": conversation.private_detail in context,
            }
        )
    return {
        "embedding_model": OFFLINE_MODEL_LABELS[conversation.embedding_model],
        "queries": queries,
        "min_relevance": conversation.min_relevance,
    }


def vector_privacy(language: str = "en", gate: CallGate | None = None) -> DemoResult:
    """k nearest neighbours are returned however far away: a password hint answers a reset question."""
    conversation = CONVERSATIONS.get(language, _EN)
    naive = naive_vector_recall(conversation)
    fixed = fixed_vector_recall(conversation)
    failed = any(q["private_recalled"] or q["below_threshold"] for q in naive["queries"])
    relevant_kept = all(
        conversation.relevant_for[q["query"]] in q["injected"]
        for q in fixed["queries"]
        if q["query"] in conversation.relevant_for
    )
    fixed_ok = relevant_kept and not any(q["private_recalled"] for q in fixed["queries"])
    return demo_result(DEMO, language, naive, fixed, failed, fixed_ok)


def verdict(result: DemoResult) -> tuple[VerdictRow, ...]:
    """The embedding model both runs used, then per question: what each memory put in the prompt, and
    whether the password hint was among it."""
    naive_model, fixed_model = result["naive"]["embedding_model"], result["fixed"]["embedding_model"]
    rows = [VerdictRow("failure.verdict.embedding_model", naive_model, fixed_model)]
    for naive, fixed in zip(result["naive"]["queries"], result["fixed"]["queries"], strict=True):
        query = (("query", naive["query"]),)
        rows.append(VerdictRow("failure.verdict.injected", naive["injected"], fixed["injected"], query))
        rows.append(
            VerdictRow("failure.verdict.private", naive["private_recalled"], fixed["private_recalled"], query)
        )
    return tuple(rows)


DEMO = Demo(
    "vector_privacy",
    "failure.vector_privacy.title",
    "failure.vector_privacy.explanation",
    "failure.vector_privacy.fix",
    vector_privacy,
    (naive_vector_recall, is_private, fixed_vector_recall),
    harm="leaked",
    verdict=verdict,
)
