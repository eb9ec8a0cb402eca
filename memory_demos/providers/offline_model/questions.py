"""Finding every question in a message, whom each one is about and which fact it asks for."""

from __future__ import annotations

import re
from dataclasses import dataclass

from memory_demos.providers.offline_model.lexicon import (
    ALL_FACTS,
    CJK,
    HABIT_VERBS,
    RELATIONS_EN,
    RELATIONS_ZH,
    THING_STOP,
    ZH_ANIMALS,
    ZH_FAVOURITE_THINGS,
    ZH_HABIT_VERBS,
    ZH_THINGS,
)
from memory_demos.providers.offline_model.statements import USER
from memory_demos.providers.offline_model.text import normalize_key, normalize_quotes
from memory_demos.providers.offline_model.value_questions import WHO, whether_question, who_question


@dataclass(frozen=True)
class Question:
    """One question: about ``subject`` (as in ``Fact``), asking for ``key`` (None: not a recall question).

    ``value``: the question names one ("Does Kofi live in Lisbon?" asks whether it holds; with subject
    ``WHO``, "Who lives in Accra?" asks who holds it).
    """

    subject: str
    key: str | None
    text: str
    value: str | None = None
    past: bool = False  # "Where did I live before?": asks for a former value


_REL_EN = "|".join(sorted(RELATIONS_EN, key=len, reverse=True))
_REL_ZH = "|".join(sorted(RELATIONS_ZH, key=len, reverse=True))
_HABITS = "|".join(HABIT_VERBS)
_NOT_NAMES = frozenset(
    [
        "What",
        "Where",
        "Who",
        "Whom",
        "Whose",
        "When",
        "Why",
        "How",
        "Which",
        "Do",
        "Does",
        "Did",
        "Is",
        "Are",
        "Am",
        "Was",
        "Were",
        "Can",
        "Could",
        "Would",
        "Will",
        "Should",
        "Tell",
        "And",
        "But",
        "So",
        "Also",
        "Remind",
        "I",
        "The",
        "My",
        "Your",
        "You",
        "Please",
        "Hi",
        "Hello",
        "Hey",
        "Thanks",
        "Ok",
        "Okay",
    ]
)
_ASKS_EN = (
    r"(?:what|what's|where|who|whom|whose|when|why|how|which|do|does|did|is|are|am|can|could|tell|remind)"
)
_SPLIT_EN = re.compile(
    r"(?<=[?])\s+|\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s+also\s+)(?=" + _ASKS_EN + r"\b)", re.I
)

