"""Step 6: ConversationEntityMemory → a long-term store holding facts of an explicit schema."""

from __future__ import annotations

import re
from collections.abc import Iterable

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
from pydantic import BaseModel, Field

from memory_demos.migration import SYSTEM_PROMPT, Exchange, Text
from memory_demos.prompts import FACT_EXTRACTION_PROMPT
from memory_demos.tracing import EXTRACT_ENTITIES, SUMMARIZE_ENTITY, purpose_tag, with_purpose

STEP_ID = "entity"
TITLE = Text("Entity memory → a long-term store with a schema", "实体记忆 → 带模式的长期存储")
CLASSIC_API = "langchain_classic.memory.ConversationEntityMemory + InMemoryEntityStore"
MODERN_API = "langgraph.store.memory.InMemoryStore + an explicit fact schema (pydantic)"
SUMMARY = Text(
    "The entity memory asks the model every turn which names appear, then asks again once per name to "
    "rewrite a free-text note. The modern pattern decides up front which facts are worth keeping (a "
    "schema), extracts only those, and keeps them in a store namespaced by user, so they outlive the "
    "conversation. Recent messages travel separately.",
    "实体记忆每轮先问模型出现了哪些名字，再为每个名字各调用一次模型改写一段自由文本笔记。"
    "现代写法预先决定哪些事实"
    "值得保存（模式），只抽取这些，并按用户分命名空间存进 store，使其比单次对话活得更久。"
    "最近的消息单独传递。",
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
        "profile to another.",
        "长期存储要按已认证的用户 id 划分命名空间：共用命名空间会把一个用户的资料展示给另一个用户。",
    ),
)


class UserProfile(BaseModel):
    """The facts this assistant is allowed to remember about a user; anything else is ignored."""

    name: str | None = Field(None, max_length=80)
    city: str | None = Field(None, max_length=80)
    order_number: str | None = Field(None, max_length=40)
    dog_name: str | None = Field(None, max_length=80)
    favourite_food: str | None = Field(None, max_length=80)
    job: str | None = Field(None, max_length=80)


def parse_profile(extracted: str) -> UserProfile:
    """Keep only ``key: value`` lines whose key is a field of ``UserProfile``; validate the values."""
    found = {}
    for line in extracted.splitlines():
        match = re.match(r"^\s*-?\s*([a-z_]+)\s*:\s*(.+?)\s*$", line)
        if match and match.group(1) in UserProfile.model_fields:
            found[match.group(1)] = match.group(2)
    return UserProfile.model_validate(found)


EXTRAS = (UserProfile, parse_profile)


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
    """Profile facts of a fixed schema in a long-term store; recent messages sent apart from them."""
    from langchain_core.messages import trim_messages
    from langgraph.store.memory import InMemoryStore

    store = InMemoryStore()
    namespace = ("users", "user-42", "profile")  # an authenticated user id in a real app
    extractor = model.with_config(tags=[purpose_tag("extract facts")])
    history: list[BaseMessage] = []
    exchanges = []
    for user_text in inputs:
        extracted = extractor.invoke(FACT_EXTRACTION_PROMPT.format(message=user_text)).text
        for key, value in parse_profile(extracted).model_dump(exclude_none=True).items():
            store.put(namespace, key, {"value": value})
        facts = "\n".join(f"- {item.key}: {item.value['value']}" for item in store.search(namespace))
        system = SYSTEM_PROMPT + (f"\n\nKnown facts about the user:\n{facts}" if facts else "")
        recent = trim_messages(
            history, max_tokens=2 * K, token_counter=len, strategy="last", start_on="human"
        )
        reply = model.invoke([SystemMessage(system), *recent, HumanMessage(user_text)])
        history += [HumanMessage(user_text), reply]
        exchanges.append(Exchange(user_text, reply.text))
    return exchanges
