"""Facts read from text: who each is about, its key and value, and whether it was taken back or changed."""

from __future__ import annotations

import re
from typing import NamedTuple

from memory_demos.providers.offline_model.lexicon import KV_EXCLUDED_KEYS, LIST_KEYS, RELATIONS_EN
from memory_demos.providers.offline_model.memo import read_once
from memory_demos.providers.offline_model.rules import read_pairs
from memory_demos.providers.offline_model.sentences import may_state_facts
from memory_demos.providers.offline_model.statements import USER, Statement, read_statements
from memory_demos.providers.offline_model.text import (
    KV_LINE,
    clean_list,
    clean_name,
    normalize_key,
    said_in_note,
)

ANY_KEY = "*"  # "forget what I said about Lisbon" takes a value back whatever its key
SAME_KEY = "*="  # "it's Maria, not Mara": the new value, for the keys the ANY_KEY fact before it emptied


class Fact(NamedTuple):
    """One fact: about ``subject`` (``"user"``, a person, ``"rel:brother"``), a snake_case key and a value.

    ``negated``: no longer (or never) true. ``change``: said as a change ("now", "moved to"), so it is
    newer than what it contradicts even where the prompt gives no order. ``exclusive``: "only" — the
    values replace the earlier ones of a list key. A named tuple (immutable, compared by value): a
    long prompt yields about a hundred, and a tuple is built several times faster than a dataclass.
    """

    key: str
    value: str
    source_text: str
    subject: str = USER
    negated: bool = False
    change: bool = False
    exclusive: bool = False


_HUMANS_NAME = re.compile(
    r"(?P<v>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?|[\u3400-\u9fff]{1,4})\s+is\s+the\s+(?:human|user)(?:'s|’s)\s+name"
)
_HUMANS_RELATION = re.compile(
    r"(?P<v>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?|[\u3400-\u9fff]{1,4})\s+is\s+the\s+(?:human|user)(?:'s|’s)\s+"
    r"(?P<rel>" + "|".join(sorted(RELATIONS_EN, key=len, reverse=True)) + r")\b"
)
# Parts of "forget", "ignore", "scratch" that casefolding keeps whole wherever re.IGNORECASE would
# match the word (it also matches "İ" and "ı" for "i"): a cheap test before _FORGET.
_FORGET_PARTS = ("orget", "gnore", "cratch")
_FORGET = re.compile(
    r"\b(?:forget|ignore|scratch)\s+(?:what\s+I\s+said\s+about|that\s+bit\s+about)\s+(?P<v>[\w' -]+)", re.I
)


# "Sorry, it's Maria, not Mara": whatever held Mara (a name, a city) now holds Maria.
_ITS_NOT = re.compile(
    r"\b[Ii]t(?:'s|’s|\s+is)\s+(?P<new>[A-Z][\w'-]*),?\s+not\s+(?P<old>[A-Z][\w'-]*)\b"
    r"|\bnot\s+(?P<old2>[A-Z][\w'-]*)\s*[,;]\s*[Ii]t(?:'s|’s|\s+is)\s+(?P<new2>[A-Z][\w'-]*)"
)

# 不对，是小王，不是小李 / 不是小李，是小王: the same correction in Chinese.
# A value starts with no particle, adverb or pronoun: 是的，不是很远 corrects nothing.
ZH_VALUE = r"(?![的很太真挺好我你他她它这那])[\u3400-\u9fff]{1,4}"
_ZH_ITS_NOT = re.compile(
    rf"(?<!不)是(?P<new>{ZH_VALUE})[，,]\s*不是(?P<old>{ZH_VALUE})(?=[。！!.]|$)"
    rf"|(?:^|[，,。])\s*不是(?P<old2>{ZH_VALUE})[，,]\s*(?:而)?是(?P<new2>{ZH_VALUE})(?=[。！!.]|$)"
)


