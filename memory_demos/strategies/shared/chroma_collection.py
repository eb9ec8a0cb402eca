"""What the Chroma-backed strategies (``vector``, ``hybrid``) share: one collection per conversation.

In-process, every ``EphemeralClient`` of the process sees the same collections, so each is named after
its conversation and ``close()`` deletes it (nothing else could reach it). On the Chroma server of
``MEMORY_LAB_CHROMA_URL`` the name carries the user id too and ``close()`` keeps the collection, so
another process can continue the conversation; ``discard()`` deletes it in both cases.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from memory_demos.storage.chroma import chroma_client

if TYPE_CHECKING:
    from langchain_chroma import Chroma
    from langchain_core.documents import Document

    from memory_demos.strategies.base import StrategyContext


def scored_search(vectorstore: Chroma, query: str, k: int) -> list[tuple[Document, float]]:
    """The top-``k`` documents for ``query`` with their cosine similarity (1 - cosine distance, 4 places)."""
    found = vectorstore.similarity_search_with_score(query, k=k)
    return [(doc, round(1.0 - float(distance), 4)) for doc, distance in found]


class ConversationCollectionMixin:
    """A strategy's own Chroma collection: its name, its client, and ``close``/``discard``.

    Put it before the ``Strategy`` base class, so its ``close`` is the one that runs.
    """

    context: StrategyContext
    embeddings: Callable[[], Any]  # Strategy.embeddings: the model the strategy's parameter picks
    collection: str
    on_server: bool
    _client: Any = None
    _closed = False
    _deleted = False

    def _name_collection(self, collection_name: Callable[[str, str | None], str]) -> None:
        """Name this conversation's collection with ``collection_name(conversation_id, user_id)``.

        The user id is passed only on a shared server, where two users may bring the same conversation id.
        """
        self.on_server = self.context.storage.uses_chroma_server
        self.collection = collection_name(
            self.context.conversation_id, self.context.user_id if self.on_server else None
        )

    def _connect(self) -> Any:
        """A chromadb client on the configured server, else in-process; kept for deleting the collection."""
        self._client = chroma_client(self.context.storage)
        return self._client

    def _open_vectorstore(self, client: Any) -> Chroma:
        """The collection as a LangChain ``Chroma`` vector store, in cosine space."""
        from langchain_chroma import Chroma

        return Chroma(
            collection_name=self.collection,
            embedding_function=self.embeddings(),
            client=client,
            collection_metadata={"hnsw:space": "cosine"},
        )

    def close(self) -> None:
        """Release the collection: delete it if in-process, keep it on a server (see ``discard``)."""
        if self._closed:
            return
        self._closed = True
        if not self.on_server:
            self._delete_collection()

    def discard(self) -> None:
        """Delete the collection (and whatever it carries) wherever it lives, and close; for
        conversations nobody will reopen.
        """
        self._closed = True
        self._delete_collection()

    def _delete_collection(self) -> None:
        from chromadb.errors import NotFoundError

        if self._deleted or self._client is None:
            return
        self._deleted = True
        with contextlib.suppress(NotFoundError):  # another process discarded it first
            self._client.delete_collection(self.collection)
