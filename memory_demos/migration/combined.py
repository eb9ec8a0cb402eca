"""Step 9: CombinedMemory → several middlewares on one ``create_agent``."""

from __future__ import annotations

from memory_demos.migration.program import Program

STEP_ID = "combined"
TITLE_KEY = "migration.combined.title"
CLASSIC_API = "langchain_classic.memory.CombinedMemory (window + summary)"
MODERN_API = "langchain.agents.create_agent + SummarizationMiddleware + ContextEditingMiddleware"
SUMMARY_KEY = "migration.combined.summary"
meant_to_match = False
DEFAULT_INPUTS: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "What's the weather in Lisbon?",
    "My order number is A-1234.",
    "What's the weather in Porto?",
    "What's my name?",
)
# The same script in Chinese, offered in a Chinese session: the prompts part on the same turns.
DEFAULT_INPUTS_ZH: tuple[str, ...] = (
    "你好，我叫玛拉，住在里斯本。",
    "里斯本天气怎么样？",
    "我的订单号是 A-1234。",
    "波尔图天气怎么样？",
    "我叫什么名字？",
)
PITFALL_KEYS: tuple[str, ...] = (
    "migration.combined.pitfall.1",
    "migration.combined.pitfall.2",
    "migration.combined.pitfall.3",
    "migration.combined.pitfall.4",
)

# The two programs the page shows and runs (programs/*.py): complete, importing no Memory Lab code.
classic_version = Program("combined_classic.py")
modern_version = Program("combined_modern.py")