def _kv_facts(line: str) -> list[Fact]:
    """``key: value`` lines, as a store or an extraction writes them, are facts about the user."""
    if (own_words := said_in_note(line)) is not None:
        return extract_facts(own_words)
    match = KV_LINE.match(line)
    if not match or match.group("k") in KV_EXCLUDED_KEYS:
        return []
    key = normalize_key(match.group("k"))
    raw = match.group("v").strip().rstrip(".")
    if raw.lower().startswith("no longer "):
        # A store's "job: no longer nurse" was true once: a former value, not a denial.
        return [
            Fact(key, item, line, negated=True, change=True) for item in clean_list(raw[len("no longer ") :])
        ]
    if key in LIST_KEYS:
        return [Fact(key, item, line) for item in clean_list(raw)]
    if key == "name":
        name = clean_name(raw, require_capital=False)
        return [Fact(key, name, line)] if name else []
    return [Fact(key, raw, line)] if raw else []


def extract_facts(text: str, *, role: str = "human", last_person: str | None = None) -> list[Fact]:
    """Facts stated in ``text``, oldest first (read once per text: a conversation's prompt repeats
    every earlier message each turn)."""
    return list(_extract_facts(text, role, last_person))


@read_once
def _extract_facts(text: str, role: str, last_person: str | None) -> tuple[Fact, ...]:
    """Facts stated in ``text``, oldest first.

    ``role`` is who wrote unprefixed lines: "human" (first person is the user), "ai" (second person
    is the user) or "narrative" (third person, entity notes and ``key: value`` lines). Lines prefixed
    with "Human:"/"AI:" switch role, so transcripts and retrieved snippets parse correctly.
    """
    # _ITS_NOT needs a lowercase " not " (it matches case-sensitively): most texts skip it at once.
    corrections = _ITS_NOT if " not " in text else _ZH_ITS_NOT if "不是" in text else None
    may_correct = role != "ai" and corrections is not None and corrections.search(text) is not None
    if ":" not in text and "：" not in text and not may_correct and not may_state_facts(text):
        return ()
    facts = [fact for line in text.splitlines() for fact in _line_facts(line)]
    folded = text.casefold()
    may_forget = _FORGET_PARTS[0] in folded or _FORGET_PARTS[1] in folded or _FORGET_PARTS[2] in folded
    forgets = list(_FORGET.finditer(text)) if may_forget else []
    for forget in forgets:
        facts.append(Fact(ANY_KEY, forget.group("v").strip(), forget.group(0), negated=True, change=True))
    if may_correct:
        for said in corrections.finditer(text):  # type: ignore[union-attr]
            old, new = said.group("old") or said.group("old2"), said.group("new") or said.group("new2")
            facts.append(Fact(ANY_KEY, old, said.group(0), negated=True, change=True))
            facts.append(Fact(SAME_KEY, new, said.group(0), change=True))
    for statement in read_statements(text, role=role, last_person=last_person):
        if forgets and _FORGET.search(statement.source):
            continue
        if statement.negated and not statement.change and statement.source.startswith("不"):
            continue  # 我觉得是北京，不是上海: a bare 不是 tail denies no fact of its own
        facts.extend(_statement_facts(statement))
    deduplicated: list[Fact] = []
    for fact in facts:
        if fact not in deduplicated[-3:]:
            deduplicated.append(fact)
    return tuple(deduplicated)


def _line_facts(line: str) -> list[Fact]:
    """Facts one line states outright: ``key: value`` pairs and "the human's name is ..." notes."""
    facts = _kv_facts(line) if ":" in line or "：" in line else []
    if "the human" in line or "the user" in line:
        named = _HUMANS_NAME.search(line)
        if named:
            facts.append(Fact("name", named.group("v"), line))
        related = _HUMANS_RELATION.search(line)
        if related:
            facts.append(Fact(f"{related.group('rel').lower()}_name", related.group("v"), line))
    return facts


def _statement_facts(statement: Statement) -> list[Fact]:
    """The facts of one read statement, each carrying its subject, negation, change and exclusivity."""
    return [
        Fact(
            key,
            value,
            statement.source,
            statement.subject,
            statement.negated,
            statement.change,
            statement.exclusive,
        )
        for key, value in read_pairs(statement.text, self_subject=statement.self_subject)
    ]
