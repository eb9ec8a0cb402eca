"""Step 7: VectorStoreRetrieverMemory → a retrieval step kept apart from the message history."""

from __future__ import annotations

from collections.abc import Iterable

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_core.prompts import ChatPromptTemplate

from memory_demos.migration import SYSTEM_PROMPT, Exchange, Text

STEP_ID = "vector"
TITLE = Text("Vector memory → a retriever step beside the history", "向量记忆 → 与历史分开的检索步骤")
CLASSIC_API = "langchain_classic.memory.VectorStoreRetrieverMemory"
MODERN_API = "langchain_core.vectorstores.InMemoryVectorStore (a RAG step) + trim_messages"
SUMMARY = Text(
    "The classic memory stores every exchange as a document and sends only the k most similar ones: the "
    "conversation itself is never sent, so 'what did I just say?' fails. The modern pattern keeps the recent "
    "messages as messages and adds retrieval as a separate, labelled step with a score threshold; turns are "
    "archived for search only once they leave the recent window.",
    "经典向量记忆把每轮对话存成文档，只发送最相似的 k 条：对话本身从不发送，所以「我刚才说了什么？」"
    "会答不上。"
    "现代写法把最近的消息作为消息保留，再把检索作为单独、带标签、有分数阈值的步骤加入；"
    "只有离开最近窗口的轮次才归档以供检索。",
)
meant_to_match = False
K = 1
TOP_K = 2
MIN_SCORE = 0.2
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
    """Recent messages as messages; older turns found by a thresholded search, sent as labelled context."""
    from langchain_core.messages import trim_messages
    from langchain_core.vectorstores import InMemoryVectorStore

    from memory_demos.providers.embeddings import default_embeddings

    archive = InMemoryVectorStore(default_embeddings())
    history: list[BaseMessage] = []
    exchanges = []
    for user_text in inputs:
        recent = trim_messages(
            history, max_tokens=2 * K, token_counter=len, strategy="last", start_on="human"
        )
        hits = archive.similarity_search_with_score(user_text, k=TOP_K)  # the retrieval step
        found = [doc.page_content for doc, score in hits if score >= MIN_SCORE]
        context = (
            "\n\nPossibly relevant earlier lines (found by similarity):\n" + "\n".join(found) if found else ""
        )
        reply = model.invoke([SystemMessage(SYSTEM_PROMPT + context), *recent, HumanMessage(user_text)])
        history += [HumanMessage(user_text), reply]
        if len(history) > 2 * K:  # the oldest turn in the window just left it: archive it for search
            leaving = history[-2 * K - 2 : -2 * K]
            archive.add_texts([f"Human: {leaving[0].text}\nAI: {leaving[1].text}"])
        exchanges.append(Exchange(user_text, reply.text))
    return exchanges
