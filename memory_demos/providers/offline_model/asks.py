"""What a question asks: its content words, the kind of answer it wants and whom it is about."""

from __future__ import annotations

import re
from typing import NamedTuple

from memory_demos.providers.offline_model.lexicon import CJK
from memory_demos.providers.offline_model.people import MY_ZH_RELATION
from memory_demos.providers.offline_model.reader import USER
from memory_demos.providers.offline_model.text import mostly_chinese
from memory_demos.providers.offline_model.values import CALENDAR
from memory_demos.providers.offline_model.words import (
    QUESTION_STOP,
    RELATIONS,
    WEAK,
    ZH_RELATION_FORMS,
    ZH_RELATIONS,
    casual,
    en_words,
    stem,
    zh_grams,
)


class Ask(NamedTuple):
    """What a question asks: its content words, the kind of answer, and whom it is about."""

    text: str
    words: frozenset[str]  # English stems, or Chinese character pairs
    weak: frozenset[str]
    wants: str  # "time", "clock", "day", "year", "number", "money", "place", "person", "name" or ""
    about: str  # USER, "" (anyone), a relation or a name
    chinese: bool
    extra: frozenset[str] = frozenset()  # a follow-up's words from the question before: welcome, not needed
    kinds: frozenset[str] = frozenset()  # the kind of thing asked for ("what condition ..."): may go unsaid
    modifiers: frozenset[str] = frozenset()  # words before a noun ("phone" in "phone number"): may go unsaid


_WANTS_EN = (
    (
        re.compile(
            r"\bwhat\s+(?:time|hour)\b|\bwhen\s+(?:do|does|did|will|is)\b.*\b(?:open|close|start|finish|end)s?\b",
            re.I,
        ),
        "clock",
    ),
    (
        re.compile(
            r"\b(?:flight|room|seat|gate|order|tracking|reference|booking|confirmation|account|policy|membership|"
            r"licen[cs]e|plate|platform|locker|badge|employee|student)\s+(?:number|no\b|#)",
            re.I,
        ),
        "code",
    ),
    (re.compile(r"\bhow\s+(?:many|often)\b", re.I), "number"),
    (re.compile(r"\bhow\s+much\b|\b(?:price|cost)\b", re.I), "money"),
    (re.compile(r"\bwhy\b", re.I), "reason"),
    (re.compile(r"\bhow\s+long\b", re.I), "duration"),
    (re.compile(r"\bhow\s+old\b", re.I), "age"),
    (re.compile(r"\bhow\s+(?:far|tall)\b", re.I), "number"),
    (re.compile(r"\b(?:what|which)\s+year\b", re.I), "year"),
    (re.compile(r"\b(?:what|which)\s+(?:day|date)\b", re.I), "day"),
    (re.compile(r"\bwhen\b|\bwhat\s+(?:time|month)\b", re.I), "time"),
    (re.compile(r"\bwhere\b|\bwhat\s+(?:city|town|country|address|street)\b", re.I), "place"),
    (re.compile(r"\bwho\b|\bwhose\b", re.I), "person"),
    (re.compile(r"\bname[sd]?\b|\bcalled\b", re.I), "name"),
    (
        re.compile(
            r"\bwhat\s+(?:do|does|did)\s+\w+(?:\s+\w+)?\s+do\b(?!\s+(?:on|at|in|with|for|about|after|before|to))|"
            r"\b(?:job|occupation|profession)\b",
            re.I,
        ),
        "job",
    ),
)
_WANTS_ZH = (
    (re.compile("为什么|为啥|怎么会"), "reason"),
    (re.compile("航班号|座位号?|车次|房间号|房号|订单号|单号|车牌号?|工号|学号|登机口"), "code"),
    (re.compile("多久|多长时间|几个小时|几天|几周|几个月|几年(?!级)"), "duration"),
    (re.compile("几点"), "clock"),
    (re.compile("哪年|哪一年|几几年"), "year"),
    (re.compile("几号|哪天|哪一天|星期几|周几|礼拜几"), "day"),
    (re.compile("什么时候|几月|什么时间|啥时候"), "time"),
    (re.compile("多少钱|价格|价钱|花了多少"), "money"),
    (re.compile("几岁|多少岁|多大了|多大年纪|多大岁数|岁数多大|多大年龄|年纪多大"), "age"),
    (re.compile("多重|几斤|几公斤|体重多少"), "weight"),
    (re.compile("多远|几公里|多少公里"), "distance"),
    (re.compile(f"多少|几[{CJK}]|多大|多长"), "number"),
    (re.compile("哪里|哪儿|在哪|什么地方|哪个城市|去哪|站是哪|哪一?站"), "place"),
    (re.compile("谁"), "person"),
    (re.compile("叫什么|叫啥|名字|姓什么|姓啥|怎么称呼"), "name"),
    (re.compile("做什么|干什么|什么工作|职业|[干做]嘛的|[干做]啥的|是做什么的"), "job"),
)
_ABOUT_Q_EN = re.compile(
    r"\b(?:my|our)\s+(?:(?:older|younger|little|big|baby|best|oldest|youngest|twin|eldest)\s+)?(?P<rel>\w+(?:-in-law)?)|"
    r"(?P<pro>\b(?:he|she|his|her|him|they|their|them)\b)|(?<!^)(?P<name>\b(?!"
    + CALENDAR
    + r")[A-Z][a-z]+\b)|"
    r"(?P<me>\b(?:I|me|my|we|our)\b)",
)
_ZH_REL = "|".join(ZH_RELATIONS)
_ABOUT_Q_ZH = re.compile(
    r"我的?(?P<rel>" + _ZH_REL + r")|^(?:那|那么)?(?P<bare>" + _ZH_REL + r")|(?P<pro>他|她|它)|(?P<me>我)"
)
_FOLLOW_UP = re.compile(
    r"^(?:and|what about|how about|also)\b|\b(?:it|its|they|them|their|that|those)\b|^那|呢[？?]?$", re.I
)


