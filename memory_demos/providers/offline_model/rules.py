"""Fact rules: what a statement says, read from its canonical form ("S live in Lisbon", "S住在北京").

Each rule maps a pattern to a handler that returns ``(key, value)`` pairs. The subject was already
replaced by ``S`` (see ``statements``), so one rule covers "I", "you", "Kofi" and "the human".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from memory_demos.providers.offline_model.changes import ANY_VALUE
from memory_demos.providers.offline_model.lexicon import (
    CJK,
    HABIT_FORMS,
    HABIT_VERBS,
    NATIONALITIES,
    RELATIONS_EN,
    RELATIONS_ZH,
    THING_STOP,
    ZH_ANIMALS,
    ZH_FAVOURITE_THINGS,
    ZH_HABIT_VERBS,
    ZH_QUESTION_RE,
    ZH_THINGS,
    ZH_VALUE,
)
from memory_demos.providers.offline_model.text import (
    clean_list,
    clean_name,
    clean_place,
    clean_value,
    clean_zh_name,
    first_matching,
    is_chinese,
    mostly_chinese,
    normalize_key,
)

Pairs = list[tuple[str, str]]
Handler = Callable[[re.Match[str]], Pairs]
BIRTHDAY = "+1"  # an age value meaning "one year older than before"

_JOB_SUFFIX = re.compile(r"(?:er|or|ist|ian|ant|ent|eer|ect|ist|nurse|chef|cook|pilot|student|dentist)$")
_NOT_JOBS = frozenset({"fan", "member", "user", "owner", "beginner", "number", "other", "lover", "person"})


_FIRST_WORD_END = re.compile(r"[\s,.!?]")
_FROM = re.compile(r"\bfrom\s+(?P<v>.+)")
_CALLED = re.compile(r"(?:called|named)\s+(.+)", re.IGNORECASE)
_ZH_MEASURE = re.compile("^(?:一名|一位|一个|个|名)")


def _single(key: str, cleaner: Callable[[str], str | None]) -> Handler:
    def handle(match: re.Match[str]) -> Pairs:
        value = cleaner(match.group("v"))
        return [(key, value)] if value else []

    return handle


def _listed(key: str, *, chinese: bool = False) -> Handler:
    def handle(match: re.Match[str]) -> Pairs:
        return [(key, value) for value in clean_list(match.group("v"), chinese=chinese)]

    return handle


def _name(match: re.Match[str]) -> Pairs:
    name = clean_name(match.group("v"), require_capital=False)
    return [("name", name)] if name else []


def _self_name(match: re.Match[str]) -> Pairs:
    raw = match.group("v").strip()
    word = _FIRST_WORD_END.split(raw, maxsplit=1)[0]
    if word in NATIONALITIES:
        return [("nationality", word)]
    name = clean_name(raw, require_capital=True)
    origin = _FROM.search(raw)
    place = clean_place(origin.group("v")) if origin else None
    return [("name", name)] + ([("hometown", place)] if place else []) if name else []


def _job(match: re.Match[str]) -> Pairs:
    value = clean_value(match.group("v"))
    if not value or len(value.split()) > 3:
        return []
    last = value.split()[-1].lower()
    return [("job", value)] if _JOB_SUFFIX.search(last) and last not in _NOT_JOBS else []


def _habit(match: re.Match[str]) -> Pairs:
    key = HABIT_VERBS[HABIT_FORMS[match.group("verb").lower()]]
    return [(key, value) for value in clean_list(match.group("v"))]


def _generic(match: re.Match[str]) -> Pairs:
    thing = match.group("k").strip()
    raw = match.group("v").strip()
    if thing.lower() in THING_STOP or len(thing.split()) > 3 or not thing:
        return []
    called = _CALLED.match(raw)
    named = called or thing.split()[-1].lower() == "name"
    if named or thing.lower() in RELATIONS_EN:
        # "your aunt is making dumplings" (its own reply): a bare relation's name is a capitalised one
        name = clean_name(called.group(1) if called else raw, require_capital=not named)
        if not name:
            return []
        if thing.lower() in {"name", "first name", "full name"}:
            return [("name", name)]
        return [(normalize_key(thing if thing.endswith("name") else f"{thing}_name"), name)]
    value = clean_value(raw)
    key = normalize_key(thing)
    return [(key, value)] if value and key else []


def _favourite(match: re.Match[str]) -> Pairs:
    value = clean_value(match.group("v"))
    return [(normalize_key(f"favourite_{match.group('k')}"), value)] if value else []


# "Tea is my favourite drink": the subject comes after the value, so this rule searches.
_FAVOURITE_AFTER = r"(?P<v>\b[\w'-]+(?:\s+[\w'-]+)?)\s+(?:is|are)\s+S's\s+favou?rite\s+(?P<k>[a-z]\w{0,20})"
# A searched rule scans the whole statement: it runs only when the statement holds this piece (its
# letters match no other characters case-insensitively, so lowercasing the text is enough).
_SEARCH_NEEDS = {_FAVOURITE_AFTER: "favo"}
_EN_RULES: tuple[tuple[str, Handler], ...] = (
    (
        r"^S's\s+birthday\s*$|^S's\s+birthday\s+(?:is|was)\s+(?:today|yesterday)|^S\s+had\s+(?:a|S's)\s+birthday",
        lambda m: [("age", BIRTHDAY)],
    ),
    (r"^S\s+is\s+(?:called|named)\s+(?P<v>.+)", _name),
    (r"^S\s+turned\s+(?P<v>\d{1,3})\b", _single("age", clean_value)),
    (r"^S\s+is\s+(?P<v>\d{1,3})(?:\s+years?\s+old)?(?:\s|$|[.,!])", _single("age", clean_value)),
    (
        r"^S\s+(?:is\s+)?(?:live[sd]?|living|reside[sd]?|residing|based|staying|stays)\s+in\s+(?P<v>.+)",
        _single("city", clean_place),
    ),
    (
        r"^S\s+(?:has\s+|have\s+)?(?:moved|relocated|move[sd]?)\s+to\s+(?P<v>.+)",
        _single("city", clean_place),
    ),
    (r"^S's\s+(?:home|house|flat|apartment)\s+is\s+in\s+(?P<v>.+)", _single("city", clean_place)),
    (r"^S\s+(?:is|was)\s+(?:from|born\s+in)\s+(?P<v>.+)", _single("hometown", clean_place)),
    (r"^S\s+comes?\s+from\s+(?P<v>.+)", _single("hometown", clean_place)),
    (r"^S\s+works\s+as\s+\*$", lambda m: [("job", ANY_VALUE)]),
    (r"^S\s+works?\s+as\s+(?:an?\s+)?(?P<v>.+)", _single("job", clean_value)),
    (r"^S\s+is\s+an?\s+(?P<v>[a-z][\w -]{1,30})", _job),
    (
        r"^S\s+is\s+(?P<v>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)\s*$",
        lambda m: [("nationality", m.group("v"))] if m.group("v") in NATIONALITIES else [],
    ),
    (r"^S\s+(?:do\s+)?(?:love|like|enjoy|adore)[sd]?\s+(?!to\b)(?P<v>.+)", _listed("likes")),
    (r"^S\s+is\s+into\s+(?P<v>.+)", _listed("likes")),
    (
        r"^S\s+(?:hate[sd]?|dislike[sd]?|detests?|can't\s+stand|cannot\s+stand|(?:don't|doesn't|do\s+not|does\s+not)\s+like)\s+(?P<v>.+)",
        _listed("dislikes"),
    ),
    (r"^S\s+(?P<verb>" + "|".join(sorted(HABIT_FORMS, key=len, reverse=True)) + r")\s+(?P<v>.+)", _habit),
    (r"^S's\s+favou?rite\s+(?P<k>[a-z][\w ]{0,20}?)\s+(?:is|are)\s+(?P<v>.+)", _favourite),
    (_FAVOURITE_AFTER, _favourite),
    (r"^S\s+(?:has|have)\s+an?\s+(?P<k>[a-z]+)\s+(?P<v>(?:called|named)\s+.+)", _generic),
    (r"^S's\s+(?P<k>[a-z][\w' -]{0,30}?)\s+(?:is|are|was)\s+(?P<v>.+)", _generic),
)
# Only about oneself: "I'm Mara" names me; "Kofi is Mara" names nobody.
_EN_SELF_RULES: tuple[tuple[str, Handler], ...] = ((r"^S\s+is\s+(?P<v>[A-Z][^\W\d_][\w'-]*.*)", _self_name),)


def _zh_generic(match: re.Match[str]) -> Pairs:
    thing, value = match.group("k"), match.group("v").rstrip(".")
    if not value or ZH_QUESTION_RE.search(value) or thing.startswith("最"):
        return []
    if thing in RELATIONS_ZH:
        name = clean_zh_name(value) if is_chinese(value[:1]) else clean_name(value, require_capital=False)
        return [(f"{RELATIONS_ZH[thing]}_name", name)] if name else []
    if thing in ZH_ANIMALS and match.group("verb") == "叫":
        return [(f"{ZH_ANIMALS[thing]}_name", value)]
    key = ZH_THINGS.get(thing, thing)
    if key == "name" or match.group("verb") == "叫":
        name = clean_zh_name(value) if is_chinese(value[:1]) else clean_name(value, require_capital=False)
        if not name:
            return []
        return (
            [("name", name)]
            if key == "name"
            else [(f"{key}_name" if not is_chinese(key) else f"{key}的名字", name)]
        )
    return [(key, value)]


def _zh_favourite(match: re.Match[str]) -> Pairs:
    value = match.group("v").rstrip(".")
    if ZH_QUESTION_RE.search(value):
        return []
    thing = match.group("k")
    return [(f"favourite_{ZH_FAVOURITE_THINGS.get(thing, thing)}", value)]


_ZH_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


def _zh_age(raw: str) -> str | None:
    """An age in digits, also when written in Chinese numerals (二十五 -> 25)."""
    if raw.isdigit():
        return raw
    tens, _, ones = raw.partition("十")
    if not _:
        return str(_ZH_DIGITS[raw]) if raw in _ZH_DIGITS else None
    if (tens and tens not in _ZH_DIGITS) or (ones and ones not in _ZH_DIGITS):
        return None
    return str(_ZH_DIGITS.get(tens, 1) * 10 + _ZH_DIGITS.get(ones, 0))


def _zh_is(match: re.Match[str]) -> Pairs:
    value = match.group("v")
    if _ZH_MEASURE.match(value):
        job = _ZH_MEASURE.sub("", value, count=1)
        return [("job", job)] if job and not ZH_QUESTION_RE.search(job) else []
    if value.endswith("人") and 2 <= len(value) <= 5:
        return [("hometown", value[:-1])]
    if value.endswith(("师", "员", "生", "家", "者", "手", "士", "工", "官")) and len(value) <= 5:
        return [("job", value)]
    return []


def _zh_self_name(match: re.Match[str]) -> Pairs:
    value = match.group("v")
    if value.startswith(("一", "个", "从", "在", "不", "很", "真", "挺", "太", "要", "想", "说", "名", "位")):
        return []
    if value.endswith(("人", "的", "生", "师", "员", "家", "者", "手", "士", "工")):
        return []
    name = clean_zh_name(value) if is_chinese(value[:1]) else clean_name(value, require_capital=True)
    return [("name", name)] if name else []


def _zh_habit(match: re.Match[str]) -> Pairs:
    return [(ZH_HABIT_VERBS[match.group("verb")], v) for v in clean_list(match.group("v"), chinese=True)]


_ZH_RULES: tuple[tuple[str, Handler], ...] = (
    (r"^S(?:今天|昨天)?过了?生日|^S的生日$|^S的生日是(?:今天|昨天)", lambda m: [("age", BIRTHDAY)]),
    (r"^S的名字(?:是|叫)(?P<v>.+)", _name),
    (r"^(?:S叫|叫S)(?P<v>.+)", _name),
    (r"^S(?:今年)?满?(?P<v>\d{1,3}|[一二两三四五六七八九十]{1,4})(?:周)?岁", _single("age", _zh_age)),
    (r"^S(?:住在|居住在|生活在|住)(?P<v>.+)", _single("city", clean_place)),
    (r"^S搬(?:到|去)了?(?P<v>.+)", _single("city", clean_place)),
    (r"^S(?:来自|是从)(?P<v>.+?)(?:来的|$)", _single("hometown", clean_place)),
    (r"^S是(?P<v>[^\s，。！？,!?；;、]{1,8})", _zh_is),
    (r"^S做\*$", lambda m: [("job", ANY_VALUE)]),
    (r"^S(?:在\S{1,8})?(?:当|做)(?P<v>[" + CJK + r"]{1,6})$", _single("job", clean_place)),
    (r"^S(?:很|非常|特别|真的|超)?(?:不喜欢|讨厌|不爱|受不了)(?P<v>.+)", _listed("dislikes", chinese=True)),
    (r"^S(?:很|非常|特别|真的|超)?(?:喜欢|爱|热爱)(?P<v>.+)", _listed("likes", chinese=True)),
    (
        r"^S(?:每天|经常|平时)?(?P<verb>[喝吃玩说开看])(?![了过着])(?P<v>(?!一)[^\s，。！？,!?；;、]{1,12})",
        _zh_habit,
    ),
    (r"^S最(?:喜欢|爱)的(?P<k>[" + CJK + r"]{1,6}?)是(?P<v>" + ZH_VALUE + ")", _zh_favourite),
    (r"^S的(?P<k>[" + CJK + r"A-Za-z]{1,8}?)(?P<verb>是|为|叫)\s*(?P<v>" + ZH_VALUE + ")", _zh_generic),
)
_ZH_SELF_RULES: tuple[tuple[str, Handler], ...] = (
    (r"^S是(?P<v>[^\s，。！？,!?；;、]{1,6})$", _zh_self_name),
)


@dataclass(frozen=True)
class _RuleSet:
    """Rules in order. Anchored ones ("^S ...") are tried with ``match``, others with ``search``; one
    alternation finds the first anchored rule that matches, so only it and earlier searches run.
    """

    finds: tuple[Callable[[str], re.Match[str] | None], ...]
    handlers: tuple[Handler, ...]
    needs: tuple[str, ...]  # per rule, a lowercase piece of text it cannot match without ("" for none)
    orders: tuple[tuple[int, ...], ...]  # by the first anchored rule that matched: the rules to try
    first_anchored: Callable[[str], int | None]

    @classmethod
    def of(cls, rules: tuple[tuple[str, Handler], ...], flags: int) -> _RuleSet:
        finds: list[Callable[[str], re.Match[str] | None]] = []
        anchored: list[str] = []
        for pattern, _ in rules:
            if pattern.startswith("^"):
                anchored.append(pattern[1:].replace("|^", "|"))
                finds.append(re.compile(anchored[-1], flags).match)
            else:
                anchored.append("(?!)")  # never matches: this rule is searched for instead
                finds.append(re.compile(pattern, flags).search)
        searched = [i for i, (pattern, _) in enumerate(rules) if not pattern.startswith("^")]
        # Earlier searched rules, then the first anchored match and every rule after it.
        orders = tuple(
            (*(i for i in searched if i < first), *range(first, len(rules)))
            for first in range(len(rules) + 1)
        )
        needs = tuple(_SEARCH_NEEDS.get(pattern, "") for pattern, _ in rules)
        return cls(tuple(finds), tuple(h for _, h in rules), needs, orders, first_matching(anchored, flags))

    def pairs(self, text: str) -> Pairs | None:
        """The pairs of the first rule that matches and yields any; None when none does."""
        first = self.first_anchored(text)
        lowered = ""
        for index in self.orders[len(self.finds) if first is None else first]:
            if self.needs[index]:
                lowered = lowered or text.lower()
                if self.needs[index] not in lowered:
                    continue
            match = self.finds[index](text)
            if match:
                pairs = self.handlers[index](match)
                if pairs:
                    return pairs
        return None


_RULE_SETS = {
    (False, False): _RuleSet.of(_EN_RULES, re.IGNORECASE),
    (False, True): _RuleSet.of(_EN_SELF_RULES, 0),
    (True, False): _RuleSet.of(_ZH_RULES, 0),
    (True, True): _RuleSet.of(_ZH_SELF_RULES, 0),
}


def read_pairs(text: str, *, self_subject: bool) -> Pairs:
    """The (key, value) pairs one canonical statement states; the first rule that yields wins."""
    chinese = mostly_chinese(text)
    pairs = _RULE_SETS[(chinese, False)].pairs(text)
    if pairs is None and self_subject:
        pairs = _RULE_SETS[(chinese, True)].pairs(text)
    return [(k, v.rstrip(".。") if not v.endswith("..") else v) for k, v in pairs or () if v]
