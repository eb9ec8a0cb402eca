"""A user's text cut the way the general reader reads it: sentences, clauses, questions, and the
interjections and fillers around a clause ("hey! ...", "... btw")."""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from memory_demos.providers.offline_model.lexicon import CJK
from memory_demos.providers.offline_model.memo import read_once
from memory_demos.providers.offline_model.text import mostly_chinese

_SENTENCE_END = re.compile(
    r"(?<!\bDr\.)(?<!\bMr\.)(?<!\bMs\.)(?<!\bMrs\.)(?<!\bSt\.)(?<=[.!?])\s+|(?<=[。！？])|(?<=[!?])(?![A-Za-z0-9_!?])|\n+|(?<=[a-z0-9])\s+[—–-]\s+(?=[a-z])"
)
_EN_CLAUSE = re.compile(
    # "quick context before dinner: my son Theo can't …" (not "saturday: my nephew's match")
    r"\s*;\s*|\s*:\s+(?=(?:I|I'm|I've)\s|(?:my|our)\s+[a-z]+(?:\s+[A-Z][a-z]+)?\s+(?:is|are|was|can|can't|has|"
    r"had|will|won't|doesn't|does)\b)"
    r"|,?\s+(?:and|but|so|while|whereas|plus)\s+(?=(?:I|I'm|I've|my|we|our|he|she|his|her|they|their)\b"
    r"|(?:the\s+)?[a-z]+s\s+(?:are|were)\b"  # "... called rosa and lessons are on tuesdays"
    r"|[\w-]+'s\s+(?:is|are|was|were)\b|(?:mine|hers|ours|theirs)\s+(?:is|are|was|were)\b)"  # "and dad's is"
    r"|,\s*(?:and\s+|but\s+|while\s+)?(?!(?:which|who|that|where|when|whose)\b)(?=[A-Z][a-z]+\s+(?:has|had|is|was|joined|works|lives|likes|loves|gets|takes|does|plays|goes|"
    r"wants|needs|said|says|brings|starts|moved|prefers|eats|drinks|teaches|studies)\b)"
    r"|(?<=[a-z\d])(?-i:(?<!\b[A-Z][a-z])(?<!\b[A-Z][a-z]{2})(?<!\b[A-Z][a-z]{3})(?<!\b[A-Z][a-z]{4})(?<!\b[A-Z][a-z]{5}))"
    r"(?:,\s*|,?\s+(?:and|but|while|whereas)\s+)(?=(?-i:[A-Z][a-z]+\s+(?:has|had|is|was|[a-z]{2,}(?<!s)(?:s|ed)))\b)"
    r"|,\s*(?=(?:I|I'm|I've|my|we|our|he|she|his|her|they|their|what|what's|how)\b"
    # ", which is way harder" and ", is staying with us" go on with the clause; ", where do i live" asks
    r"|(?:where|when|who|which|whose)\s+(?:(?:do|does|did|is|are|am|was|were|can|will|should)\s+(?:i|you|u|he|she|"
    r"we|they|my|it|our)|i|my)\b|(?:do|does|did|is|are|can)\s+(?:i|you|u|he|she|we|they|my|it|the|our|that|this|there)\b)",
    re.IGNORECASE,
)
_ZH_CLAUSE = re.compile(  # 组长是Lisa 我养了两只猫: a space before a new subject ends a clause too
    r"[，,；;]\s*|(?<=[" + CJK + r"])\s+(?=[" + CJK + r"])|(?<=[A-Za-z0-9])\s+(?=[我你他她它])"
)
_QUESTION_EN = re.compile(
    r"^(?:(?:so|and|but|ok|okay|hey|hi|also|btw|oh|um|hmm|wait|well|now|then|lol|thanks|roughly|approximately|"
    r"again)\b[\s,!.]*)*(?:(?:by|for|since|with|from|to|at|in|until|till)\s+(?:how|what|which|who|whom|when)\b|"
    r"what|what's|where|where's|when|when's|who|who's|whom|whose|which|why|how|how's|do|does|did|is|are|am|"
    r"was|were|can|could|would|will|have|has|tell me|remind me|read me|list|any idea|(?:the\s+)?name\s+of)\b",
    re.IGNORECASE,
)
_AND_WHOSE = re.compile(r"^\W*(?:and|n)\s+(?:my\s+)?[\w-]+'s\W*$", re.I)  # "and mom's": whose, the same
_QUESTION_ZH = re.compile(
    "什么|多少|哪|谁|(?<![这那好十前])几(?![乎])["
    + CJK
    + "]|多[久大重高远长宽]|吗[？?。]?$|呢[？?。]?$|[？?]$|是不是|有没有|啥|怎么|咋|"
    "([能会要可去吃喝用喜爱想])不\\1|"  # 能不能, 喜不喜欢: a question of yes or no
    "(?<![十百千万])几[？?。]?$|为什么|为啥|.还是.+[？?]$|.(?<![我他她])还是(?![\\d一二两三四五六七八九十])(?!在).+$|干嘛|干啥|周几|星期几|礼拜几|多会儿"
)
# A clause that only names a detail (门牌号, 我的英文名) asks for it: alone, it states nothing. Followed
# by a space or a comma and a number ("我新家地址 杭州市…", 我妈的手机号，139…), it labels what follows.
_ZH_DETAILS = (
    "门牌号|号码|地址|密码|网名|牌子|型号|编号|车牌号?|航班号|座位号|车次|工号|学号|[英中]文名|小名|爱好|看法"
)
_ZH_DETAIL_ONLY = re.compile(
    f"^(?:我|我的|我家|我们家?)?(?:(?![是有在要想叫去不没了会都也还刚很太])[{CJK}A-Za-z]){{0,6}}?(?:{_ZH_DETAILS})$"
)
_ZH_DETAIL_LABEL = re.compile(f"(?<=[{CJK}])({_ZH_DETAILS})(?:\\s+(?=\\S)|[，,]\\s*(?=[A-Za-z0-9]))")
_LEAD_EN = re.compile(
    r"^(?:(?:and|but|so|also|oh|ok|okay|well|btw|anyway|hey|hi|hello|yo|yeah|yes|yep|no|plus|then|fyi|lol|um|"
    r"hmm|right|alright|great|cool|thanks|thank you|by the way|oh and|just so you know)\b[\s,!.:-]*)+",
    re.IGNORECASE,
)
_TRAIL_EN = re.compile(r"[\s,]*\b(?:btw|lol|haha|by the way|fyi|though|i guess|i think)\W*$", re.IGNORECASE)
_ZH_LEAD = re.compile(
    r"^(?:另外|还有|而且|对了|然后|嗯|哦|好的|你好|嗨|所以|但是|不过|可是|顺便说一下|(?:帮我)?记(?:一下|住|着)(?=我))+[，,！!：:]?"
)


