"""Every question a message asks, and questions about the conversation itself ("What did I ask you
first?", 我刚才问了什么？), answered from the user's messages in the prompt."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory_demos.providers.offline_model.asks import Ask, analyse
from memory_demos.providers.offline_model.clauses import (
    Clause,
    a_few_stated,
    clauses,
    is_question,
    split_sentences,
    tidy,
)
from memory_demos.providers.offline_model.lexicon import CJK
from memory_demos.providers.offline_model.loose import follow_up
from memory_demos.providers.offline_model.reader import USER, Said
from memory_demos.providers.offline_model.restating import restate
from memory_demos.providers.offline_model.said_words import statement_words
from memory_demos.providers.offline_model.text import mostly_chinese
from memory_demos.providers.offline_model.words import RELATIONS, casual, stem

_CONVO_EN = re.compile(
    r"\b(?:what|which)\b.*?\b(?:did|was|were|have|is)\s+(?:I|my)\b.*?\b(?P<verb>ask|asked|say|said|tell|told|mention|"
    r"mentioned|question|message|thing)\b|\bwhat\s+(?:was|is)\s+the\s+(?:(?:very\s+)?first|last|previous|second)\s+"
    r"(?:question|message|thing)|\bthe\s+question\s+before\s+this",
    re.I,
)
_CONVO_ZH = re.compile(
    r"我.{0,6}?(?:问|说|讲|提)(?:了|过|的)?.{0,8}?(?:什么|啥|哪些|哪)|第[一二三四五]个?(?:问题|问|说)|"
    r"(?:上一个|刚才那个|之前那个|最后一个)问题"
)
_ABOUT_TOPIC = re.compile(
    r"\b(?:say|said|tell\s+you|told\s+you|mention(?:ed)?)\s+about\s+(?P<t>.+?)\s*\??$", re.I
)
_ABOUT_TOPIC_ZH = re.compile(r"我(?:关于|对)(?P<t>.+?)说(?:了|过)?(?:什么|啥)")
_ORDINALS = (
    (re.compile(r"\bsecond\b|\bafter\s+that\b|第二", re.I), 1),
    (re.compile(r"\bthird\b|第三", re.I), 2),
    (re.compile(r"\bfirst\b|第一|一开始|最先|最早|开头", re.I), 0),
    (re.compile(r"\blast\b|\bprevious\b|\bbefore\s+this\b|\bjust\b|上一|刚才|刚刚|最后", re.I), -1),
)
# "what did I say was killing me": a question about a fact, wrapped in "did I say".
_WRAPPED = re.compile(
    r"^(?P<w>what|who|where|when|which\s+\w+|how\s+\w+)\s+(?:did|have)\s+I\s+(?:just\s+)?"
    r"(?:say|said|tell\s+you|told\s+you|mention(?:ed)?)(?:\s+(?:that|was|is))?\s+(?P<rest>(?!about\b).+?)\s*\??$",
    re.I,
)
_WRAPPED_ZH = re.compile(r"^我(?:刚才|刚刚|之前|上次)?(?:说|讲|提)(?:过|了)?(?P<rest>.+)$")
# A request asks too ("recommend me a book", 推荐本书呗): "what did I ask first?" may mean it.
_REQUEST = re.compile(
    r"^(?:\W*(?:hey|hi|ok|so|pls|please)\W+)?(?:recommend|suggest|tell me|give me|help me|show me|find me|"
    r"make me|write me|explain|can you|could you|would you)\b|"
    r"^(?:请|帮我|给我|告诉我|推荐|说说|讲讲|介绍)|[呗吧][！!。]?$",
    re.I,
)
_IF = re.compile(r"\bif\b|如果|假如|要是|假设", re.I)


def unwrapped(text: str) -> str:
    """A question about a fact without its "did I say" wrapper ("what did I say was killing me" ->
    "what was killing me"); the question itself otherwise."""
    found = _WRAPPED.match(casual(text).strip())
    if found and not _ORDINAL_WORDS.search(found.group("rest")):
        return f"{found.group('w')} {found.group('rest')}?"
    found = _WRAPPED_ZH.match(text.strip())
    if found and not _IF.search(text) and not re.search("问|什么问题", found.group("rest")):
        return found.group("rest")
    return text


_ORDINAL_WORDS = re.compile(r"\b(?:first|second|third|last|previous)\b", re.I)


def _ordinal(text: str) -> int | None:
    return next((index for pattern, index in _ORDINALS if pattern.search(text)), None)


def _chosen(text: str, earlier: list[Said], *, asked: bool, chinese: bool) -> list[Said]:
    """The user's statements (or questions) a question about the conversation points at."""
    pool = (
        [s for s in earlier if s.question or _REQUEST.search(s.text)]
        if asked
        else [s for s in earlier if not s.question]
    )
    topic = (_ABOUT_TOPIC_ZH if chinese else _ABOUT_TOPIC).search(text)
    ordinal = _ordinal(text)
    if topic:
        ask = analyse(topic.group("t"))
        words = ask.words | ({stem(ask.about)} if ask.about not in {"", USER} else set())  # "my sister"
        return [s for s in earlier if not s.question and words & statement_words(s, chinese)]
    if _IF.search(text):  # "what did I say I'd do if ...", 我刚才说如果住在哪
        ask = analyse(_IF.split(text, 1)[-1])
        found = [
            s for s in earlier if s.hypothetical and (ask.words & statement_words(s, chinese) or chinese)
        ]
        return [s for s in earlier if found and s.hypothetical and s.message == found[-1].message]
    if ordinal is not None and pool:
        messages = sorted({s.message for s in pool})
        if ordinal >= len(messages):
            return []
        return [s for s in pool if s.message == messages[ordinal]]
    if not asked or not pool:
        return []  # "what did I say ..." with nothing to find it by: a question about a fact
    return [s for s in pool if s.message == pool[-1].message]


