"""Replies to memory prompts: summaries, entity extraction and entity summaries, fact extraction."""

from __future__ import annotations

import re
from collections.abc import Sequence

from langchain_core.messages import BaseMessage

from memory_demos.prompt_markers import (
    ENTITY_EXTRACTION_MARKER,
    ENTITY_SUMMARY_MARKER,
    FACT_EXTRACTION_MARKER,
    MIDDLEWARE_SUMMARY_MARKER,
    SUMMARY_MARKER,
)
from memory_demos.providers.offline_model.answers import fact_clause, topic_of
from memory_demos.providers.offline_model.facts import (
    Fact,
    _extract,
    extract_facts,
    merge_facts,
)
from memory_demos.providers.offline_model.lexicon import (
    _ENTITY_EDGE_WORDS,
    DRIFT_DETAILS,
    LIST_KEYS,
    MAX_ENTITY_SENTENCES,
    MAX_SUMMARY_FACTS,
    MAX_SUMMARY_TOPICS,
    MAX_TOPIC_CHARS,
)
from memory_demos.providers.offline_model.questions import detect_recall_question
from memory_demos.providers.offline_model.text import (
    _after_last,
    _capitalize,
    _clauses,
    _content_text,
    _join_en,
    _normalize_quotes,
    _section,
    _segments,
    _xml_messages_to_lines,
    is_chinese,
)

# --------------------------------------------------------------------------------------------
# LangChain's own memory prompts


def render_summary(
    facts: dict[str, tuple[str, ...]],
    extra_sentences: Sequence[str],
    topics: Sequence[str],
) -> str:
    """A bounded third-person summary: the newest fact sentences, invented details, a topic tail."""
    items = list(facts.items())[-MAX_SUMMARY_FACTS:]
    sentences = [_capitalize(fact_clause(key, values, "the human")) + "." for key, values in items]
    sentences += [s for s in extra_sentences if s not in sentences]
    if topics:
        sentences.append(f"They also talked about {_join_en(list(topics))}.")
    return " ".join(sentences)


def _summary_topics(previous: str, new_lines: str) -> list[str]:
    tail = re.search(r"They also talked about (?P<t>.+?)\.\s*$", previous)
    topics = [t.strip() for t in re.split(r",\s*|\s+and\s+", tail.group("t"))] if tail else []
    for segment in _segments(new_lines, "human"):
        if segment.role != "human" or not segment.text.strip():
            continue
        text = segment.text.strip()
        if text.startswith("Here is a summary") or extract_facts(text) or detect_recall_question(text):
            continue
        topic = topic_of(text)
        if topic and not re.match(r"^(?:hi|hello|hey)$", topic, re.IGNORECASE):
            topics.append(topic[:MAX_TOPIC_CHARS])
    topics = [t for t in topics if t]
    topics = list(dict.fromkeys(reversed(topics)))[:MAX_SUMMARY_TOPICS]
    return [t.replace(" and ", " & ") for t in reversed(topics)]


def progressive_summary(summary: str, new_lines: str, *, drift: bool = False) -> str:
    """Answer SUMMARY_PROMPT: the existing summary's facts merged with the new lines' (newest wins)."""
    facts = merge_facts(extract_facts(f"{summary}\n{new_lines}", role="narrative"))
    drifted = [sentence for sentence, _ in DRIFT_DETAILS if sentence in summary]
    if drift:
        for sentence, key in DRIFT_DETAILS:
            if sentence not in summary and (key is None or key not in facts):
                drifted.append(sentence)
                break
    # Fact-shaped invented details are facts now; render them once, as facts.
    extra = [s for s, key in DRIFT_DETAILS if s in drifted and (key is None or key not in facts)]
    return render_summary(facts, extra, _summary_topics(summary, new_lines))


def _summary_prompt_reply(prompt: str, *, drift: bool) -> str:
    body = _after_last(_after_last(prompt, SUMMARY_MARKER), "END OF EXAMPLE")
    summary = _section(body, "Current summary:", "New lines of conversation:")
    start = body.find("New lines of conversation:")
    end = body.rfind("New summary:")
    new_lines = body[start + len("New lines of conversation:") : end if end > start else len(body)].strip()
    return progressive_summary(summary, new_lines, drift=drift)


def extract_entities(last_line: str, history: str = "") -> list[str]:
    """Proper names in ``last_line``: capitalised words not opening a sentence, plus stated names/places."""
    facts = extract_facts(last_line)
    known = {
        v for f in extract_facts(history) + facts if f.key in {"name", "city", "hometown"} for v in [f.value]
    }
    entities: list[str] = []
    for sentence in re.split(r"(?<=[.!?])\s+|\n+", _normalize_quotes(last_line)):
        tokens = list(re.finditer(r"[^\W\d_][\w'-]*", sentence))
        group: list[str] = []
        group_at_start = False
        previous_end = -1
        for index, token in enumerate(tokens):
            word = re.sub(r"'s$", "", token.group())
            gap = sentence[previous_end : token.start()] if previous_end >= 0 else ""
            capital = word[:1].isupper() and word not in _ENTITY_EDGE_WORDS and not is_chinese(word[:1])
            if capital and group and gap.strip() == "":
                group.append(word)
            else:
                _flush_entity(group, group_at_start, known, entities)
                group = [word] if capital else []
                group_at_start = index == 0
            previous_end = token.end()
        _flush_entity(group, group_at_start, known, entities)
    for fact in facts:
        if fact.key in {"name", "city", "hometown"} and fact.value not in entities:
            entities.append(fact.value)
    return list(dict.fromkeys(entities))


