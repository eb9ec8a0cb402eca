"""Step 8: VectorStoreRetrieverMemory → a LangGraph store with a vector index, searched with ``query=``."""

from __future__ import annotations

from collections.abc import Iterable

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.prompts import ChatPromptTemplate

from memory_demos.migration import SYSTEM_PROMPT, Exchange, Text

STEP_ID = "vector"
TITLE = Text("Vector memory → a LangGraph store with an index", "向量记忆 → 带索引的 LangGraph 存储")
CLASSIC_API = "langchain_classic.memory.VectorStoreRetrieverMemory"
MODERN_API = (
    "langgraph.store.memory.InMemoryStore(index={'embed': MiniLM, 'dims': 384}) + store.search(query=)"
)
SUMMARY = Text(
    "The classic memory stores every exchange as a document and sends only the k most similar ones: the "
    "conversation itself is never sent, so 'what did I just say?' fails. In LangChain 1.x a LangGraph store "
    "given an index (the shipped all-MiniLM-L6-v2, 384 dimensions) embeds each item it is given, and "
    "store.search(namespace, query=...) returns the closest ones. Stored in the same format, the two send "
    "the same prompt. The Chroma version below does the same on a vector database; the semantic_store "
    "strategy puts this store behind an agent middleware.",
    "经典向量记忆把每轮对话存成文档，只发送最相似的 k 条：对话本身从不发送，所以「我刚才说了什么？」"
    "会答不上。在 LangChain 1.x 中，给 LangGraph 存储配上索引（随附的 all-MiniLM-L6-v2，384 维），"
    "它会为每个存入的条目生成向量，store.search(namespace, query=...) 返回最接近的条目。"
    "按相同格式保存时，两边发送的提示词相同。下面的 Chroma 版本在向量数据库上做同样的事；"
    "semantic_store 策略把这个存储放在智能体中间件后面。",
)
meant_to_match = True
TOP_K = 2
DEFAULT_INPUTS: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "My order number is A-1234.",
    "Can you recommend a book about gardening?",
    "What makes a good cup of tea?",
    "What's my order number?",
)
PITFALLS: tuple[Text, ...] = (
    Text(
        "A retriever always returns its k nearest documents, relevant or not: without a score threshold "
        "unrelated turns, private ones included, land in the prompt (see the failure lab).",
        "检索器总会返回最近的 k 条文档，不管相关与否：没有分数阈值时，无关的轮次（包括私密内容）"
        "也会进入提示词（见失败实验室）。",
    ),
    Text(
        "Redact or tag private turns (passwords, hints, card numbers) before they are embedded, and filter "
        "on that metadata when searching.",
        "在嵌入之前对私密轮次（密码、提示、卡号）做脱敏或打标签，检索时按该元数据过滤。",
    ),
    Text(
        "Keep retrieval apart from the message history: the model should see which text is the conversation "
        "and which was found by similarity.",
        "检索结果要与消息历史分开：模型应能分辨哪些是对话本身，哪些是按相似度找来的。",
    ),
    Text(
        "All chromadb EphemeralClients in one process share collections: name a collection per conversation, "
        "or two users read each other's memories.",
        "同一进程中的所有 chromadb EphemeralClient 共享集合：每个对话要用独立的集合名，"
        "否则两个用户会读到彼此的记忆。",
    ),
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
