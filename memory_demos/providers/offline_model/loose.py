"""The second, looser reading: when no statement holds every word a question needs.

People rarely ask with the words they told a fact in ("what dose am I on?" after "I'm on metformin
500mg"). So a question's kind word (dose, age, time, price, job ...) is met by a value of that kind in
the statement, and the other content words need only half their number. A statement that starts with
a pronoun ("he mostly eats seeds") speaks of a person or pet named shortly before it. Still no guess:
a statement must hold a topic word of the question, or the kind of value asked for and the person.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from memory_demos.providers.offline_model.lexicon import CJK
from memory_demos.providers.offline_model.people import FEMALE, GENDERED, MALE
from memory_demos.providers.offline_model.reader import USER, Said
from memory_demos.providers.offline_model.unsaid import ZH_OPEN_KINDS
from memory_demos.providers.offline_model.values import (
    KIND_VALUES,
    KIND_WORDS,
    NAMED_BY_MEMBERS,
    VALUES,
    ZH_KIND_WORDS,
    kinds_named,
    lacks_unit_asked,
    names_another_part,
    zh_kinds_named,
)
from memory_demos.providers.offline_model.words import (
    WEAK,
    ZH_KEYWORDS,
    names_another_relation,
    stem,
)

PAST = re.compile(
    r"\b(?:before|used\s+to|previously|originally|formerly|the\s+old|my\s+old)\b|以前|之前|原来|过去|从前|曾经",
    re.I,
)
_NEGATED = re.compile(
    r"(?<![能会要可去吃喝用喜爱想])[不没](?![能会要可去吃喝用喜爱想]?[？?]?$)|\b(?:don't|doesn't|can't|never)\b",
    re.I,
)
_NEGATION_SAID = re.compile(r"[不没]|\b(?:not|never|no)\b|n't\b", re.I)


def asks_what_it_lacks(asked: str, text: str) -> bool:
    """A question of the past ("where did I live before?") or of what is not (我不吃什么), and a statement
    of neither (where I live; 特别能吃辣)."""
    return bool(
        (PAST.search(asked) and not PAST.search(text))
        or (_NEGATED.search(asked) and not _NEGATION_SAID.search(text))
    )


_SPECIFIC = frozenset(
    {"dose", "often", "age", "job", "colour", "address"}
)  # kinds whose values say by themselves what they are
YES_NO = re.compile(  # a yes-or-no question: "do I like coffee?", 我对海鲜过敏吗
    r"吗\W*$|^\W*(?:and\s+)?(?:do|does|did|is|are|am|was|were|have|has|can|will)\s+(?:I|you|we|they|my|he|she)\b",
    re.I,
)
_PRONOUN_START = re.compile(
    r"^(?:(?:and|but|so)\s+)?(?:he|she|it|they|his|her|its|their|him|them)\b|^(?:但|可是|不过|而且|还有|就是)?(?:他|她|它)",
    re.I,
)
_PRONOUN_IN = re.compile(r"\b(?:he|she|his|her|him|it|its|they|their|them)\b|[他她它]", re.I)
_ZH_KIND = re.compile(r"(?:哪个|哪家|哪种|什么|啥)(?P<k>[" + CJK + r"]{2})")
_OPPOSITE_PAIRS = "open:clos start:end start:finish begin:end arrive:leave buy:sell buy:sold like:hate"
_OPPOSITES: dict[str, frozenset[str]] = {}
for _pair in _OPPOSITE_PAIRS.split():
    _a, _b = _pair.split(":")
    _OPPOSITES[_a] = _OPPOSITES.get(_a, frozenset()) | {_b}
    _OPPOSITES[_b] = _OPPOSITES.get(_b, frozenset()) | {_a}
_FOLLOW_UP = re.compile(r"^\W*(?:and|n|what about|how about|also)\b|^那.{1,8}呢", re.I)
# Kinds whose members are said without the kind's name ("I'm into pottery" answers "what hobby?").
OPEN_KINDS = frozenset(
    stem(w)
    for w in [
        "hobby",
        "sport",
        "breed",
        "colour",
        "color",
        "city",
        "country",
        "language",
        "job",
        "food",
        "drink",
        "music",
        "instrument",
        "subject",
        "pet",
        "car",
        "game",
        "team",
        "show",
        "film",
        "movie",
        "book",
        "band",
        "genre",
        "dish",
        "fruit",
        "animal",
        "flower",
        "season",
        "day",
        "month",
    ]
)
_CAPITAL = re.compile(r"\b[A-Z][a-z]+\b")
_NOT_PEOPLE = frozenset(
    [
        "i",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "dr",
        "mr",
        "mrs",
        "ms",
    ]
)


def holds_a_question_word(needed: AbstractSet[str], text: str) -> bool:
    """Whether ``text`` holds one of a Chinese question's two-character words whole (or it has none)."""
    pairs = {w for w in needed if len(w) == 2 and re.fullmatch(f"[{CJK}]+", w)}
    groups = {ZH_KEYWORDS[w] for w in pairs if w in ZH_KEYWORDS}  # 开会 holds the 会议 asked of
    return (
        not pairs
        or any(w in text for w in pairs)
        or any(w in text for w, group in ZH_KEYWORDS.items() if group in groups)
    )