_KEYS_EN: tuple[tuple[str, str], ...] = (
    (
        r"\bwho\s+(?:am|is|are)\s+S\s*(?:\?|$)|\bwhat\s+do\s+you\s+(?:know|remember)\s+about\s+S\b|"
        r"\btell\s+me\s+(?:everything\s+|what\s+you\s+know\s+)?about\s+S\b|\bwhat\s+have\s+S\s+told\s+you\b",
        ALL_FACTS,
    ),
    (r"\bS's\s+(?:first\s+|full\s+)?name\b|\bwhat\s+(?:am|is|are|was)\s+S\s+called\b|\bcall\s+S\b", "name"),
    (
        r"\bwhere\s+(?:do|does|did)\s+S\s+(?:live|stay)|\bwhere\s+(?:am|is|are)\s+S\s+(?:living|based|staying)|"
        r"\b(?:which|what)\s+(?:city|town|country)\s+(?:do|does|did)\s+S\s+live|\bwhere\s+(?:did|has|have)\s+S\s+move|"
        r"\bwhere\s+S\s+live|\bS's\s+(?:home|city)\b",
        "city",
    ),
    (
        r"\bwhere\s+(?:am|is|are|was|were)\s+S\s+(?:originally\s+)?from|\bwhere\s+(?:do|does)\s+S\s+come\s+from|"
        r"\bwhere\s+(?:was|were)\s+S\s+born|\bS's\s+hometown",
        "hometown",
    ),
    (r"\bhow\s+old\s+(?:am|is|are)\s+S\b|\bS's\s+age\b", "age"),
    (
        r"\bwhat\s+(?:do|does)\s+S\s+do(?:\s+for\s+(?:a\s+living|work))?\s*(?:\?|$|,|\band\b)|"
        r"\bS's\s+(?:job|occupation|profession|work)\b|\bwhat\s+(?:do|does)\s+S\s+work\s+as",
        "job",
    ),
    (r"\bwhat\s+nationality\s+(?:am|is|are)\s+S|\bS's\s+nationality", "nationality"),
    (r"\bwhat\s+(?:do|does)\s+S\s+(?:like|love|enjoy)\b", "likes"),
    (
        r"\bwhat\s+(?:do|does)\s+S\s+(?:hate|dislike|not\s+like)\b|\bwhat\s+(?:don't|doesn't)\s+S\s+like\b",
        "dislikes",
    ),
)
_HABIT_Q = re.compile(r"\bwhat\s+(?:\w+\s+){0,2}(?:do|does|did)\s+S\s+(?P<verb>" + _HABITS + r")\b", re.I)
_FAVOURITE_Q = re.compile(r"\bS's\s+favou?rite\s+(?P<k>[a-z]\w*)", re.I)
_CALLED_Q = re.compile(r"\bwhat(?:'s|\s+is)\s+S's\s+(?P<k>[a-z]\w*)\s+(?:called|named)\b", re.I)
_GENERIC_Q = re.compile(
    r"\b(?:what(?:'s|\s+is|\s+are|\s+was|\s+were)|tell\s+me|remind\s+me\s+of|know|remember)\b.*?\bS's\s+"
    r"(?P<k>[a-z][\w' -]{0,30}?)\s*(?:\?|$|\bagain\b|\.|,|\band\b)",
    re.I,
)

_KEYS_ZH: tuple[tuple[str, str], ...] = (
    (r"(?:知道|记得)(?:关于)?S的?(?:什么|哪些)|关于S你(?:知道|记得)什么|^S是谁", ALL_FACTS),
    (r"S(?:叫|的名字(?:是|叫)?)(?:什么|啥)", "name"),
    (  # not 我在哪里工作 or 我住哪个酒店: the place of a job, a hotel
        r"S(?:住在|住|在)(?:哪里|哪儿|哪|什么地方|啥地方|什么城市|哪个城市)(?:呢|啊|呀|来着)?[？?]?$|S住的(?:城市|地方)|"
        r"S搬(?:到|去)了?哪",
        "city",
    ),
    (r"S(?:来自|是从)哪|S是哪(?:里|儿)?人|S的?(?:老家|家乡)(?:在)?哪", "hometown"),
    (r"S(?:今年|现在)?(?:多大|几岁)|S的年龄", "age"),
    (r"S(?:是)?(?:做什么|干什么)(?:工作|的)?|S的(?:工作|职业)是(?:什么|啥)", "job"),
    (r"S(?:都)?(?:不喜欢|讨厌)(?:什么|啥)", "dislikes"),
    (r"S(?:都)?喜欢(?:什么|啥)", "likes"),
)
_ZH_HABIT_Q = re.compile(r"S(?:现在|平时|每天|都)?(?P<verb>[喝吃玩说开看])(?:什么|啥)")
_ZH_FAVOURITE_Q = re.compile(r"S最(?:喜欢|爱)的(?P<k>[" + CJK + r"]{1,6}?)是(?:什么|啥|哪)")
_ZH_NAMED_Q = re.compile(r"S的?(?P<k>[" + CJK + r"]{1,4}?)(?:叫|的名字(?:是|叫)?)(?:什么|啥)")
_ZH_GENERIC_Q = re.compile(r"S的(?P<k>[" + CJK + r"A-Za-z]{1,8}?)(?:是|叫)?(?:什么|多少|啥|几号|哪)")


