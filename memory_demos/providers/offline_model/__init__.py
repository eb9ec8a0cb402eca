"""The offline teaching model: a deterministic, rule-based chat model that knows only its prompt.

It is not an LLM. It reads facts from the text it receives — who they are about, what changed and
in which order — and answers questions from them, so a fact a memory strategy dropped is visibly
forgotten. It also answers LangChain's own memory prompts (summary, entity extraction, entity
summary, the agent summarization middleware) and Memory Lab's fact-extraction prompt, and calls
bound tools. One concern per module:

- ``model``: the LangChain chat model class and its shared call counter;
- ``lexicon``: English and Chinese word lists and key tables;
- ``text``: language, keys, value cleaning, roles and clauses;
- ``sentences``: sentences and clauses, and the cheap tests that skip text stating no fact;
- ``people``: the patterns of relations, names and pronouns a clause is about;
- ``statements``: who says what about whom; ``changes``: negation and change words;
- ``rules``: the fact each clause states;
- ``facts``: facts read from text; ``knowledge``: what is true now, per person, conflicts kept;
- ``questions``: every question in a message; ``answers``: saying facts back, refusals;
- ``small_talk``: replies that state no fact;
- ``memory_prompts``: replies to summary, entity and fact-extraction prompts;
- ``tools``: tool calls and answers from tool results; ``reply``: the whole reply.
"""

from memory_demos.providers.offline_model.answers import (
    Reply,
    answer_recall,
    dont_know,
    fact_clause,
    fact_clause_zh,
)
from memory_demos.providers.offline_model.facts import Fact, extract_facts
from memory_demos.providers.offline_model.knowledge import (
    Knowledge,
    facts_in_messages,
    knowledge_of,
    merge_facts,
)
from memory_demos.providers.offline_model.lexicon import (
    DONT_KNOW_EN,
    DONT_KNOW_ZH,
    DRIFT_DETAILS,
    MAX_SUMMARY_FACTS,
)
from memory_demos.providers.offline_model.memo import forget_readings
from memory_demos.providers.offline_model.memory_prompts import (
    extract_entities,
    progressive_summary,
    summarize_entity,
)
from memory_demos.providers.offline_model.model import CallCounter, OfflineTeachingModel
from memory_demos.providers.offline_model.questions import Question, detect_recall_question, find_questions
from memory_demos.providers.offline_model.reply import compose_reply, latest_user_text
from memory_demos.providers.offline_model.small_talk import small_talk, topic_of
from memory_demos.providers.offline_model.statements import USER
from memory_demos.providers.offline_model.text import is_chinese, normalize_key

__all__ = [
    "DONT_KNOW_EN",
    "DONT_KNOW_ZH",
    "DRIFT_DETAILS",
    "MAX_SUMMARY_FACTS",
    "USER",
    "CallCounter",
    "Fact",
    "Knowledge",
    "OfflineTeachingModel",
    "Question",
    "Reply",
    "answer_recall",
    "compose_reply",
    "detect_recall_question",
    "dont_know",
    "extract_entities",
    "extract_facts",
    "fact_clause",
    "fact_clause_zh",
    "facts_in_messages",
    "find_questions",
    "forget_readings",
    "is_chinese",
    "knowledge_of",
    "latest_user_text",
    "merge_facts",
    "normalize_key",
    "progressive_summary",
    "small_talk",
    "summarize_entity",
    "topic_of",
]