def split_sentences(text: str) -> list[str]:
    return list(_split_sentences(text))


@read_once
def _split_sentences(text: str) -> tuple[str, ...]:
    """Sentences, split after . ! ? 。！？, at line breaks and at a dash between words."""
    return tuple(part.strip() for part in _SENTENCE_END.split(text) if part and part.strip())


@read_once
def is_question(clause: str) -> bool:
    """Whether a clause asks: a "?", a question word first, or a Chinese question word or particle."""
    if clause.rstrip().endswith(("?", "？")):
        return True
    if mostly_chinese(clause):
        return bool(_QUESTION_ZH.search(clause) or _ZH_DETAIL_ONLY.match(clause.strip(" 。")))
    if re.search(f"[{CJK}]", clause) and _QUESTION_ZH.search(clause):  # Kevin多大
        return True
    return bool(_QUESTION_EN.match(clause) or _AND_WHOSE.match(clause))


def clauses(sentence: str) -> list[str]:
    return list(_clauses(sentence))


_ZH_ITEM = re.compile(f"(?:(?![一二两三四五六七八九十几了吧])[{CJK}]){{2,3}}")  # 鸡蛋, 西红柿; not 一天三次


def _zh_listed(sentence: str) -> str:
    """Chinese words typed apart by spaces ("购物清单 鸡蛋 牛奶 西红柿 大米") are one list, not clauses."""
    head, *items = sentence.split()
    if len(items) < 3 or not all(_ZH_ITEM.fullmatch(item) for item in items):
        return sentence
    return f"{head}：{'、'.join(items)}"


