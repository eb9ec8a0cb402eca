"""Every question a message asks, and questions about the conversation itself ("What did I ask you
first?", 我刚才问了什么？), answered from the user's messages in the prompt."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory_demos.providers.offline_model.clauses import clauses, is_question, split_sentences, tidy
from memory_demos.providers.offline_model.reader import Said
from memory_demos.providers.offline_model.recall import analyse, statement_words
from memory_demos.providers.offline_model.text import mostly_chinese
from memory_demos.providers.offline_model.words import casual

_CONVO_EN = re.compile(
    r"\bwhat\s+(?:did|was|were|have)\s+(?:I|my)\s+(?:just\s+)?(?P<verb>ask|asked|say|said|tell|told|mention|"
    r"first|last|previous|question|message)\b|\bwhat\s+(?:was|is)\s+(?:my|the)\s+(?P<which>first|last|previous)\s+"
    r"(?:question|message|thing)|\bwhat\s+(?:was\s+)?the\s+first\s+thing\s+I\s+(?:said|asked)",
    re.I,
)
_CONVO_ZH = re.compile(
    r"我(?:的)?(?:第一|最后|上一|刚才|刚刚|之前|一开始)[个句次]?(?:问题|问|说|讲|提)(?:了|的|过)?(?:是|些)?(?:什么|啥)|"
    r"我(?:刚才|刚刚|之前|一开始|第一句|最先)(?:问|说|讲|提)(?:了|过|的)?(?:什么|啥|哪些)|我(?:关于|对)(?P<t>.+?)说(?:了|过)什么"
)
_ABOUT_TOPIC = re.compile(
    r"\b(?:say|said|tell\s+you|told\s+you|mention(?:ed)?)\s+about\s+(?P<t>.+?)\s*\??$", re.I
)


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
    asked = re.search(r"ask|question|问", text, re.I) is not None
    pool = [s for s in earlier if s.question] if asked else earlier
    topic = _ABOUT_TOPIC.search(text) if not chinese else None
    if topic or (chinese and found.groupdict().get("t")):
        ask = analyse(topic.group("t") if topic else found.group("t"))
        pool = [s for s in earlier if not s.question and ask.words & statement_words(s, chinese)]
    elif re.search(r"first|第一|一开始|最先", text):
        pool = [s for s in pool if s.message == pool[0].message] if pool else []
    elif pool:
        pool = [s for s in pool if s.message == pool[-1].message]
    if not pool:
        return None
    quoted = " ".join(s.text for s in pool)
    if chinese:
        return f"你{'问的是' if asked else '说的是'}：“{quoted}”"
    return f"You {'asked' if asked else 'said'}: “{quoted}”"


_FRAGMENT_QUESTION = re.compile(
    r"^(?:and|n|what about|how about|plus)\s+(?:the\s+|my\s+|your\s+|his\s+|her\s+)?[\w' -]{1,30}\??$", re.I
)


def question_parts(text: str, *, after_question: bool = False) -> list[str]:
    """Every question a message asks, in order ("I'm Mara. where do i live" asks one).

    ``after_question``: the user's message before asked something, so "and my sister" asks again.
    """
    if after_question and _FRAGMENT_QUESTION.match(casual(text).strip()):
        return [casual(text).strip()]
    parts: list[str] = []
    for sentence in split_sentences(casual(text)):
        for clause in clauses(sentence):
            if is_question(clause):
                parts.append(tidy(clause) or clause)
    return parts
