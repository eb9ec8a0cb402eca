"""Failure demo: vector memory recalls something similar but irrelevant, and private (and the fix)."""

from __future__ import annotations

import re
from types import MappingProxyType
from typing import Any

from memory_demos.failure_lab.common import CallGate, Demo, DemoResult, VerdictRow, demo_result
from memory_demos.providers.embedding_choice import MINILM, OFFLINE_MODEL_LABELS

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
# The turns are English, and MIN_RELEVANCE is set on this model's scores: a threshold belongs to one model
# (multilingual-e5-small scores unrelated sentences about 0.8). Both runs name it in their results.
EMBEDDING_MODEL = MINILM
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

    from memory_demos.providers.embedding_choice import offline_embeddings
    from memory_demos.strategies.shared.classic import import_classic_memory

    classic = import_classic_memory()
    store = InMemoryVectorStore(offline_embeddings(EMBEDDING_MODEL))
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
    return {"embedding_model": OFFLINE_MODEL_LABELS[EMBEDDING_MODEL], "queries": queries}


def fixed_vector_recall() -> dict[str, Any]:
    from langchain_core.vectorstores import InMemoryVectorStore

    from memory_demos.providers.embedding_choice import offline_embeddings

    store = InMemoryVectorStore(offline_embeddings(EMBEDDING_MODEL))
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
    return {
        "embedding_model": OFFLINE_MODEL_LABELS[EMBEDDING_MODEL],
        "queries": queries,
        "min_relevance": MIN_RELEVANCE,
    }


def vector_privacy(language: str = "en", gate: CallGate | None = None) -> DemoResult:
    """k nearest neighbours are returned however far away: a password hint answers a reset question."""
    naive = naive_vector_recall()
    fixed = fixed_vector_recall()
    failed = any(q["private_recalled"] or q["below_threshold"] for q in naive["queries"])
    relevant_kept = all(
        RELEVANT_FOR[q["query"]] in q["injected"] for q in fixed["queries"] if q["query"] in RELEVANT_FOR
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
