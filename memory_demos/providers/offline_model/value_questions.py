"""Questions that name a value: who holds it ("Who lives in Accra?", 谁住在广州？) and whether it holds
("Does Kofi live in Lisbon?", 小王住在北京吗？). Read here; answered in ``answers``.
"""

from __future__ import annotations

import re

from memory_demos.providers.offline_model.lexicon import CJK
from memory_demos.providers.offline_model.text import clean_place, clean_value, normalize_key

WHO = "?"  # the subject of "Who lives in Accra?": whoever the prompt says holds the value

_TAIL_EN = r"(?:\s+(?:now|still|anymore|any\s+more|these\s+days|today))*\s*\??$"
_ARTICLE = r"(?:an?\s+)?"
# (pattern, fact key); the value is group "v".
_WHO_EN: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern + _TAIL_EN, re.IGNORECASE), key)
    for pattern, key in (
        (
            r"^who\s+(?:now\s+|still\s+)?(?:lives|is\s+living|stays|resides|is\s+based)\s+in\s+(?P<v>.+?)",
            "city",
        ),
        (r"^who\s+(?:now\s+|still\s+)?(?:works|is\s+working)\s+as\s+" + _ARTICLE + r"(?P<v>.+?)", "job"),
        (r"^who\s+is\s+an?\s+(?P<v>[a-z][\w -]*?)", "job"),
        (r"^who\s+(?:is|comes)\s+(?:originally\s+)?from\s+(?P<v>.+?)", "hometown"),
        (r"^who\s+(?:likes|loves|enjoys)\s+(?P<v>.+?)", "likes"),
    )
)
_WHO_ZH: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern + "[？?]?$"), key)
    for pattern, key in (
        ("^谁(?:现在|还)?(?:住在|住)(?P<v>.+?)", "city"),
        (
            "^谁(?:现在|还)?(?:是|当|做)(?:一名|一位|一个)?(?P<v>[" + CJK + "]{1,4}[师员生家者手士工官])",
            "job",
        ),
        ("^谁(?:来自|是从)(?P<v>.+?)(?:来的)?", "hometown"),
        ("^谁(?:很)?喜欢(?P<v>.+?)", "likes"),
    )
)
# Asked of a question whose subject is already ``S`` ("Does S live in Lisbon?", "S住在北京吗").
_WHETHER_EN: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern + _TAIL_EN, re.IGNORECASE), key)
    for pattern, key in (
        (r"^(?:do|does)\s+S\s+(?:still\s+|now\s+|really\s+)?(?:live|stay|reside)\s+in\s+(?P<v>.+?)", "city"),
        (r"^(?:am|is|are)\s+S\s+(?:still\s+|now\s+)?(?:living|based|staying)\s+in\s+(?P<v>.+?)", "city"),
        (r"^(?:do|does)\s+S\s+(?:still\s+)?work\s+as\s+" + _ARTICLE + r"(?P<v>.+?)", "job"),
        (r"^(?:am|is|are)\s+S\s+(?:still\s+)?an?\s+(?P<v>[a-z][\w -]*?)", "job"),
        (r"^(?:am|is|are)\s+S\s+(?:originally\s+)?from\s+(?P<v>.+?)", "hometown"),
        (r"^(?:do|does)\s+S\s+(?:still\s+)?(?:like|love|enjoy)\s+(?P<v>.+?)", "likes"),
        (r"^(?:is|was)\s+S's\s+name\s+(?P<v>.+?)", "name"),
        (r"^(?:am|is|are)\s+S\s+(?:called|named)\s+(?P<v>.+?)", "name"),
    )
)
_WHETHER_ZH: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern + "吗[？?]?$"), key)
    for pattern, key in (
        ("^S(?:现在|还|仍然|依然|还是)?(?:住在|住)(?P<v>.+?)", "city"),
        (
            "^S(?:现在|还|仍然|依然)?(?:是|当|做)(?:一名|一位|一个)?(?P<v>["
            + CJK
            + "]{1,4}[师员生家者手士工官])",
            "job",
        ),
        ("^S(?:现在|还)?(?:的名字)?叫(?P<v>.+?)", "name"),
        ("^S(?:来自|是从)(?P<v>.+?)(?:来的)?", "hometown"),
        ("^S(?:还|现在)?(?:很)?喜欢(?P<v>.+?)", "likes"),
    )
)
_MAY_ASK_WHETHER_EN = re.compile(r"^(?:do|does|am|is|are|was)\b", re.IGNORECASE)


def _value(raw: str, key: str, *, chinese: bool) -> str | None:
    raw = raw.strip(" ?？")
    if chinese:
        return raw or None
    if key in {"city", "hometown"}:
        return clean_place(raw)
    return clean_value(raw)


def who_question(part: str, *, chinese: bool) -> tuple[str, str] | None:
    """(key, value) of "Who lives in Accra?" / 谁住在广州？; None for other questions."""
    if not (part.startswith("谁") if chinese else part[:4].lower() == "who "):
        return None
    for pattern, key in _WHO_ZH if chinese else _WHO_EN:
        match = pattern.match(part)
        if match:
            value = _value(match.group("v"), key, chinese=chinese)
            return (key, value) if value else None
    return None


def whether_question(canonical: str, *, chinese: bool) -> tuple[str, str] | None:
    """(key, value) of a yes/no question about ``S`` ("Does S live in Lisbon?"); None for others."""
    if chinese:
        if not canonical.startswith("S") or not canonical.rstrip("？?").endswith("吗"):
            return None
    elif not _MAY_ASK_WHETHER_EN.match(canonical):
        return None
    for pattern, key in _WHETHER_ZH if chinese else _WHETHER_EN:
        match = pattern.match(canonical)
        if match:
            value = _value(match.group("v"), key, chinese=chinese)
            return (normalize_key(key), value) if value else None
    return None
