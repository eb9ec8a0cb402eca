"""Finding the questions in a message and what each one asks for."""

from __future__ import annotations

import re

from memory_demos.providers.offline_model.lexicon import (
    _CJK,
    _THING_STOP,
    _ZH_FAVOURITE_THINGS,
    _ZH_THINGS,
    ALL_FACTS,
)
from memory_demos.providers.offline_model.text import _normalize_quotes, normalize_key

# --------------------------------------------------------------------------------------------
# Recall questions


_RECALL_EN: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), key)
    for pattern, key in (
        (
            r"\bwhat(?:'s|\s+is|\s+was)\s+my\s+name\b|\bwho\s+am\s+i\b|\b(?:know|remember)\s+my\s+name\b|"
            r"\bwhat\s+(?:am|was)\s+i\s+called\b|\bwhat\s+did\s+i\s+say\s+my\s+name\s+(?:is|was)\b|"
            r"\bwhat\s+should\s+you\s+call\s+me\b",
            "name",
        ),
        (
            r"\bwhere\s+(?:do|did)\s+i\s+live\b|\bwhere\s+i\s+live\b|\b(?:which|what)\s+city\s+(?:do|did)\s+i\s+live|"
            r"\bwhere\s+am\s+i\s+(?:living|based)\b|\bwhere(?:'s|\s+is)\s+my\s+home\b|\bwhere\s+did\s+i\s+move\b",
            "city",
        ),
        (
            r"\bwhere\s+(?:am|was)\s+i\s+from\b|\bwhere\s+do\s+i\s+come\s+from\b|\bwhere\s+i(?:'m|\s+am)\s+from",
            "hometown",
        ),
        (
            r"\bwhat\s+(?:do|did)\s+i\s+(?:like|love|enjoy)\b|\bwhat\s+i\s+like\b",
            "likes",
        ),
        (
            r"\bwhat\s+(?:do|did)\s+i\s+(?:hate|dislike|not\s+like)\b|\bwhat\s+don't\s+i\s+like\b",
            "dislikes",
        ),
        (r"\bhow\s+old\s+am\s+i\b", "age"),
        (
            r"\bwhat(?:'s|\s+is)\s+my\s+(?:job|occupation)\b|\bwhat\s+do\s+i\s+do\s+for\s+(?:a\s+living|work)\b",
            "job",
        ),
        (
            r"\bwhat\s+do\s+you\s+(?:know|remember)\s+about\s+me\b|\bwhat\s+have\s+i\s+told\s+you\b",
            ALL_FACTS,
        ),
    )
)
_RECALL_FAVOURITE = re.compile(
    r"\bwhat(?:'s|\s+is|\s+are|\s+was|\s+were)\s+my\s+favou?rite\s+(?P<k>[a-z]\w*)",
    re.IGNORECASE,
)
_RECALL_CALLED = re.compile(r"\bwhat(?:'s|\s+is)\s+my\s+(?P<k>[a-z]\w*)\s+(?:called|named)\b", re.IGNORECASE)
_RECALL_GENERIC = re.compile(
    r"\b(?:what(?:'s|\s+is|\s+are|\s+was|\s+were)|(?:do\s+you\s+)?(?:know|remember)|tell\s+me)\s+my\s+"
    r"(?P<k>[a-z][\w'’ -]{0,30}?)\s*(?:\?|$|\bagain\b|\.)",
    re.IGNORECASE,
)
_RECALL_ZH: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), key)
    for pattern, key in (
        (
            r"我叫(?:什么|啥)|我的名字(?:是|叫)?(?:什么|啥)|我是谁|(?:记得|知道)我的名字|我叫什么名字",
            "name",
        ),
        (r"我住(?:在)?(?:哪|什么地方|啥地方)|我住的(?:城市|地方)是", "city"),
        (r"我(?:来自|是)(?:哪|什么地方)|我是从哪", "hometown"),
        (r"我(?:都)?喜欢(?:什么|啥|吃什么)", "likes"),
        (r"我(?:不喜欢|讨厌)(?:什么|啥)", "dislikes"),
        (r"我(?:多大|几岁|今年多大|今年几岁)", "age"),
        (
            r"(?:你(?:都)?(?:知道|记得)(?:关于)?我(?:的)?(?:什么|哪些))|关于我你(?:知道|记得)什么",
            ALL_FACTS,
        ),
    )
)
_RECALL_ZH_FAVOURITE = re.compile(r"我最(?:喜欢|爱)的(?P<k>[" + _CJK + r"]{1,6}?)是(?:什么|啥|哪)")
_RECALL_ZH_GENERIC = re.compile(r"我的(?P<k>[" + _CJK + r"A-Za-z]{1,8}?)(?:是|叫)?(?:什么|多少|啥|几号|哪)")


def detect_recall_question(text: str) -> str | None:
    """The fact key a question asks for ("name", "city", "order_number", "*" for everything), or None."""
    text = _normalize_quotes(text)
    for pattern, key in _RECALL_EN + _RECALL_ZH:
        if pattern.search(text):
            return key
    match = _RECALL_FAVOURITE.search(text)
    if match:
        return normalize_key(f"favourite_{match.group('k')}")
    match = _RECALL_CALLED.search(text)
    if match:
        return normalize_key(f"{match.group('k')}_name")
    match = _RECALL_ZH_FAVOURITE.search(text)
    if match:
        thing = match.group("k")
        return f"favourite_{_ZH_FAVOURITE_THINGS.get(thing, thing)}"
    match = _RECALL_ZH_GENERIC.search(text)
    if match:
        return _ZH_THINGS.get(match.group("k"), match.group("k"))
    match = _RECALL_GENERIC.search(text)
    asks = "?" in text or re.match(r"\s*(?:what|tell|do\s+you|remind)", text, re.IGNORECASE)
    if match and asks:
        thing = match.group("k").strip()
        if thing.lower() not in _THING_STOP and len(thing.split()) <= 3:
            return normalize_key(thing)
    return None
