"""Text helpers of the offline teaching model: language, keys, value cleaning, roles and clauses."""

from __future__ import annotations

import hashlib
import html
import re
from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple

from langchain_core.messages import BaseMessage

from memory_demos.providers.offline_model.lexicon import (
    AI_ROLES,
    CJK_RE,
    KEY_ALIASES,
    NAME_STOP,
    PLACE_JOINERS,
    PLACE_STOP,
    PRONOUNS,
    VALUE_STOP,
    WORD_RE_TEXT,
    ZH_DISPLAY,
    ZH_PRONOUNS,
    ZH_QUESTION_RE,
    ZH_STOP_CHARS,
    ZH_THINGS,
)
from memory_demos.providers.offline_model.memo import read_once

_ROLE_LINE = re.compile(
    r"^\s*(?P<role>human|user|person\s*#?\s*\d*|input|question|ai|assistant|output|response|answer|you|system)"
    r"\s*:\s?(?P<rest>.*)$",
    re.IGNORECASE,
)

KV_LINE = re.compile(r"^\s*(?:[-*•]\s*)?(?P<k>[a-z][a-z0-9_]{0,30})\s*[:：]\s*(?P<v>\S.*?)\s*$")
NOTE_LINE = re.compile(r"^\s*[-*•]\s*[^\W\d][\w -]{0,40}?\s*[:：]\s*")  # "- dog_name: ", a stored fact's line
# A stored fact kept in the user's own words ("- allergy_peanuts: I am allergic to peanuts"): its value.
_SAID_NOTE = re.compile(
    NOTE_LINE.pattern + r"(?P<v>(?i:(?:i|i'm|i've|i'd|i'll|my|we|we're|we've|our)\b|我).*?)\s*$"
)


def said_in_note(line: str) -> str | None:
    """The user's own words a stored-fact line keeps, or None for a line of another kind."""
    match = _SAID_NOTE.match(line)
    return match.group("v") if match else None


class _Segment(NamedTuple):
    role: str  # "human", "ai" or "narrative"
    text: str


# --------------------------------------------------------------------------------------------
# Many patterns tried in order, in one regex call

_GROUP_NAME = re.compile(r"\(\?P<\w+>")


def first_matching(patterns: Sequence[str], flags: int = 0) -> Callable[[str], int | None]:
    """A function giving the index of the first of ``patterns`` that matches at the start of a text.

    One alternation replaces a loop of ``match`` calls: at one position the engine tries the
    alternatives in order, so the first that matches is the first pattern that would.
    """
    alternatives = (f"(?P<_{i}>{_GROUP_NAME.sub('(?:', p)})" for i, p in enumerate(patterns))
    combined = re.compile("|".join(alternatives), flags)

    def first(text: str) -> int | None:
        found = combined.match(text)
        return int(found.lastgroup[1:]) if found and found.lastgroup else None

    return first


# --------------------------------------------------------------------------------------------
# Small text helpers


def is_chinese(text: str) -> bool:
    """True when ``text`` contains CJK ideographs."""
    return not text.isascii() and CJK_RE.search(text) is not None


_LATIN_RE = re.compile("[A-Za-z]+")
_ZH_GRAMMAR = re.compile("[的了是在吗呢吧啥几哪谁我你他她它们很都也就还要会想把被给叫]|什么|多少")


@read_once
def mostly_chinese(text: str) -> bool:
    """True when ideographs outnumber Latin letters, or Latin words with Chinese grammar around them: the
    clause is read with the Chinese rules ("明天的meeting改到3点了" is Chinese with an English word;
    "I'm seeing my 奶奶" and "小王 lives in 广州" are English with Chinese names)."""
    if text.isascii() or not CJK_RE.search(text):
        return False
    if not _LATIN_RE.search(text):
        return True
    ideographs, latin = len(CJK_RE.findall(text)), _LATIN_RE.findall(text)
    if ideographs >= sum(map(len, latin)):
        return True
    return ideographs >= len(latin) and _ZH_GRAMMAR.search(text) is not None