def _kind(ask_text: str, words: frozenset[str], wants: str, chinese: bool) -> tuple[str, set[str]]:
    """(the kind of value asked for, the question's words that only name that kind)."""
    if chinese:
        for word, kind in ZH_KIND_WORDS.items():
            if word in ask_text:
                return kind, set()
    named = {w for w in words if w in KIND_WORDS}
    kinds = [KIND_WORDS[w] for w in sorted(named)]
    if re.search(
        r"\bwhat\s+time\b|\bwhen\s+(?:do|does|did|is)\b.*\b(?:open|close|start|finish|leave|end)",
        ask_text,
        re.I,
    ):
        return "clock", named | {"time"}
    if re.search(r"\bhow\s+often\b", ask_text, re.I):
        return "often", named
    if re.search(r"\bhow\s+old\b", ask_text, re.I):
        return "age", named
    if kinds:
        return kinds[0], named
    return wants, set()


def _people(said: Said, aliases: dict[str, str]) -> set[str]:
    """Whom a statement names: its person, the relations and the names in its words."""
    names = {said.about} - {"", USER}
    names |= {n for n in _CAPITAL.findall(said.text) if n in aliases or said.text.find(n) > 0}
    names |= {aliases[n] for n in names if n in aliases}
    names |= {r for n, r in aliases.items() if n in said.text}
    names |= {r for r in aliases.values() if re.search(rf"(?i)\b{re.escape(r)}", said.text)}
    return names


def _fits(wanted: str, index: int, statements: Sequence[Said], aliases: dict[str, str]) -> bool:
    """Whether statement ``index`` speaks of ``wanted`` (a person, a relation or a pet's name)."""
    said = statements[index]
    forms = {wanted, aliases.get(wanted, wanted)} | {n for n, r in aliases.items() if r == wanted}
    forms = {f.lower() for f in forms if f}
    if said.about.lower() in forms or any(f in said.text.lower() for f in forms):
        return True
    theirs, wanted_relation = aliases.get(said.about, said.about), aliases.get(wanted, wanted)
    if names_another_relation(said.text, wanted_relation):
        return False  # 个五岁的女儿叫朵朵 after 我老公: the daughter's, not the husband's
    if any(theirs in gender and wanted_relation in GENDERED - gender for gender in (MALE, FEMALE)):
        return False  # "he just got engaged" after "my sister Aiko ...": he is the brother, not her
    subjectless = said.about == "" and re.search(f"[{CJK}]", said.text) is not None  # 三岁了
    if not (
        _PRONOUN_START.search(said.text)
        or subjectless
        or (said.about in {"", USER} and _PRONOUN_IN.search(said.text))
    ):
        return False
    for earlier in reversed(statements[:index]):
        if earlier.message < said.message - 2:
            return False
        people = {p.lower() for p in _people(earlier, aliases)}
        if people & forms:
            return True
        named = {
            n.lower() for n in _CAPITAL.findall(earlier.text) if n in aliases or earlier.text.find(n) > 0
        }
        if named - forms - _NOT_PEOPLE:
            return False  # someone else was named in between
    return False