def _subject_en(text: str) -> tuple[str, str] | None:
    """(subject, the question with ``S`` in its place)."""
    rules = (
        (r"\b(?i:my)\s+(?P<rel>" + _REL_EN + r")(?='s\s+name\b)", "myrelname"),
        (r"\b(?i:my)\s+(?P<rel>" + _REL_EN + r")\b", "rel"),
        (r"\b(?i:my)\b", "my"),
        (r"\b(?:I|me)\b", "I"),
        (r"\b(?i:the\s+(?:human|user))(?P<s>'s)?", "human"),
        (r"\b(?P<n>[A-Z][a-z][\w-]*)(?P<s>'s)?\b", "name"),
    )
    for pattern, kind in rules:
        for match in re.finditer(pattern, text):
            head, tail = text[: match.start()], text[match.end() :]
            if kind == "myrelname":
                return USER, f"{head}S's {match.group('rel').lower()}{tail}"
            if kind == "rel":
                return f"rel:{match.group('rel').lower()}", f"{head}S{tail}"
            if kind == "my":
                return USER, f"{head}S's{tail}"
            if kind == "I":
                return USER, f"{head}S{tail}"
            if kind == "human":
                return USER, f"{head}S{match.group('s') or ''}{tail}"
            if match.group("n") not in _NOT_NAMES:
                return match.group("n"), f"{head}S{match.group('s') or ''}{tail}"
    return None


def _subject_zh(text: str) -> tuple[str, str] | None:
    body = _ZH_ASK_LEAD.sub("", text)
    if body.startswith(("他", "她")):
        return None  # a pronoun: the previous question's person
    match = re.search(r"我的?(?P<rel>" + _REL_ZH + ")", body)
    if match:
        rest = body[match.end() :]
        if re.match("(?:的名字)?(?:叫|是)(?:什么|啥)|的名字", rest):
            return USER, f"{body[: match.start()]}S的{match.group('rel')}{rest}"
        return f"rel:{RELATIONS_ZH[match.group('rel')]}", f"{body[: match.start()]}S{rest}"
    if "我" in body:
        return USER, body.replace("我", "S", 1)
    named = re.match(
        r"(?P<n>["
        + CJK
        + r"]{2,3}?|[A-Z][a-z]+)(?=住|是|多大|几岁|做|干|喜欢|不喜欢|的|叫|来自|今年|最|在|搬|喝|吃)",
        body,
    )
    if named and not re.match("什么|哪里|现在|今天", named.group("n")):
        return named.group("n"), "S" + body[named.end() :]
    return None


def _key_en(text: str) -> str | None:
    for pattern, key in _KEYS_EN:
        if re.search(pattern, text, re.IGNORECASE):
            return key
    for regex, make in (
        (_HABIT_Q, lambda m: HABIT_VERBS[m.group("verb").lower()]),
        (_FAVOURITE_Q, lambda m: normalize_key(f"favourite_{m.group('k')}")),
        (_CALLED_Q, lambda m: normalize_key(f"{m.group('k')}_name")),
    ):
        match = regex.search(text)
        if match:
            return make(match)
    match = _GENERIC_Q.search(text)
    if (match and "?" in text) or (match and re.match(r"\s*(?:what|tell|do\s+you|remind)", text, re.I)):
        thing = match.group("k").strip()
        if thing.lower() not in THING_STOP and len(thing.split()) <= 3:
            return normalize_key(thing)
    return None


def _key_zh(text: str) -> str | None:
    for pattern, key in _KEYS_ZH:
        if re.search(pattern, text):
            return key
    match = _ZH_HABIT_Q.search(text)
    if match:
        return ZH_HABIT_VERBS[match.group("verb")]
    match = _ZH_FAVOURITE_Q.search(text)
    if match:
        return f"favourite_{ZH_FAVOURITE_THINGS.get(match.group('k'), match.group('k'))}"
    named = _ZH_NAMED_Q.search(text)
    if named and (named.group("k") in RELATIONS_ZH or named.group("k") in ZH_ANIMALS):
        return _zh_key(named.group("k"))
    match = _ZH_GENERIC_Q.search(text)
    return _zh_key(match.group("k")) if match else None