def _flush_entity(group: list[str], at_start: bool, known: set[str], entities: list[str]) -> None:
    if not group:
        return
    name = " ".join(group)
    if at_start and len(group) == 1 and name not in known:
        return
    entities.append(name)


def _entity_extraction_reply(prompt: str, *, chatty: bool) -> str:
    body = _after_last(prompt, ENTITY_EXTRACTION_MARKER)
    marker = "Last line of conversation (for extraction):"
    if marker not in body:
        marker = "Last line:"
    last_line = _section(body, marker, None)
    output_at = last_line.rfind("Output:")
    if output_at >= 0:
        last_line = last_line[:output_at]
    last_line = re.sub(r"^\s*(?:Human|Person\s*#?\d*)\s*:\s*", "", last_line.strip())
    history = _section(body, "Conversation history (for reference only):", marker)
    entities = extract_entities(last_line, history)
    if chatty:
        if not entities:
            return "Sure, there are no entities in that line."
        return "Sure, the entities are: " + ", ".join(entities)
    return ", ".join(entities) if entities else "NONE"


def summarize_entity(entity: str, existing: str, last_line: str) -> str:
    """Answer ENTITY_SUMMARIZATION_PROMPT: the existing summary plus what the last line says about it."""
    existing = existing.strip()
    last_facts = merge_facts(extract_facts(last_line))
    is_user = last_facts.get("name", ("",))[0] == entity or f"{entity} is the human's name" in existing
    sentences = [s.strip() for s in re.split(r"(?<=[.!?。])\s+", existing) if s.strip()]
    if is_user:
        old = merge_facts(extract_facts(existing, role="narrative"))
        merged = merge_facts(
            Fact(key, value, "")
            for source in (old, last_facts)
            for key, values in source.items()
            for value in values
        )
        fact_sentences = [
            _capitalize(fact_clause(key, values, entity)) + "." for key, values in merged.items()
        ]
        keep = [s for s in sentences if not _extract(s, "narrative", [entity]) and s not in fact_sentences]
        new = fact_sentences + keep
    else:
        new = list(sentences)
        about = [
            (k, v) for k, values in last_facts.items() for v in values if entity.casefold() in v.casefold()
        ]
        for key, value in about:
            sentence = _capitalize(fact_clause(key, [value], "the human")) + "."
            for index, old_sentence in enumerate(new):
                old_facts = extract_facts(old_sentence, role="narrative")
                if old_facts and old_facts[0].key == key and key not in LIST_KEYS:
                    new[index] = sentence
                    break
            else:
                if sentence not in new:
                    new.append(sentence)
        if not about and entity in last_line:
            clause = next((c for c, _ in _clauses(last_line) if entity in c), "").strip().rstrip(".!?")
            sentence = f"The human mentioned {entity}: “{clause[:80]}”."
            if clause and not sentences:
                new.append(sentence)
    return " ".join(new[-MAX_ENTITY_SENTENCES:])


def _entity_summary_reply(prompt: str) -> str:
    body = _after_last(prompt, ENTITY_SUMMARY_MARKER)
    entity = _section(body, "Entity to summarize:", "\n\nExisting summary of")
    existing = _section(body, f"Existing summary of {entity}:", "\n\nLast line of conversation:")
    last_line = _section(body, "Last line of conversation:", None)
    updated_at = last_line.rfind("Updated summary:")
    if updated_at >= 0:
        last_line = last_line[:updated_at]
    last_line = re.sub(r"^\s*Human\s*:\s*", "", last_line.strip())
    return summarize_entity(entity.strip(), existing, last_line)


def _middleware_summary_reply(prompt: str) -> str:
    body = _after_last(prompt, MIDDLEWARE_SUMMARY_MARKER)
    messages = _section(body, "Messages to summarize:", None)
    closing = messages.rfind("</messages>")
    if closing >= 0:
        messages = messages[:closing]
    transcript = _xml_messages_to_lines(messages) if "<message type=" in messages else messages
    facts = merge_facts(extract_facts(transcript, role="narrative"))
    summary = render_summary(facts, (), _summary_topics("", transcript)) or "None"
    return (
        f"## SESSION INTENT\nChat with the assistant.\n\n## SUMMARY\n{summary}\n\n"
        "## ARTIFACTS\nNone\n\n## NEXT STEPS\nNone"
    )


def _fact_extraction_reply(prompt: str, messages: Sequence[BaseMessage]) -> str:
    body = _after_last(prompt, FACT_EXTRACTION_MARKER)
    message = _section(body, "Message:", None)
    if not message:
        humans = [m for m in messages if m.type == "human"]
        message = _content_text(humans[-1]) if humans else ""
    facts = merge_facts(extract_facts(message))
    if not facts:
        return "NONE"
    return "\n".join(f"{key}: {', '.join(values)}" for key, values in facts.items())
