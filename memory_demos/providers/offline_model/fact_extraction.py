"""The reply to ``long_term``'s fact-extraction prompt: one ``key: value`` line per standing statement.

What the grammar reads of the user (name, city, job…) keeps its plain key (``job: plumber``); every other
statement the reader finds — an allergy, a relative's job, a flight time — is kept in the user's own words
under a key made of its first content words (``allergy_peanut: I am allergic to peanuts``), so the store
holds what was said, not only what the grammar knows. Questions, hypotheticals and retracted statements
store nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from langchain_core.messages import BaseMessage

from memory_demos.prompt_markers import FACT_EXTRACTION_MARKER
from memory_demos.providers.offline_model.facts import Fact, extract_facts
from memory_demos.providers.offline_model.knowledge import Knowledge
from memory_demos.providers.offline_model.lexicon import CJK
from memory_demos.providers.offline_model.reader import Reading, Said
from memory_demos.providers.offline_model.statements import USER
from memory_demos.providers.offline_model.text import after_last, content_text, mostly_chinese, section_of
from memory_demos.providers.offline_model.words import (
    QUESTION_STOP,
    RELATED_HEADS,
    WEAK,
    ZH_FUNCTION_CHARS,
    ZH_KEYWORDS,
    en_words,
    stem,
)

_KEY_WORDS = 2  # content words a said statement's key is made of
_ZH_COUNTED = re.compile("[一两几][名位个只条家]")  # 是一名医生: 医生
_ZH_FUNCTION = re.compile(f"[{ZH_FUNCTION_CHARS}有]+")
_NUMBER_WORD = re.compile(r"(?i)one|two|three|four|five|six|seven|eight|nine|ten|twelve|couple|few")
_EN_PRONOUN = re.compile(r"(?i)^(?:he|she)\b")
_EN_POSSESSIVE = re.compile(r"(?i)^(?:his|her)\b")


def in_own_words(said: Said) -> str:
    """The statement as the user would say it of its subject: "she lives in Leeds" after "my sister
    Priya" is "my sister Priya lives in Leeds", 他是牙医 after 我老公 is 我老公是牙医."""
    text = said.text.strip().rstrip(".。!！")
    subject = "我" if said.about == USER else said.subject
    if mostly_chinese(text):  # 住在杭州 after 我叫林晓 is 我住在杭州
        if not subject or text.startswith((subject, "我")):
            return text
        return subject + re.sub("^[他她它](?!们)", "", text)
    if said.about == USER or not subject:
        return text
    if pronoun := _EN_PRONOUN.match(text):
        return subject + text[pronoun.end() :]
    if pronoun := _EN_POSSESSIVE.match(text):
        return subject + "'s" + text[pronoun.end() :]
    return text


def _topic_word(word: str) -> bool:
    return word.lower() not in QUESTION_STOP and stem(word) not in WEAK and stem(word) not in QUESTION_STOP


def _key_prefix(said: Said) -> str:
    return "" if said.about in (USER, "") else said.about.lower().replace(" ", "_") + "_"


def said_key(said: Said) -> str:
    """A short key naming the statement by its first content words (``allergy_peanut``, 过敏_芒果)."""
    text = said.text.replace(said.subject, " ") if said.subject else said.text
    if mostly_chinese(text):
        keyword = next((word for word in ZH_KEYWORDS if len(word) > 1 and word in text), "")
        groups = [ZH_KEYWORDS[keyword]] if keyword else []
        text = text.replace(keyword, " ") if keyword else text
        runs = _ZH_FUNCTION.split(re.sub(f"[^{CJK}]+", " ", _ZH_COUNTED.sub(" ", text)))
        pieces = [piece for run in runs for piece in run.split() if len(piece) > 1]
        words = list(dict.fromkeys(groups + pieces))
    else:
        words = list(
            dict.fromkeys(
                stem(w) if stem(w) in RELATED_HEADS else w.lower()
                for w in en_words(text)
                if w.isalpha() and not _NUMBER_WORD.fullmatch(w) and _topic_word(w)
            )
        )
    return (_key_prefix(said) + "_".join(words[:_KEY_WORDS])) if words else ""


def _grammar_lines(facts: list[Fact]) -> dict[str, str]:
    knowledge = Knowledge()
    knowledge.add_ordered(facts)
    return {
        key: ", ".join(belief.values) if belief.values else f"no longer {', '.join(belief.former)}"
        for key, belief in knowledge.beliefs.get(USER, {}).items()
        if belief.values or belief.former
    }


def _standing(said: Said) -> bool:
    return not (said.question or said.hypothetical or said.retracted or said.dropped)


def extracted_facts(message: str) -> dict[str, str]:
    """The ``key: value`` facts the offline model extracts from one user message, in the order said."""
    reading = Reading()
    reading.read(message, "user", 0)
    standing = [said for said in reading.said if _standing(said)]
    said_text = " ".join(said.text for said in standing)
    standing = [said for said in standing if said.about]  # "搬到上海了" reads with the clause before
    # The grammar reads the whole message (corrections across clauses); a value no standing clause
    # says ("Paris" of "if I lived in Paris") is not stored.
    grammar = [f for f in extract_facts(message) if f.subject == USER and f.value in said_text]
    lines: dict[str, str] = {}
    for said in standing:
        own = in_own_words(said)
        clause_facts = extract_facts(own)
        grammar += [f for f in clause_facts if f.subject == USER]
        if clause_facts and all(f.subject == USER for f in clause_facts):
            continue
        key = said_key(said)
        if key:
            lines[key if key not in lines else f"{key}_{len(lines) + 1}"] = own
    return {**_grammar_lines(grammar), **lines}


def fact_extraction_reply(prompt: str, messages: Sequence[BaseMessage]) -> str:
    body = after_last(prompt, FACT_EXTRACTION_MARKER)
    message = section_of(body, "Message:", None)
    if not message:
        humans = [m for m in messages if m.type == "human"]
        message = content_text(humans[-1]) if humans else ""
    facts = extracted_facts(message)
    return "\n".join(f"{key}: {value}" for key, value in facts.items()) if facts else "NONE"