def _zh_key(thing: str) -> str:
    """The fact key of a Chinese noun: 哥哥 -> brother_name (asked "叫什么"), 狗 -> dog_name, 订单号 -> ..."""
    if thing in RELATIONS_ZH:
        return f"{RELATIONS_ZH[thing]}_name"
    if thing in ZH_ANIMALS:
        return f"{ZH_ANIMALS[thing]}_name"
    return ZH_THINGS.get(thing, thing)


def _parts(text: str) -> list[str]:
    if re.search(f"[{CJK}]", text):
        pieces = re.split(r"[？?！!。；;]|[，,、](?=.{0,12}(?:什么|哪|多少|几|谁|啥))|还有|另外", text)
        return [p.strip(" ，,") for p in pieces if p and p.strip(" ，,")]
    pieces: list[str] = []
    for sentence in re.split(r"(?<=[.!?])\s+", text.strip()):
        pieces += [p.strip() for p in _SPLIT_EN.split(sentence) if p and p.strip()]
    return pieces


_ZH_GREETING = re.compile("你好|您好|嗨|哈喽|早上好|晚上好|请问")


def _is_question(part: str, full: str, last: bool) -> bool:
    if re.search(f"[{CJK}]", part):
        asks = bool(re.search("什么|多少|哪|谁|啥|几|吗|呢", part))
        return asks or (last and full.rstrip().endswith(("?", "？")) and not _ZH_GREETING.fullmatch(part))
    return part.endswith("?") or (
        bool(re.match(_ASKS_EN + r"\b", part, re.I)) and full.rstrip().endswith("?")
    )


_PAST = re.compile(r"\b(?:before|previously|formerly|used\s+to)\b|以前|之前|原来|过去", re.IGNORECASE)
_PAST_KEYS = frozenset({"city", "job", "name"})
_PAST_JOB = re.compile(
    r"\bwhat\s+did\s+S\s+do(?:\s+for\s+(?:a\s+living|work))?\s+before\b|S(?:是)?(?:做|干)(?:什么|啥)", re.I
)
_ASK_LEAD = re.compile(
    r"^(?:(?:and|so|but|also|then|ok|okay)\b[\s,]*|(?:请问|那么|那|还有)[，,]?)+", re.IGNORECASE
)
_ZH_ASK_LEAD = re.compile(r"^(?:请问|那么|那|还有|和|你(?:还)?(?:知道|记得)(?=.+[吗呢]))+")
# Two people in one question: "Where do Tom and Li live?", "小丽和小明住在哪里？".
_PAIR_EN = re.compile(r"\b(?P<a>[A-Z][a-z][\w-]*|I|me)\s+and\s+(?P<b>[A-Z][a-z][\w-]*|I|me)\b")
_PAIR_ZH = re.compile(
    r"^(?P<a>我|[" + CJK + r"]{2,3}?|[A-Z][a-z]+)(?:和|跟|与)(?P<b>我|[" + CJK + r"]{2,3}?|[A-Z][a-z]+)"
    r"(?=住|是|多大|几岁|做|干|喜欢|不喜欢|的|叫|来自|今年|最|在|搬|喝|吃)"
)
_PRONOUN_EN = re.compile(r"\b(?:(?P<poss>[Hh]is|[Hh]er|[Tt]heir)|[Hh]e|[Ss]he|[Tt]hey)\b")
_ASKS_EN_RE = re.compile(_ASKS_EN + r"\b", re.I)


