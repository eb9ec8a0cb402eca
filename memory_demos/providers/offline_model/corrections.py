"""Corrections: a correction's new value put in the place of the value it corrects.

"My name is Bob" + "no wait, Rob" reads "My name is Rob"; the value replaced is the one of the same
kind (a time for a time, a day for a day, a number for a number, a name for a name), else the words
after the same preposition or after the verb.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from memory_demos.providers.offline_model.lexicon import CJK
from memory_demos.providers.offline_model.words import ZH_RELATIONS

SUBJECT_START = re.compile(
    r"^(?:I|I'm|I've|I'd|I'll|my|we|we're|our|he|she|they|it|you|the|this|there)\b", re.I
)
VERB = re.compile(
    r"\b(?:is|are|am|was|were|have|has|had|live|lives|moved|work|works|like|likes|love|loves|go|goes|leave|"
    r"leaves|start|starts|got|get|need|take|takes|use|uses|drive|drives|eat|eats|drink|drinks)\b",
    re.I,
)


def is_fragment(text: str, *, chinese: bool) -> bool:
    """A few words with no subject or verb of their own ("Rob", "on Wednesday", "三只"): a new value."""
    if chinese:
        return len(text) <= 8 and not re.search("[我你他她]|住在|喜欢", text)
    words = text.split()
    return len(words) <= 4 and not SUBJECT_START.match(text) and not VERB.search(text)


_TYPED = (
    re.compile(r"\b\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)|\b\d{1,2}[:.]\d{2}\b", re.I),
    re.compile(
        r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\b(?:january|february|march|april|may|june|july|august|"
        r"september|october|november|december)(?:\s+\d{1,2}(?:st|nd|rd|th)?)?|\btoday\b|\btomorrow\b|\btonight\b",
        re.I,
    ),
    re.compile(r"[$€£¥]\s?\d[\d,.]*|\b\d[\d,.]*\s?(?:dollars|euros|bucks|pounds|usd|eur)\b", re.I),
    re.compile(
        r"\b\d[\d,.]*\b|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a couple)\b", re.I
    ),
    re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*\b"),
)
_ZH_NUMBER = re.compile(r"[\d一二两三四五六七八九十百千万]+[只个位条件本辆台岁块元点号月天年次]?")


_ZH_TYPED = (
    re.compile("[\\d一二两三四五六七八九十]+点(?:半|[\\d一二三四五六七八九十]+分?)?"),
    re.compile("\\d+(?:\\.\\d+)?\\s*(?:元|块)"),
    re.compile(
        "[\\d一二三四五六七八九十]+月[\\d一二三四五六七八九十]+[号日]|[\\d一二三四五六七八九十]+[号日]|周[一二三四五六日天]"
    ),
)


def _align_zh(old: str, fragment: str) -> str:
    for kind in _ZH_TYPED:  # a time for a time, whole: 两点半 + 三点半 is 三点半, not 三点半半
        new, olds = kind.search(fragment), list(kind.finditer(old))
        if new and olds:
            value = re.sub("[了吧啊呀哈]+$", "", fragment[new.start() :])  # 9点半的车 keeps its 车
            return old[: olds[-1].start()] + value + old[olds[-1].end() :]
    number = _ZH_NUMBER.match(fragment)
    if number and _ZH_NUMBER.search(old):
        spans, given = list(_ZH_NUMBER.finditer(old)), len(_ZH_NUMBER.findall(fragment))
        if 1 < given <= len(spans):  # 一天三次 + 一天两次: the numbers side by side, not the last one twice
            return old[: spans[-given].start()] + fragment + old[spans[-1].end() :]
        rest, unit = old[spans[-1].end() :], fragment[number.end() :]
        if unit and rest.startswith(unit):  # 住5楼 + 6楼 is 住6楼, not 住6楼楼
            rest = rest[len(unit) :]
        return old[: spans[-1].start()] + fragment + rest
    verbs = list(re.finditer("住在|叫|是|在|去|到|为|成|有|想|要", old))
    return old[: verbs[-1].end()] + fragment if verbs else fragment


def align(old: str, fragment: str, *, chinese: bool) -> str:
    """``old`` with ``fragment`` in the place of the value it corrects ("My name is Bob" + "Rob")."""
    if chinese:
        return _align_zh(old, fragment)
    for pattern in _TYPED:
        new, olds = pattern.search(fragment), list(pattern.finditer(old))
        olds = [m for m in olds if m.start() > 0 or pattern is not _TYPED[-1]]
        if new and olds:
            last = olds[-1]
            lead = fragment.split()[0].lower()
            start = last.start()
            before = old[:start].rstrip().rsplit(" ", 1)
            if len(before) == 2 and before[1].lower() == lead:  # "on Tuesday" -> "on Wednesday"
                start = len(before[0]) + 1
            rest, tail = old[last.end() :], fragment[new.end() :].strip()
            if tail and rest.lstrip().lower().startswith(tail.lower()):  # "8 people" for "6 people at …"
                rest = rest.lstrip()[len(tail) :]
            return old[:start] + fragment + rest
    lead = fragment.split()[0].lower()
    at = [m.start() for m in re.finditer(r"\b" + re.escape(lead) + r"\b", old, re.I)]
    if at:
        return old[: at[-1]] + fragment
    copula = list(re.finditer(r"\b(?:is|are|am|was|'s|to|at|in|on|for|with)\b", old))
    if copula:
        return old[: copula[-1].end()] + " " + fragment
    return fragment


# "forget what I said about shellfish": that value taken out of the statement holding it, the rest kept.
FORGET_ABOUT_EN = re.compile(
    r"\b(?:forget|ignore|scratch)\s+(?:(?:what|everything|anything)\s+I\s+(?:said|told\s+you|mentioned)\s+|"
    r"(?:that|the\s+(?:bit|part|thing)|it)\s+)?(?:about|re|regarding)\s+(?:the\s+|my\s+)?"
    r"(?P<x>[\w' -]+?)\s*(?=[,;.]|$)",
    re.IGNORECASE,
)
FORGET_ABOUT_ZH = re.compile(
    f"(?:忘了|别管|不算)(?:我)?(?:刚才|之前)?说的(?P<x>[{CJK}]{{1,6}}?)(?:的事|那个|那件事)?$"
)
# After "forget what I said about X": "I'm not allergic to it", "it was only peanuts" say nothing new.
RESTATES = re.compile(r"\b(?:not|n't|no longer|never|only|just)\b|n't\b|不|没|只", re.IGNORECASE)


def without_value(text: str, thing: str) -> str | None:
    """``text`` with ``thing`` taken out of the list it is in ("peanuts and shellfish" → "peanuts");
    None when it is no item of a list (the whole statement goes)."""
    escaped = re.escape(thing)
    for pattern in (
        rf",\s*{escaped}\b",
        rf",?\s+(?:and|or)\s+{escaped}\b",
        rf"\b{escaped}\s*,\s*",
        rf"\b{escaped}\s+(?:and|or)\s+",
        rf"{escaped}[、和]",
        rf"[、和]{escaped}",
    ):
        kept = re.sub(pattern, "", text, count=1, flags=re.IGNORECASE)
        if kept != text:
            return kept
    return None


def newest_of_kind(texts: Sequence[tuple[int, str]], fragment: str, *, chinese: bool) -> int | None:
    """Of ``texts`` (index, text; oldest first), the index of the newest holding a value of the kind the
    correction ``fragment`` gives: a time corrects the statement with a time ("其实是9点半的车" corrects
    the train at 8点, not the fare said after it)."""
    kinds = _ZH_TYPED if chinese else _TYPED[:3]
    kind = next((k for k in kinds if k.search(fragment)), None)
    if kind is None:
        return None
    return next((i for i, text in reversed(texts) if kind.search(text)), None)


def value_like(old_value: str, text: str) -> str | None:
    """The value in ``text`` of the kind ``old_value`` is ("36" in "daniel is 36" for "34"), or None."""
    if not old_value:
        return None
    for kind in (*_TYPED[:4], *_ZH_TYPED):
        if kind.fullmatch(old_value) and (new := kind.search(text)) and new.group(0) != old_value:
            return new.group(0)
    return None


# Corrections and retractions: what follows replaces what came before, or nothing does.
CORRECTION_EN = re.compile(
    r"(?:^|[\s,.;:!—–-]+)(?P<m>no\s+wait|wait,?\s+no|(?:hmm|nah|oh|ah|er|um),?\s+no|actually\s+no|nope|"
    r"scratch\s+that|(?<!\bme\s)(?<!\bto\s)(?<!n't\s)(?<!\bnot\s)"
    # "i always forget it", "we'll forget it": forgetting told of, not a retraction
    r"(?<!\bi\s)(?<!\bwe\s)(?<!\byou\s)(?<!\bthey\s)(?<!\balways\s)(?<!\busually\s)(?<!\boften\s)(?<!'ll\s)"
    r"forget\s+(?:that|it|I\s+said\s+(?:that|it|anything))|ignore\s+that|never\s*mind|nah|"
    r"sorry,?\s+I\s+meant|I\s+meant|sorry(?=,?\s+(?:it's|its|it\s+is|that's|make))|(?<![\w']\s)actually|correction|"
    r"make\s+(?:that|it)|oops|or\s+rather|not\s+anymore|not\s+any\s+more|(?:ugh,?\s+)?typo)(?=[\s,.;:!—–-]|$)",
    re.IGNORECASE,
)
CORRECTION_ZH = re.compile(
    r"(?:[哦噢啊呃嗯哎唉][，,]?\s*)?(?P<m>不对(?:不对)?|错了错了|我是说|我的意思是|改成|改为|改到|其实|说错了|打错了|写错了|打错字了|更正|哦不|不是不是|算了|当我没说|开玩笑的|开个玩笑|骗你的|别记了)[，,：:]?"
)
# Cheap scans first: most clauses hold no correction and suppose nothing.
MAY_CORRECT = re.compile(
    r"(?i:wait|scratch|forget|ignore|never|mean|sorry|actually|correction|make|oops|rather|any|no|nah|typo)|不|是说|意思|其实|更正|错了|算了|改|没说|玩笑|骗|别记"
)
RETRACTS = re.compile(
    r"scratch|forget|ignore|never|nah|算了|当我没说|玩笑|骗你|别记|not\s+any", re.IGNORECASE
)


_LIST_ADD_EN = re.compile(
    r"^(?:(?:oh|also|and|ok)\s+)*(?:add|put)\s+(?:some\s+)?(?!(?:me|him|her|it|them|that|this|you|us)\b)"
    r"(?P<x>[\w' -]+?)"
    r"(?:\s+(?:to|on)\s+(?:the|my|that)\s+(?:[\w-]+\s+)?list)?(?:\s+too|\s+as well)?$",
    re.I,
)
_LIST_REMOVE_EN = re.compile(
    r"^(?:(?:oh|also|and|ok|actually)\s+)*(?:remove|delete|take\s+off|cross\s+off|drop)\s+(?:the\s+)?"
    r"(?P<x>[\w' -]+?)(?:\s+(?:from|off)\s+(?:the|my|that)\s+(?:[\w-]+\s+)?list)?$",
    re.I,
)
_LIST_ADD_ZH = re.compile(
    f"^(?:再|还要|另外)?(?:加上?|添上?)(?:个|一个|点)?(?P<x>[{CJK}]{{1,6}}?)(?:吧|啊)?$"
)
_LIST_REMOVE_ZH = re.compile(
    f"^(?:把(?P<x>[{CJK}]{{1,6}}?)(?:去掉|删掉|划掉|拿掉|删了|去了)|(?:去掉|删掉|不要)(?P<y>[{CJK}]{{1,6}}?))(?:吧|了)?$"
)
_LIST_TAKE_OFF_EN = re.compile(  # "take ice off the list"
    r"^(?:(?:oh|also|and|ok|actually)\s+)*(?:take|cross|strike|knock)\s+(?:the\s+)?(?P<x>[\w' -]+?)\s+off"
    r"(?:\s+(?:the|my|that)\s+(?:[\w-]+\s+)?list)?$",
    re.I,
)
_LIST_NO_NEED_ZH = re.compile(f"^(?P<x>[{CJK}]{{1,6}}?)(?:就)?(?:不用买了|不买了|不要了|不用了)$")
_LIST_ALSO_ZH = re.compile(f"^还有(?P<x>[{CJK}]{{1,6}})$")  # 牛奶、鸡蛋、面包，还有苹果: in one message
_A_LIST = re.compile(r"\blist\b|清单|[:：].*[,，、]|[、]|,.*\band\b", re.I)


def list_edit(clause: str) -> tuple[bool, str, int] | None:
    """("add lemons" →) (True, "lemons", 3); ("把大米去掉" →) (False, "大米", 3); None for no list edit.
    The number: how many messages back the list may be for an addition (还有苹果: its own message only)."""
    for pattern, adds, reach in (
        (_LIST_ADD_EN, True, 3),
        (_LIST_REMOVE_EN, False, 3),
        (_LIST_ADD_ZH, True, 3),
        (_LIST_REMOVE_ZH, False, 3),
        (_LIST_TAKE_OFF_EN, False, 3),
        (_LIST_NO_NEED_ZH, False, 3),
        (_LIST_ALSO_ZH, True, 0),
    ):
        found = pattern.match(clause.strip(" .!。！"))
        if found:
            return adds, (found.group("x") or found.groupdict().get("y") or "").strip(), reach
    return None


def is_list(text: str) -> bool:
    return _A_LIST.search(text) is not None


def with_item(text: str, item: str) -> str:
    """A list with one more item: "eggs, spinach and rice" + "lemons" → "eggs, spinach, rice and lemons"."""
    if re.search(f"[{CJK}]", text):
        return f"{text.rstrip('。')}、{item}"
    last_and = text.rfind(" and ")
    if last_and >= 0:
        return f"{text[:last_and]}, {text[last_and + 5 :]} and {item}"
    return f"{text} and {item}"


def edit_newest_list(said: list[Any], clause: str, message: int) -> bool:
    """Apply a list edit (``list_edit``) to the newest standing user statement that is a list, in place
    in ``said`` (the reader's statements); False when ``clause`` edits no list."""
    edit = list_edit(clause)
    if edit is None or not edit[1]:
        return False
    lists = [i for i, s in enumerate(said) if s.source == "user" and not s.retracted and is_list(s.text)]
    if not lists:
        return False
    old = said[lists[-1]]
    if edit[0] and old.message < message - edit[2]:
        return False  # "add me on instagram" long after a shopping list adds nothing to it
    kept = (with_item if edit[0] else without_value)(old.text, edit[1])
    if kept is None:
        return False
    said[lists[-1]] = old._replace(retracted=True)
    said.append(old._replace(text=kept, order=len(said), message=message, change=True))
    return True


# Read by the reader: the fragment a correction leaves ("it's Porto, not Lisbon"), slips and call-offs.
FRAGMENT_LEAD = re.compile(
    r"^(?:(?:it's|its|it\s+is|it\s+was|that's|that\s+is|they're|to|is|are|was|no|wait|sorry|I\s+mean)\b[\s,]*)+",
    re.IGNORECASE,
)
NOT_OLD = re.compile(r",?\s*(?:and\s+|but\s+)?not\s+(?P<old>.*)$|[，,\s]?不是(?P<zh>.*)$")
ZH_NOT_TAIL = re.compile("[，,]\\s*(不是)")  # "是小红，不是小明" stays one clause
ZH_FRAGMENT_LEAD = re.compile("^(?:[他她它])?(?:是|应该是|其实是|叫|在)")
# "scratch that, the appointment got cancelled": what it takes back is not replaced but called off
CALLS_OFF = re.compile(r"\b(?:cancel\w*|called\s+off|not|don't|no\s+longer|won't|isn't|aren't)\b", re.I)
ZH_SLIP = re.compile(f"(?:(?![是叫住在姓有])[{CJK}]){{1,6}}?(?P<m>打错了|写错了|打错字了)")


# "mom's birthday is May 14 and dad's is October 2", 我老婆生日是5月18号，我是10月2号: the second names its
# owner and value and leaves the thing out; it is the thing of the statement before.
_ELIDED_EN = re.compile(
    r"^(?:(?:and|oh|but|while)\s+)*(?P<o>[A-Za-z][\w-]*'s|mine|hers|his|ours|theirs)\s+"
    r"(?P<v>(?:is|are|was|were)\s+.+)$",
    re.I,
)
_THING_EN = re.compile(
    r"(?:\b[A-Za-z][\w-]*'s|\b(?:my|his|her|our|their))\s+(?P<n>[a-z]+(?:\s+[a-z]+)?)\s+(?:is|are|was|were|[a-z]+s)\b"
)
_OWNER_ZH = f"(?:我|他|她)(?:的)?(?:{'|'.join(ZH_RELATIONS)})?|(?:{'|'.join(ZH_RELATIONS)})"
_ELIDED_ZH = re.compile(f"^(?:那)?(?P<o>{_OWNER_ZH})(?:的)?是(?P<v>[\\d一二两三四五六七八九十].*)$")
_THING_ZH = re.compile(f"(?:{_OWNER_ZH})(?:的)?(?P<n>[{CJK}]{{2,3}}?)是?[\\d一二两三四五六七八九十]")
_OWN = {"mine": "my", "hers": "her", "ours": "our", "theirs": "their"}


def filled_ellipsis(clause: str, said: Sequence[Any], source: str) -> str:
    """``clause`` with the thing it leaves out put back from the newest statement of ``source`` in ``said``
    that names one ("dad's is October 2" after "mom's birthday is May 14" reads "dad's birthday is
    October 2"); ``clause`` itself when it leaves nothing out."""
    chinese = re.search(f"[{CJK}]", clause) is not None
    found = (_ELIDED_ZH if chinese else _ELIDED_EN).match(clause)
    if found is None:
        return clause
    earlier = (s.text for s in reversed(said) if s.source == source and not s.question)
    thing = next(filter(None, map((_THING_ZH if chinese else _THING_EN).search, earlier)), None)
    if thing is None or (chinese and thing.group("n") in found.group("o")):
        return clause
    if chinese:
        return f"{found.group('o')}的{thing.group('n')}是{found.group('v')}"
    owner = found.group("o")
    return f"{_OWN.get(owner.lower(), owner)} {thing.group('n')} {found.group('v')}"
