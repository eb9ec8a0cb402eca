"""The offline teaching model: a deterministic, rule-based chat model that knows only its prompt.

It is not an LLM. It reads facts (name, city, likes, "my X is Y"...) from the text it receives and
answers recall questions from them, so a fact a memory strategy dropped is visibly forgotten. It also
answers LangChain's own memory prompts (summary, entity extraction, entity summary, the agent
summarization middleware) and Memory Lab's fact-extraction prompt, and calls bound tools.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, ToolMessage
from langchain_core.messages.ai import UsageMetadata
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import ConfigDict, Field

from memory_demos.prompts import FACT_EXTRACTION_MARKER
from memory_demos.providers.errors import InjectedFault
from memory_demos.providers.tokenizer import count_messages_tokens, count_text_tokens, encode, message_text
from memory_demos.tracing import classify_call

ENCODING_NAME = "o200k_base"
DEFAULT_MODEL_NAME = "offline-teaching-model"
MAX_SUMMARY_FACTS = 12
MAX_SUMMARY_TOPICS = 4
MAX_TOPIC_CHARS = 40
MAX_LIST_VALUES = 6
MAX_ENTITY_SENTENCES = 8

SUMMARY_MARKER = "Progressively summarize"
ENTITY_EXTRACTION_MARKER = "Extract all of the proper nouns"
ENTITY_SUMMARY_MARKER = "Update the summary of the provided entity"
MIDDLEWARE_SUMMARY_MARKER = "Context Extraction Assistant"

DONT_KNOW_EN = "I don't know {topic} — it isn't in what I was given."
DONT_KNOW_ZH = "我不知道{topic}——我收到的内容里没有。"
ALL_FACTS = "*"

# Keys whose facts accumulate instead of replacing each other.
LIST_KEYS = frozenset({"likes", "dislikes"})
OPPOSITE_KEYS = {"likes": "dislikes", "dislikes": "likes"}

# Invented details for drift mode: (sentence, the fact key it would claim, if any).
DRIFT_DETAILS: tuple[tuple[str, str | None], ...] = (
    ("The human travelled to Paris for a week.", None),
    ("The human's favourite colour is green.", "favourite_colour"),
    ("The human is learning Portuguese.", None),
    ("The human's cat's name is Whiskers.", "cat_name"),
    ("The human has two older brothers.", None),
    ("The human works as a nurse.", "job"),
    ("The human is planning a trip to Japan next spring.", None),
    ("The human is allergic to peanuts.", None),
    ("The human used to play the violin.", None),
    ("The human's birthday is in March.", "birthday"),
)


def _word_list(words: str) -> list[str]:
    return words.split()


_CJK = "\u3400-\u4dbf\u4e00-\u9fff"
_CJK_RE = re.compile(f"[{_CJK}]")
_WORD = r"[^\W\d_][\w'’-]*"
_ZH_VALUE = r"[^\s，。！？,!?；;、]{1,40}"
_ZH_STOP_CHARS = "，。！？,!?；;、 \n"
_ROLE_LINE = re.compile(
    r"^\s*(?P<role>human|user|person\s*#?\s*\d*|input|question|ai|assistant|output|response|answer|you|system)"
    r"\s*:\s?(?P<rest>.*)$",
    re.IGNORECASE,
)
_AI_ROLES = frozenset({"ai", "assistant", "output", "response", "answer", "you"})
_KV_LINE = re.compile(r"^\s*(?:[-*•]\s*)?(?P<k>[a-z][a-z0-9_]{0,30})\s*[:：]\s*(?P<v>\S.*?)\s*$")
_KV_EXCLUDED_KEYS = frozenset(
    {"summary", "output", "note", "context", "example", "http", "https", "message", "messages", "entity"}
)

_NAME_STOP = frozenset(
    _word_list("""a an the fine good ok okay sorry tired hungry here back ready happy sad busy not just so
    very from in at looking going trying glad sure new great well also still really
    interested curious thinking working learning doing feeling afraid alright allowed able
    about actually already always bored excited fed done home late later lost married single
    sick sleepy thirsty sure today tomorrow tonight unsure confused calling writing asking
    wondering planning moving living staying leaving coming i me you he she it we they my
    your his her their our what who where when why how and but or please maybe anytime
    whenever if yes no hi hello hey thanks thank""")
)
_PLACE_STOP = frozenset(
    _word_list("""a an the my our this that here there it same small big house flat apartment city town
    village country home area place part suburb centre center middle north south east west""")
)
_PLACE_JOINERS = frozenset({"de", "da", "do", "del", "of", "upon", "on", "am", "la", "le"})
_VALUE_STOP = frozenset(
    _word_list("""not going so very too really kind pretty fine good great ok okay bad busy over gone what
    where who how unknown secret broken""")
)
_THING_STOP = frozenset(
    _word_list("""day week life question problem point head mind guess bad pleasure turn fault bad english
    internet computer phone bad pleasure opinion answer plan idea mistake""")
)
_PRONOUNS = frozenset({"it", "that", "this", "them", "you", "him", "her", "those", "these", "everything"})
_ZH_QUESTION = re.compile("什么|多少|哪|谁|啥|几|吗|呢|怎么")
_ZH_PRONOUNS = frozenset({"你", "他", "她", "它", "你们", "他们", "这个", "那个"})

_ZH_THINGS = {
    "名字": "name",
    "订单号": "order_number",
    "订单编号": "order_number",
    "订单号码": "order_number",
    "生日": "birthday",
    "邮箱": "email",
    "电子邮箱": "email",
    "电子邮件": "email",
    "电话": "phone_number",
    "电话号码": "phone_number",
    "手机号": "phone_number",
    "手机号码": "phone_number",
    "工作": "job",
    "职业": "job",
    "年龄": "age",
    "狗的名字": "dog_name",
    "狗狗的名字": "dog_name",
    "猫的名字": "cat_name",
    "猫咪的名字": "cat_name",
    "城市": "city",
}
_ZH_FAVOURITE_THINGS = {
    "食物": "food",
    "菜": "food",
    "颜色": "colour",
    "运动": "sport",
    "电影": "movie",
    "书": "book",
    "音乐": "music",
    "歌": "song",
    "城市": "city",
    "水果": "fruit",
    "饮料": "drink",
    "动物": "animal",
}
_ZH_ANIMALS = {"狗": "dog", "狗狗": "dog", "猫": "cat", "猫咪": "cat"}
_ZH_DISPLAY = {
    "name": "名字",
    "order_number": "订单号",
    "birthday": "生日",
    "email": "邮箱",
    "phone_number": "电话号码",
    "job": "工作",
    "age": "年龄",
    "dog_name": "狗的名字",
    "cat_name": "猫的名字",
    "city": "城市",
    "hometown": "家乡",
    **{value: key for key, value in _ZH_FAVOURITE_THINGS.items() if key not in {"菜", "城市"}},
    "colour": "颜色",
}
_KEY_ALIASES = {
    "order_id": "order_number",
    "order_no": "order_number",
    "order_num": "order_number",
    "order_nr": "order_number",
    "email_address": "email",
    "e_mail": "email",
    "phone": "phone_number",
    "mobile_number": "phone_number",
    "phone_no": "phone_number",
    "birth_date": "birthday",
    "date_of_birth": "birthday",
    "home_town": "hometown",
    "home_city": "city",
    "first_name": "name",
    "full_name": "name",
    "dogs_name": "dog_name",
    "cats_name": "cat_name",
    "occupation": "job",
    "profession": "job",
    "location": "city",
    "lives_in": "city",
    "from": "hometown",
    "favourite_color": "favourite_colour",
}


@dataclass(frozen=True)
class Fact:
    """One fact about the user found in a text: a snake_case key, its value and the clause it came from."""

    key: str
    value: str
    source_text: str


@dataclass(frozen=True)
class Reply:
    """What the model answers: text, or tool calls (then the text is empty)."""

    text: str
    tool_calls: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class _Segment:
    role: str  # "human", "ai" or "narrative"
    text: str


# --------------------------------------------------------------------------------------------
# Small text helpers


def is_chinese(text: str) -> bool:
    """True when ``text`` contains CJK ideographs."""
    return bool(_CJK_RE.search(text))


def _stable_hash(text: str) -> int:
    return int(hashlib.sha1(text.encode("utf-8")).hexdigest()[:8], 16)


def _snake(thing: str) -> str:
    thing = thing.strip().lower().replace("’", "'")
    thing = re.sub(r"'s\b", "", thing)
    thing = re.sub(r"[^\w]+", "_", thing).strip("_")
    return thing


def normalize_key(key: str) -> str:
    """A canonical fact key: snake_case, British spelling of favourite, common aliases folded."""
    if is_chinese(key):
        return _ZH_THINGS.get(key, key)
    key = _snake(key).replace("favorite", "favourite")
    if key.startswith("favourite_"):
        noun = key[len("favourite_") :]
        if len(noun) > 3 and noun.endswith("s") and not noun.endswith(("ss", "us", "is")):
            noun = noun[:-1]
        key = f"favourite_{noun}"
    return _KEY_ALIASES.get(key, key)


def _display_key_en(key: str) -> str:
    if key.endswith("_name") and key != "name":
        return f"{key[: -len('_name')].replace('_', ' ')}'s name"
    return key.replace("_", " ")


def _display_key_zh(key: str) -> str:
    if key in _ZH_DISPLAY:
        return _ZH_DISPLAY[key]
    if key.startswith("favourite_"):
        return _ZH_DISPLAY.get(key[len("favourite_") :], key[len("favourite_") :].replace("_", " "))
    return key if is_chinese(key) else key.replace("_", " ")


def _join_en(values: Sequence[str]) -> str:
    if len(values) <= 1:
        return "".join(values)
    return f"{', '.join(values[:-1])} and {values[-1]}"


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def _capitalize(text: str) -> str:
    return text[:1].upper() + text[1:]


def _normalize_quotes(text: str) -> str:
    return text.replace("’", "'").replace("‘", "'")


# --------------------------------------------------------------------------------------------
# Value cleaning


_VALUE_CUT = re.compile(
    r"\s+(?:and|but|because|so|which|now|though|although|since|while|then)\s+|[,;!?—–]|\s-\s|\.(?:\s|$)|。|，|！|？"
)


def _clean_value(raw: str) -> str | None:
    value = _VALUE_CUT.split(raw, maxsplit=1)[0].strip().strip("\"'`“”*")
    value = value.rstrip(".:")
    if not value or len(value) > 60:
        return None
    first = value.split()[0].lower()
    if first in _VALUE_STOP or first in _PRONOUNS:
        return None
    if is_chinese(value) and _ZH_QUESTION.search(value):
        return None
    return value


def _clean_name(raw: str, *, require_capital: bool) -> str | None:
    raw = raw.strip()
    if is_chinese(raw[:1]):
        return _clean_zh_name(raw)
    words: list[str] = []
    for word in raw.split()[:3]:
        word = word.strip(".,!?;:\"'")
        if not word or word == "I" or word.lower() in _NAME_STOP or not re.fullmatch(_WORD, word):
            break
        if require_capital and not word[0].isupper():
            break
        words.append(word if word[0].isupper() else word.capitalize())
        if len(words) == 2:
            break
    if not words:
        return None
    return " ".join(words)


def _clean_zh_name(raw: str) -> str | None:
    value = re.split(f"[{_ZH_STOP_CHARS}]|住在|住|来自|喜欢|今年|我|在|是|的", raw, maxsplit=1)[0]
    if not value or _ZH_QUESTION.search(value) or value in _ZH_PRONOUNS:
        return None
    if is_chinese(value) and len(value) > 4:
        return None
    return value


def _clean_place(raw: str) -> str | None:
    raw = raw.strip()
    if not raw:
        return None
    if is_chinese(raw[:1]):
        value = re.split(f"[{_ZH_STOP_CHARS}]|我|喜欢|工作|的时候|了|啦|呢", raw, maxsplit=1)[0]
        if not value or _ZH_QUESTION.search(value) or len(value) > 8:
            return None
        return value
    words = re.findall(r"[^\W\d_][\w'-]*|\S", raw)
    if not words or not re.fullmatch(_WORD, words[0]):
        return None
    if not words[0][0].isupper():
        if words[0].lower() in _PLACE_STOP or words[0].lower() in _NAME_STOP:
            return None
        return words[0].capitalize()
    taken = [words[0]]
    for index, word in enumerate(words[1:4], start=1):
        joins_capitals = (
            word in _PLACE_JOINERS
            and index + 1 < len(words)
            and re.fullmatch(_WORD, words[index + 1]) is not None
            and words[index + 1][0].isupper()
        )
        if (re.fullmatch(_WORD, word) and word[0].isupper()) or joins_capitals:
            taken.append(word)
        else:
            break
    if taken[-1] in _PLACE_JOINERS:
        taken.pop()
    return " ".join(taken)


def _clean_list(raw: str, *, chinese: bool = False) -> list[str]:
    if chinese:
        head = re.split(f"[{_ZH_STOP_CHARS.replace('、', '')}]", raw, maxsplit=1)[0]
        items = re.split("、|和|以及|还有|跟", head)
    else:
        head = re.split(r"[;!?—–]|\.(?:\s|$)|\s+(?:but|because|so|though|since|when|if)\s+", raw, maxsplit=1)[
            0
        ]
        head = re.split(r",?\s+and\s+I\b|,\s*I\b", head, maxsplit=1)[0]
        items = re.split(r",\s*(?:and\s+)?|\s+and\s+|\s+or\s+", head)
    values: list[str] = []
    for item in items:
        item = re.sub(
            r"\s+(?:too|a lot|very much|so much|as well|now|anymore|these days|any more)$",
            "",
            item.strip().strip("\"'“”."),
        )
        if not item or len(item) > 40:
            continue
        first = item.split()[0].lower() if not chinese else item
        if first in _PRONOUNS or item in _ZH_PRONOUNS or (chinese and _ZH_QUESTION.search(item)):
            continue
        values.append(item)
    return values


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
        ("一", "个", "从", "在", "不", "很", "真", "挺", "太", "也", "都", "要", "想", "说", "个")
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
        (_I + r"\s+(?:originally\s+)?from\s+(?P<v>.+)", re.IGNORECASE, _single("hometown", _clean_place)),
        (r"\bI(?:'m|’m| am)\s+[A-Z][\w'-]*\s+from\s+(?P<v>.+)", 0, _single("hometown", _clean_place)),
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
        (_I + r"\s+(?:really\s+|also\s+)?into\s+(?P<v>.+)", re.IGNORECASE, _listed("likes")),
        (
            r"\bI\s+(?:really\s+|also\s+|just\s+|absolutely\s+|totally\s+)?"
            r"(?:hate|dislike|detest|can't\s+stand|cannot\s+stand|can’t\s+stand|don't\s+like|do\s+not\s+like|"
            r"don’t\s+like)\s+(?P<v>.+)",
            re.IGNORECASE,
            _listed("dislikes"),
        ),
        (r"\bI\s+work\s+as\s+(?:an?\s+)?(?P<v>.+)", re.IGNORECASE, _single("job", _clean_value)),
        (_I + r"\s+(?P<v>\d{1,3})(?:\s+years?\s+old)?\b", re.IGNORECASE, _single("age", _clean_value)),
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
        (r"\bmy\s+(?P<k>[a-z][\w'’ -]{0,30}?)\s+(?:is|are)\s+(?P<v>.+)", re.IGNORECASE, _generic),
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
        (r"我(?:已经|刚|刚刚)?搬(?:到|去)了?(?P<v>.+)", 0, _single("city", _clean_place)),
        (r"我(?:来自|是从)(?P<v>.+?)(?:来的|$|[，。！,.!])", 0, _single("hometown", _clean_place)),
        (r"我是(?P<v>[" + _CJK + r"]{2,4})人", 0, _single("hometown", _clean_place)),
        (r"我(?:很|也|非常|特别|真的|超|还)?(?:喜欢|爱|热爱)(?P<v>.+)", 0, _listed("likes", chinese=True)),
        (
            r"我(?:很|也|非常|特别|真的|超|还)?(?:不喜欢|讨厌|不爱|受不了)(?P<v>.+)",
            0,
            _listed("dislikes", chinese=True),
        ),
        (r"我最(?:喜欢|爱)的(?P<k>[" + _CJK + r"]{1,6}?)是(?P<v>" + _ZH_VALUE + ")", 0, _zh_favourite),
        (r"我的(?P<k>[" + _CJK + r"A-Za-z]{1,8}?)(?:是|为)\s*(?P<v>" + _ZH_VALUE + ")", 0, _zh_generic),
        (r"我的(?P<k>[" + _CJK + r"]{1,4}?)叫\s*(?P<v>" + _ZH_VALUE + ")", 0, _zh_pet_name),
        (r"(?:我|^|[，,])今年(?P<v>\d{1,3})岁", 0, _single("age", _clean_value)),
        # Chinese often drops the subject after the first clause: "我叫小明，住在北京".
        (r"(?:^|[，,])\s*(?:现在|目前)?(?:住在|居住在)(?P<v>.+)", 0, _single("city", _clean_place)),
        (r"我是(?:一名|一位|一个|个)(?P<v>[" + _CJK + r"]{1,8})", 0, _single("job", _clean_place)),
    )
)

_SECOND_PERSON: tuple[tuple[re.Pattern[str], _Handler], ...] = tuple(
    (_compile(pattern, flags), handler)
    for pattern, flags, handler in (
        (r"\byour\s+name\s+is\s+(?P<v>.+)", re.IGNORECASE, _names(False)),
        (r"\bnice\s+to\s+meet\s+you,?\s+(?P<v>.+)", re.IGNORECASE, _names(True)),
        (r"\byou\s+(?:now\s+)?live\s+in\s+(?P<v>.+)", re.IGNORECASE, _single("city", _clean_place)),
        (r"\byou(?:'re|’re|\s+are)\s+from\s+(?P<v>.+)", re.IGNORECASE, _single("hometown", _clean_place)),
        (r"\byou\s+(?:like|love|enjoy)\s+(?P<v>.+)", re.IGNORECASE, _listed("likes")),
        (r"\byou\s+(?:don't|don’t|do\s+not)\s+like\s+(?P<v>.+)", re.IGNORECASE, _listed("dislikes")),
        (r"\byou\s+work\s+as\s+(?:an?\s+)?(?P<v>.+)", re.IGNORECASE, _single("job", _clean_value)),
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
        (r"\byour\s+(?P<k>[a-z][\w'’ -]{0,30}?)\s+(?:is|are)\s+(?P<v>.+)", re.IGNORECASE, _generic),
        (r"你叫(?P<v>.+)", 0, _names(False)),
        (r"你住在(?P<v>.+)", 0, _single("city", _clean_place)),
        (r"你来自(?P<v>.+)", 0, _single("hometown", _clean_place)),
        (r"你(?<!不)喜欢(?P<v>.+)", 0, _listed("likes", chinese=True)),
        (r"你不喜欢(?P<v>.+)", 0, _listed("dislikes", chinese=True)),
        (r"你最喜欢的(?P<k>[" + _CJK + r"]{1,6}?)是(?P<v>" + _ZH_VALUE + ")", 0, _zh_favourite),
        (r"你的(?P<k>[" + _CJK + r"A-Za-z]{1,8}?)是(?P<v>" + _ZH_VALUE + ")", 0, _zh_generic),
        (r"你(?P<v>\d{1,3})岁", 0, _single("age", _clean_value)),
    )
)


@lru_cache(maxsize=128)
def _third_person_patterns(names: tuple[str, ...]) -> tuple[tuple[re.Pattern[str], _Handler], ...]:
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
        (subject + r"\s+(?:has\s+)?(?:moved|relocated)\s+to\s+(?P<v>.+)", _single("city", _clean_place)),
        (
            subject + r"\s+(?:is|comes)\s+(?:originally\s+)?from\s+(?P<v>.+)",
            _single("hometown", _clean_place),
        ),
        (subject + r"\s+(?:likes|loves|enjoys|adores)\s+(?P<v>.+)", _listed("likes")),
        (
            subject + r"\s+(?:dislikes|hates|doesn't\s+like|does\s+not\s+like|doesn’t\s+like)\s+(?P<v>.+)",
            _listed("dislikes"),
        ),
        (subject + r"\s+works\s+as\s+(?:an?\s+)?(?P<v>.+)", _single("job", _clean_value)),
        (subject + r"\s+is\s+(?P<v>\d{1,3})\s+years\s+old", _single("age", _clean_value)),
        (subject + r"(?:'s|’s)\s+(?P<k>[a-z][\w'’ -]{0,30}?)\s+(?:is|are)\s+(?P<v>.+)", _generic),
    ]
    return tuple((_compile(pattern, flags), handler) for pattern, handler in rules)


_ENTITY_LINE = re.compile(r"^\s*(?P<n>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?):\s+(?P=n)\b", re.MULTILINE)


# --------------------------------------------------------------------------------------------
# Splitting text into roles, sentences and clauses


def _segments(text: str, default_role: str) -> list[_Segment]:
    """Split a text on role-prefixed lines ("Human: ...", "AI: ...") and XML messages."""
    if "<message type=" in text:
        text = _xml_messages_to_lines(text)
    segments: list[_Segment] = []
    role = default_role
    lines: list[str] = []
    for line in text.splitlines():
        match = _ROLE_LINE.match(line)
        if match:
            if lines:
                segments.append(_Segment(role, "\n".join(lines)))
            prefix = match.group("role").lower()
            role = "ai" if prefix in _AI_ROLES else "narrative" if prefix == "system" else "human"
            lines = [match.group("rest")]
        else:
            lines.append(line)
    if lines:
        segments.append(_Segment(role, "\n".join(lines)))
    return segments


def _xml_messages_to_lines(text: str) -> str:
    def replace(match: re.Match[str]) -> str:
        role = {"human": "Human", "ai": "AI", "system": "System", "tool": "Tool result"}.get(
            match.group("type"), match.group("type")
        )
        body = re.sub(r"\s*<tool_call[^>]*>.*?</tool_call>\s*", " ", match.group("body"), flags=re.DOTALL)
        body = html.unescape(body).strip()
        return "\n".join(
            f"{role}: {line}" if index == 0 else line for index, line in enumerate(body.splitlines())
        )

    return re.sub(
        r'<message type="(?P<type>\w+)"[^>]*>(?P<body>.*?)</message>', replace, text, flags=re.DOTALL
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
                asks and (index == len(parts) - 1 or bool(_QUESTION_START.match(part)))
            )
            yield part, question


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
                _scan(re.sub(r"“[^”]*”|\"[^\"]*\"", " ", clause), _SECOND_PERSON, found, position)
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
                    found.append((position + 999, Fact(key, kv.group("v").strip().rstrip("."), clause)))
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


def _content_text(message: BaseMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    return "".join(
        block if isinstance(block, str) else str(block.get("text", "")) for block in content if block
    )


# --------------------------------------------------------------------------------------------
# Rendering facts


def fact_clause(key: str, values: Sequence[str], subject: str = "you") -> str:
    """An English clause stating one fact; ``subject`` is "you", "the human" or an entity's name."""
    second = subject == "you"
    possessive = "your" if second else f"{subject}'s"
    verb_s = "" if second else "s"
    value = _join_en(values)
    if key == "name":
        if second:
            return f"your name is {value}"
        if subject == "the human":
            return f"the human's name is {value}"
        return f"{subject} is the human's name"
    if key == "city":
        return f"{subject} live{verb_s} in {value}"
    if key == "hometown":
        return "you're from " + value if second else f"{subject} is from {value}"
    if key == "likes":
        return f"{subject} like{verb_s} {value}"
    if key == "dislikes":
        return f"you don't like {value}" if second else f"{subject} dislikes {value}"
    if key == "job":
        return f"{subject} work{verb_s} as {_article(value)} {value}"
    if key == "age":
        return f"you're {value} years old" if second else f"{subject} is {value} years old"
    return f"{possessive} {_display_key_en(key)} is {value}"


