"""Which part of a statement answers a question: the part of parallel values asked of ("a 71 on the
midterm and an 88 on the essay"), none when the value asked for is said only of another thing, and no
loose answer when the thing counted was said nowhere."""

from __future__ import annotations

import re

from memory_demos.providers.offline_model.asks import Ask
from memory_demos.providers.offline_model.leaning import LEANS_ON
from memory_demos.providers.offline_model.reader import USER, Said
from memory_demos.providers.offline_model.text import mostly_chinese
from memory_demos.providers.offline_model.values import CALENDAR
from memory_demos.providers.offline_model.values import VALUES as _HAS
from memory_demos.providers.offline_model.words import QUESTION_STOP, en_words, stem

_HOW_MANY_EN = re.compile(
    r"\bhow\s+(?:much|many)\s+(?!more\b|longer\b|further\b|else\b|time\b|money\b|people\b)(?P<k>[a-z]+)\s+"
    r"(?:do|does|did|is|are|was|were|have|has|will|can|should|I|you|we|he|she|they)\b",
    re.I,
)


def counted_unsaid(ask: Ask, vocabulary: frozenset[str]) -> bool:
    """Whether the question counts or measures a thing ("how many jackets …") said nowhere in the prompt."""
    counted = None if ask.chinese else _HOW_MANY_EN.search(ask.text)
    return counted is not None and stem(counted.group("k")) not in vocabulary


_PARALLEL_EN = re.compile(
    r"\s*(?:;|,(?!\d{3}))\s*(?:and\s+)?|(?<!\bbetween\s\d)(?<!\bbetween\s\d\d)\s+and\s+"  # not "$1,240"
)
_DIGIT = re.compile(r"\d")


_THEN_EN = re.compile(r"\s*(?:,|\band\b|\bthen\b)+\s*(?:then\s+)?", re.I)
_WHEN_WORDS = re.compile(
    rf"^(?:{CALENDAR}|morning|afternoon|evening|night|tonight|today|tomorrow|week|weekend)", re.I
)


def answered_by_another_part(said: Said, ask: Ask, needed: set[str]) -> bool:
    """Whether the value asked for is said only of another thing in the statement: "dentist on the 14th
    at 8:15, and the car's MOT is on the 20th" does not say what time the MOT is ("at 3pm" after "a
    dentist appointment tomorrow" has no thing of its own, and answers)."""
    if ask.wants not in {"clock", "time"} or mostly_chinese(said.text) or not needed:
        return False
    has = _HAS[ask.wants]
    parts = [p for p in _THEN_EN.split(said.text) if p.strip() and not LEANS_ON.search(p)]
    holding = [p for p in parts if needed & {stem(w) for w in en_words(p)}]
    if len(parts) < 2 or len(holding) != 1 or has.search(holding[0]):
        return False
    asked = {stem(w) for w in en_words(ask.text)}
    return any(
        has.search(p)
        and any(
            w.lower() not in QUESTION_STOP
            and not w[0].isdigit()
            and not _WHEN_WORDS.match(w)
            and stem(w) not in asked
            for w in en_words(p)
        )
        for p in parts
        if p is not holding[0]
    )


def focused(said: Said, ask: Ask, needed: set[str]) -> Said:
    """Only the part of a statement of parallel values that the question is about.

    "a 71 on the midterm and an 88 on the essay" answers "what did I get on the midterm" with its first
    part; "she weighed me, 71.5 kg" stays whole (its parts are no values side by side).
    """
    if mostly_chinese(said.text) or not needed:
        return said
    parts = [p for p in _PARALLEL_EN.split(said.text) if p.strip()]
    if len(parts) < 2 or not all(_DIGIT.search(p) for p in parts):
        return said
    held = [needed & {stem(w) for w in en_words(p)} for p in parts]
    shared = set.intersection(*held)
    counts = [len(h - shared) for h in held]
    best = max(counts)
    if best == 0 or counts.count(best) > 1:
        return said
    part = parts[counts.index(best)].strip()
    has = _HAS.get(ask.wants)
    if (has is not None and not has.search(part)) or (
        ask.about not in {"", USER} and ask.about.lower() not in part.lower()
    ):
        return said
    return said._replace(text=part)