def stable_hash(text: str) -> int:
    return int(hashlib.sha1(text.encode("utf-8")).hexdigest()[:8], 16)


_POSSESSIVE = re.compile(r"'s\b")
_NOT_WORD = re.compile(r"[^\w]+")


def _snake(thing: str) -> str:
    thing = thing.strip().lower().replace("’", "'")
    thing = _POSSESSIVE.sub("", thing)
    thing = _NOT_WORD.sub("_", thing).strip("_")
    return thing


def normalize_key(key: str) -> str:
    """A canonical fact key: snake_case, British spelling of favourite, common aliases folded."""
    if is_chinese(key):
        return ZH_THINGS.get(key, key)
    key = _snake(key).replace("favorite", "favourite")
    if key.startswith("favourite_"):
        noun = key[len("favourite_") :]
        if len(noun) > 3 and noun.endswith("s") and not noun.endswith(("ss", "us", "is")):
            noun = noun[:-1]
        key = f"favourite_{noun}"
    return KEY_ALIASES.get(key, key)


def display_key_en(key: str) -> str:
    if key.endswith("_name") and key != "name":
        return f"{key[: -len('_name')].replace('_', ' ')}'s name"
    return key.replace("_", " ")


def display_key_zh(key: str) -> str:
    if key in ZH_DISPLAY:
        return ZH_DISPLAY[key]
    if key.startswith("favourite_"):
        return ZH_DISPLAY.get(key[len("favourite_") :], key[len("favourite_") :].replace("_", " "))
    return key if is_chinese(key) else key.replace("_", " ")


def join_en(values: Sequence[str]) -> str:
    if len(values) <= 1:
        return "".join(values)
    return f"{', '.join(values[:-1])} and {values[-1]}"