def fact_clause_zh(key: str, values: Sequence[str]) -> str:
    """A Chinese second-person clause stating one fact."""
    value = "、".join(values)
    if key == "name":
        return f"你叫{value}"
    if key == "city":
        return f"你住在{value}"
    if key == "hometown":
        return f"你来自{value}"
    if key == "likes":
        return f"你喜欢{value}"
    if key == "dislikes":
        return f"你不喜欢{value}"
    if key == "age":
        return f"你{value}岁"
    if key.startswith("favourite_"):
        return f"你最喜欢的{_display_key_zh(key)}是{value}"
    return f"你的{_display_key_zh(key)}是{value}"


def _unknown_topic_en(key: str) -> str:
    topics = {
        "name": "your name",
        "city": "where you live",
        "hometown": "where you're from",
        "likes": "what you like",
        "dislikes": "what you dislike",
        "job": "what you do for work",
        "age": "how old you are",
        ALL_FACTS: "anything about you",
    }
    return topics.get(key, f"your {_display_key_en(key)}")


def _unknown_topic_zh(key: str) -> str:
    topics = {
        "name": "你的名字",
        "city": "你住在哪里",
        "hometown": "你来自哪里",
        "likes": "你喜欢什么",
        "dislikes": "你不喜欢什么",
        "age": "你多大",
        ALL_FACTS: "关于你的任何信息",
    }
    if key in topics:
        return topics[key]
    if key.startswith("favourite_"):
        return f"你最喜欢的{_display_key_zh(key)}是什么"
    return f"你的{_display_key_zh(key)}"


