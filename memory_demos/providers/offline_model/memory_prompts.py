"""Replies to memory prompts: summaries, entity extraction and entity summaries, fact extraction."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory_demos.prompt_markers import (
    ENTITY_EXTRACTION_MARKER,
    ENTITY_SUMMARY_MARKER,
    MIDDLEWARE_SUMMARY_MARKER,
    SUMMARY_MARKER,
)
from memory_demos.providers.offline_model.answers import fact_clause
from memory_demos.providers.offline_model.fact_extraction import in_own_words
from memory_demos.providers.offline_model.facts import extract_facts
from memory_demos.providers.offline_model.knowledge import Knowledge
from memory_demos.providers.offline_model.lexicon import (
    ENTITY_EDGE_WORDS,
    LIST_KEYS,
    MAX_ENTITY_SENTENCES,
    MAX_SUMMARY_FACTS,
    MAX_SUMMARY_TOPICS,
    MAX_TOPIC_CHARS,
    RELATIONS_EN,
)
from memory_demos.providers.offline_model.questions import detect_recall_question
from memory_demos.providers.offline_model.reader import Reading
from memory_demos.providers.offline_model.sentences import split_sentences
from memory_demos.providers.offline_model.small_talk import summary_topic
from memory_demos.providers.offline_model.statements import USER
from memory_demos.providers.offline_model.summary_texts import (
    CHATTY_ENTITIES_ZH,
    CHATTY_NO_ENTITIES_ZH,
    drift_details,
    earlier_summary,
    entity_note_zh,
    fact_sentences_zh,
    previous_topics_zh,
    readable,
    said_zh,
    topics_sentence_zh,
    writes_chinese,
)
from memory_demos.providers.offline_model.text import (
    after_last,
    capitalized,
    is_chinese,
    join_en,
    mostly_chinese,
    normalize_quotes,
    role_segments,
    section_of,
    xml_messages_to_lines,
)
from memory_demos.providers.offline_model.words import casual

# --------------------------------------------------------------------------------------------
# LangChain's own memory prompts

MAX_SAID = 8  # the human's own words a summary keeps, newest last


def _summary_subject(subject: str) -> str:
    if subject == USER:
        return "the human"
    return f"the human's {subject[4:].replace('_', ' ')}" if subject.startswith("rel:") else subject


def _now(clause: str, subject: str) -> str:
    """Mark a changed fact as the newer one ("the human now lives in Porto"), so readers need no order."""
    if clause.startswith(f"{subject}'s ") or clause.startswith(f"{subject} is "):
        return clause.replace(" is ", " is now ", 1)
    return clause.replace(f"{subject} ", f"{subject} now ", 1)


def fact_sentences(knowledge: Knowledge, *, user_as: str = "the human") -> list[str]:
    """One third-person sentence per fact the knowledge holds, oldest update first; taken-back facts too."""
    sentences: list[str] = []
    for subject in knowledge.subjects():
        display = user_as if subject == USER else _summary_subject(subject)
        for key, belief in knowledge.beliefs[subject].items():
            if belief.values:
                clause = fact_clause(key, belief.values, display)
                if (belief.replaced or belief.former or belief.settled_by_change) and key not in LIST_KEYS:
                    clause = _now(clause, display)
                sentences.append(capitalized(clause) + ".")
            elif belief.former:
                sentences.append(capitalized(fact_clause(key, belief.former, display, former=True)) + ".")
    return sentences


_SAID = re.compile(r"The human said: “(?P<en>[^”]*)”|用户说：“(?P<zh>[^”]*)”")


def _said_as(text: str, *, chinese: bool) -> str:
    return said_zh(text) if chinese else f"The human said: “{text.rstrip('.。')}.”"


def said_sentences(previous: str, new_lines: str, *, chinese: bool | None = None) -> list[str]:
    """What the human said that no fact rule reads, kept in their words (corrections applied), newest last.

    ``chinese``: the summary's language (each clause's own when not given); a clause whose fact the
    clause before names the subject of (住在杭州 after 我叫林晓) is a fact, not kept as said.
    """
    kept = [
        _said_as(m["en"] if m["en"] is not None else m["zh"], chinese=chinese)
        if chinese is not None
        else m.group()
        for m in _SAID.finditer(previous)
    ]
    reading = Reading()
    for index, segment in enumerate(role_segments(new_lines, "human")):
        if segment.role == "human":
            reading.read(segment.text, "user", index)
    for said in reading.said:
        standing = not (said.question or said.hypothetical or said.retracted) and said.about
        if standing and not extract_facts(in_own_words(said)):
            zh = mostly_chinese(said.text) if chinese is None else chinese
            kept.append(_said_as(said.text, chinese=zh))
    return list(dict.fromkeys(kept))[-MAX_SAID:]


def render_summary(
    knowledge: Knowledge, extra_sentences: Sequence[str], topics: Sequence[str], *, chinese: bool = False
) -> str:
    """A bounded third-person summary: the newest fact sentences, invented details, a topic tail.

    ``chinese``: written in Chinese (sentences about 用户, no spaces between them), else English.
    """
    facts = fact_sentences_zh(knowledge) if chinese else fact_sentences(knowledge)
    sentences = facts[-MAX_SUMMARY_FACTS:]
    sentences += [s for s in extra_sentences if s not in sentences]
    if topics:
        tail = f"They also talked about {join_en([f'“{t}”' for t in topics])}."
        sentences.append(topics_sentence_zh(topics) if chinese else tail)
    return ("" if chinese else " ").join(sentences)


_QUOTED_TOPIC = re.compile("“([^”]+)”")


def _summary_topics(previous: str, new_lines: str) -> list[str]:
    tail = re.search(r"They also talked about (?P<t>.+?)\.\s*$", previous)
    tail_text = tail.group("t") if tail else previous_topics_zh(previous)
    topics = _QUOTED_TOPIC.findall(tail_text) if tail_text else []
    for segment in role_segments(new_lines, "human"):
        if segment.role != "human" or not segment.text.strip():
            continue
        text = segment.text.strip()
        if text.startswith("Here is a summary") or extract_facts(text) or detect_recall_question(text):
            continue
        if said_sentences("", f"Human: {text}"):  # said in the human's own words already
            continue
        topic = summary_topic(text, MAX_TOPIC_CHARS)
        if topic and not re.match(r"^(?:hi|hello|hey)$", topic, re.IGNORECASE):
            topics.append(topic)
    topics = [t for t in topics if t]
    topics = list(dict.fromkeys(reversed(topics)))[:MAX_SUMMARY_TOPICS]
    return list(reversed(topics))


def progressive_summary(summary: str, new_lines: str, *, drift: bool = False) -> str:
    """Answer SUMMARY_PROMPT: the existing summary's facts merged with the new lines' (newest wins).

    Written in the language the human speaks (``writes_chinese``): a Chinese conversation gets a Chinese
    summary, its invented details (``drift``) Chinese too.
    """
    chinese = writes_chinese(new_lines, summary)
    knowledge = Knowledge()
    knowledge.add_ordered(extract_facts(f"{readable(summary)}\n{casual(new_lines)}", role="narrative"))
    facts = knowledge.current(USER)
    details = drift_details(chinese)
    drifted = [sentence for sentence, other, _ in details if sentence in summary or other in summary]
    if drift:
        for sentence, _, key in details:
            if sentence not in drifted and (key is None or key not in facts):
                drifted.append(sentence)
                break
    # Fact-shaped invented details are facts now; render them once, as facts.
    # A detail the conversation has since spoken to ("I quit my job") is not carried over either.
    extra = [
        s for s, _, key in details if s in drifted and (key is None or knowledge.belief(USER, key) is None)
    ]
    said = said_sentences(summary, new_lines, chinese=chinese)
    return render_summary(knowledge, [*extra, *said], _summary_topics(summary, new_lines), chinese=chinese)


def summary_prompt_reply(prompt: str, *, drift: bool) -> str:
    body = after_last(after_last(prompt, SUMMARY_MARKER), "END OF EXAMPLE")
    summary = section_of(body, "Current summary:", "New lines of conversation:")
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
    for sentence in re.split(r"(?<=[.!?])\s+|\n+", normalize_quotes(last_line)):
        tokens = list(re.finditer(r"[^\W\d_][\w'-]*", sentence))
        group: list[str] = []
        group_at_start = False
        previous_end = -1
        for index, token in enumerate(tokens):
            word = re.sub(r"'s$", "", token.group())
            gap = sentence[previous_end : token.start()] if previous_end >= 0 else ""
            capital = word[:1].isupper() and word not in ENTITY_EDGE_WORDS and not is_chinese(word[:1])
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


def entity_extraction_reply(prompt: str, *, chatty: bool) -> str:
    body = after_last(prompt, ENTITY_EXTRACTION_MARKER)
    marker = "Last line of conversation (for extraction):"
    if marker not in body:
        marker = "Last line:"
    last_line = section_of(body, marker, None)
    output_at = last_line.rfind("Output:")
    if output_at >= 0:
        last_line = last_line[:output_at]
    last_line = re.sub(r"^\s*(?:Human|Person\s*#?\d*)\s*:\s*", "", last_line.strip())
    history = section_of(body, "Conversation history (for reference only):", marker)
    entities = extract_entities(last_line, history)
    if chatty and mostly_chinese(last_line):  # chatter in the line's language, split on "," all the same
        return CHATTY_ENTITIES_ZH + ", ".join(entities) if entities else CHATTY_NO_ENTITIES_ZH
    if chatty:
        if not entities:
            return "Sure, there are no entities in that line."
        return "Sure, the entities are: " + ", ".join(entities)
    return ", ".join(entities) if entities else "NONE"


_ASKED = re.compile(r"[?？]\s*$|吗[。.]?\s*$")


def _only_asked_about(entity: str, last_line: str) -> bool:
    """Whether every line naming ``entity`` is a question and no line states a fact: nothing to note."""
    mentions = [c for c in split_sentences(last_line) if entity.casefold() in c.casefold()]
    return bool(mentions) and all(_ASKED.search(c) for c in mentions) and not extract_facts(last_line)


def summarize_entity(entity: str, existing: str, last_line: str) -> str:
    """Answer ENTITY_SUMMARIZATION_PROMPT: what the existing note and the last line say about ``entity``."""
    existing = existing.strip()
    if _only_asked_about(entity, last_line):
        return existing
    knowledge = Knowledge()
    knowledge.add_ordered(extract_facts(existing, role="narrative") + extract_facts(last_line))
    knowledge.merged()
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+|(?<=。)\s*", existing) if s.strip()]
    kept = [s for s in sentences if not extract_facts(s, role="narrative")]
    if mostly_chinese(last_line) if last_line.strip() else mostly_chinese(existing):
        return entity_note_zh(entity, knowledge, knowledge.resolve(entity), kept, last_line)
    user_name = knowledge.beliefs.get(USER, {}).get("name")
    if user_name and user_name.values and entity.casefold() in (v.casefold() for v in user_name.former):
        return f"{entity} is no longer the human's name: the human's name is now {user_name.values[-1]}."
    subject = knowledge.resolve(entity)
    if subject == USER:
        about = Knowledge()
        about.beliefs = {USER: knowledge.beliefs.get(USER, {})}
        new = [f"{entity} is the human's name.", *[s for s in fact_sentences(about, user_as=entity)]]
        new = list(
            dict.fromkeys(
                s
                for s in new
                if not s.startswith((f"{entity} is the human's name", f"{entity} is now the human's name"))
                or s == new[0]
            )
        )
    elif subject in knowledge.beliefs:
        about = Knowledge()
        about.beliefs = {subject: knowledge.beliefs[subject]}
        relations = [
            f"{entity} is the human's {key[: -len('_name')]}."
            for key, belief in knowledge.beliefs.get(USER, {}).items()
            if key.endswith("_name") and entity in belief.values and key[: -len("_name")] in RELATIONS_EN
        ]
        new = relations + fact_sentences(about)
    else:
        new = [
            sentence
            for sentence in fact_sentences(knowledge)
            if entity.casefold() in sentence.casefold() and not sentence.startswith(f"{entity} ")
        ]
        if not new and not kept and entity in last_line:
            clause = next((c for c in split_sentences(last_line) if entity in c), "").strip().rstrip(".!?")
            if clause:
                new.append(f"The human mentioned {entity}: “{clause[:80]}”.")
    return " ".join([*new, *[s for s in kept if s not in new]][-MAX_ENTITY_SENTENCES:])


def entity_summary_reply(prompt: str) -> str:
    body = after_last(prompt, ENTITY_SUMMARY_MARKER)
    entity = section_of(body, "Entity to summarize:", "\n\nExisting summary of")
    existing = section_of(body, f"Existing summary of {entity}:", "\n\nLast line of conversation:")
    last_line = section_of(body, "Last line of conversation:", None)
    updated_at = last_line.rfind("Updated summary:")
    if updated_at >= 0:
        last_line = last_line[:updated_at]
    last_line = re.sub(r"^\s*Human\s*:\s*", "", last_line.strip())
    return summarize_entity(entity.strip(), existing, last_line)


def middleware_summary_reply(prompt: str) -> str:
    """Answer SummarizationMiddleware's prompt in its sections, the content in the human's language."""
    body = after_last(prompt, MIDDLEWARE_SUMMARY_MARKER)
    messages = section_of(body, "Messages to summarize:", None)
    closing = messages.rfind("</messages>")
    if closing >= 0:
        messages = messages[:closing]
    transcript = xml_messages_to_lines(messages) if "<message type=" in messages else messages
    earlier, new_lines = earlier_summary(transcript)
    chinese = writes_chinese(new_lines, earlier)
    knowledge = Knowledge()
    knowledge.add_ordered(extract_facts(f"{readable(earlier)}\n{new_lines}", role="narrative"))
    said = said_sentences(earlier, new_lines, chinese=chinese)
    none = "无" if chinese else "None"
    summary = render_summary(knowledge, said, _summary_topics(earlier, new_lines), chinese=chinese) or none
    intent = "与助手聊天。" if chinese else "Chat with the assistant."
    return (
        f"## SESSION INTENT\n{intent}\n\n## SUMMARY\n{summary}\n\n"
        f"## ARTIFACTS\n{none}\n\n## NEXT STEPS\n{none}"
    )
