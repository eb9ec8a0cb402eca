"""Step 8: VectorStoreRetrieverMemory → a LangGraph store with a vector index, searched with ``query=``."""

from __future__ import annotations

from memory_demos.migration.program import Program

STEP_ID = "vector"
TITLE_KEY = "migration.vector.title"
CLASSIC_API = "langchain_classic.memory.VectorStoreRetrieverMemory"
MODERN_API = (
    "langgraph.store.memory.InMemoryStore(index={'embed': multilingual-e5-small, 'dims': 384}) "
    "+ store.search(query=)"
)
SUMMARY_KEY = "migration.vector.summary"
meant_to_match = True
DEFAULT_INPUTS: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "My order number is A-1234.",
    "Can you recommend a book about gardening?",
    "What makes a good cup of tea?",
    "What's my order number?",
)
# The same script in Chinese. The guide hands both programs multilingual-e5-small (``migration._play``),
# which reads either language and a mix of both (the messages are the learner's to edit); MiniLM would
# read Chinese as [UNK].
DEFAULT_INPUTS_ZH: tuple[str, ...] = (
    "你好，我叫玛拉，住在里斯本。",
    "我的订单号是 A-1234。",
    "能推荐一本关于园艺的书吗？",
    "怎样泡一杯好茶？",
    "我的订单号是多少？",
)
PITFALL_KEYS: tuple[str, ...] = (
    "migration.vector.pitfall.1",
    "migration.vector.pitfall.2",
    "migration.vector.pitfall.3",
    "migration.vector.pitfall.4",
)

# The two programs the page shows and runs (programs/*.py): complete, importing no Memory Lab code.
classic_version = Program("vector_classic.py")
modern_version = Program("vector_modern.py")
