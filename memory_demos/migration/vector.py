"""Step 8: VectorStoreRetrieverMemory → a LangGraph store with a vector index, searched with ``query=``."""

from __future__ import annotations

from collections.abc import Iterable

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.prompts import ChatPromptTemplate

from memory_demos.migration import SYSTEM_PROMPT, Exchange

STEP_ID = "vector"
TITLE_KEY = "migration.vector.title"
CLASSIC_API = "langchain_classic.memory.VectorStoreRetrieverMemory"
MODERN_API = (
    "langgraph.store.memory.InMemoryStore(index={'embed': MiniLM, 'dims': 384}) + store.search(query=)"
)
SUMMARY_KEY = "migration.vector.summary"
meant_to_match = True
TOP_K = 2
# No Chinese script: the shipped MiniLM embeds English only, so Chinese questions would not find the
# order number and the step would teach a different lesson. A Chinese session gets these English ones.
DEFAULT_INPUTS: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "My order number is A-1234.",
    "Can you recommend a book about gardening?",
    "What makes a good cup of tea?",
    "What's my order number?",
)
PITFALL_KEYS: tuple[str, ...] = (
    "migration.vector.pitfall.1",
    "migration.vector.pitfall.2",
    "migration.vector.pitfall.3",
    "migration.vector.pitfall.4",
)


def classic_version(model: BaseChatModel, inputs: Iterable[str]) -> list[Exchange]:
    """VectorStoreRetrieverMemory: every exchange is a document; the TOP_K most similar are sent."""
    from langchain_classic.memory import VectorStoreRetrieverMemory
    from langchain_core.vectorstores import InMemoryVectorStore

    from memory_demos.providers.embeddings import default_embeddings

    store = InMemoryVectorStore(default_embeddings())
    memory = VectorStoreRetrieverMemory(retriever=store.as_retriever(search_kwargs={"k": TOP_K}))
    prompt = ChatPromptTemplate.from_messages(
        [
            ("system", SYSTEM_PROMPT + "\n\nRelevant pieces of the earlier conversation:\n{history}"),
            ("human", "{input}"),
        ]
    )
    chain = prompt | model
    exchanges = []
    for user_text in inputs:
        history = memory.load_memory_variables({"prompt": user_text})["history"]
        reply = chain.invoke({"history": history, "input": user_text})
        memory.save_context({"input": user_text}, {"output": reply.text})
        exchanges.append(Exchange(user_text, reply.text))
    return exchanges


def modern_version(model: BaseChatModel, inputs: Iterable[str]) -> list[Exchange]:
    """A LangGraph store with a vector index: each exchange is an item, searched with the new message."""
    from langgraph.store.memory import InMemoryStore

    from memory_demos.providers.embeddings import default_embeddings

    store = InMemoryStore(index={"embed": default_embeddings(), "dims": 384, "fields": ["text"]})
    namespace = ("users", "user-42", "exchanges")  # an authenticated user id in a real app
    exchanges = []
    for number, user_text in enumerate(inputs, start=1):
        hits = store.search(namespace, query=user_text, limit=TOP_K)  # cosine similarity on the index
        found = "\n".join(hit.value["text"] for hit in hits)
        system = SYSTEM_PROMPT + "\n\nRelevant pieces of the earlier conversation:\n" + found
        reply = model.invoke([SystemMessage(system), HumanMessage(user_text)])
        store.put(namespace, f"exchange-{number}", {"text": f"input: {user_text}\noutput: {reply.text}"})
        exchanges.append(Exchange(user_text, reply.text))
    return exchanges


def chroma_version(model: BaseChatModel, inputs: Iterable[str]) -> list[Exchange]:
    """The same memory on Chroma (langchain_chroma), one collection per conversation, cosine distance."""
    import secrets

    import chromadb
    from chromadb.config import Settings
    from langchain_chroma import Chroma

    from memory_demos.providers.embeddings import default_embeddings

    client = chromadb.EphemeralClient(Settings(anonymized_telemetry=False))
    name = f"guide_{secrets.token_hex(8)}"  # in-process clients share collections: one per conversation
    chroma = Chroma(name, default_embeddings(), client=client, collection_metadata={"hnsw:space": "cosine"})
    exchanges = []
    try:
        for user_text in inputs:
            found = "\n".join(doc.page_content for doc in chroma.similarity_search(user_text, k=TOP_K))
            system = SYSTEM_PROMPT + "\n\nRelevant pieces of the earlier conversation:\n" + found
            reply = model.invoke([SystemMessage(system), HumanMessage(user_text)])
            chroma.add_texts([f"input: {user_text}\noutput: {reply.text}"])
            exchanges.append(Exchange(user_text, reply.text))
    finally:
        client.delete_collection(name)
    return exchanges


# Shown under the pair: the Chroma version of the modern side.
EXTRAS = (chroma_version,)
