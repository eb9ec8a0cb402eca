"""Prompts Memory Lab itself writes (LangChain's own prompts are imported where they are used)."""

from memory_demos.prompt_markers import FACT_EXTRACTION_MARKER as FACT_EXTRACTION_MARKER

FACT_EXTRACTION_PROMPT = """Extract the stable facts the user states about themselves in the message below.
Write one fact per line as `key: value`, with a short snake_case key (name, city, favourite_food,
order_number, dog_name, ...). A changed fact replaces the old one. If the message states no fact, write NONE.

Message:
{message}"""


LONG_TERM_FACTS_HEADER = "Known facts about the user (from the long-term store):"
SUMMARY_HEADER = "Summary of the earlier conversation:"
RETRIEVED_HEADER = "Possibly relevant earlier lines (retrieved by similarity):"
