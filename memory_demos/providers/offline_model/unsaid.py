"""Questions of a kind the prompt never settles: 哪个医院 when no hospital was named, "which movie is it"
when the movie was spoken of but never named, "my favourite tea?" when no tea was liked."""

from __future__ import annotations

import re
from collections.abc import Sequence
from collections.abc import Set as AbstractSet

from memory_demos.providers.offline_model.lexicon import CJK
from memory_demos.providers.offline_model.reader import Said
from memory_demos.providers.offline_model.values import zh_kinds_named
from memory_demos.providers.offline_model.words import QUESTION_STOP, RELATIONS, stem

_ZH_WHICH = re.compile(r"(?:哪个|哪家|哪所|哪间)(?P<k>[" + CJK + r"]{2})")
# Kinds whose values are said without the kind's name (在深圳 for 哪个城市); 哪个医院 never said is no answer.
ZH_OPEN_KINDS = frozenset(["城市", "地方", "国家", "品种", "运动", "颜色", "语言", "专业", "工作"])
_ZH_BARE_BEFORE = "去在到的个家了要上看回从进出这那找"  # 去医院: a verb or a measure word is no name


def names_an_unsaid_kind(ask_text: str, statements: Sequence[Said]) -> bool:
    """是哪个医院开的 when no 医院 was spoken of: no statement names one (医生开了… is no hospital)."""
    asked = _ZH_WHICH.search(ask_text)
    if asked is None or asked.group("k") in ZH_OPEN_KINDS:
        return False
    kind = asked.group("k")
    by_message: dict[tuple[str, int], list[str]] = {}  # 一家川菜馆，叫蜀香园: two clauses name it together
    for said in statements:
        if not said.question:
            by_message.setdefault((said.source, said.message), []).append(
                said.text + zh_kinds_named(said.text)
            )
    return not any(_names_one(kind, "，".join(clauses)) for clauses in by_message.values())


_FAVOURITE_EN = re.compile(r"\b(?:favou?rite|fav|fave)\s+(?P<k>[a-z]+)\b(?:\s+(?P<head>[a-z]+)\b)?", re.I)
_FAVOURITE_ZH = re.compile(f"最(?:喜欢|爱)的(?P<k>[{CJK}]{{1,3}}?)(?:是|叫|有|呢|[？?]|$)")


_LIKES = re.compile(
    r"\b(?:favou?rite|fav|fave|love[sd]?|like[sd]?|prefer(?:s|red)?|best|go-to|obsessed|into)\b|喜欢|爱|最",
    re.I,
)


def favourite_statements(
    ask_text: str, statements: Sequence[Said], vocabulary: AbstractSet[str], *, chinese: bool
) -> Sequence[Said] | None:
    """The statements that may answer ``ask_text``: for "my favourite tea?" only those saying a liking
    ("Tea: with oat milk" or "no desserts" says none); None when no tea was spoken of at all (not the
    favourite food either), or for "favourite coffee shop" when no shop was."""
    favourite = _FAVOURITE_ZH.search(ask_text) if chinese else _FAVOURITE_EN.search(ask_text)
    if favourite is None:
        return statements
    kind = favourite.group("k")
    said = "".join(s.text + zh_kinds_named(s.text) for s in statements) if chinese else vocabulary
    head = None if chinese else favourite.group("head")
    if ((kind not in said) if chinese else (stem(kind) not in said)) or (
        head and head.lower() not in QUESTION_STOP and stem(head) not in said
    ):
        return None
    return [s for s in statements if _LIKES.search(s.text)]


_EN_WHICH = re.compile(
    r"\b(?:what|which)\s+(?:[a-z]+\s+)?(?P<k>movie|film|book|show|series|program|programme|course|school|"
    r"university|college|company|restaurant|hotel|gym|band|song|app|brand|model)s?\b",
    re.I,
)


def speaks_of_no_particular(ask_text: str, text: str) -> bool:
    """ "which movie is it" and ``text`` speaks of the movie without naming one ("the movie is at 7:20"):
    no answer to which; a name, a title in quotes or "called" would be one."""
    asked = _EN_WHICH.search(ask_text)
    if asked is None or not re.search(rf"\b{asked.group('k')}s?\b", text, re.I):
        return False
    named = r"(?<!^)(?<![.!?] )\b(?!I\b|I')[A-Z][\w'-]+|[\"“«].+?[\"”»]|\b(?:called|named)\b"
    return re.search(named, text.strip()) is None


def _names_one(kind: str, text: str) -> bool:
    """Whether ``text`` names a particular ``kind``: 万达酒店, 会议室是B-302; not 去医院."""
    named = f"(?<![{_ZH_BARE_BEFORE}])(?<=[{CJK}A-Za-z0-9]){kind}|{kind}[{CJK}]?[，,]?[是叫：:]"
    return re.search(named, text) is not None


_WHOSE_NAME = re.compile(r"\bthe\s+(?P<noun>[a-z]{3,})'s\s+name\b", re.I)


def names_the_one_named(ask_text: str, text: str) -> bool:
    """ "what's the vet's name": only a statement that names the vet ("the vet, Dr Okafor", "our vet is
    called Jo", "Jo the vet") answers it, not one that names the dog the vet saw. True for other questions."""
    asked = _WHOSE_NAME.search(ask_text)
    if asked is None or stem(asked.group("noun").lower()) in RELATIONS:
        return True
    noun = re.escape(asked.group("noun"))
    title = r"(?:(?:Dr|Mr|Mrs|Ms|Miss)\.?\s+)?"
    after = rf"(?i:\b{noun}\w*\b),?\s+(?:(?i:is|was|'s)\s+)?(?:(?i:called|named)\s+)?{title}[A-Z][a-z]+"
    before = rf"\b[A-Z][a-z]+,?\s+(?i:the|my|our)\s+(?i:{noun})"
    return re.search(after, text) is not None or re.search(before, text) is not None
