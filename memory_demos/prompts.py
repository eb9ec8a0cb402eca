"""Prompts Memory Lab itself writes (LangChain's own prompts are imported where they are used)."""

from memory_demos.prompt_markers import FACT_EXTRACTION_MARKER as FACT_EXTRACTION_MARKER

FACT_EXTRACTION_PROMPT = """Extract the stable facts the user states about themselves in the message below.
Write one fact per line as `key: value`, with a short snake_case key (name, city, favourite_food,
order_number, dog_name, ...). A changed fact replaces the old one. If the message states no fact, write NONE.

Message:
{message}"""


LONG_TERM_FACTS_HEADER = "Known facts about the user (from the long-term store):"
SUMMARY_HEADER = "Summary of the earlier conversation:"
LANGMEM_MEMORIES_HEADER = "Memories about the user (formed in the background by LangMem's memory manager):"
RETRIEVED_HEADER = "Possibly relevant earlier lines (retrieved by similarity):"

# Self-edited memory blocks (the memory_blocks strategy): the section the middleware adds to the system
# message, and what the editing tools answer. ``MEMORY_BLOCK_HEADER`` lines are what the offline model
# reads a block by (``providers/offline_model/tools.py``).
MEMORY_BLOCKS_HEADER = (
    "Memory blocks (your own memory, always in this message; edit them with memory_append and "
    "memory_replace, each within its character limit)"
)
MEMORY_BLOCK_HEADER = "{label} ({used}/{limit} characters):"
MEMORY_BLOCK_EMPTY = "(empty)"
MEMORY_EDIT_DONE = "Saved. The {label} block now holds {used} of {limit} characters."
MEMORY_EDIT_FULL = (
    "Edit refused: the {label} block has no room for this ({used} of {limit} characters used; with this "
    "edit it would hold {needed}). Nothing was saved. Shorten or replace a line with memory_replace first."
)
MEMORY_EDIT_NOT_FOUND = "Edit refused: old_content does not appear in the {label} block. Nothing was changed."
MEMORY_EDIT_UNKNOWN_BLOCK = "Edit refused: there is no block named {label!r}. Nothing was saved."
