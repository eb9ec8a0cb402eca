"""Step 7: ConversationEntityMemory → notes per person in a LangGraph store namespace of the user."""

from __future__ import annotations

from memory_demos.migration.program import Program

STEP_ID = "entity"
TITLE_KEY = "migration.entity.title"
CLASSIC_API = "langchain_classic.memory.ConversationEntityMemory + InMemoryEntityStore"
MODERN_API = (
    "langchain.agents.create_agent + dynamic_prompt + after_agent + langgraph.store.memory.InMemoryStore"
)
SUMMARY_KEY = "migration.entity.summary"
meant_to_match = False
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

# The two programs the page shows and runs (programs/*.py): complete, importing no Memory Lab code.
classic_version = Program("entity_classic.py")
modern_version = Program("entity_modern.py")