_ZH_FUNCTION = frozenset("的了是在和与跟也都就还很又对不要个一这那吗呢吧啊呀嘛么我你他她它们有")


def zh_coverage(needed: set[str], words: set[str], text: str) -> float:
    """How much of a Chinese question a statement holds: its content characters (function characters
    left out), a related-word group ("@过敏") counting as one; Chinese runs together what a pair of
    characters would cut wrongly ("钢琴课哪天" holds 钢, 琴, 课)."""
    groups = {w for w in needed if w.startswith("@")}
    latin = {w for w in needed if w.isascii() and not w.startswith("@")}
    chars = {c for w in needed - groups - latin for c in w if c not in _ZH_FUNCTION}
    by_group = {c for g in groups & words for c in g[1:]}  # 搬到重庆 holds the 住 of 住在哪里 (@住)
    # 在深圳工作 holds the 上班 of 在哪儿上班: a word of a group the statement holds is held whole
    by_group |= {c for w in needed if "@" + ZH_KEYWORDS.get(w, "") in groups & words for c in w}
    groups = {g for g in groups if not set(g[1:]) <= chars}
    total = len(chars) + len(groups) + len(latin)
    if not total:
        return 0.0
    text += zh_kinds_named(text)
    english = sum(w in text.lower() for w in latin)
    return (sum(c in text or c in by_group for c in chars) + len(groups & words) + english) / total


def _words(said: Said, chinese: bool) -> set[str]:
    if chinese:
        text = said.text + zh_kinds_named(said.text)
        return {text[i : i + 2] for i in range(len(text) - 1)} | set(text)
    raw = re.findall(r"[A-Za-z0-9$€£¥'][\w'$€£¥.:-]*", said.text)
    return {stem(w) for w in raw} | {stem(kind) for kind in kinds_named(raw)}


def _names_in(text: str) -> set[str]:
    """The stems of the capitalised words a statement names (past its first word)."""
    return {stem(w.lower()) for w in _CAPITAL.findall(text[1:]) if w.lower() not in _NOT_PEOPLE}


@dataclass(frozen=True)
class _Looking:
    """What the looser reading looks for: the question's words, kind of value and person."""

    ask_text: str
    needed: frozenset[str]
    extra: frozenset[str]
    about: str
    pattern: re.Pattern[str] | None
    kind: str
    chinese: bool

    def speaks_of(self, index: int, statements: Sequence[Said], aliases: dict[str, str]) -> bool:
        said = statements[index]
        if self.about == "":
            return True
        if self.about == USER:
            return said.about in {"", USER}
        return _fits(self.about, index, statements, aliases)

    def score(self, said: Said) -> float | None:
        """How well a statement answers, or None when it does not."""
        if said.text.lower().strip(" ?？.") == self.ask_text.lower().strip(" ?？"):
            return None
        if self.pattern is not None and not self.pattern.search(said.text):
            return None
        if (
            (PAST.search(self.ask_text) and not PAST.search(said.text))
            or names_another_part(self.ask_text, said.text, chinese=self.chinese)
            or (self.chinese and lacks_unit_asked(self.ask_text, said.text))
        ):
            return None
        have = _words(said, self.chinese)
        matched = self.needed & have
        if self.chinese and self.needed:
            covered = zh_coverage(set(self.needed), have, said.text)
            if covered < (0.75 if self.kind == "person" else 0.5):
                return None
            if covered < 0.75 and not holds_a_question_word(self.needed, said.text):
                return None  # 电视几台 is not answered by 家里两台电脑: a word of the question, whole
            matched = self.needed
        missing = self.needed - matched
        if any(_OPPOSITES.get(w, frozenset()) & have for w in missing) or missing & NAMED_BY_MEMBERS:
            return None  # "when does the gym close?" is not answered by "the gym opens at 6"
        kind_said = self.kind in _SPECIFIC and self.pattern is not None  # "my actual job?": I'm an accountant
        if len(missing) > len(self.needed) // 2 or (
            missing and len(matched) == 1 and matched <= _names_in(said.text)
        ):
            return None  # "what does Pepper eat" is not answered by "3 cats: Pepper, Olive and Sage"
        if self.needed and not matched and not kind_said:
            return None
        return (len(matched) / len(self.needed) if self.needed else 0.5) + 0.3 * len(self.extra & have)


