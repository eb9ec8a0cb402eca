"""Step 8: VectorStoreRetrieverMemory → a LangGraph store with a vector index, searched with ``query=``."""

from __future__ import annotations

from memory_demos.migration.program import Program

STEP_ID = "vector"
TITLE_KEY = "migration.vector.title"
CLASSIC_API = "langchain_classic.memory.VectorStoreRetrieverMemory"
MODERN_API = (
    "langgraph.store.memory.InMemoryStore(index={'embed': MiniLM, 'dims': 384}) + store.search(query=)"
)
SUMMARY_KEY = "migration.vector.summary"
meant_to_match = True
# No Chinese script: the shipped MiniLM embeds English only, so Chinese questions would not find the
# order number and the step would teach a different lesson. A Chinese session gets these English ones.
DEFAULT_INPUTS: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "My order number is A-1234.",
    "Can you recommend a book about gardening?",
    "What makes a good cup of tea?",
    "What's my order number?",
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
