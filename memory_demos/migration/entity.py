"""Step 7: ConversationEntityMemory → notes per person in a LangGraph store namespace of the user."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, get_buffer_string
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

from memory_demos.migration import SYSTEM_PROMPT, Exchange
from memory_demos.tracing import EXTRACT_ENTITIES, SUMMARIZE_ENTITY, with_purpose

STEP_ID = "entity"
TITLE_KEY = "migration.entity.title"
CLASSIC_API = "langchain_classic.memory.ConversationEntityMemory + InMemoryEntityStore"
MODERN_API = (
    "langchain.agents.create_agent + dynamic_prompt + after_agent + langgraph.store.memory.InMemoryStore"
)
SUMMARY_KEY = "migration.entity.summary"
meant_to_match = False
K = 2
DEFAULT_INPUTS: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "My dog is called Bruno.",
    "My order number is A-1234.",
    "Can you recommend a book about gardening?",
    "What's my dog's name?",
)
# The same script in Chinese, offered in a Chinese session: the prompts part on the same turns.
DEFAULT_INPUTS_ZH: tuple[str, ...] = (
    "你好，我叫玛拉，住在里斯本。",
    "我的狗叫布鲁诺。",
    "我的订单号是 A-1234。",
    "能推荐一本关于园艺的书吗？",
    "我的狗叫什么名字？",
)
PITFALL_KEYS: tuple[str, ...] = (
    "migration.entity.pitfall.1",
    "migration.entity.pitfall.2",
    "migration.entity.pitfall.3",
    "migration.entity.pitfall.4",
    "migration.entity.pitfall.5",
)


def classic_version(model: BaseChatModel, inputs: Iterable[str]) -> list[Exchange]:
    """ConversationEntityMemory: extract names on load, rewrite one note per name on save."""
    from langchain_classic.memory import ConversationEntityMemory

    # One llm for two jobs: give it the model of each step so every call is labelled by its caller.
    extractor, note_writer = with_purpose(model, EXTRACT_ENTITIES), with_purpose(model, SUMMARIZE_ENTITY)
    memory = ConversationEntityMemory(llm=extractor, k=K, return_messages=True)
    prompt = ChatPromptTemplate.from_messages(
        [
            ("system", SYSTEM_PROMPT + "\n\nNotes on the entities just mentioned:\n{notes}"),
            MessagesPlaceholder("history"),
            ("human", "{input}"),
        ]
    )
    chain = prompt | model
    exchanges = []
    for user_text in inputs:
        memory.llm = extractor
        variables = memory.load_memory_variables({"input": user_text})  # model call: which names?
        notes = "\n".join(f"{name}: {note}" for name, note in variables["entities"].items() if note)
        reply = chain.invoke({"notes": notes, "history": variables["history"], "input": user_text})
        memory.llm = note_writer
        memory.save_context({"input": user_text}, {"output": reply.text})  # one model call per name
        exchanges.append(Exchange(user_text, reply.text))
    return exchanges


def modern_version(model: BaseChatModel, inputs: Iterable[str]) -> list[Exchange]:
    """Notes per person in the user's store namespace: read before each call, written after the answer."""
    from langchain.agents import create_agent
    from langchain.agents.middleware import after_agent, dynamic_prompt
    from langchain_classic.memory.prompt import ENTITY_EXTRACTION_PROMPT, ENTITY_SUMMARIZATION_PROMPT
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.store.memory import InMemoryStore

    namespace = ("users", "user-42", "people")  # an authenticated user id in a real app
    extractor, note_writer = with_purpose(model, EXTRACT_ENTITIES), with_purpose(model, SUMMARIZE_ENTITY)

    @dynamic_prompt
    def with_people_notes(request: Any) -> str:  # read before the model is called
        notes = "\n".join(
            f"{item.key}: {item.value['note']}" for item in request.runtime.store.search(namespace)
        )
        return SYSTEM_PROMPT + (f"\n\nEntity notes kept in the store:\n{notes}" if notes else "")

    @after_agent
    def write_people_notes(state: Any, runtime: Any) -> None:  # written after the model answered
        *earlier, question, answer = state["messages"]
        history = get_buffer_string(earlier[-2 * K :])
        found = extractor.invoke(ENTITY_EXTRACTION_PROMPT.format(history=history, input=question.text)).text
        names = [] if found.strip() == "NONE" else [name.strip() for name in found.split(",") if name.strip()]
        recent = get_buffer_string([*earlier[-2 * K :], question, answer])
        for name in names:
            old = runtime.store.get(namespace, name)
            note = note_writer.invoke(
                ENTITY_SUMMARIZATION_PROMPT.format(
                    summary=old.value["note"] if old else "", entity=name, history=recent, input=question.text
                )
            ).text
            runtime.store.put(namespace, name, {"note": note.strip()})

    agent = create_agent(
        model=model,
        tools=[],
        middleware=[with_people_notes, write_people_notes],
        checkpointer=InMemorySaver(),
        store=InMemoryStore(),
    )
    config = {"configurable": {"thread_id": secrets.token_urlsafe(16)}}
    exchanges = []
    for user_text in inputs:
        state = agent.invoke({"messages": [HumanMessage(user_text)]}, config)
        exchanges.append(Exchange(user_text, state["messages"][-1].text))
    return exchanges
