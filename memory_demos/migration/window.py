"""Step 3: ConversationBufferWindowMemory → ``create_agent`` + ``@before_model`` keeping k exchanges."""

from __future__ import annotations

from memory_demos.migration.program import Program

STEP_ID = "window"
TITLE_KEY = "migration.window.title"
CLASSIC_API = "langchain_classic.memory.ConversationBufferWindowMemory"
MODERN_API = "langchain.agents.create_agent + langchain.agents.middleware.before_model (RemoveMessage)"
SUMMARY_KEY = "migration.window.summary"
meant_to_match = True
DEFAULT_INPUTS: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "My order number is A-1234.",
    "Can you recommend a book about gardening?",
    "What makes a good cup of tea?",
    "What's my name?",
)
# The same script in Chinese, offered in a Chinese session: the prompts part on the same turns.
DEFAULT_INPUTS_ZH: tuple[str, ...] = (
    "你好，我叫玛拉，住在里斯本。",
    "我的订单号是 A-1234。",
    "能推荐一本关于园艺的书吗？",
    "怎样才能泡好一杯茶？",
    "我叫什么名字？",
)
PITFALL_KEYS: tuple[str, ...] = (
    "migration.window.pitfall.1",
    "migration.window.pitfall.2",
    "migration.window.pitfall.3",
    "migration.window.pitfall.4",
)

# The two programs the page shows and runs (programs/*.py): complete, importing no Memory Lab code.
classic_version = Program("window_classic.py")
modern_version = Program("window_modern.py")