def conversation_answer(text: str, statements: Sequence[Said], *, current: int) -> str | None:
    """ "What did I ask you first?", 我刚才问了什么？: answered from the user's messages in the prompt."""
    text = casual(text)
    chinese = mostly_chinese(text)
    found = (_CONVO_ZH if chinese else _CONVO_EN).search(text)
    if found is None:
        return None
    earlier = [s for s in statements if s.source == "user" and s.message < current]
    if not earlier:
        return None
    asked = re.search(r"\bask|\bquestion|问", text, re.I) is not None
    pool = _chosen(text, earlier, asked=asked, chinese=chinese)
    if not pool:
        return None
    quoted = " ".join(s.text for s in pool)
    if chinese:
        return f"你{'问的是' if asked else '说的是'}：“{quoted}”"
    return f"You {'asked' if asked else 'said'}: “{quoted}”"


_FRAGMENT_QUESTION = re.compile(
    r"^(?:and|n|what about|how about|plus)\s+(?:the\s+|my\s+|your\s+|his\s+|her\s+)?[\w' -]{1,30}\??$", re.I
)


_ZH_WHOSE_TURN = re.compile(f"^(?:那|那么)?(?P<p>[{CJK}]{{1,5}}?)呢$")


def question_parts(text: str, *, after_question: bool = False) -> list[str]:
    """Every question a message asks, in order ("I'm Mara. where do i live" asks one).

    ``after_question``: the user's message before asked something, so "and my sister" asks again.
    """
    if after_question and _FRAGMENT_QUESTION.match(casual(text).strip()):
        return [casual(text).strip()]
    said = [
        Clause(c, is_question(c)) for sentence in split_sentences(casual(text)) for c in clauses(sentence)
    ]
    parts = [tidy(c.text) or c.text for c in a_few_stated(said) if c.question]
    for index in range(len(parts) - 1):  # 我爷爷呢，多大: the second part asks of the first's person
        whom = _ZH_WHOSE_TURN.match(parts[index])
        if whom and not _ZH_WHOSE_TURN.match(parts[index + 1]) and parts[index + 1][0] not in "我你他她它":
            parts[index + 1] = whom.group("p") + parts[index + 1]
            parts[index] = ""
    return [part for part in parts if part]


def answer_follow_up(
    text: str,
    previous: Ask,
    statements: Sequence[Said],
    aliases: dict[str, str],
    *,
    current: int,
    people: frozenset[str],
) -> str | None:
    """ "and my sister?", 那我呢: the same question of another person, from what that person's
    statements say; None when the message asks more than a person."""
    alone = analyse(text, None, people)
    if not alone.about and len(alone.words) == 1 and set(alone.words) <= RELATIONS:  # "and mom's?"
        alone = alone._replace(about=next(iter(alone.words)), words=frozenset())
    if alone.words or alone.wants or alone.about in {"", previous.about} or not _FOLLOW_ONLY.match(text):
        return None
    found = follow_up(
        alone.about, previous.words, statements, aliases, chinese=alone.chinese, current=current
    )
    return restate(found) if found is not None else None


_FOLLOW_ONLY = re.compile(
    r"^\W*(?:and|n|what about|how about)\s+(?:my|our|the)?\s*[\w'-]+(?:\s+[\w'-]+)?\W*$|^那?.{1,6}呢\W*$",
    re.I,
)
