"""Step 2, the book's intermediate step: Buffer → RunnableWithMessageHistory (now deprecated)."""

from __future__ import annotations

from memory_demos.migration import buffer as buffer_step
from memory_demos.migration.program import Program

STEP_ID = "history"
TITLE_KEY = "migration.history.title"
CLASSIC_API = "langchain_classic.memory.ConversationBufferMemory"
MODERN_API = "langchain_core.runnables.history.RunnableWithMessageHistory + InMemoryChatMessageHistory"
SUMMARY_KEY = "migration.history.summary"
meant_to_match = True
DEFAULT_INPUTS = buffer_step.DEFAULT_INPUTS
DEFAULT_INPUTS_ZH = buffer_step.DEFAULT_INPUTS_ZH
PITFALL_KEYS: tuple[str, ...] = (
    "migration.history.pitfall.1",
    "migration.history.pitfall.2",
    "migration.history.pitfall.3",
    "migration.history.pitfall.4",
)

# The two programs the page shows and runs (programs/*.py): complete, importing no Memory Lab code.
# The classic side is step 1's program, unchanged.
classic_version = Program("buffer_classic.py")
modern_version = Program("history_modern.py")