@read_once
def _clauses(sentence: str) -> tuple[str, ...]:
    """A sentence's clauses: before a new subject or a question (English), at Chinese commas."""
    chinese = mostly_chinese(sentence)
    if chinese:
        sentence = _ZH_DETAIL_LABEL.sub(r"\1：", sentence)
        sentence = _zh_listed(sentence) if " " in sentence else sentence
    parts = _ZH_CLAUSE.split(sentence) if chinese else _EN_CLAUSE.split(sentence)
    return tuple(part.strip(" ,.;") for part in parts if part and part.strip(" ,.;"))


_BEFORE_SUBJECT_EN = re.compile(
    r"^(?:(?:actually|no wait|wait|sorry|oh|well|ok|okay|so|and|but|also|anyway)\b[\s,]*)+", re.I
)


def before_subject(clause: str) -> str:
    """An English clause from its subject on: "actually she's turning 9" is about she."""
    return _BEFORE_SUBJECT_EN.sub("", clause)


@read_once
def tidy(clause: str) -> str:
    """A clause without its opening interjections and closing fillers ("hey! ...", "... btw")."""
    if mostly_chinese(clause):
        return _ZH_LEAD.sub("", clause).strip(" ，,。")
    return _TRAIL_EN.sub("", _LEAD_EN.sub("", clause)).strip(" ,")


_HYPOTHETICAL = re.compile(
    r"^(?:\W*(?:and|but|so|well|oh)\s+)?(?:if|suppose|supposing|imagine|what if|say)\b|\bI wish\b|\bif I\b|"
    r"\bwould (?:love|like) to\b|如果|假如|要是|假设|想象|万一|的话",
    re.IGNORECASE,
)
_MAY_SUPPOSE = re.compile(r"(?i:if|suppose|imagine|wish|would|say)|如果|假|要是|想象|万一|的话")


def supposes(clause: str) -> bool:
    """Whether a clause only supposes ("if I lived in Paris", 如果…的话): it states no fact."""
    return bool(_MAY_SUPPOSE.search(clause) and _HYPOTHETICAL.search(clause))


class Clause(NamedTuple):
    """A clause of a message, and whether it asks."""

    text: str
    question: bool


_A_FEW = re.compile("(?<![这那好十前])几(?:[个天年月周次只本件位]|个月)")


def a_few_stated(said: list[Any]) -> list[Any]:
    """One message's statements, those that do not ask read as statements: 去成都玩几天 followed by
    吃吃火锅看看熊猫 says "a few days", it does not ask how many (a 几 with no other sign of a question,
    before a clause that states)."""
    found = list(said)
    for index, clause in enumerate(found):
        text = clause.text
        later = [s.question for s in found[index + 1 :]]
        if (
            clause.question
            and mostly_chinese(text)
            and _A_FEW.search(text)
            and not _QUESTION_ZH.search(_A_FEW.sub("", text))
            and later
            and not any(later)
        ):
            found[index] = clause._replace(question=False)
    return found


def with_consequences(said: list[Any]) -> list[Any]:
    """One sentence's statements, what follows a supposition in it supposed too: "if I won the lottery,
    I'd quit my job", 如果我中了彩票，我就辞职去环游世界 state no fact."""
    found = list(said)
    for index in range(1, len(found)):
        clause, before = found[index], found[index - 1]
        # the consequence right after the supposition, and what goes on from it (先买套房 再买辆车)
        goes_on = supposes(before.text) or _GOES_ON.search(clause.text) is not None
        if before.hypothetical and goes_on and not clause.question and not _BACK_TO_FACT.match(clause.text):
            found[index] = clause._replace(hypothetical=True)
    return found


_GOES_ON = re.compile(r"^(?:先|再|然后|接着|还|也|最后)|就|会|要|想|\b(?:would|will|then)\b|'d\b", re.I)


# What ends a supposition: "but really I'm still renting", 现实是还在租房, 不过目前还没这回事.
_BACK_TO_FACT = re.compile(
    r"^\W*(?:but|actually|in reality|really|for now|right now|currently|though)\b|"
    r"^(?:现实是|现实中|其实|实际上|事实上|不过|但是|可是|但|目前|现在|眼下)",
    re.I,
)