def dont_know(key: str, *, chinese: bool = False) -> str:
    """The reply when the prompt holds no such fact: forgetting made visible."""
    if chinese:
        return DONT_KNOW_ZH.format(topic=_unknown_topic_zh(key))
    return DONT_KNOW_EN.format(topic=_unknown_topic_en(key))


def _acknowledge(facts: dict[str, tuple[str, ...]], *, chinese: bool) -> str:
    if chinese:
        return "记住了，" + "，".join(fact_clause_zh(k, v) for k, v in facts.items()) + "。"
    parts: list[str] = []
    if "name" in facts:
        parts.append(f"Nice to meet you, {facts['name'][0]}!")
    others = [fact_clause(k, v) for k, v in facts.items() if k != "name"]
    if others:
        parts.append("Got it: " + "; ".join(others) + ".")
    return " ".join(parts)


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
        (r"\bwhat\s+(?:do|did)\s+i\s+(?:like|love|enjoy)\b|\bwhat\s+i\s+like\b", "likes"),
        (r"\bwhat\s+(?:do|did)\s+i\s+(?:hate|dislike|not\s+like)\b|\bwhat\s+don't\s+i\s+like\b", "dislikes"),
        (r"\bhow\s+old\s+am\s+i\b", "age"),
        (
            r"\bwhat(?:'s|\s+is)\s+my\s+(?:job|occupation)\b|\bwhat\s+do\s+i\s+do\s+for\s+(?:a\s+living|work)\b",
            "job",
        ),
        (r"\bwhat\s+do\s+you\s+(?:know|remember)\s+about\s+me\b|\bwhat\s+have\s+i\s+told\s+you\b", ALL_FACTS),
    )
)
_RECALL_FAVOURITE = re.compile(
    r"\bwhat(?:'s|\s+is|\s+are|\s+was|\s+were)\s+my\s+favou?rite\s+(?P<k>[a-z]\w*)", re.IGNORECASE
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
        (r"我叫(?:什么|啥)|我的名字(?:是|叫)?(?:什么|啥)|我是谁|(?:记得|知道)我的名字|我叫什么名字", "name"),
        (r"我住(?:在)?(?:哪|什么地方|啥地方)|我住的(?:城市|地方)是", "city"),
        (r"我(?:来自|是)(?:哪|什么地方)|我是从哪", "hometown"),
        (r"我(?:都)?喜欢(?:什么|啥|吃什么)", "likes"),
        (r"我(?:不喜欢|讨厌)(?:什么|啥)", "dislikes"),
        (r"我(?:多大|几岁|今年多大|今年几岁)", "age"),
        (r"(?:你(?:都)?(?:知道|记得)(?:关于)?我(?:的)?(?:什么|哪些))|关于我你(?:知道|记得)什么", ALL_FACTS),
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


def answer_recall(key: str, facts: dict[str, tuple[str, ...]], *, chinese: bool) -> str:
    """Answer a recall question from the facts found in the prompt, or say it is not there."""
    if key == ALL_FACTS:
        if not facts:
            return dont_know(ALL_FACTS, chinese=chinese)
        if chinese:
            return (
                "我收到的内容里关于你的信息："
                + "；".join(fact_clause_zh(k, v) for k, v in facts.items())
                + "。"
            )
        return (
            "Here is what I was given about you: "
            + "; ".join(fact_clause(k, v) for k, v in facts.items())
            + "."
        )
    found_key = _find_key(key, facts)
    if found_key is None:
        return dont_know(key, chinese=chinese)
    values = facts[found_key]
    clause = fact_clause_zh(found_key, values) if chinese else fact_clause(found_key, values)
    return _capitalize(clause) + ("。" if chinese else ".")


def _find_key(key: str, facts: dict[str, tuple[str, ...]]) -> str | None:
    if key in facts:
        return key
    fallbacks = {"city": "hometown", "hometown": "city"}
    if key in fallbacks and fallbacks[key] in facts:
        return fallbacks[key]
    if len(key) >= 3:
        candidates = [k for k in facts if k.startswith(f"{key}_") or k.endswith(f"_{key}")]
        if len(candidates) == 1:
            return candidates[0]
    return None


# --------------------------------------------------------------------------------------------
# Small talk


_STOPWORDS = frozenset(
    _word_list("""a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for
    from further had has have having he her here hers herself him himself his how i if in
    into is it its itself just let like me more most my myself no nor not now of off on once
    only or other our ours out over own same she should so some such than that the their
    theirs them then there these they this those through to too under until up very was we
    were what when where which while who whom why will with would you your yours today
    tomorrow really think know tell want need get got go going make much many thing things
    something anything yeah yes okay ok well also lot maybe please thanks thank hi hello hey
    actually kind sort bit pretty quite always never ever every still even way said say says
    told talk talked talking did does sure right good great nice cool fine bad better best
    lets let's i'm it's that's what's don't can't i've i'd i'll you're went yesterday last
    next week year been saw made came took gave feel feeling felt love hate thought""")
)


def topic_of(text: str) -> str:
    """A short, deterministic topic phrase taken from the text itself ("" when there is none)."""
    text = _normalize_quotes(text).strip()
    if is_chinese(text):
        cleaned = re.sub(r"[，。！？,.!?；;、：:\s]+", "", text)
        cleaned = re.sub(r"^(?:我觉得|我想|我们|请问|你觉得|今天|最近)+", "", cleaned)
        cleaned = re.sub(r"(?:吗|呢|吧|啊|呀|了)+$", "", cleaned)
        return cleaned[:10]
    about = re.search(r"\babout\s+(?P<t>[\w' -]{2,40}?)\s*(?:[?.!,;]|$)", text, re.IGNORECASE)
    if about:
        words = [w for w in about.group("t").split() if w.lower() not in {"the", "a", "an", "my", "your"}]
        if words:
            return " ".join(words[:4])
    tokens = re.findall(r"[A-Za-z][A-Za-z'-]+", text)
    if tokens:
        tokens[0] = tokens[0].lower()
    # No part-of-speech tagger here: dropping stop words and "-ed" verbs leaves mostly nouns.
    words = [w for w in tokens if w.lower() not in _STOPWORDS and len(w) > 2 and not w.lower().endswith("ed")]
    unique = list(dict.fromkeys(words))
    return _join_en(unique[:2])


def small_talk(text: str, *, chinese: bool) -> str:
    """A short, deterministic reply about the message's own topic; it never invents a fact."""
    plain = _normalize_quotes(text).strip().lower()
    variant = _stable_hash(plain)
    if chinese:
        if re.match(r"^(?:你好|您好|嗨|哈喽|早上好|晚上好)", plain):
            return "你好！想聊点什么？"
        if re.search("谢谢|多谢", plain):
            return "不客气！"
        if re.search("再见|拜拜", plain):
            return "再见！"
        topic = topic_of(text)
        if not topic:
            return "嗯，我在听。"
        if plain.endswith(("?", "？", "吗", "呢")):
            return f"我只能根据收到的内容回答，里面没有关于“{topic}”的信息。"
        return ("有意思——关于“{t}”，能再多说一点吗？", "明白了，“{t}”。还有什么想聊的？")[variant % 2].format(
            t=topic
        )
    if (
        re.match(r"^(?:hi|hello|hey|good (?:morning|afternoon|evening)|greetings)\b", plain)
        and len(plain) < 30
    ):
        return "Hello! What would you like to talk about?"
    if re.match(r"^how\s+are\s+you\b", plain):
        return "I'm a rule-based offline model, so I'm always the same. What would you like to talk about?"
    if re.search(r"\b(?:thanks|thank you)\b", plain):
        return "You're welcome!"
    if re.match(r"^(?:bye|goodbye|see you)\b", plain):
        return "Goodbye!"
    topic = topic_of(text)
    if not topic:
        return "I see. Tell me more."
    if plain.endswith("?"):
        return f"I can only answer from what is in my prompt, and it says nothing about {topic}."
    templates = (
        "Interesting — tell me more about {t}.",
        "I see. What else would you like to say about {t}?",
        "Thanks for sharing that about {t}.",
    )
    return templates[variant % len(templates)].format(t=topic)


# --------------------------------------------------------------------------------------------
# LangChain's own memory prompts


def _section(text: str, start: str, end: str | None) -> str:
    begin = text.rfind(start)
    if begin < 0:
        return ""
    begin += len(start)
    stop = text.find(end, begin) if end else -1
    return text[begin : stop if stop >= 0 else len(text)].strip()


def _after_last(text: str, marker: str) -> str:
    index = text.rfind(marker)
    return text[index:] if index >= 0 else text


def render_summary(
    facts: dict[str, tuple[str, ...]], extra_sentences: Sequence[str], topics: Sequence[str]
) -> str:
    """A bounded third-person summary: the newest fact sentences, invented details, a topic tail."""
    items = list(facts.items())[-MAX_SUMMARY_FACTS:]
    sentences = [_capitalize(fact_clause(key, values, "the human")) + "." for key, values in items]
    sentences += [s for s in extra_sentences if s not in sentences]
    if topics:
        sentences.append(f"They also talked about {_join_en(list(topics))}.")
    return " ".join(sentences)


def _summary_topics(previous: str, new_lines: str) -> list[str]:
    tail = re.search(r"They also talked about (?P<t>.+?)\.\s*$", previous)
    topics = [t.strip() for t in re.split(r",\s*|\s+and\s+", tail.group("t"))] if tail else []
    for segment in _segments(new_lines, "human"):
        if segment.role != "human" or not segment.text.strip():
            continue
        text = segment.text.strip()
        if text.startswith("Here is a summary") or extract_facts(text) or detect_recall_question(text):
            continue
        topic = topic_of(text)
        if topic and not re.match(r"^(?:hi|hello|hey)$", topic, re.IGNORECASE):
            topics.append(topic[:MAX_TOPIC_CHARS])
    topics = [t for t in topics if t]
    topics = list(dict.fromkeys(reversed(topics)))[:MAX_SUMMARY_TOPICS]
    return [t.replace(" and ", " & ") for t in reversed(topics)]


def progressive_summary(summary: str, new_lines: str, *, drift: bool = False) -> str:
    """Answer SUMMARY_PROMPT: the existing summary's facts merged with the new lines' (newest wins)."""
    facts = merge_facts(extract_facts(f"{summary}\n{new_lines}", role="narrative"))
    drifted = [sentence for sentence, _ in DRIFT_DETAILS if sentence in summary]
    if drift:
        for sentence, key in DRIFT_DETAILS:
            if sentence not in summary and (key is None or key not in facts):
                drifted.append(sentence)
                break
    # Fact-shaped invented details are facts now; render them once, as facts.
    extra = [s for s, key in DRIFT_DETAILS if s in drifted and (key is None or key not in facts)]
    return render_summary(facts, extra, _summary_topics(summary, new_lines))


def _summary_prompt_reply(prompt: str, *, drift: bool) -> str:
    body = _after_last(_after_last(prompt, SUMMARY_MARKER), "END OF EXAMPLE")
    summary = _section(body, "Current summary:", "New lines of conversation:")
    start = body.find("New lines of conversation:")
    end = body.rfind("New summary:")
    new_lines = body[start + len("New lines of conversation:") : end if end > start else len(body)].strip()
    return progressive_summary(summary, new_lines, drift=drift)


_ENTITY_EDGE_WORDS = frozenset(
    _word_list("""Hi Hello Hey Yes No Thanks Thank My The Please Dear Oh Well So And But What Where Who
    When Why How Do Does Is Are Can Could Would Will Should Today Tomorrow Yesterday Sure
    Okay Ok OK Also Now Then I I'm I've I'd I'll Im It It's This That There Here We You Your
    He She They Our Let Just Actually Maybe Good Great Nice""")
)


def extract_entities(last_line: str, history: str = "") -> list[str]:
    """Proper names in ``last_line``: capitalised words not opening a sentence, plus stated names/places."""
    facts = extract_facts(last_line)
    known = {
        v for f in extract_facts(history) + facts if f.key in {"name", "city", "hometown"} for v in [f.value]
    }
    entities: list[str] = []
    for sentence in re.split(r"(?<=[.!?])\s+|\n+", _normalize_quotes(last_line)):
        tokens = list(re.finditer(r"[^\W\d_][\w'-]*", sentence))
        group: list[str] = []
        group_at_start = False
        previous_end = -1
        for index, token in enumerate(tokens):
            word = re.sub(r"'s$", "", token.group())
            gap = sentence[previous_end : token.start()] if previous_end >= 0 else ""
            capital = word[:1].isupper() and word not in _ENTITY_EDGE_WORDS and not is_chinese(word[:1])
            if capital and group and gap.strip() == "":
                group.append(word)
            else:
                _flush_entity(group, group_at_start, known, entities)
                group = [word] if capital else []
                group_at_start = index == 0
            previous_end = token.end()
        _flush_entity(group, group_at_start, known, entities)
    for fact in facts:
        if fact.key in {"name", "city", "hometown"} and fact.value not in entities:
            entities.append(fact.value)
    return list(dict.fromkeys(entities))


def _flush_entity(group: list[str], at_start: bool, known: set[str], entities: list[str]) -> None:
    if not group:
        return
    name = " ".join(group)
    if at_start and len(group) == 1 and name not in known:
        return
    entities.append(name)


def _entity_extraction_reply(prompt: str, *, chatty: bool) -> str:
    body = _after_last(prompt, ENTITY_EXTRACTION_MARKER)
    marker = "Last line of conversation (for extraction):"
    if marker not in body:
        marker = "Last line:"
    last_line = _section(body, marker, None)
    output_at = last_line.rfind("Output:")
    if output_at >= 0:
        last_line = last_line[:output_at]
    last_line = re.sub(r"^\s*(?:Human|Person\s*#?\d*)\s*:\s*", "", last_line.strip())
    history = _section(body, "Conversation history (for reference only):", marker)
    entities = extract_entities(last_line, history)
    if chatty:
        if not entities:
            return "Sure, there are no entities in that line."
        return "Sure, the entities are: " + ", ".join(entities)
    return ", ".join(entities) if entities else "NONE"


def summarize_entity(entity: str, existing: str, last_line: str) -> str:
    """Answer ENTITY_SUMMARIZATION_PROMPT: the existing summary plus what the last line says about it."""
    existing = existing.strip()
    last_facts = merge_facts(extract_facts(last_line))
    is_user = last_facts.get("name", ("",))[0] == entity or f"{entity} is the human's name" in existing
    sentences = [s.strip() for s in re.split(r"(?<=[.!?。])\s+", existing) if s.strip()]
    if is_user:
        old = merge_facts(extract_facts(existing, role="narrative"))
        merged = merge_facts(
            Fact(key, value, "")
            for source in (old, last_facts)
            for key, values in source.items()
            for value in values
        )
        fact_sentences = [
            _capitalize(fact_clause(key, values, entity)) + "." for key, values in merged.items()
        ]
        keep = [s for s in sentences if not _extract(s, "narrative", [entity]) and s not in fact_sentences]
        new = fact_sentences + keep
    else:
        new = list(sentences)
        about = [
            (k, v) for k, values in last_facts.items() for v in values if entity.casefold() in v.casefold()
        ]
        for key, value in about:
            sentence = _capitalize(fact_clause(key, [value], "the human")) + "."
            for index, old_sentence in enumerate(new):
                old_facts = extract_facts(old_sentence, role="narrative")
                if old_facts and old_facts[0].key == key and key not in LIST_KEYS:
                    new[index] = sentence
                    break
            else:
                if sentence not in new:
                    new.append(sentence)
        if not about and entity in last_line:
            clause = next((c for c, _ in _clauses(last_line) if entity in c), "").strip().rstrip(".!?")
            sentence = f"The human mentioned {entity}: “{clause[:80]}”."
            if clause and not sentences:
                new.append(sentence)
    return " ".join(new[-MAX_ENTITY_SENTENCES:])


def _entity_summary_reply(prompt: str) -> str:
    body = _after_last(prompt, ENTITY_SUMMARY_MARKER)
    entity = _section(body, "Entity to summarize:", "\n\nExisting summary of")
    existing = _section(body, f"Existing summary of {entity}:", "\n\nLast line of conversation:")
    last_line = _section(body, "Last line of conversation:", None)
    updated_at = last_line.rfind("Updated summary:")
    if updated_at >= 0:
        last_line = last_line[:updated_at]
    last_line = re.sub(r"^\s*Human\s*:\s*", "", last_line.strip())
    return summarize_entity(entity.strip(), existing, last_line)


def _middleware_summary_reply(prompt: str) -> str:
    body = _after_last(prompt, MIDDLEWARE_SUMMARY_MARKER)
    messages = _section(body, "Messages to summarize:", None)
    closing = messages.rfind("</messages>")
    if closing >= 0:
        messages = messages[:closing]
    transcript = _xml_messages_to_lines(messages) if "<message type=" in messages else messages
    facts = merge_facts(extract_facts(transcript, role="narrative"))
    summary = render_summary(facts, (), _summary_topics("", transcript)) or "None"
    return (
        f"## SESSION INTENT\nChat with the assistant.\n\n## SUMMARY\n{summary}\n\n"
        "## ARTIFACTS\nNone\n\n## NEXT STEPS\nNone"
    )


def _fact_extraction_reply(prompt: str, messages: Sequence[BaseMessage]) -> str:
    body = _after_last(prompt, FACT_EXTRACTION_MARKER)
    message = _section(body, "Message:", None)
    if not message:
        humans = [m for m in messages if m.type == "human"]
        message = _content_text(humans[-1]) if humans else ""
    facts = merge_facts(extract_facts(message))
    if not facts:
        return "NONE"
    return "\n".join(f"{key}: {', '.join(values)}" for key, values in facts.items())


# --------------------------------------------------------------------------------------------
# Tools


def _tool_names(tools: Sequence[dict[str, Any]]) -> list[str]:
    names = []
    for tool in tools:
        function = tool.get("function", tool) if isinstance(tool, dict) else {}
        if isinstance(function, dict) and function.get("name"):
            names.append(str(function["name"]))
    return names


# Words that follow "weather in/for" without naming a place ("weather in general").
_NOT_PLACES = frozenset({"general", "spring", "summer", "autumn", "fall", "winter", "the", "a", "my", "your"})


def _weather_city(text: str, facts: dict[str, tuple[str, ...]]) -> str | None:
    if is_chinese(text):
        before = text.split("天气", 1)[0]
        before = re.split(f"[{_ZH_STOP_CHARS}]", before)[-1]
        before = re.sub("今天|明天|后天|现在|目前|最近|这周|本周", "", before).rstrip("的")
        before = re.sub(
            r"^(?:请问|帮我|给我|查一下|查查|查|看看|看一下|一下|我想知道|想知道|告诉我)+", "", before
        )
        if before and "我" not in before and not re.search("这里|这边|本地", before):
            return before[-4:]
    else:
        match = re.search(r"\b(?:in|for|at)\s+(?P<v>[^\W\d_][\w'-]*(?:\s+[^\W\d_][\w'-]*){0,2})", text)
        if match:
            city = _clean_place(match.group("v"))
            if city and city.lower() not in _STOPWORDS and city.lower() not in _NOT_PLACES:
                return city
    known = facts.get("city") or facts.get("hometown")
    return known[0] if known else None


def _order_id(text: str, facts: dict[str, tuple[str, ...]]) -> str | None:
    match = re.search(r"(?:#\s*|\b)(?P<id>[A-Za-z]{1,4}-?\d{2,}|\d{4,})\b", text)
    if match:
        return match.group("id")
    known = facts.get("order_number")
    return known[0] if known else None


def _call_id(name: str, args: dict[str, Any], context: str) -> str:
    digest = hashlib.sha1(f"{name}|{json.dumps(args, sort_keys=True)}|{context}".encode()).hexdigest()
    return f"call_{digest[:12]}"


def plan_tool_call(
    text: str, tool_names: Sequence[str], facts: dict[str, tuple[str, ...]], *, chinese: bool
) -> Reply | None:
    """A tool call when the user asks for the weather or an order's status and a matching tool is bound."""
    lowered = text.lower()
    weather_tool = next((n for n in tool_names if "weather" in n.lower()), None)
    order_tool = next((n for n in tool_names if "order" in n.lower()), None)
    asks_weather = bool(
        re.search(r"\bweather\b", lowered)
        and re.search(r"\?|\b(?:what|how|check|tell|is it)\b", lowered)
        and not re.search(r"\b(?:in general|think about|opinion)\b", lowered)
    ) or bool(re.search("天气.*(?:怎么样|如何|吗|？|\\?)|查.*天气", text))
    if weather_tool and asks_weather:
        city = _weather_city(text, facts)
        if city is None:
            return Reply(
                "你想查哪个城市的天气？" if chinese else "Which city should I check the weather for?"
            )
        args = {"city": city}
        return Reply("", ({"name": weather_tool, "args": args, "id": _call_id(weather_tool, args, text)},))
    asks_order = bool(
        re.search("订单.*(?:状态|到哪|在哪|物流|发货|怎么样|查)|(?:查|看).*订单", text)
        or (
            re.search(r"\border\b", lowered)
            and re.search(r"status|where|track|arriv|ship|deliver|late", lowered)
        )
    )
    if order_tool and asks_order:
        order_id = _order_id(text, facts)
        if order_id is None:
            return Reply("你的订单号是多少？" if chinese else "What's your order number?")
        args = {"order_id": order_id}
        return Reply("", ({"name": order_tool, "args": args, "id": _call_id(order_tool, args, text)},))
    return None


def answer_from_tools(messages: Sequence[BaseMessage], *, chinese: bool) -> str:
    """Answer from the tool results that follow the latest human message."""
    calls: dict[str, dict[str, Any]] = {}
    answers: list[str] = []
    for message in messages:
        if isinstance(message, AIMessage):
            calls.update({call.get("id") or "": call for call in message.tool_calls})
        elif isinstance(message, ToolMessage):
            content = _content_text(message).strip().rstrip(".")
            call = calls.get(message.tool_call_id, {})
            name = str(call.get("name", message.name or "tool"))
            args = call.get("args", {})
            if "weather" in name.lower() and "city" in args:
                answers.append(
                    f"{args['city']}的天气：{content}。"
                    if chinese
                    else f"The weather in {args['city']}: {content}."
                )
            elif "order" in name.lower() and "order_id" in args:
                answers.append(
                    f"订单{args['order_id']}：{content}。"
                    if chinese
                    else f"Order {args['order_id']}: {content}."
                )
            else:
                answers.append(f"{name}：{content}。" if chinese else f"The {name} tool says: {content}.")
    return " ".join(answers)


# --------------------------------------------------------------------------------------------
# The whole reply


def latest_user_text(messages: Sequence[BaseMessage]) -> str:
    """The user's latest words, also when a classic template holds the whole conversation in one message."""
    humans = [m for m in messages if m.type == "human"]
    if not humans:
        return ""
    text = _content_text(humans[-1])
    segments = _segments(text, "narrative")
    human_segments = [s for s in segments if s.role == "human"]
    if len(segments) > 1 and human_segments:
        return human_segments[-1].text.strip()
    return text.strip()


def _prompt_kind(messages: Sequence[BaseMessage]) -> str | None:
    candidates = [*messages[:2], *messages[-1:]]
    heads = " ".join(_content_text(m)[:600] for m in candidates)
    for marker in (
        FACT_EXTRACTION_MARKER,
        MIDDLEWARE_SUMMARY_MARKER,
        ENTITY_EXTRACTION_MARKER,
        ENTITY_SUMMARY_MARKER,
        SUMMARY_MARKER,
    ):
        if marker in heads:
            return marker
    return None


def compose_reply(
    messages: Sequence[BaseMessage],
    *,
    tools: Sequence[dict[str, Any]] = (),
    drift: bool = False,
    chatty_entities: bool = False,
) -> Reply:
    """Everything the model says, as a pure function of its prompt (and its switches)."""
    kind = _prompt_kind(messages)
    if kind is not None:
        prompt = "\n".join(_content_text(m) for m in messages)
        if kind == FACT_EXTRACTION_MARKER:
            return Reply(_fact_extraction_reply(prompt, messages))
        if kind == MIDDLEWARE_SUMMARY_MARKER:
            return Reply(_middleware_summary_reply(prompt))
        if kind == ENTITY_EXTRACTION_MARKER:
            return Reply(_entity_extraction_reply(prompt, chatty=chatty_entities))
        if kind == ENTITY_SUMMARY_MARKER:
            return Reply(_entity_summary_reply(prompt))
        return Reply(_summary_prompt_reply(prompt, drift=drift))

    text = latest_user_text(messages)
    chinese = is_chinese(text)
    last_human = max((i for i, m in enumerate(messages) if m.type == "human"), default=-1)
    after = messages[last_human + 1 :]
    if any(isinstance(m, ToolMessage) for m in after) and isinstance(messages[-1], ToolMessage):
        return Reply(answer_from_tools(after, chinese=chinese))
    facts = facts_in_messages(messages)
    if tools and not any(isinstance(m, ToolMessage) for m in after):
        planned = plan_tool_call(text, _tool_names(tools), facts, chinese=chinese)
        if planned is not None:
            return planned
    question = detect_recall_question(text)
    if question is not None:
        return Reply(answer_recall(question, facts, chinese=chinese))
    stated = merge_facts(extract_facts(text))
    if stated:
        return Reply(_acknowledge(stated, chinese=chinese))
    return Reply(small_talk(text, chinese=chinese))


def _chunks(text: str) -> list[str]:
    """Word-sized pieces (two ideographs at a time for Chinese) that join back to ``text`` exactly."""
    cjk = f"[{_CJK}\u3000-\u303f\uff00-\uffef]"
    pieces = re.findall(rf"\s*(?:{cjk}{{1,2}}|[^\s{_CJK}\u3000-\u303f\uff00-\uffef]+)|\s+$", text)
    return pieces if "".join(pieces) == text else [text]


# --------------------------------------------------------------------------------------------
# The chat model


class CallCounter:
    """A thread-safe call counter that several models of one strategy share (1-based)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._count = 0

    def next(self) -> int:
        """Count one more call and return its number."""
        with self._lock:
            self._count += 1
            return self._count

    @property
    def count(self) -> int:
        """How many calls were counted so far."""
        with self._lock:
            return self._count

    def __repr__(self) -> str:
        return f"CallCounter(count={self.count})"

    def __getstate__(self) -> dict[str, int]:
        return {"count": self.count}

    def __setstate__(self, state: dict[str, int]) -> None:
        self._lock = threading.Lock()
        self._count = int(state.get("count", 0))


class OfflineTeachingModel(BaseChatModel):
    """A deterministic, instant chat model that knows only the messages it receives.

    Not an LLM: rules read facts from the prompt, so what a memory strategy drops is visibly forgotten.
    Faults, latency, summary drift and chatty entity output can be switched on for the failure lab.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    model_name: str = DEFAULT_MODEL_NAME
    latency_ms: int = 0
    fail_on_calls: frozenset[int] = frozenset()
    fail_purposes: frozenset[str] = frozenset()
    drift: bool = False
    chatty_entities: bool = False
    streaming: bool = False
    call_counter: CallCounter = Field(default_factory=CallCounter)

    @property
    def _llm_type(self) -> str:
        return "offline-teaching"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {
            "model_name": self.model_name,
            "latency_ms": self.latency_ms,
            "drift": self.drift,
            "chatty_entities": self.chatty_entities,
            "fail_on_calls": sorted(self.fail_on_calls),
            "fail_purposes": sorted(self.fail_purposes),
        }

    def _get_ls_params(self, stop: list[str] | None = None, **kwargs: Any) -> Any:
        params = super()._get_ls_params(stop=stop, **kwargs)
        params["ls_provider"] = "offline"
        params["ls_model_name"] = self.model_name
        return params

    def get_token_ids(self, text: str) -> list[int]:
        """Token ids from tiktoken o200k_base (offline), never a downloaded GPT-2 tokenizer."""
        return encode(text, ENCODING_NAME)

    def get_num_tokens_from_messages(
        self, messages: list[BaseMessage], tools: Sequence[Any] | None = None
    ) -> int:
        """Prompt tokens counted exactly like the tracing callback counts them."""
        return count_messages_tokens(messages, ENCODING_NAME)

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """Bind tools as OpenAI tool dicts; the model calls the weather and order tools when asked."""
        formatted = [convert_to_openai_tool(tool) for tool in tools]
        if tool_choice is not None:
            kwargs["tool_choice"] = tool_choice
        return self.bind(tools=formatted, **kwargs)

    def _start_call(self, messages: list[BaseMessage], run_manager: CallbackManagerForLLMRun | None) -> None:
        number = self.call_counter.next()
        if number in self.fail_on_calls:
            raise InjectedFault(f"call #{number} fails on purpose (fail_on_calls)")
        purpose = classify_call(messages, run_manager.tags if run_manager else None)
        if purpose in self.fail_purposes:
            raise InjectedFault(f"the {purpose!r} call #{number} fails on purpose (fail_purposes)")

    def _reply_message(self, messages: list[BaseMessage], stop: list[str] | None, **kwargs: Any) -> AIMessage:
        reply = compose_reply(
            messages, tools=kwargs.get("tools") or (), drift=self.drift, chatty_entities=self.chatty_entities
        )
        text = reply.text
        for token in stop or []:
            if token and token in text:
                text = text[: text.index(token)]
        message = AIMessage(
            content=text,
            tool_calls=[{**call, "type": "tool_call"} for call in reply.tool_calls],
            response_metadata={
                "model_name": self.model_name,
                "model_provider": "offline",
                "finish_reason": "tool_calls" if reply.tool_calls else "stop",
            },
        )
        message.usage_metadata = self._usage(messages, message)
        return message

    @staticmethod
    def _usage(messages: list[BaseMessage], message: AIMessage) -> UsageMetadata:
        input_tokens = count_messages_tokens(messages, ENCODING_NAME)
        output_tokens = count_text_tokens(message_text(message), ENCODING_NAME)
        return {
            "input_tokens": input_tokens,
            "output_tokens": output_tokens,
            "total_tokens": input_tokens + output_tokens,
        }

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self._start_call(messages, run_manager)
        message = self._reply_message(messages, stop, **kwargs)
        if self.latency_ms > 0:
            time.sleep(self.latency_ms / 1000)
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        self._start_call(messages, run_manager)
        message = self._reply_message(messages, stop, **kwargs)
        metadata = dict(message.response_metadata)
        if message.tool_calls:
            pieces: list[str] = [""]
        else:
            pieces = _chunks(str(message.content)) or [""]
        pause = self.latency_ms / 1000 / len(pieces) if self.latency_ms > 0 else 0.0
        for index, piece in enumerate(pieces):
            if pause:
                time.sleep(pause)
            last = index == len(pieces) - 1
            chunk_message = AIMessageChunk(
                content=piece,
                tool_call_chunks=[
                    {"name": c["name"], "args": json.dumps(c["args"]), "id": c["id"], "index": i}
                    for i, c in enumerate(message.tool_calls)
                ]
                if last
                else [],
                usage_metadata=message.usage_metadata if last else None,
                response_metadata=metadata if last else {},
            )
            if last:
                chunk_message.chunk_position = "last"
            chunk = ChatGenerationChunk(message=chunk_message)
            if run_manager:
                run_manager.on_llm_new_token(piece, chunk=chunk)
            yield chunk


__all__ = [
    "DONT_KNOW_EN",
    "DONT_KNOW_ZH",
    "CallCounter",
    "Fact",
    "OfflineTeachingModel",
    "Reply",
    "answer_recall",
    "compose_reply",
    "detect_recall_question",
    "dont_know",
    "extract_entities",
    "extract_facts",
    "fact_clause",
    "fact_clause_zh",
    "facts_in_messages",
    "is_chinese",
    "latest_user_text",
    "merge_facts",
    "normalize_key",
    "progressive_summary",
    "small_talk",
    "summarize_entity",
    "topic_of",
]