def article_for(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


def normalize_quotes(text: str) -> str:
    return text.replace("’", "'").replace("‘", "'")


# --------------------------------------------------------------------------------------------
# Value cleaning


_VALUE_CUT = re.compile(
    r"\s+(?:and|but|because|so|which|now|though|although|since|while|then)\s+|[,;—–]|[!?](?![A-Za-z0-9])|\s-\s|\.(?:\s|$)|。|，|！|？"
)


def clean_value(raw: str) -> str | None:
    value = _VALUE_CUT.split(raw, maxsplit=1)[0].strip().strip("\"'`“”*")
    value = value.rstrip(".:")
    if not value or len(value) > 60:
        return None
    first = value.split()[0].lower()
    if first in VALUE_STOP or first in PRONOUNS:
        return None
    if is_chinese(value) and ZH_QUESTION_RE.search(value):
        return None
    return value


def clean_name(raw: str, *, require_capital: bool) -> str | None:
    raw = raw.strip()
    if is_chinese(raw[:1]):
        return clean_zh_name(raw)
    words: list[str] = []
    for raw_word in raw.split()[:3]:
        word = raw_word.strip(".,!?;:\"'")
        if not word or word == "I" or word.lower() in NAME_STOP or not _WORD_RE.fullmatch(word):
            break
        if require_capital and not word[0].isupper():
            break
        words.append(word if word[0].isupper() else word.capitalize())
        if len(words) == 2 or raw_word[-1] in ",.!?;:":  # "Kez, stayin at ...": the comma ends the name
            break
    if not words:
        return None
    return " ".join(words)


_WORD_RE = re.compile(WORD_RE_TEXT)
_ZH_NAME_END = re.compile(f"[{ZH_STOP_CHARS}]|住在|住|来自|喜欢|今年|我|在|是|的|吧$|啊$|呀$")
_ZH_PLACE_END = re.compile(f"[{ZH_STOP_CHARS}]|我|喜欢|工作|的时候|了|啦|呢")
_PLACE_WORDS = re.compile(r"[^\W\d_][\w'-]*|\S")


def clean_zh_name(raw: str) -> str | None:
    value = _ZH_NAME_END.split(raw, maxsplit=1)[0]
    if not value or ZH_QUESTION_RE.search(value) or value in ZH_PRONOUNS:
        return None
    if is_chinese(value) and len(value) > 4:
        return None
    return value


def clean_place(raw: str) -> str | None:
    raw = raw.strip()
    if not raw:
        return None
    if is_chinese(raw[:1]):
        value = _ZH_PLACE_END.split(raw, maxsplit=1)[0]
        if not value or ZH_QUESTION_RE.search(value) or len(value) > 8:
            return None
        return value
    words = _PLACE_WORDS.findall(raw)
    if not words or not _WORD_RE.fullmatch(words[0]):
        return None
    if not words[0][0].isupper():
        if words[0].lower() in PLACE_STOP or words[0].lower() in NAME_STOP:
            return None
        return words[0].capitalize()
    taken = [words[0]]
    for index, word in enumerate(words[1:4], start=1):
        joins_capitals = (
            word in PLACE_JOINERS
            and index + 1 < len(words)
            and _WORD_RE.fullmatch(words[index + 1]) is not None
            and words[index + 1][0].isupper()
        )
        if (_WORD_RE.fullmatch(word) and word[0].isupper()) or joins_capitals:
            taken.append(word)
        else:
            break
    if taken[-1] in PLACE_JOINERS:
        taken.pop()
    return " ".join(taken)


_ZH_LIST_END = re.compile(f"[{ZH_STOP_CHARS.replace('、', '')}]")
_ZH_LIST_SEP = re.compile("、|和|以及|还有|跟")
_LIST_END = re.compile(r"[;!?—–]|\.(?:\s|$)|\s+(?:but|because|so|though|since|when|if)\s+")
_LIST_NEXT_CLAUSE = re.compile(r",?\s+and\s+I\b|,\s*I\b|,\s*(?:\w+\s+)?\w+\s+(?:is|are|was|were)\b")
_LIST_SEP = re.compile(r",\s*(?:and\s+)?|\s+and\s+|\s+or\s+")
_LIST_TAIL = re.compile(r"\s+(?:too|a lot|(?:very|so) much|as well|now|any ?more|these days|lol|haha)$")


def clean_list(raw: str, *, chinese: bool = False) -> list[str]:
    if chinese:
        head = _ZH_LIST_END.split(raw, maxsplit=1)[0]
        items = _ZH_LIST_SEP.split(head)
    else:
        head = _LIST_END.split(raw, maxsplit=1)[0]
        head = _LIST_NEXT_CLAUSE.split(head, maxsplit=1)[0]
        items = _LIST_SEP.split(head)
    values: list[str] = []
    for item in items:
        item = _LIST_TAIL.sub("", item.strip().strip("\"'“”."))
        if not item or len(item) > 40:
            continue
        first = item.split()[0].lower() if not chinese else item
        if first in PRONOUNS or item in ZH_PRONOUNS or (chinese and ZH_QUESTION_RE.search(item)):
            continue
        values.append(item)
    return values


# --------------------------------------------------------------------------------------------
# Splitting text into roles, sentences and clauses


def role_segments(text: str, default_role: str) -> list[_Segment]:
    """Split a text on role-prefixed lines ("Human: ...", "AI: ...") and XML messages."""
    if "<message type=" in text:
        text = xml_messages_to_lines(text)
    elif ":" not in text:
        return [_Segment(default_role, text)]
    segments: list[_Segment] = []
    role = default_role
    lines: list[str] = []
    for line in text.splitlines():
        match = _ROLE_LINE.match(line)
        if match:
            if lines:
                segments.append(_Segment(role, "\n".join(lines)))
            prefix = match.group("role").lower()
            role = "ai" if prefix in AI_ROLES else "narrative" if prefix == "system" else "human"
            lines = [match.group("rest")]
        else:
            lines.append(line)
    if lines:
        segments.append(_Segment(role, "\n".join(lines)))
    return segments


def xml_messages_to_lines(text: str) -> str:
    def replace(match: re.Match[str]) -> str:
        role = {
            "human": "Human",
            "ai": "AI",
            "system": "System",
            "tool": "Tool result",
        }.get(match.group("type"), match.group("type"))
        body = re.sub(
            r"\s*<tool_call[^>]*>.*?</tool_call>\s*",
            " ",
            match.group("body"),
            flags=re.DOTALL,
        )
        body = html.unescape(body).strip()
        return "\n".join(
            f"{role}: {line}" if index == 0 else line for index, line in enumerate(body.splitlines())
        )

    return re.sub(
        r'<message type="(?P<type>\w+)"[^>]*>(?P<body>.*?)</message>',
        replace,
        text,
        flags=re.DOTALL,
    )


_QUESTION_START = re.compile(
    r"^\s*(?:and\s+|but\s+|so\s+)?(?:what|what's|where|who|whom|whose|when|why|how|which|do|does|did|is|are|am|"
    r"was|were|can|could|would|will|should|shall|have|has|tell\s+me)\b",
    re.IGNORECASE,
)
_CLAUSE_SPLIT = re.compile(
    r"[,;，；]\s*(?=(?:and\s+|but\s+|so\s+|now\s+|then\s+)?(?:I\b|I'm|I’m|i\b|my\b|My\b|now\b|Now\b|what|What|where|"
    r"Where|who|Who|how|How|do\b|Do\b|can|Can|我|现在|但|不过|可是|你))"
)


def _clauses(text: str) -> Iterator[tuple[str, bool]]:
    """Yield (clause, is_question) pairs; a question clause states no fact."""
    for sentence in re.split(r"(?<=[.!?])\s+|(?<=[。！？])|\n+", text):
        sentence = sentence.strip()
        if not sentence:
            continue
        asks = sentence.endswith(("?", "？"))
        parts = _CLAUSE_SPLIT.split(sentence)
        for index, part in enumerate(parts):
            zh_question = is_chinese(part) and bool(re.search("什么|多少|哪|谁|啥|吗|几岁", part))
            question = zh_question or (
                (asks and index == len(parts) - 1) or bool(_QUESTION_START.match(part))
            )  # "do i eat red meat" typed without "?" asks too
            yield part, question


def content_text(message: BaseMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    return "".join(
        block if isinstance(block, str) else str(block.get("text", "")) for block in content if block
    )


def section_of(text: str, start: str, end: str | None) -> str:
    begin = text.rfind(start)
    if begin < 0:
        return ""
    begin += len(start)
    stop = text.find(end, begin) if end else -1
    return text[begin : stop if stop >= 0 else len(text)].strip()


def after_last(text: str, marker: str) -> str:
    index = text.rfind(marker)
    return text[index:] if index >= 0 else text


# A summary's "The human said: “…”": the human's own words, each a sentence of its own
HUMAN_SAID = re.compile(r"(?i:the human said):\s*“([^”]*)”\.?|用户说：“([^”]*)”。?")
ASSISTANT_NOTE = re.compile(r"^\s*(?:you\s+are|you're|answer|be\s+|respond|reply|你是|请)", re.I)
# A capitalised word that does not start a sentence: a name or a value ("Got it", "Nice" aside)
MID_CAPITAL = r"(?<!^)(?<![.!?] )\b[A-Z][a-z]+\b"


def note_statements(text: str) -> str:
    """A system note's lines as statements: instructions to the assistant dropped, a stored fact kept in
    the user's own words read as those words."""
    lines = (line for line in text.splitlines() if not ASSISTANT_NOTE.match(line))
    return "\n".join(said_in_note(line) or line for line in lines)
