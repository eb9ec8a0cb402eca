"""Step 7: ConversationEntityMemory → notes per person in a LangGraph store namespace of the user."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, get_buffer_string
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

from memory_demos.migration import SYSTEM_PROMPT, Exchange, Text
from memory_demos.tracing import EXTRACT_ENTITIES, SUMMARIZE_ENTITY, with_purpose

STEP_ID = "entity"
TITLE = Text("Entity memory → notes per person in a LangGraph store", "实体记忆 → LangGraph 存储中的人物笔记")
CLASSIC_API = "langchain_classic.memory.ConversationEntityMemory + InMemoryEntityStore"
MODERN_API = (
    "langchain.agents.create_agent + dynamic_prompt + after_agent + langgraph.store.memory.InMemoryStore"
)
SUMMARY = Text(
    "The entity memory asks the model every turn which names appear, then asks again once per name to "
    "rewrite a free-text note, and keeps the notes in an object of this conversation. In LangChain 1.x "
    "the notes live in a LangGraph store under a namespace of the user, so they outlive the conversation: "
    "a dynamic_prompt middleware reads them into the system message before the model is called, and an "
    "after_agent middleware writes them once the model has answered (with LangChain's own entity "
    "prompts). The classic memory sends only the notes of names in the new message and the last K "
    "exchanges; this agent sends every note and its whole thread, so the prompts differ.",
    "实体记忆每轮先问模型出现了哪些名字，再为每个名字各调用一次模型改写一段自由文本笔记，笔记保存在这次对话的"
    "对象里。在 LangChain 1.x 中，笔记放在 LangGraph 存储里用户的命名空间下，比对话活得更久："
    "dynamic_prompt 中间件在调用模型前把笔记读进系统消息，after_agent 中间件在模型回答后写入笔记"
    "（用 LangChain 自己的实体提示词）。经典记忆只发送新消息里出现的名字的笔记和最近 K 轮；"
    "这个智能体发送全部笔记和整段线程，所以两边的提示词不同。",
)
meant_to_match = False
K = 2
DEFAULT_INPUTS: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "My dog is called Bruno.",
    "My order number is A-1234.",
    "Can you recommend a book about gardening?",
    "What's my dog's name?",
)
PITFALLS: tuple[Text, ...] = (
    Text(
        "Entity extraction trusts the model's free text: a chatty reply ('Sure, the entities are: ...') "
        "creates junk entities such as 'Sure', each costing a summary call (see the failure lab).",
        "实体抽取信任模型的自由文本：一句啰嗦的回答（「Sure, the entities are: ...」）会产生「Sure」"
        "之类的垃圾实体，"
        "每个都要多花一次摘要调用（见失败实验室）。",
    ),
    Text(
        "Every named entity costs one more model call per turn, so the cost grows with how many names the "
        "user mentions, not with what is worth remembering.",
        "每个被提到的实体每轮都要多一次模型调用，成本随用户提到的名字数量增长，而不是随值得记住的内容增长。",
    ),
    Text(
        "SQLiteEntityStore needs a session_id that is a Python identifier and binds its connection to the "
        "creating thread: Streamlit reruns on another thread raise ProgrammingError.",
        "SQLiteEntityStore 要求 session_id 是合法的 Python 标识符，且连接绑定在创建它的线程上：Streamlit "
        "在其他线程重跑时会抛出 ProgrammingError。",
    ),
    Text(
        "Namespace the long-term store by an authenticated user id: a shared namespace shows one user's "
        "notes to another.",
        "长期存储要按已认证的用户 id 划分命名空间：共用命名空间会把一个用户的笔记展示给另一个用户。",
    ),
    Text(
        "Notes written by a model can be wrong or hold what should not be kept; when the facts have a known "
        "shape, extract into a schema (see the long_term strategy) instead of free text.",
        "模型写的笔记可能出错，也可能记下不该保存的内容；事实有固定形状时，"
        "请按模式抽取（见 long_term 策略），而不是自由文本。",
    ),
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
