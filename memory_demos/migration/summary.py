"""Step 5: ConversationSummaryMemory → ``create_agent`` + ``SummarizationMiddleware``, every turn."""

from __future__ import annotations

from memory_demos.migration.program import Program

STEP_ID = "summary"
TITLE_KEY = "migration.summary.title"
CLASSIC_API = "langchain_classic.memory.ConversationSummaryMemory"
MODERN_API = (
    "langchain.agents.create_agent + SummarizationMiddleware(trigger=('messages', 2), keep=('messages', 1))"
)
SUMMARY_KEY = "migration.summary.summary"
meant_to_match = False
DEFAULT_INPUTS: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "My order number is A-1234.",
    "Can you recommend a book about gardening?",
    "What's my order number?",
)
# The same script in Chinese, offered in a Chinese session: the prompts part on the same turns.
DEFAULT_INPUTS_ZH: tuple[str, ...] = (
    "你好，我叫玛拉，住在里斯本。",
    "我的订单号是 A-1234。",
    "能推荐一本关于园艺的书吗？",
    "我的订单号是多少？",
)
PITFALL_KEYS: tuple[str, ...] = (
    "migration.summary.pitfall.1",
    "migration.summary.pitfall.2",
    "migration.summary.pitfall.3",
    "migration.summary.pitfall.4",
)

# The two programs the page shows and runs (programs/*.py): complete, importing no Memory Lab code.
classic_version = Program("summary_classic.py")
modern_version = Program("summary_modern.py")
