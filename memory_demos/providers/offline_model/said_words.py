"""The words a statement holds, as a question's words are matched against them: stems, the parts of
"check-in" and "check out", what a contraction stands for, and what the statement says without its word
("10pm to 6am" says when it starts; "leaving for Bali", where the user is going)."""

from __future__ import annotations

import re

from memory_demos.providers.offline_model.reader import Said
from memory_demos.providers.offline_model.values import EN_TIME_RANGE, kinds_named, zh_kinds_named
from memory_demos.providers.offline_model.words import en_words, stem, zh_grams

_CONTRACTED = {"ve": "have", "m": "am", "re": "are", "d": "had", "ll": "will", "s": "is"}


_PARTICLES = frozenset(["in", "out", "up", "off"])


def statement_words(said: Said, chinese: bool) -> set[str]:
    if chinese:
        return zh_grams(said.text + zh_kinds_named(said.text))
    raw = en_words(f"{said.subject} {said.text}")
    words = {stem(kind) for kind in kinds_named(raw)}
    for word, after in zip(raw, [*raw[1:], ""][: len(raw)], strict=True):
        head, _, tail = word.lower().partition("'")
        words.add(stem(word))
        if "-" in word:  # "check-in", "2-bedroom": each part, and the parts run together ("checkin")
            words.update(stem(part) for part in [*word.split("-"), word.replace("-", "")] if part)
        elif after.lower() in _PARTICLES:  # "check out" is the "checkout" asked of
            words.add(stem(word + after))
        if tail in _CONTRACTED:
            words.update((head, stem(_CONTRACTED[tail])))
    if EN_TIME_RANGE.search(said.text):  # "10pm to 6am" says when it starts and when it ends
        words |= _ENDS
    if _CANT_HAVE.search(said.text):  # "Theo can't have peanuts": what he must not eat, what he reacts to
        words |= _CANT_HAVE_WORDS
    if _GOING.search(said.text):  # "leaving for Bali" says where the user is going
        words.add("go")
    return words | {implied for word, implied in _IMPLIES if word in words}


_GOING = re.compile(
    r"\b(?:leav(?:e|es|ing)|head(?:s|ed|ing)?|off|fly(?:ing)?|flew|moving)\s+(?:for|to)\b", re.I
)
_CANT_HAVE = re.compile(r"\b(?:can't|cannot|can\s+not|mustn't|shouldn't)\s+(?:have|eat|touch)\b", re.I)
_CANT_HAVE_WORDS = frozenset(stem(w) for w in ("allergy", "eat"))
_ENDS = frozenset(stem(w) for w in ("start", "begin", "end", "finish"))


# What a statement says without its word: who teaches works ("where do I work?"), who has a Toyota
# drives one ("what do I drive?"); never the other way ("what do I teach?" is not "I work at Acme").
_IMPLIES = ((stem("teach"), stem("work")), (stem("car"), stem("drive")))
