"""Reading facts from text: the patterns, who they are about, and how later facts replace earlier ones."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from langchain_core.messages import BaseMessage

from memory_demos.providers.offline_model.lexicon import (
    _CJK,
    _KV_EXCLUDED_KEYS,
    _THING_STOP,
    _ZH_ANIMALS,
    _ZH_FAVOURITE_THINGS,
    _ZH_QUESTION,
    _ZH_THINGS,
    _ZH_VALUE,
    LIST_KEYS,
    MAX_LIST_VALUES,
    OPPOSITE_KEYS,
)
from memory_demos.providers.offline_model.text import (
    _KV_LINE,
    _clauses,
    _clean_list,
    _clean_name,
    _clean_place,
    _clean_value,
    _clean_zh_name,
    _content_text,
    _normalize_quotes,
    _segments,
    is_chinese,
    normalize_key,
)
from memory_demos.providers.tokenizer import (
    message_text,
)


@dataclass(frozen=True)
class Fact:
    """One fact about the user found in a text: a snake_case key, its value and the clause it came from."""

    key: str
    value: str
    source_text: str


# --------------------------------------------------------------------------------------------
# Fact patterns


_Handler = Callable[[re.Match[str]], list[tuple[str, str]]]


def _single(key: str, cleaner: Callable[[str], str | None]) -> _Handler:
    def handle(match: re.Match[str]) -> list[tuple[str, str]]:
        value = cleaner(match.group("v"))
        return [(key, value)] if value else []

    return handle


def _names(require_capital: bool) -> _Handler:
    return _single("name", lambda raw: _clean_name(raw, require_capital=require_capital))


def _listed(key: str, *, chinese: bool = False) -> _Handler:
    def handle(match: re.Match[str]) -> list[tuple[str, str]]:
        return [(key, value) for value in _clean_list(match.group("v"), chinese=chinese)]

    return handle


def _generic(match: re.Match[str]) -> list[tuple[str, str]]:
    thing = _normalize_quotes(match.group("k")).strip()
    raw = match.group("v").strip()
    if (
        thing.lower() in _THING_STOP
        or len(thing.split()) > 3
        or thing.lower().split()[0] in {"name", "names"}
    ):
        return []
    called = re.match(r"(?:called|named)\s+(.+)", raw, re.IGNORECASE)
    if called:
        name = _clean_name(called.group(1), require_capital=False)
        return [(normalize_key(f"{thing}_name"), name)] if name else []
    value = _clean_value(raw)
    key = normalize_key(thing)
    if not value or not key:
        return []
    if key == "name":
        name = _clean_name(value, require_capital=False)
        return [("name", name)] if name else []
    return [(key, value)]


def _favourite(match: re.Match[str]) -> list[tuple[str, str]]:
    value = _clean_value(match.group("v"))
    return [(normalize_key(f"favourite_{match.group('k')}"), value)] if value else []


def _zh_generic(match: re.Match[str]) -> list[tuple[str, str]]:
    thing = match.group("k")
    value = match.group("v").rstrip(".")
    if not value or _ZH_QUESTION.search(value) or thing.startswith("最"):
        return []
    key = _ZH_THINGS.get(thing, thing)
    if key == "name":
        name = _clean_zh_name(value) if is_chinese(value[:1]) else _clean_name(value, require_capital=False)
        return [("name", name)] if name else []
    return [(key, value)]


def _zh_favourite(match: re.Match[str]) -> list[tuple[str, str]]:
    value = match.group("v").rstrip(".")
    if _ZH_QUESTION.search(value):
        return []
    thing = match.group("k")
    return [(f"favourite_{_ZH_FAVOURITE_THINGS.get(thing, thing)}", value)]


def _zh_pet_name(match: re.Match[str]) -> list[tuple[str, str]]:
    thing = match.group("k")
    value = _clean_zh_name(match.group("v")) if is_chinese(match.group("v")[:1]) else match.group("v")
    if not value or thing == "名字":
        return []
    animal = _ZH_ANIMALS.get(thing)
    return [(f"{animal}_name" if animal else f"{thing}的名字", value)]


def _zh_i_am(match: re.Match[str]) -> list[tuple[str, str]]:
    value = match.group("v")
    if value.startswith(
        (
            "一",
            "个",
            "从",
            "在",
            "不",
            "很",
            "真",
            "挺",
            "太",
            "也",
            "都",
            "要",
            "想",
            "说",
            "个",
        )
    ):
        return []
    if value.endswith(("人", "的", "生", "师", "员", "家", "者", "手")):
        return []
    name = _clean_zh_name(value) if is_chinese(value[:1]) else _clean_name(value, require_capital=True)
    return [("name", name)] if name else []


def _compile(pattern: str, flags: int) -> re.Pattern[str]:
    """Compile a fact pattern; its trailing value is a lookahead, so the pattern can match again after it."""
    return re.compile(pattern.replace("(?P<v>.+)", "(?=(?P<v>.+))"), flags)


_I = r"\bI(?:'m|’m| am)"
_FIRST_PERSON: tuple[tuple[re.Pattern[str], _Handler], ...] = tuple(
    (_compile(pattern, flags), handler)
    for pattern, flags, handler in (
        (r"\bmy\s+name(?:'s|’s|\s+is)\s+(?P<v>.+)", re.IGNORECASE, _names(False)),
        (r"\b(?:you\s+can\s+)?call\s+me\s+(?P<v>.+)", re.IGNORECASE, _names(True)),
        (_I + r"\s+(?:called|named)\s+(?P<v>.+)", re.IGNORECASE, _names(False)),
        (_I + r"\s+(?P<v>[^\W\d_].*)", re.IGNORECASE, _names(True)),
        (
            r"\bI(?:'m|’m| am)?\s+(?:now\s+|currently\s+|still\s+|actually\s+)?"
            r"(?:live|living|reside|residing|based|staying)\s+in\s+(?P<v>.+)",
            re.IGNORECASE,
            _single("city", _clean_place),
        ),
        (
            r"\bI(?:'ve|’ve| have)?\s+(?:just\s+|recently\s+|now\s+)?(?:moved|relocated)\s+to\s+(?P<v>.+)",
            re.IGNORECASE,
            _single("city", _clean_place),
        ),
        (
            _I + r"\s+(?:originally\s+)?from\s+(?P<v>.+)",
            re.IGNORECASE,
            _single("hometown", _clean_place),
        ),
        (
            r"\bI(?:'m|’m| am)\s+[A-Z][\w'-]*\s+from\s+(?P<v>.+)",
            0,
            _single("hometown", _clean_place),
        ),
        (
            r"\bI\s+have\s+an?\s+(?P<k>[a-z]+)\s+(?P<v>(?:called|named)\s+.+)",
            re.IGNORECASE,
            _generic,
        ),
        (
            r"\bI\s+(?:originally\s+)?come\s+from\s+(?P<v>.+)",
            re.IGNORECASE,
            _single("hometown", _clean_place),
        ),
        (
            r"\bI\s+(?:really\s+|also\s+|just\s+|absolutely\s+|totally\s+|do\s+)?(?:love|like|enjoy|adore)\s+(?P<v>.+)",
            re.IGNORECASE,
            _listed("likes"),
        ),
        (
            _I + r"\s+(?:really\s+|also\s+)?into\s+(?P<v>.+)",
            re.IGNORECASE,
            _listed("likes"),
        ),
        (
            r"\bI\s+(?:really\s+|also\s+|just\s+|absolutely\s+|totally\s+)?"
            r"(?:hate|dislike|detest|can't\s+stand|cannot\s+stand|can’t\s+stand|don't\s+like|do\s+not\s+like|"
            r"don’t\s+like)\s+(?P<v>.+)",
            re.IGNORECASE,
            _listed("dislikes"),
        ),
        (
            r"\bI\s+work\s+as\s+(?:an?\s+)?(?P<v>.+)",
            re.IGNORECASE,
            _single("job", _clean_value),
        ),
        (
            _I + r"\s+(?P<v>\d{1,3})(?:\s+years?\s+old)?\b",
            re.IGNORECASE,
            _single("age", _clean_value),
        ),
        (
            r"\bmy\s+(?:absolute\s+)?favou?rite\s+(?P<k>[a-z][\w ]{0,20}?)\s+(?:is|are)\s+(?P<v>.+)",
            re.IGNORECASE,
            _favourite,
        ),
        (
            r"(?P<v>\b[\w'-]+(?:\s+[\w'-]+)?)\s+(?:is|are)\s+my\s+favou?rite\s+(?P<k>[a-z]\w{0,20})",
            re.IGNORECASE,
            _favourite,
        ),
        (
            r"\bmy\s+(?P<k>[a-z][\w'’ -]{0,30}?)\s+(?:is|are)\s+(?P<v>.+)",
            re.IGNORECASE,
            _generic,
        ),
        # Chinese
        (r"我的名字(?:是|叫)(?P<v>.+)", 0, _names(False)),
        (r"我叫(?P<v>.+)", 0, _names(False)),
        (r"叫我(?P<v>.+)", 0, _names(False)),
        (r"我是(?P<v>[^\s，。！？,!?；;、]{1,6})", 0, _zh_i_am),
        (
            r"(?:我|现在|目前|如今)(?:现在|目前|如今)?(?:住在|居住在|生活在|住)(?P<v>.+)",
            0,
            _single("city", _clean_place),
        ),
        (
            r"我(?:已经|刚|刚刚)?搬(?:到|去)了?(?P<v>.+)",
            0,
            _single("city", _clean_place),
        ),
        (
            r"我(?:来自|是从)(?P<v>.+?)(?:来的|$|[，。！,.!])",
            0,
            _single("hometown", _clean_place),
        ),
        (r"我是(?P<v>[" + _CJK + r"]{2,4})人", 0, _single("hometown", _clean_place)),
        (
            r"我(?:很|也|非常|特别|真的|超|还)?(?:喜欢|爱|热爱)(?P<v>.+)",
            0,
            _listed("likes", chinese=True),
        ),
        (
            r"我(?:很|也|非常|特别|真的|超|还)?(?:不喜欢|讨厌|不爱|受不了)(?P<v>.+)",
            0,
            _listed("dislikes", chinese=True),
        ),
        (
            r"我最(?:喜欢|爱)的(?P<k>[" + _CJK + r"]{1,6}?)是(?P<v>" + _ZH_VALUE + ")",
            0,
            _zh_favourite,
        ),
        (
            r"我的(?P<k>[" + _CJK + r"A-Za-z]{1,8}?)(?:是|为)\s*(?P<v>" + _ZH_VALUE + ")",
            0,
            _zh_generic,
        ),
        (
            r"我的(?P<k>[" + _CJK + r"]{1,4}?)叫\s*(?P<v>" + _ZH_VALUE + ")",
            0,
            _zh_pet_name,
        ),
        (r"(?:我|^|[，,])今年(?P<v>\d{1,3})岁", 0, _single("age", _clean_value)),
        # Chinese often drops the subject after the first clause: "我叫小明，住在北京".
        (
            r"(?:^|[，,])\s*(?:现在|目前)?(?:住在|居住在)(?P<v>.+)",
            0,
            _single("city", _clean_place),
        ),
        (
            r"我是(?:一名|一位|一个|个)(?P<v>[" + _CJK + r"]{1,8})",
            0,
            _single("job", _clean_place),
        ),
    )
)

_SECOND_PERSON: tuple[tuple[re.Pattern[str], _Handler], ...] = tuple(
    (_compile(pattern, flags), handler)
    for pattern, flags, handler in (
        (r"\byour\s+name\s+is\s+(?P<v>.+)", re.IGNORECASE, _names(False)),
        (r"\bnice\s+to\s+meet\s+you,?\s+(?P<v>.+)", re.IGNORECASE, _names(True)),
        (
            r"\byou\s+(?:now\s+)?live\s+in\s+(?P<v>.+)",
            re.IGNORECASE,
            _single("city", _clean_place),
        ),
        (
            r"\byou(?:'re|’re|\s+are)\s+from\s+(?P<v>.+)",
            re.IGNORECASE,
            _single("hometown", _clean_place),
        ),
        (r"\byou\s+(?:like|love|enjoy)\s+(?P<v>.+)", re.IGNORECASE, _listed("likes")),
        (
            r"\byou\s+(?:don't|don’t|do\s+not)\s+like\s+(?P<v>.+)",
            re.IGNORECASE,
            _listed("dislikes"),
        ),
        (
            r"\byou\s+work\s+as\s+(?:an?\s+)?(?P<v>.+)",
            re.IGNORECASE,
            _single("job", _clean_value),
        ),
        (
            r"\byou(?:'re|’re|\s+are)\s+(?P<v>\d{1,3})\s+years\s+old",
            re.IGNORECASE,
            _single("age", _clean_value),
        ),
        (
            r"\byour\s+favou?rite\s+(?P<k>[a-z][\w ]{0,20}?)\s+(?:is|are)\s+(?P<v>.+)",
            re.IGNORECASE,
            _favourite,
        ),
        (
            r"\byour\s+(?P<k>[a-z][\w'’ -]{0,30}?)\s+(?:is|are)\s+(?P<v>.+)",
            re.IGNORECASE,
            _generic,
        ),
        (r"你叫(?P<v>.+)", 0, _names(False)),
        (r"你住在(?P<v>.+)", 0, _single("city", _clean_place)),
        (r"你来自(?P<v>.+)", 0, _single("hometown", _clean_place)),
        (r"你(?<!不)喜欢(?P<v>.+)", 0, _listed("likes", chinese=True)),
        (r"你不喜欢(?P<v>.+)", 0, _listed("dislikes", chinese=True)),
        (
            r"你最喜欢的(?P<k>[" + _CJK + r"]{1,6}?)是(?P<v>" + _ZH_VALUE + ")",
            0,
            _zh_favourite,
        ),
        (
            r"你的(?P<k>[" + _CJK + r"A-Za-z]{1,8}?)是(?P<v>" + _ZH_VALUE + ")",
            0,
            _zh_generic,
        ),
        (r"你(?P<v>\d{1,3})岁", 0, _single("age", _clean_value)),
    )
)


@lru_cache(maxsize=128)
def _third_person_patterns(
    names: tuple[str, ...],
) -> tuple[tuple[re.Pattern[str], _Handler], ...]:
    alternatives = [r"the\s+human", r"the\s+user", r"human", r"user"]
    alternatives += [re.escape(name) for name in sorted(set(names), key=len, reverse=True) if name]
    subject = r"\b(?:" + "|".join(alternatives) + r")"
    flags = re.IGNORECASE
    rules: list[tuple[str, _Handler]] = [
        (subject + r"(?:'s|’s)\s+name\s+is\s+(?P<v>.+)", _names(False)),
        (
            r"(?P<v>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?|["
            + _CJK
            + r"]{1,4})\s+is\s+the\s+(?:human|user)(?:'s|’s)\s+name",
            _names(False),
        ),
        (subject + r"\s+is\s+(?:called|named)\s+(?P<v>.+)", _names(False)),
        (
            subject + r"\s+(?:now\s+|currently\s+)?(?:lives|is\s+living|resides|is\s+based)\s+in\s+(?P<v>.+)",
            _single("city", _clean_place),
        ),
        (
            subject + r"\s+(?:has\s+)?(?:moved|relocated)\s+to\s+(?P<v>.+)",
            _single("city", _clean_place),
        ),
        (
            subject + r"\s+(?:is|comes)\s+(?:originally\s+)?from\s+(?P<v>.+)",
            _single("hometown", _clean_place),
        ),
        (subject + r"\s+(?:likes|loves|enjoys|adores)\s+(?P<v>.+)", _listed("likes")),
        (
            subject + r"\s+(?:dislikes|hates|doesn't\s+like|does\s+not\s+like|doesn’t\s+like)\s+(?P<v>.+)",
            _listed("dislikes"),
        ),
        (
            subject + r"\s+works\s+as\s+(?:an?\s+)?(?P<v>.+)",
            _single("job", _clean_value),
        ),
        (
            subject + r"\s+is\s+(?P<v>\d{1,3})\s+years\s+old",
            _single("age", _clean_value),
        ),
        (
            subject + r"(?:'s|’s)\s+(?P<k>[a-z][\w'’ -]{0,30}?)\s+(?:is|are)\s+(?P<v>.+)",
            _generic,
        ),
    ]
    return tuple((_compile(pattern, flags), handler) for pattern, handler in rules)


_ENTITY_LINE = re.compile(r"^\s*(?P<n>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?):\s+(?P=n)\b", re.MULTILINE)


def _scan(
    text: str,
    patterns: Sequence[tuple[re.Pattern[str], _Handler]],
    facts: list[tuple[int, Fact]],
    offset: int,
) -> None:
    for pattern, handler in patterns:
        for match in pattern.finditer(text):
            for key, value in handler(match):
                # A sentence-final full stop is not part of a value ("The human's name is 小明.").
                value = value.rstrip(".。") if not value.endswith("..") else value
                if value:
                    facts.append((offset + match.start(), Fact(key, value, text.strip())))


def _extract(text: str, default_role: str, names: Sequence[str]) -> list[Fact]:
    third_person = _third_person_patterns(tuple(sorted(set(names))))
    found: list[tuple[int, Fact]] = []
    position = 0
    for segment in _segments(text, default_role):
        for clause, question in _clauses(segment.text):
            position += 1000
            if question:
                continue
            if segment.role == "human":
                _scan(clause, _FIRST_PERSON, found, position)
            elif segment.role == "ai":
                # The assistant quoting the user ("nothing about “你喜欢山还是海”") states no fact.
                _scan(
                    re.sub(r"“[^”]*”|\"[^\"]*\"", " ", clause),
                    _SECOND_PERSON,
                    found,
                    position,
                )
            _scan(clause, third_person, found, position)
            kv = _KV_LINE.match(clause)
            if kv and kv.group("k") not in _KV_EXCLUDED_KEYS:
                key = normalize_key(kv.group("k"))
                if key in LIST_KEYS:
                    found.extend(
                        (position + 999, Fact(key, item, clause)) for item in _clean_list(kv.group("v"))
                    )
                elif key == "name":
                    name = _clean_name(kv.group("v"), require_capital=False)
                    if name:
                        found.append((position + 999, Fact(key, name, clause)))
                else:
                    found.append(
                        (
                            position + 999,
                            Fact(key, kv.group("v").strip().rstrip("."), clause),
                        )
                    )
    found.sort(key=lambda item: item[0])
    facts: list[Fact] = []
    for _, fact in found:
        if facts and facts[-1] == fact:
            continue
        facts.append(fact)
    return facts


def extract_facts(text: str, *, role: str = "human") -> list[Fact]:
    """Facts about the user stated in ``text``, oldest first; a later fact overrides an earlier one.

    ``role`` is who wrote unprefixed lines: "human" (first person: "I live in Lisbon"), "ai" (second
    person: "Your name is Mara") or "narrative" (third person and ``key: value`` lines only). Lines
    prefixed with "Human:"/"AI:" switch role, so transcripts and retrieved snippets parse correctly.
    """
    first_pass = _extract(text, role, ())
    names = [fact.value for fact in first_pass if fact.key == "name"]
    if not names:
        names = [match.group("n") for match in _ENTITY_LINE.finditer(text)]
    if not names:
        return first_pass
    return _extract(text, role, names)


def merge_facts(facts: Iterable[Fact]) -> dict[str, tuple[str, ...]]:
    """Fold facts into key -> values, newest wins; "likes"/"dislikes" accumulate. Ordered by last update."""
    merged: dict[str, list[str]] = {}
    for fact in facts:
        if fact.key in LIST_KEYS:
            values = [v for v in merged.pop(fact.key, []) if v.casefold() != fact.value.casefold()]
            merged[fact.key] = [*values, fact.value][-MAX_LIST_VALUES:]
            opposite = OPPOSITE_KEYS[fact.key]
            if opposite in merged:
                remaining = [v for v in merged[opposite] if v.casefold() != fact.value.casefold()]
                if remaining:
                    merged[opposite] = remaining
                else:
                    del merged[opposite]
        else:
            merged.pop(fact.key, None)
            merged[fact.key] = [fact.value]
    return {key: tuple(values) for key, values in merged.items()}


def facts_in_messages(messages: Sequence[BaseMessage]) -> dict[str, tuple[str, ...]]:
    """Everything the prompt says about the user, newest occurrence winning."""
    text = "\n".join(_tagged_text(message) for message in messages)
    return merge_facts(extract_facts(text, role="narrative"))


def _tagged_text(message: BaseMessage) -> str:
    """A message's text with a role prefix, so ``extract_facts`` knows who is speaking."""
    text = message_text(message) if message.type != "ai" else _content_text(message)
    prefix = {"human": "Human", "ai": "AI", "tool": "System"}.get(message.type, "System")
    return f"{prefix}: {text}"
