"""``vector``: VectorStoreRetrieverMemory stores every exchange in Chroma and sends the most similar ones.

The collection lives in an in-process chromadb, or on the Chroma server of ``MEMORY_LAB_CHROMA_URL``
(shared by every app process; there its name includes the user id too). ``close()`` only releases:
it deletes the collection when it is in-process (nothing else could reach it) and keeps a server's,
so another process can continue the conversation. ``discard()`` deletes it in both cases; the
workshop's idle clean-up calls it for conversations nobody will come back to.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from langchain_core.messages import BaseMessage
from langchain_core.prompts import ChatPromptTemplate

from memory_demos.i18n import Message
from memory_demos.prompts import RETRIEVED_HEADER, header
from memory_demos.storage import chroma_collection_name, redact_url
from memory_demos.strategies.base import MemoryPart, ParamSpec, StrategyInfo
from memory_demos.strategies.shared.chroma_collection import ConversationCollectionMixin, scored_search
from memory_demos.strategies.shared.classic import ClassicStrategy, import_classic_memory
from memory_demos.strategies.shared.embedding_param import EMBEDDINGS_PARAM

COLLECTION_PREFIX = "memory_lab_vector_"
# Past exchanges retrieved by default. A fact that changed leaves two lines on one topic (the old value
# and the new one), and other lines on that topic compete with them: in retractions_zh, 我住在哪里？
# ranks 我住在北京 and 我哥哥小王住在广州 above 搬到上海了 whatever the stored replies say (measured with
# echoed, constant and empty replies), so two hits kept the stale line and lost the change.
# Shared with ``semantic_store``.
DEFAULT_K = 3

INFO = StrategyInfo(
    id="vector",
    title="Vector store (similar past lines)",
    kind="classic",
    langchain_classes=(
        "langchain_classic.memory.VectorStoreRetrieverMemory",
        "langchain_chroma.Chroma",
    ),
    summary="Stores every exchange as an embedding and sends the k most similar ones: recall by meaning.",
    title_zh="向量存储（相似的旧对话）",
    summary_zh="把每轮对话存为向量，发送最相似的 k 条：按语义回忆。",
    params=(
        # Chroma converts k to a C integer: without a bound, a huge k ends in an OverflowError text.
        ParamSpec(
            "k",
            DEFAULT_K,
            "Past exchanges retrieved by similarity and sent with each message.",
            minimum=1,
            maximum=1000,
            help_zh="按相似度检索、随每条消息发送的过往对话轮数。",
        ),
        EMBEDDINGS_PARAM,
    ),
    keeps=(MemoryPart("vectors", "conversation"),),
)


def collection_name(conversation_id: str, user_id: str | None = None) -> str:
    """This conversation's Chroma collection: unique, since all in-process clients share collections.

    Pass ``user_id`` for a shared server, where two users may bring the same conversation id.
    """
    return chroma_collection_name(COLLECTION_PREFIX, conversation_id, user_id)


def system_with_retrieved(system_prompt: str, retrieved: str, language: str = "en") -> str:
    """The system message with the retrieved exchanges appended under a header in ``language`` (unchanged
    if nothing was retrieved)."""
    if not retrieved.strip():
        return system_prompt
    return f"{system_prompt}\n\n{header(RETRIEVED_HEADER, language)}\n{retrieved}"


@dataclass
class VectorRollbackPoint:
    """The document ids in the collection before a turn, and the hits shown then."""

    ids: frozenset[str]
    query: str | None
    hits: list[dict[str, Any]]


class VectorStrategy(ConversationCollectionMixin, ClassicStrategy):
    """Only retrieved exchanges reach the model; there is no list of recent messages at all."""

    info = INFO

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._last_query: str | None = None
        self._last_hits: list[dict[str, Any]] = []
        super().__init__(*args, **kwargs)

    def _build_memory(self) -> Any:
        classic = import_classic_memory()
        self._name_collection(collection_name)
        self.vectorstore = self._open_vectorstore(self._connect())
        retriever = self.vectorstore.as_retriever(search_kwargs={"k": self.params["k"]})
        return classic.VectorStoreRetrieverMemory(
            retriever=retriever, memory_key=self.memory_key, input_key="input"
        )

    def prompt(self) -> ChatPromptTemplate:
        return ChatPromptTemplate.from_messages([("system", "{system}"), ("human", "{input}")])

    def prompt_inputs(self, memory_variables: dict[str, Any], user_text: str) -> dict[str, Any]:
        retrieved = str(memory_variables[self.memory_key])
        return {
            "system": system_with_retrieved(self.system_prompt, retrieved, self.context.language),
            "input": user_text,
        }

    def _respond(self, user_text: str) -> str:
        # The retriever returns no scores; a second search, same query, same k, same collection, shows them.
        self._last_query = user_text
        self._last_hits = self.scored_hits(user_text)
        return super()._respond(user_text)

    def scored_hits(self, query: str) -> list[dict[str, Any]]:
        """The top-k documents for ``query`` with their cosine similarity (1 - cosine distance)."""
        return [
            {"text": doc.page_content, "similarity": similarity, "id": doc.id}
            for doc, similarity in scored_search(self.vectorstore, query, self.params["k"])
        ]

    def document_ids(self) -> list[str]:
        return list(self.vectorstore.get(include=[])["ids"])

    def _save(self, inputs: dict[str, Any], reply_text: str) -> None:
        before = self._rollback_point()
        try:
            self.memory.save_context(inputs, {"output": reply_text})
        except Exception as exc:  # degrade: the reply is good, only storing it failed
            self._rollback(before)
            self.note(Message("strategy.note.store_skipped", error=f"{type(exc).__name__}: {exc}"))

    def _rollback_point(self) -> VectorRollbackPoint:
        return VectorRollbackPoint(frozenset(self.document_ids()), self._last_query, list(self._last_hits))

    def _rollback(self, point: VectorRollbackPoint) -> None:
        added = [doc_id for doc_id in self.document_ids() if doc_id not in point.ids]
        if added:
            self.vectorstore.delete(ids=added)
        self._last_query, self._last_hits = point.query, list(point.hits)

    def stored_messages(self) -> list[BaseMessage]:
        """None: this memory keeps documents (one per exchange), not messages."""
        return []

    def snapshot(self) -> dict[str, Any]:
        stored = self.vectorstore.get(include=["documents"])
        return {
            "collection": self.collection,
            "chroma_server": redact_url(self.context.storage.chroma_url) if self.on_server else None,
            "k": self.params["k"],
            "embedding_model": self.embedding_model(),
            "stored_documents": stored["documents"],
            # The documents' 'input:'/'output:' labels are LangChain's, and what the model read: kept.
            "format_note": Message("strategy.exchange_format_note"),
            "query": self._last_query,
            "hits": self._last_hits,
            "hits_note": Message("strategy.vector.hits_note"),
        }

    def clear(self) -> None:
        self.vectorstore.reset_collection()
        self._last_query = None
        self._last_hits = []


STRATEGY = VectorStrategy