def _pair(part: str, chinese: bool) -> tuple[list[str], str] | None:
    """The two people a question asks about at once, and the question with ``S`` in their place."""
    body = _ZH_ASK_LEAD.sub("", part) if chinese else part
    pair = (_PAIR_ZH if chinese else _PAIR_EN).search(body)
    if pair is None or {pair.group("a"), pair.group("b")} & (_NOT_NAMES - {"I"}):
        return None
    people = [USER if name in {"I", "me", "我"} else name for name in (pair.group("a"), pair.group("b"))]
    return people, body[: pair.start()] + "S" + body[pair.end() :]


def _about_previous(part: str, chinese: bool) -> str:
    """A follow-up ("and what's her name?", "她住在哪里？") with ``S`` for the person asked about before."""
    if chinese:
        return "S" + (part[1:] if part.startswith(("他", "她")) else part)
    return _PRONOUN_EN.sub(lambda m: "S's" if m.group("poss") else "S", part, count=1)


def _past_question(subject: str, canonical: str, part: str, chinese: bool) -> Question | None:
    """ "Where did I live before?", 我以前住在哪里？: a question for a former value; None for others."""
    past = _PAST.search(canonical)
    if past is None:
        return None
    if chinese:  # "S以前住在哪里": the time word out, so the key rules see "S住在哪里"
        canonical = canonical[: past.start()] + canonical[past.end() :]
    key = (_key_zh if chinese else _key_en)(canonical)
    if key not in _PAST_KEYS and _PAST_JOB.search(canonical):  # "what did S do before?"
        key = "job"
    return Question(subject, key, part, past=True) if key in _PAST_KEYS else None


def _part_questions(part: str, chinese: bool, previous: str | None) -> list[Question]:
    """The questions one part asks: about one person, or the same question about two."""
    key_of = _key_zh if chinese else _key_en
    pair = _pair(part, chinese)
    if pair is not None:
        people, canonical = pair
        return [Question(person, key_of(canonical), part) for person in people]
    held_by = who_question(_ASK_LEAD.sub("", part), chinese=chinese)
    if held_by is not None:
        return [Question(WHO, held_by[0], part, held_by[1])]
    found = (_subject_zh if chinese else _subject_en)(part)
    if found is None and previous is not None:
        found = (previous, _about_previous(part, chinese))
    if found is None:
        return [Question(USER, None, part)]
    subject, canonical = found
    whether = whether_question(canonical.strip(), chinese=chinese)
    if whether is not None:
        key, value = whether
        if key == "name" and subject.startswith("rel:"):
            subject, key = USER, f"{subject[4:]}_name"
        return [Question(subject, key, part, value)]
    past = _past_question(subject, canonical, part, chinese)
    if past is not None:
        return [past]
    key = key_of(canonical)
    if key == ALL_FACTS and subject == USER and re.search(r"\bwho\s+(?:am|is)\s+S\b|^S是谁", canonical, re.I):
        key = "name"
    if key == "name" and subject.startswith("rel:"):  # "my sister ... her name": the user's sister_name
        subject, key = USER, f"{subject[4:]}_name"
    return [Question(subject, key, part)]


def find_questions(text: str) -> list[Question]:
    """Every question in ``text``, in order; a part with no subject asks about the previous one's.

    A part that starts like a question but has no "?" ("thanks, what's my name") counts when it
    asks for a fact: people often leave the mark out.
    """
    text = normalize_quotes(text).strip()
    chinese = bool(re.search(f"[{CJK}]", text))
    questions: list[Question] = []
    parts = _parts(text)
    for index, part in enumerate(parts):
        asked = _is_question(part, text, index == len(parts) - 1)
        unmarked = not (asked or chinese or "?" in text) and bool(_ASKS_EN_RE.match(part))
        if not (asked or unmarked):
            continue
        found = _part_questions(part, chinese, questions[-1].subject if questions else None)
        questions += [q for q in found if q.key is not None] if unmarked else found
    return questions


def detect_recall_question(text: str) -> str | None:
    """The fact key the message's first recall question asks for ("name", "city", "*"...), or None."""
    return next((q.key for q in find_questions(text) if q.key is not None), None)