def loose_answer(
    ask_text: str,
    words: frozenset[str],
    extra: frozenset[str],
    wants: str,
    about: str,
    statements: Sequence[Said],
    aliases: dict[str, str],
    *,
    chinese: bool,
    current: int,
) -> Said | None:
    """The statement that answers the question on the looser reading, or None."""
    kind, kind_words = _kind(ask_text, words, wants, chinese)
    needed = {w for w in words - kind_words if w not in WEAK and not w.startswith("@")}
    if about not in {"", USER}:
        needed = {w for w in needed if w not in {stem(about), about}}
    if not about and _PRONOUN_IN.search(ask_text):
        about = next(
            (s.about for s in reversed(statements) if s.about not in {"", USER} and not s.question), ""
        )
    if kind == "name" and about in {"", USER}:
        return None  # the user's own name: only a statement that names the user, the strict reading's
    if YES_NO.search(ask_text):
        return None  # "do I like coffee?": the strict reading's (and the grammar's) to answer
    follow_up = _FOLLOW_UP.match(ask_text) is not None and about not in {"", USER}  # "and Pieter?"
    if not needed and not ((kind and about not in {"", USER}) or kind in _SPECIFIC or follow_up):
        return None
    standing = [s for s in statements if not (s.question or s.hypothetical or s.retracted)]
    asked_kind = _ZH_KIND.search(ask_text) if chinese else None
    unsaid_kind = asked_kind is not None and asked_kind.group("k") in ZH_OPEN_KINDS
    if unsaid_kind and asked_kind.group("k") not in "".join(s.text for s in standing):  # 哪个城市, 什么品种
        needed = {w for w in needed if not set(w) & set(asked_kind.group("k"))}
    looking = _Looking(
        ask_text,
        frozenset(needed),
        extra,
        about,
        KIND_VALUES.get(kind) or VALUES.get(kind),
        kind,
        chinese,
    )
    best: tuple[float, int] | None = None
    for index, said in enumerate(statements):
        if said in standing and said.message < current and looking.speaks_of(index, statements, aliases):
            score = looking.score(said)
            if score is not None and (best is None or score >= best[0]):
                best = (score, index)
    return statements[best[1]] if best else None


def follow_up(
    about: str,
    previous_words: frozenset[str],
    statements: Sequence[Said],
    aliases: dict[str, str],
    *,
    chinese: bool,
    current: int,
) -> Said | None:
    """ "and my sister?" after "what am I allergic to?": what the other person's statements say, the one
    sharing most with the question before first (hay fever answers it, though it never says allergic)."""
    best: tuple[float, int] | None = None
    for index, said in enumerate(statements):
        if said.question or said.hypothetical or said.retracted or said.message >= current:
            continue
        if about == USER:
            if said.about not in {"", USER} or not re.search(r"\b(?:I|I'm|I've|my)\b|我", said.text):
                continue
        elif not _fits(about, index, statements, aliases):
            continue
        content = _words(said, chinese) - {stem(about), about.lower()}
        if len(content) < (3 if chinese else 2):
            continue
        score = len(previous_words & content) + index / 10_000
        if best is None or score >= best[0]:
            best = (score, index)
    return statements[best[1]] if best else None