def _wants(text: str, chinese: bool) -> str:
    for pattern, kind in _WANTS_ZH if chinese else _WANTS_EN:
        if pattern.search(text):
            return kind
    return ""


def analyse(text: str, previous: Ask | None = None, people: frozenset[str] = frozenset()) -> Ask:
    """A question's content words, the kind of answer it wants and whom it is about.

    ``people``: the names the prompt gave, so "whats jamal's job" is about Jamal in lower case too.
    """
    text = casual(text).strip()
    chinese = mostly_chinese(text)
    wants = _wants(text, chinese)
    weak: set[str] = set()
    modifiers: set[str] = set()
    if chinese:
        found = _ABOUT_Q_ZH.search(text)
        words = zh_grams(text, question=True)
        about = ""
        if found:
            relation = found.group("rel") or found.group("bare")
            # 它们叫啥 after 我有几只猫 asks the cats' names, never the user's
            of_it = found.group("pro") == "它" and wants == "name"
            me = USER if found.group("me") else previous.about if previous and not of_it else ""
            about = ZH_RELATION_FORMS[relation] if relation else me
            words = zh_grams(text[: found.start()] + " " + text[found.end() :], question=True)
        named = max(  # the longest name the question holds, so that 老三 wins over 三 whatever the set order
            (p for p in people if re.search(f"[{CJK}]", p) and p in text),
            key=lambda p: (len(p), -text.find(p), p),
            default=None,
        )
        if named:
            about, words = named, zh_grams(text.replace(named, " "), question=True)
    else:
        about, words = _about_en(text, previous, people), set()
        run: list[str] = []
        for word in [*en_words(text), "?"]:
            lowered = word.lower()
            if (
                lowered in QUESTION_STOP
                or lowered == "?"
                or stem(lowered) == stem(about)
                or lowered == about.lower()
            ):
                modifiers.update(run[:-1])
                run = []
                continue
            run.append(stem(lowered))
            (weak if lowered in WEAK or stem(lowered) in WEAK else words).add(stem(lowered))
    extra: frozenset[str] = frozenset()
    # "how old is he?" asks an age of its own, not the last question's topic
    standalone = words or "age" in weak or (wants and about)
    if previous is not None and (_FOLLOW_UP.search(text) or not standalone):
        # "那儿子有啥毛病" after "儿子叫啥": its own question, the words before welcome; "and what's my
        # name" after "what breed is ziggy", "n her name?" after "my wife's job" ask the name alone
        if words or (wants == "name" and about):
            extra = previous.words if words else extra
        else:
            words, weak = set(previous.words), weak | previous.weak
            wants = wants or previous.wants
        if (
            not about
            and previous.about
            and (_FOLLOW_UP.search(text) or (not standalone and previous.about != USER))
        ):
            about = previous.about  # "我老公叫什么，做什么的": the second part asks of him too
    head = (_KIND_ZH if chinese else _KIND_EN).search(text)
    kinds: frozenset[str] = frozenset()
    if head:
        kinds = frozenset(
            zh_grams(head.group("k")) if chinese else {stem(w) for w in head.group("k").split()}
        )
    return Ask(
        text,
        frozenset(words),
        frozenset(weak),
        wants,
        about,
        chinese,
        extra,
        kinds & words,
        frozenset(modifiers),
    )


def _about_en(text: str, previous: Ask | None, people: frozenset[str]) -> str:
    if mixed := MY_ZH_RELATION.search(text):  # "where did my 姥姥 live?"
        return ZH_RELATION_FORMS[mixed.group("rel")]
    about = ""
    for found in _ABOUT_Q_EN.finditer(text):
        if found.group("rel") and stem(found.group("rel")) in RELATIONS:
            return stem(found.group("rel"))
        if found.group("rel"):  # "my name", "my job": the user's
            about = USER
        if found.group("name") and found.group("name") not in {"I", "What", "Where", "When", "Who", "How"}:
            return found.group("name")
        if found.group("pro") and previous is not None and previous.about not in {"", USER}:
            return previous.about
        if found.group("me"):
            about = USER
    lowered = {w.lower().removesuffix("'s") for w in en_words(text)}
    return next((p for p in sorted(people) if p.lower() in lowered), about)


_KIND_EN = re.compile(
    r"\b(?:what|which|whose)\s+(?:kind\s+of\s+|type\s+of\s+|sort\s+of\s+)?(?P<k>(?:[a-z]+\s+){1,2}?)"
    r"(?=(?:do|does|did|is|are|am|was|were|have|has|can|will|should|I|you|we|he|she|they|my)\b)",
    re.I,
)
_KIND_ZH = re.compile(r"(?:什么|啥|哪个|哪种|哪家)(?P<k>[" + CJK + r"]{1,3})")
