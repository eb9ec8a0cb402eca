"""Step 1: ConversationBufferMemory → ``create_agent`` + a checkpointer, a ``thread_id`` per conversation."""

from __future__ import annotations

from memory_demos.migration.program import Program

STEP_ID = "buffer"
TITLE_KEY = "migration.buffer.title"
CLASSIC_API = "langchain_classic.memory.ConversationBufferMemory"
MODERN_API = "langchain.agents.create_agent + langgraph.checkpoint.memory.InMemorySaver (thread_id)"
SUMMARY_KEY = "migration.buffer.summary"
meant_to_match = True
DEFAULT_INPUTS: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "My order number is A-1234.",
    "Can you recommend a book about gardening?",
    "What's my name?",
)
# The same script in Chinese, offered in a Chinese session: the prompts part on the same turns.
DEFAULT_INPUTS_ZH: tuple[str, ...] = (
    "你好，我叫玛拉，住在里斯本。",
    "我的订单号是 A-1234。",
    "能推荐一本关于园艺的书吗？",
    "我叫什么名字？",
)
PITFALL_KEYS: tuple[str, ...] = (
    "migration.buffer.pitfall.1",
    "migration.buffer.pitfall.2",
    "migration.buffer.pitfall.3",
    "migration.buffer.pitfall.4",
)

# The two programs the page shows and runs (programs/*.py): complete, importing no Memory Lab code.
classic_version = Program("buffer_classic.py")
modern_version = Program("buffer_modern.py")
