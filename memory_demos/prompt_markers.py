"""Markers that identify LangChain's own memory prompts, and the names of what a model call is for.

A ground-floor module: it imports nothing from Memory Lab, so the offline teaching model and the
tracing callback can both use it without importing each other. The markers tell the offline model
which of LangChain's prompts it is answering; a call's purpose comes from its tags only.
"""

from __future__ import annotations

PURPOSE_TAG_PREFIX = "purpose:"
REPLY = "reply"
SUMMARIZE = "summarize"
EXTRACT_ENTITIES = "extract entities"
SUMMARIZE_ENTITY = "summarize entity"
EXTRACT_FACTS = "extract facts"
MANAGE_MEMORIES = "manage memories"  # LangMem's memory store manager (background_memory)

# Opening words of LangChain's prompts (langchain_classic.memory.prompt and SummarizationMiddleware).
SUMMARY_MARKER = "Progressively summarize the lines of conversation provided"
ENTITY_EXTRACTION_MARKER = "Extract all of the proper nouns from the last line of conversation"
ENTITY_SUMMARY_MARKER = "Update the summary of the provided entity"
MIDDLEWARE_SUMMARY_MARKER = "Context Extraction Assistant"
# Memory Lab's own fact-extraction prompt (memory_demos.prompts.FACT_EXTRACTION_PROMPT).
FACT_EXTRACTION_MARKER = "Extract the stable facts the user states about themselves"


def purpose_tag(purpose: str) -> str:
    """The tag that marks a model (or a call) with the purpose the capture reports."""
    return f"{PURPOSE_TAG_PREFIX}{purpose}"


def purpose_from_tags(tags: list[str] | None) -> str:
    """The purpose a call was made for, from its run tags; untagged calls are replies.

    The model's own tags come after inherited ones, so the last purpose tag is the caller's.
    """
    purposes = [tag[len(PURPOSE_TAG_PREFIX) :] for tag in tags or [] if tag.startswith(PURPOSE_TAG_PREFIX)]
    return purposes[-1] if purposes else REPLY
